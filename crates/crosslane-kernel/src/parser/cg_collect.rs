//! The device functions that `cg::reduce`, `cg::inclusive_scan` and `cg::exclusive_scan` of a
//! scalar value call, built as syntax-tree nodes ([`super::build`]), one per collective,
//! operator, group size and value type (`__cg_reduce_plus_16<int>`).
//!
//! Source: CUDA C++ Programming Guide, Cooperative Groups, "reduce" ("the result of the
//! reduction to every thread in the group"), "inclusive_scan" / "exclusive_scan" (thread of
//! rank r gets the combination of ranks 0..=r, or 0..r), over a `thread_block_tile` or a
//! `coalesced_group`, with the operators `cg::plus`, `cg::less`, `cg::greater`, `cg::bit_and`,
//! `cg::bit_or`, `cg::bit_xor` (C++ [function.objects]); HIP Programming Guide, "Cooperative
//! groups" (the same functions, tiles up to the wavefront).
//!
//! - A tile of `n`: `reduce` is a butterfly of the tile's `shfl_xor` (offsets n/2 … 1), the
//!   scans Kogge-Stone steps of its `shfl_up` (distances 1, 2, 4 … below n), the rank `r` the
//!   thread's linear rank modulo `n`; an exclusive scan reads the inclusive result of the rank
//!   below (rank 0: 0 with `plus`, no defined value with another operator). CUDA's shuffles
//!   take the tile's own lanes as their mask and are undefined where the block does not split
//!   into whole tiles of `n` ([`super::cg::partial_tile_why`]); HIP's take the tile as `width`.
//! - A coalesced group (members `m`): every member combines the members' values in rank order,
//!   rank 0 first (each step reads the member of rank k, `__fns(m, 0, k + 1)`), so every member
//!   gets the same result.

use super::build::Build;
use super::targs::{mangle, TArg};
use super::{PResult, Parser};
use crate::ast::*;
use crate::types::{BinOp, Scalar, Ty, ValTy};
use crate::KernelError;

/// The combining expression of a `cg::` operator over `a` and `b` (C++ [function.objects]:
/// `plus` a + b, `less` / `greater` the smaller / larger, `bit_and` / `bit_or` / `bit_xor`).
fn combine(b: &mut Build<'_>, op: &str, name: &str, at: Span) -> PResult<Expr> {
    let (x, y) = (b.ident("a"), b.ident("b"));
    let bin = match op {
        "plus" => BinOp::Add,
        "bit_and" => BinOp::And,
        "bit_or" => BinOp::Or,
        "bit_xor" => BinOp::Xor,
        "less" | "greater" => {
            // `(b < a ? b : a)`, `(b > a ? b : a)`.
            let cmp = if op == "less" { BinOp::Lt } else { BinOp::Gt };
            let c = b.bin(cmp, y, x);
            let (y, x) = (b.ident("b"), b.ident("a"));
            return Ok(b.ternary(c, y, x));
        }
        other => {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "cg::{name} with cg::{other} is not supported here (plus, less, greater, \
                     bit_and, bit_or, bit_xor)"
                ),
            ))
        }
    };
    Ok(b.bin(bin, x, y))
}

/// `int`.
fn int_ty() -> Ty {
    Ty::Val(ValTy::scalar(Scalar::I32))
}

