//! CUB's `BlockExchange` and `WarpExchange`: `StripedToBlocked(in, out)`,
//! `BlockedToStriped(in, out)` and, of a block, `WarpStripedToBlocked(in, out)` and
//! `BlockedToWarpStriped(in, out)` (also the one-array in-place forms), lowered as CUB runs
//! them (CUB API, `cub::BlockExchange`, `cub::WarpExchange`): each thread stores its items
//! into the collective's `TempStorage` at their tile positions in the source arrangement, a
//! barrier (`__syncthreads()`; `__syncwarp()` for a warp), then loads its items from their
//! positions in the target arrangement. Tile positions of item `i` of rank `t` (`T` threads,
//! `N` items, warp of `W` lanes):
//! - blocked: `t·N + i`;
//! - striped: `t + i·T`;
//! - warp-striped: `(t / W)·W·N + t % W + i·W` (each warp's `W·N` items striped over its lanes).
//!
//! The rank is the linear thread index in the block, or the lane in the logical warp for
//! `WarpExchange`. No barrier follows the loads: a second collective on the same storage needs
//! one first (CUB's note), which [`Parser::cub_storage_use`] warns about.

use super::cub::{CubClass, Kind, INT};
use super::{PResult, Parser};
use crate::ast::*;
use crate::types::{BinOp, Ty};
use crate::KernelError;

/// Most items per thread read here (each is two statements of the lowered function).
const MAX_ITEMS: u32 = 256;

/// An arrangement of a tile over the threads.
#[derive(Clone, Copy)]
enum Arrangement {
    Blocked,
    Striped,
    WarpStriped,
}

impl Parser<'_> {
    /// The template arguments of `BlockExchange<T, X, N[, WARP_TIME_SLICING[, Y[, Z]]]>` or
    /// `WarpExchange<T, N[, LOGICAL_WARP_THREADS[, ALGORITHM]]>` after the name.
    ///
    /// # Errors
    /// A struct or vector `T`, a non-constant size, a logical warp that is no power of two up
    /// to the warp.
    pub(super) fn cub_exchange_args(
        &mut self,
        name: &str,
        record: bool,
        at: Span,
    ) -> PResult<CubClass> {
        let elem = self.cub_scalar_elem(name, record, at)?;
        self.expect_punct(",")?;
        let warp = self.cub_warp();
        let block = name == "BlockExchange";
        let (threads, items) = if block {
            let mut threads = self.cub_const(&format!("{name}'s BLOCK_DIM_X"))?;
            self.expect_punct(",")?;
            let items = self.cub_const(&format!("{name}'s ITEMS_PER_THREAD"))?;
            if self.eat(",") {
                // WARP_TIME_SLICING changes how much storage the exchange uses, not its result.
                let _ = self.assign_expr()?;
                for dim in ["BLOCK_DIM_Y", "BLOCK_DIM_Z"] {
                    if !self.eat(",") {
                        break;
                    }
                    let d = self.cub_const(&format!("{name}'s {dim}"))?;
                    threads = threads.saturating_mul(d);
                }
            }
            (threads, items)
        } else {
            let items = self.cub_const(&format!("{name}'s ITEMS_PER_THREAD"))?;
            let threads = if self.eat(",") {
                self.cub_const(&format!("{name}'s LOGICAL_WARP_THREADS"))?
            } else {
                warp
            };
            // `WarpExchange<T, N, W, ALGORITHM>` (CUB API, `cub::WarpExchangeAlgorithm`):
            // `WARP_EXCHANGE_SMEM` and `WARP_EXCHANGE_SHUFFLE` exchange the same items, through
            // shared memory or shuffles; the shuffle form requires `N == W` in CUB ("requires
            // ITEMS_PER_THREAD == LOGICAL_WARP_THREADS") and `W % N == 0` in hipCUB over rocPRIM.
            if self.eat(",") {
                let alg_at = self.span();
                let alg = self.cub_algorithm(name, "WARP_EXCHANGE_", &["SMEM", "SHUFFLE"])?;
                let ok = if self.hip {
                    threads % items.max(1) == 0
                } else {
                    threads == items
                };
                if alg == "WARP_EXCHANGE_SHUFFLE" && !ok {
                    let need = if self.hip {
                        "a divisor of LOGICAL_WARP_THREADS (hipCUB over rocPRIM)"
                    } else {
                        "equal to LOGICAL_WARP_THREADS (CUB)"
                    };
                    return Err(KernelError::new(
                        alg_at.line,
                        alg_at.col,
                        format!(
                            "static_assert failed: {name}<T, {items}, {threads}, \
                             WARP_EXCHANGE_SHUFFLE> needs ITEMS_PER_THREAD {need}; \
                             use WARP_EXCHANGE_SMEM"
                        ),
                    ));
                }
            }
            self.cub_logical_warp(&format!("{name}<T, {items}, {threads}>"), threads, at)?;
            (threads, items)
        };
        if threads > 1024 || items > MAX_ITEMS {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "{name} of {threads} threads and {items} items: at most 1024 threads and \
                     {MAX_ITEMS} items per thread are modelled"
                ),
            ));
        }
        Ok(CubClass {
            kind: Kind::Exchange,
            elem,
            record: None,
            threads,
            items,
            alg: if block {
                "BLOCK_EXCHANGE".into()
            } else {
                "WARP_EXCHANGE".into()
            },
            value: None,
        })
    }

    /// `E(temp).Method(in, out)` of an exchange class, from the `(` after the class (or a named
    /// object's `.`): the call of the method's device function.
    ///
    /// # Errors
    /// A method not modelled, arrays of another type, the warp-striped methods on a block
    /// that is not whole warps.
    pub(super) fn cub_exchange_call(&mut self, c: &CubClass, at: Span) -> PResult<Expr> {
        let block = c.alg == "BLOCK_EXCHANGE";
        let class = if block {
            "BlockExchange"
        } else {
            "WarpExchange"
        };
        let storage = self.cub_storage_then_dot()?;
        let m_at = self.span();
        let method = self.ident()?;
        let (from, to) = match method.as_str() {
            "StripedToBlocked" => (Arrangement::Striped, Arrangement::Blocked),
            "BlockedToStriped" => (Arrangement::Blocked, Arrangement::Striped),
            "WarpStripedToBlocked" if block => (Arrangement::WarpStriped, Arrangement::Blocked),
            "BlockedToWarpStriped" if block => (Arrangement::Blocked, Arrangement::WarpStriped),
            other => {
                return Err(KernelError::new(
                    m_at.line,
                    m_at.col,
                    format!(
                        "{class}::{other} is not modelled here (StripedToBlocked and \
                         BlockedToStriped are{})",
                        if block {
                            ", and WarpStripedToBlocked and BlockedToWarpStriped"
                        } else {
                            ""
                        }
                    ),
                ))
            }
        };
        let warp = self.cub_warp();
        let warped =
            matches!(from, Arrangement::WarpStriped) || matches!(to, Arrangement::WarpStriped);
        if warped && !c.threads.is_multiple_of(warp) {
            return Err(KernelError::new(
                m_at.line,
                m_at.col,
                format!(
                    "{class}::{method} of {} threads: the warp-striped arrangement is modelled \
                     for a block of whole {warp}-lane warps",
                    c.threads
                ),
            ));
        }
        self.expect_punct("(")?;
        let mut arrays = Vec::new();
        loop {
            let a = self.cub_items_arg(c, class, &method)?;
            arrays.push(a);
            if !self.eat(",") {
                break;
            }
            if arrays.len() == 2 {
                return self.err("`)`");
            }
        }
        self.expect_punct(")")?;
        let input = arrays[0].clone();
        let output = arrays.get(1).cloned().unwrap_or_else(|| input.clone());
        let st = self.cub_storage_arg(c, storage, at)?;
        self.cub_storage_use(&st, at);
        let f = self.cub_exchange_fn(c, (from, to), &method, at);
        let lin = self.e_linear(at);
        let rank = if block {
            lin
        } else {
            let w = self.e_int(at, i64::from(c.threads));
            self.e_bin(at, BinOp::Rem, lin, w)
        };
        Ok(self.e_call(at, &f, vec![st, input, output, rank]))
    }

    /// The device function of one exchange (made once), its name.
    fn cub_exchange_fn(
        &mut self,
        c: &CubClass,
        (from, to): (Arrangement, Arrangement),
        method: &str,
        at: Span,
    ) -> String {
        let block = c.alg == "BLOCK_EXCHANGE";
        let lib = if self.hip { "hipcub" } else { "cub" };
        let fname = format!(
            "__{lib}_{}_exchange_{method}_{}_{}x{}",
            if block { "block" } else { "warp" },
            c.elem.scalar.name().replace(' ', "_"),
            c.threads,
            c.items
        );
        if self.fn_types.contains_key(&fname) {
            return fname;
        }
        let param = |name: &str, ty: Ty| Param {
            name: name.to_string(),
            ty,
            reference: false,
            const_ref: false,
            span: at,
        };
        let params = vec![
            param("scratch", Ty::Ptr(c.elem)),
            param("input", Ty::Ptr(c.elem)),
            param("output", Ty::Ptr(c.elem)),
            param("tid", Ty::Val(INT)),
        ];
        let stmt = |kind| Stmt {
            kind,
            span: at,
            end: at,
        };
        let warp = i64::from(self.cub_warp());
        let (t_n, n_n) = (i64::from(c.threads), i64::from(c.items));
        // The tile position of item `i` of rank `tid` in an arrangement.
        let position = |p: &mut Self, a: Arrangement, i: i64| -> Expr {
            let t = p.e_ident(at, "tid");
            let ie = p.e_int(at, i);
            match a {
                Arrangement::Blocked => {
                    let n = p.e_int(at, n_n);
                    let first = p.e_bin(at, BinOp::Mul, t, n);
                    p.e_bin(at, BinOp::Add, first, ie)
                }
                Arrangement::Striped => {
                    let th = p.e_int(at, t_n);
                    let off = p.e_bin(at, BinOp::Mul, ie, th);
                    p.e_bin(at, BinOp::Add, t, off)
                }
                Arrangement::WarpStriped => {
                    let w = p.e_int(at, warp);
                    let wid = p.e_bin(at, BinOp::Div, t.clone(), w);
                    let seg = p.e_int(at, warp * n_n);
                    let base = p.e_bin(at, BinOp::Mul, wid, seg);
                    let w2 = p.e_int(at, warp);
                    let lane = p.e_bin(at, BinOp::Rem, t, w2);
                    let w3 = p.e_int(at, warp);
                    let off = p.e_bin(at, BinOp::Mul, ie, w3);
                    let a = p.e_bin(at, BinOp::Add, base, lane);
                    p.e_bin(at, BinOp::Add, a, off)
                }
            }
        };
        let mut body = Vec::new();
        for i in 0..n_n {
            let k = position(self, from, i);
            let place = self.e_index(at, "scratch", k);
            let ie = self.e_int(at, i);
            let item = self.e_index(at, "input", ie);
            body.push(stmt(StmtKind::Expr(self.e_assign(at, place, item))));
        }
        let sync = if block { "__syncthreads" } else { "__syncwarp" };
        let s = self.e_call(at, sync, Vec::new());
        body.push(stmt(StmtKind::Expr(s)));
        for i in 0..n_n {
            let k = position(self, to, i);
            let value = self.e_index(at, "scratch", k);
            let ie = self.e_int(at, i);
            let item = self.e_index(at, "output", ie);
            body.push(stmt(StmtKind::Expr(self.e_assign(at, item, value))));
        }
        body.push(stmt(StmtKind::Return(None)));
        self.push_built_fn(&fname, Ty::Void, params, stmt(StmtKind::Block(body)), at);
        fname
    }
}