impl Parser<'_> {
    /// The device function of `cg::{name}` with operator `op` over a tile of `n` for a value
    /// of type `ty`, built once; its name (see the module comment).
    ///
    /// # Errors
    /// An operator that is not one of `cg::`'s.
    pub(super) fn cg_tile_collective_fn(
        &mut self,
        (name, op): (&str, &str),
        n: u32,
        ty: ValTy,
        at: Span,
    ) -> PResult<String> {
        let fname = mangle(&format!("__cg_{name}_{op}_{n}"), &[TArg::Type(ty)]);
        if self.fn_types.contains_key(&fname) {
            return Ok(fname);
        }
        let t = Ty::Val(ty);
        let hip = self.hip;
        let why = super::cg::partial_tile_why(n);
        let mut b = Build::fresh(&mut self.syn, at);
        let n64 = u64::from(n);
        // `T b = read(v, by);`: the tile's `shfl_xor` or `shfl_up` of `v` by `by`.
        let read = |b: &mut Build<'_>, xor: bool, by: Expr| -> Stmt {
            let v = b.ident("v");
            let width = b.int(n64);
            let value = if hip {
                b.call(
                    if xor { "__shfl_xor" } else { "__shfl_up" },
                    vec![v, by, width],
                )
            } else {
                // The tile's own lanes as the mask: `(low << ((__lane_id() / n) * n))`.
                let mask = if n >= 32 {
                    b.uint(0xffff_ffff)
                } else {
                    let low = b.uint((1u64 << n) - 1);
                    let lane = b.call("__lane_id", Vec::new());
                    let nn = b.int(n64);
                    let q = b.bin(BinOp::Div, lane, nn);
                    let nn = b.int(n64);
                    let first = b.bin(BinOp::Mul, q, nn);
                    b.bin(BinOp::Shl, low, first)
                };
                let f = if xor {
                    "__shfl_xor_sync"
                } else {
                    "__shfl_up_sync"
                };
                let shfl = b.call(f, vec![mask, v, by, width]);
                // Undefined where the block does not split into whole tiles of `n`.
                let dim = |b: &mut Build<'_>, f: &str| {
                    let d = b.ident("blockDim");
                    b.member(d, f)
                };
                let (x, y, z) = (dim(&mut *b, "x"), dim(&mut *b, "y"), dim(&mut *b, "z"));
                let xy = b.bin(BinOp::Mul, x, y);
                let size = b.bin(BinOp::Mul, xy, z);
                let nn = b.int(n64);
                let rem = b.bin(BinOp::Rem, size, nn);
                let zero = b.int(0);
                let whole = b.bin(BinOp::Eq, rem, zero);
                let why = b.str(&why);
                b.call(crate::builtins::VALID_ONLY, vec![shfl, whole, why])
            };
            b.decl("b", t, Some(value))
        };
        // `T a = v; v = combine;` (for a scan, the assignment under `if (r >= d)`).
        let step = |b: &mut Build<'_>, guard: Option<Expr>| -> PResult<Vec<Stmt>> {
            let v = b.ident("v");
            let keep = b.decl("a", t, Some(v));
            let target = b.ident("v");
            let value = combine(b, op, name, at)?;
            let set = b.assign(None, target, value);
            let set = b.expr_stmt(set);
            Ok(vec![
                keep,
                match guard {
                    Some(c) => b.if_(c, set, None),
                    None => set,
                },
            ])
        };
        let mut body = Vec::new();
        if name == "reduce" {
            // `for (int m = n / 2; m > 0; m >>= 1) { T b = shfl_xor(v, m); T a = v; v = …; }`
            let half = b.int(n64 / 2);
            let init = b.decl("m", int_ty(), Some(half));
            let (m, zero) = (b.ident("m"), b.int(0));
            let cond = b.bin(BinOp::Gt, m, zero);
            let (m, one) = (b.ident("m"), b.int(1));
            let next = b.assign(Some(BinOp::Shr), m, one);
            let m = b.ident("m");
            let mut inner = vec![read(&mut b, true, m)];
            inner.extend(step(&mut b, None)?);
            let inner = b.block(inner);
            body.push(b.for_(init, cond, next, inner));
            let v = b.ident("v");
            body.push(b.ret(Some(v)));
        } else {
            // `T own = v; int r = linear % n;`
            let v = b.ident("v");
            body.push(b.decl("own", t, Some(v)));
            let linear = linear(&mut b);
            let nn = b.int(n64);
            let r = b.bin(BinOp::Rem, linear, nn);
            body.push(b.decl("r", int_ty(), Some(r)));
            // `for (int d = 1; d < n; d <<= 1) { T b = shfl_up(v, d); T a = v; if (r >= d) v = …; }`
            let one = b.int(1);
            let init = b.decl("d", int_ty(), Some(one));
            let (d, nn) = (b.ident("d"), b.int(n64));
            let cond = b.bin(BinOp::Lt, d, nn);
            let (d, one) = (b.ident("d"), b.int(1));
            let next = b.assign(Some(BinOp::Shl), d, one);
            let d = b.ident("d");
            let mut inner = vec![read(&mut b, false, d)];
            let (r, d) = (b.ident("r"), b.ident("d"));
            let guard = b.bin(BinOp::Ge, r, d);
            inner.extend(step(&mut b, Some(guard))?);
            let inner = b.block(inner);
            body.push(b.for_(init, cond, next, inner));
            match (name, op) {
                // Rank 0 gets 0 with `plus`, the rank below's inclusive result otherwise.
                ("exclusive_scan", "plus") => {
                    let one = b.int(1);
                    body.push(read(&mut b, false, one));
                    let (r, zero) = (b.ident("r"), b.int(0));
                    let first = b.bin(BinOp::Eq, r, zero);
                    let zero = b.int(0);
                    let zero = b.cast(t, zero);
                    let zero = b.ret(Some(zero));
                    body.push(b.if_(first, zero, None));
                    let below = b.ident("b");
                    body.push(b.ret(Some(below)));
                }
                // With another operator rank 0 has no defined value.
                ("exclusive_scan", _) => {
                    let one = b.int(1);
                    body.push(read(&mut b, false, one));
                    let below = b.ident("b");
                    let (r, zero) = (b.ident("r"), b.int(0));
                    let not_first = b.bin(BinOp::Ne, r, zero);
                    let why = b.str(super::cg_scan::EXCLUSIVE_FIRST_WHY);
                    let e = b.call(crate::builtins::VALID_ONLY, vec![below, not_first, why]);
                    body.push(b.ret(Some(e)));
                }
                _ => {
                    let v = b.ident("v");
                    body.push(b.ret(Some(v)));
                }
            }
        }
        let body = b.block(body);
        let params = vec![b.param("v", t)];
        self.push_built_fn(&fname, t, params, body, at);
        Ok(fname)
    }

    /// The device function of `cg::reduce` with operator `op` over a coalesced group for a
    /// value of type `ty` (module comment): `(T v, mask m)`, built once; its name.
    ///
    /// # Errors
    /// An operator that is not one of `cg::`'s.
    pub(super) fn cg_coalesced_reduce_fn(
        &mut self,
        op: &str,
        ty: ValTy,
        at: Span,
    ) -> PResult<String> {
        let fname = mangle(&format!("__cg_creduce_{op}"), &[TArg::Type(ty)]);
        if self.fn_types.contains_key(&fname) {
            return Ok(fname);
        }
        let t = Ty::Val(ty);
        let (hip, wave) = (self.hip, u64::from(self.wave));
        let mask_ty = self.mask_ty();
        let mut b = Build::fresh(&mut self.syn, at);
        // The member of rank `k`'s value: HIP `__shfl(v, __fns64(m, 0, k), wave)`, CUDA
        // `__shfl_sync(__activemask(), v, __fns(m, 0, k), 32)`, `k` given as `k + 1`'s node.
        let read = |b: &mut Build<'_>, k: Expr| -> Expr {
            let (m, zero) = (b.ident("m"), b.int(0));
            let v = b.ident("v");
            if hip {
                let src = b.call("__fns64", vec![m, zero, k]);
                let w = b.int(wave);
                b.call("__shfl", vec![v, src, w])
            } else {
                let active = b.call("__activemask", Vec::new());
                let src = b.call("__fns", vec![m, zero, k]);
                let w = b.int(32);
                b.call("__shfl_sync", vec![active, v, src, w])
            }
        };
        let mut body = Vec::new();
        // `int n = popc(m); T acc = read(1);`
        let m = b.ident("m");
        let count = b.call(if hip { "__popcll" } else { "__popc" }, vec![m]);
        body.push(b.decl("n", int_ty(), Some(count)));
        let one = b.int(1);
        let first = read(&mut b, one);
        body.push(b.decl("acc", t, Some(first)));
        // `for (int k = 1; k < n; k++) { T b = read(k + 1); T a = acc; acc = combine; }`
        let one = b.int(1);
        let init = b.decl("k", int_ty(), Some(one));
        let (k, n) = (b.ident("k"), b.ident("n"));
        let cond = b.bin(BinOp::Lt, k, n);
        let k = b.ident("k");
        let next = b.node(ExprKind::IncDec {
            inc: true,
            prefix: false,
            target: Box::new(k),
        });
        let (k, one) = (b.ident("k"), b.int(1));
        let k1 = b.bin(BinOp::Add, k, one);
        let value = read(&mut b, k1);
        let other = b.decl("b", t, Some(value));
        let acc = b.ident("acc");
        let keep = b.decl("a", t, Some(acc));
        let target = b.ident("acc");
        let value = combine(&mut b, op, "reduce", at)?;
        let set = b.assign(None, target, value);
        let set = b.expr_stmt(set);
        let inner = b.block(vec![other, keep, set]);
        body.push(b.for_(init, cond, next, inner));
        let acc = b.ident("acc");
        body.push(b.ret(Some(acc)));
        let body = b.block(body);
        let params = vec![b.param("v", t), b.param("m", mask_ty)];
        self.push_built_fn(&fname, t, params, body, at);
        Ok(fname)
    }
}

/// The thread's linear rank in its block, `threadIdx.x + blockDim.x * (threadIdx.y +
/// blockDim.y * threadIdx.z)` (CUDA C++ Programming Guide, "Thread Hierarchy").
fn linear(b: &mut Build<'_>) -> Expr {
    let mut part = |base: &str, f: &str| {
        let e = b.ident(base);
        b.member(e, f)
    };
    let x = part("threadIdx", "x");
    let bx = part("blockDim", "x");
    let y = part("threadIdx", "y");
    let by = part("blockDim", "y");
    let z = part("threadIdx", "z");
    let yz = b.bin(BinOp::Mul, by, z);
    let yz = b.bin(BinOp::Add, y, yz);
    let xyz = b.bin(BinOp::Mul, bx, yz);
    b.bin(BinOp::Add, x, xyz)
}
