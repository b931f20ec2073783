//! CUB's and hipCUB's `BlockLoad` and `BlockStore`: `Load(ptr, items)`,
//! `Load(ptr, items, valid_items)`, `Load(ptr, items, valid_items, oob_default)`,
//! `Store(ptr, items)` and `Store(ptr, items, valid_items)`, lowered to device functions of
//! syntax-tree nodes (one indexed read or write per item; no C++ text is printed).
//!
//! Which memory item each thread's `items[i]` is (CUB API reference, `cub::BlockLoadAlgorithm`
//! and `cub::BlockStoreAlgorithm`; rocPRIM's `block_load_method` / `block_store_method`,
//! which hipCUB's algorithms map to, document the same arrangements):
//! - `BLOCK_LOAD_DIRECT`, `_VECTORIZE`, `_TRANSPOSE`, `_WARP_TRANSPOSE`,
//!   `_WARP_TRANSPOSE_TIMESLICED` (and the `BLOCK_STORE_` ones) leave (or take) a *blocked*
//!   arrangement: thread `t` holds items `t·N + i` for `i` in `0..N` ("a blocked arrangement of
//!   data is read directly from memory"; the transposing ones read a striped or warp-striped
//!   arrangement "and then locally transpose it into a blocked arrangement"). The vector loads
//!   and the shared-memory exchanges change how, never which, items a thread gets, so each is
//!   modelled by its result.
//! - `BLOCK_LOAD_STRIPED` / `BLOCK_STORE_STRIPED` leave (take) a *striped* arrangement: thread
//!   `t` holds items `t + i·BLOCK_THREADS` ("a striped arrangement of data is read directly
//!   from memory"; `cub::LoadDirectStriped`: "thread i owns items (i), (i + block-threads),
//!   …").
//! - With `valid_items`, only items whose index is below it are read or written
//!   (`cub::LoadDirectBlocked(…, block_items_end)`: "guarded by range"); a loaded item past it
//!   gets `oob_default` when one is given ("default value to assign out-of-bound items") and
//!   is otherwise undefined here (CUB assigns nothing: after a transposing exchange it is
//!   another thread's unset slot), never a number picked.
//!
//! The thread's rank is its linear index in the block (CUB: "a row-major thread ordering is
//! assumed"). The transposing algorithms use the `TempStorage`: a second collective on the
//! same storage with no `__syncthreads()` between them is warned about as for the reductions.
//! CUB requires a block of whole warps for the warp-transposing algorithms (a `static_assert`
//! in `block_load.cuh`: "BLOCK_THREADS must be a multiple of WARP_THREADS"): refused otherwise.

use super::cub::{CubClass, Kind, INT};
use super::{PResult, Parser};
use crate::ast::*;
use crate::builtins::VALID_ONLY;
use crate::lexer::Tok;
use crate::types::{BinOp, Ty, ValTy};
use crate::KernelError;

/// The algorithms after `BLOCK_LOAD_` / `BLOCK_STORE_`.
const ALGORITHMS: &[&str] = &[
    "DIRECT",
    "STRIPED",
    "VECTORIZE",
    "TRANSPOSE",
    "WARP_TRANSPOSE",
    "WARP_TRANSPOSE_TIMESLICED",
];

/// Most items per thread read here (each is one statement of the lowered function).
const MAX_ITEMS: u32 = 256;

/// Whether the algorithm leaves a striped arrangement (the others a blocked one).
fn striped(alg: &str) -> bool {
    alg.ends_with("_STRIPED")
}

impl Parser<'_> {
    /// A collective's items argument, which must be the thread's array of `c.items` elements
    /// (`T items[N]`): the expression, read here.
    ///
    /// # Errors
    /// The argument is not such an array (named with `class::method`), or does not parse.
    pub(super) fn cub_items_arg(
        &mut self,
        c: &CubClass,
        class: &str,
        method: &str,
    ) -> PResult<Expr> {
        let items_at = self.span();
        let items = self.assign_expr()?;
        let is_items = matches!(&items.kind, ExprKind::Ident(n)
            if self.var_type(n) == Some(Ty::Ptr(c.elem)));
        if !is_items {
            return Err(KernelError::new(
                items_at.line,
                items_at.col,
                format!(
                    "{class}::{method}'s items must be the thread's array `{} items[{}]` here",
                    c.elem.scalar.name(),
                    c.items
                ),
            ));
        }
        Ok(items)
    }

    /// The `T` of a load, store or exchange class (`BlockLoad<T, …>`, `WarpLoad<T, …>`,
    /// `BlockExchange<T, …>`, …) after the name: a scalar type (`record`: `T` was a struct).
    ///
    /// # Errors
    /// A struct or vector `T`.
    pub(super) fn cub_scalar_elem(&mut self, name: &str, record: bool, at: Span) -> PResult<ValTy> {
        match (record, self.base_type()) {
            (false, Ok(Ty::Val(v))) if v.lanes == 1 => Ok(v),
            _ => Err(KernelError::new(
                at.line,
                at.col,
                format!("{name}<T, …>: T must be a scalar type here (float, int, …)"),
            )),
        }
    }

    /// The `ALGORITHM` argument of a load or store class after its `,` (qualifiers skipped):
    /// `prefix` followed by one of `algorithms` (CUB API, `cub::BlockLoadAlgorithm`,
    /// `cub::WarpLoadAlgorithm` and their store counterparts).
    ///
    /// # Errors
    /// Any other name, with the list of those written out.
    pub(super) fn cub_algorithm(
        &mut self,
        name: &str,
        prefix: &str,
        algorithms: &[&str],
    ) -> PResult<String> {
        self.skip_cub_ns();
        let alg_at = self.span();
        let known = match self.peek(0) {
            Tok::Ident(a) => a
                .strip_prefix(prefix)
                .is_some_and(|rest| algorithms.contains(&rest))
                .then(|| a.clone()),
            _ => None,
        };
        let Some(a) = known else {
            let list: Vec<String> = algorithms.iter().map(|a| format!("{prefix}{a}")).collect();
            return Err(KernelError::new(
                alg_at.line,
                alg_at.col,
                format!(
                    "{name}'s ALGORITHM must be written as one of {} here",
                    list.join(", ")
                ),
            ));
        };
        self.bump();
        Ok(a)
    }

    /// The template arguments of `BlockLoad<T, X, N[, ALGORITHM[, Y[, Z]]]>` (or
    /// `BlockStore`) after `T` (`record`: `T` was a struct).
    ///
    /// # Errors
    /// A struct or vector `T`, a non-constant size, more than [`MAX_ITEMS`] items, an unknown
    /// algorithm, a warp-transposing algorithm on a block that is not whole warps.
    pub(super) fn cub_load_args(
        &mut self,
        name: &str,
        record: bool,
        at: Span,
    ) -> PResult<CubClass> {
        let elem = self.cub_scalar_elem(name, record, at)?;
        self.expect_punct(",")?;
        let mut threads = self.cub_const(&format!("{name}'s BLOCK_DIM_X"))?;
        self.expect_punct(",")?;
        let items = self.cub_const(&format!("{name}'s ITEMS_PER_THREAD"))?;
        let prefix = if name == "BlockLoad" {
            "BLOCK_LOAD_"
        } else {
            "BLOCK_STORE_"
        };
        let mut alg = format!("{prefix}DIRECT");
        if self.eat(",") {
            alg = self.cub_algorithm(name, prefix, ALGORITHMS)?;
            for dim in ["BLOCK_DIM_Y", "BLOCK_DIM_Z"] {
                if !self.eat(",") {
                    break;
                }
                let d = self.cub_const(&format!("{name}'s {dim}"))?;
                threads = threads.saturating_mul(d);
            }
        }
        if threads > 1024 {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("{name} of {threads} threads: a block has at most 1024"),
            ));
        }
        if items > MAX_ITEMS {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("{name} of {items} items per thread: at most {MAX_ITEMS} are modelled"),
            ));
        }
        let warp = self.cub_warp();
        if alg.contains("WARP_TRANSPOSE") && !threads.is_multiple_of(warp) {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "{name} with {alg} needs a block of whole {warp}-lane warps (CUB's \
                     static_assert: \"BLOCK_THREADS must be a multiple of WARP_THREADS\"); \
                     {threads} threads are not: use {prefix}DIRECT or {prefix}TRANSPOSE"
                ),
            ));
        }
        Ok(CubClass {
            kind: if name == "BlockLoad" {
                Kind::BlockLoad
            } else {
                Kind::BlockStore
            },
            elem,
            record: None,
            threads,
            items,
            alg,
            value: None,
        })
    }

    /// `R(temp).Load(ptr, items[, valid[, oob]])` or `R(temp).Store(ptr, items[, valid])`
    /// (also `R()`: CUB's private storage), from the `(` after the class: the call of the
    /// collective's device function.
    ///
    /// # Errors
    /// The other class's method, `items` that is no `T items[N]` array, a misplaced argument.
    pub(super) fn cub_load_call(&mut self, c: &CubClass, at: Span) -> PResult<Expr> {
        let load = c.kind == Kind::BlockLoad;
        let warp = c.alg.starts_with("WARP_");
        let (class, method) = match (load, warp) {
            (true, false) => ("BlockLoad", "Load"),
            (false, false) => ("BlockStore", "Store"),
            (true, true) => ("WarpLoad", "Load"),
            (false, true) => ("WarpStore", "Store"),
        };
        let storage = match self.cub_object_storage.take() {
            Some(st) => {
                self.expect_punct(".")?;
                Some(st)
            }
            None => {
                self.expect_punct("(")?;
                let storage = if self.is_punct(")") {
                    None
                } else {
                    Some(self.assign_expr()?)
                };
                self.expect_punct(")")?;
                self.expect_punct(".")?;
                storage
            }
        };
        let m_at = self.span();
        let m = self.ident()?;
        if m != method {
            return Err(KernelError::new(
                m_at.line,
                m_at.col,
                format!("{class} has no method `{m}` modelled here: write {method}(…)"),
            ));
        }
        self.expect_punct("(")?;
        let ptr = self.assign_expr()?;
        self.expect_punct(",")?;
        let items = self.cub_items_arg(c, class, method)?;
        let mut rest = Vec::new();
        while self.eat(",") {
            rest.push(self.assign_expr()?);
        }
        let most = if load { 2 } else { 1 };
        if rest.len() > most {
            return Err(KernelError::new(
                m_at.line,
                m_at.col,
                format!(
                    "{class}::{method} takes (ptr, items{}) here",
                    if load {
                        "[, valid_items[, oob_default]]"
                    } else {
                        "[, valid_items]"
                    }
                ),
            ));
        }
        self.expect_punct(")")?;
        if c.alg.contains("TRANSPOSE") {
            if let Some(st) = &storage {
                self.cub_storage_use(st, at);
            }
        }
        if c.alg.starts_with("WARP_") {
            return self.cub_warp_load_fn_call(c, (ptr, items, rest), at);
        }
        let f = self.cub_load_fn(c, rest.len(), false, at);
        let mut args = vec![ptr, items];
        args.extend(rest);
        Ok(self.e_call(at, &f, args))
    }

    /// The device function of one load or store shape (made once), its name. `extra`: 0, or
    /// 1 with `valid_items`, or 2 with `oob_default` too. `direct`: the free functions'
    /// shape (`cub::LoadDirectBlocked(linear_tid, ptr, items, …)`, [`super::cub_direct`]):
    /// the thread's rank is the first parameter, and a guarded load leaves an item past
    /// `valid_items` as it was (the free function assigns nothing to it).
    pub(super) fn cub_load_fn(
        &mut self,
        c: &CubClass,
        extra: usize,
        direct: bool,
        at: Span,
    ) -> String {
        let load = c.kind == Kind::BlockLoad;
        let lib = if self.hip { "hipcub" } else { "cub" };
        let fname = format!(
            "__{lib}_block_{}_{}_{}_{}x{}{}",
            if load { "load" } else { "store" },
            if striped(&c.alg) {
                "striped"
            } else {
                "blocked"
            },
            c.elem.scalar.name().replace(' ', "_"),
            c.threads,
            c.items,
            ["", "_valid", "_valid_oob"][extra.min(2)]
        );
        let fname = if direct {
            format!("{fname}_direct")
        } else {
            fname
        };
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
        let mut params = vec![
            param("ptr", Ty::Ptr(c.elem)),
            param("items", Ty::Ptr(c.elem)),
        ];
        if direct {
            params.insert(0, param("tid", Ty::Val(INT)));
        }
        if extra >= 1 {
            params.push(param("valid", Ty::Val(INT)));
        }
        if extra >= 2 {
            params.push(param("oob", Ty::Val(c.elem)));
        }
        let stmt = |kind| Stmt {
            kind,
            span: at,
            end: at,
        };
        let lin = self.e_linear(at);
        let span = self.syn_span(at);
        let mut body = Vec::new();
        if !direct {
            body.push(stmt(StmtKind::Decl(
                Storage::default(),
                vec![Declarator {
                    name: "tid".into(),
                    ty: Ty::Val(INT),
                    array: None,
                    init: Some(lin),
                    span,
                    id: NodeId::fresh(),
                }],
            )));
        }
        let why = format!(
            "{lib}::BlockLoad::Load with valid_items and no oob_default assigns nothing to an \
             item past valid_items (CUB API, BlockLoad::Load: \"guarded by range\"); its value \
             is undefined"
        );
        for i in 0..c.items {
            // The item's index in the tile: blocked t·N + i, striped t + i·THREADS.
            let (t, i_e) = (self.e_ident(at, "tid"), self.e_int(at, i64::from(i)));
            let idx = if striped(&c.alg) {
                let th = self.e_int(at, i64::from(c.threads));
                let off = self.e_bin(at, BinOp::Mul, i_e, th);
                self.e_bin(at, BinOp::Add, t, off)
            } else {
                let n = self.e_int(at, i64::from(c.items));
                let first = self.e_bin(at, BinOp::Mul, t, n);
                self.e_bin(at, BinOp::Add, first, i_e)
            };
            let ie = self.e_int(at, i64::from(i));
            let item = self.e_index(at, "items", ie);
            let mem = self.e_index(at, "ptr", idx.clone());
            let (target, value) = if load { (item, mem) } else { (mem, item) };
            let copy = stmt(StmtKind::Expr(self.e_assign(at, target, value)));
            if extra == 0 {
                body.push(copy);
                continue;
            }
            let v = self.e_ident(at, "valid");
            let inside = self.e_bin(at, BinOp::Lt, idx.clone(), v);
            let otherwise = if !load || (direct && extra < 2) {
                None
            } else if extra >= 2 {
                let ie = self.e_int(at, i64::from(i));
                let item = self.e_index(at, "items", ie);
                let oob = self.e_ident(at, "oob");
                Some(Box::new(stmt(StmtKind::Expr(self.e_assign(at, item, oob)))))
            } else {
                // Undefined: `__crosslane_valid_only(T(0), idx < valid, why)` where the
                // condition is false.
                let ie = self.e_int(at, i64::from(i));
                let item = self.e_index(at, "items", ie);
                let z = self.e_int(at, 0);
                let s = self.syn_span(at);
                let zero = Expr::new(ExprKind::Cast(Ty::Val(c.elem), Box::new(z)), s);
                let s = self.syn_span(at);
                let w = Expr::new(ExprKind::Str(why.clone()), s);
                let undef = self.e_call(at, VALID_ONLY, vec![zero, inside.clone(), w]);
                Some(Box::new(stmt(StmtKind::Expr(
                    self.e_assign(at, item, undef),
                ))))
            };
            body.push(stmt(StmtKind::If(inside, Box::new(copy), otherwise)));
        }
        body.push(stmt(StmtKind::Return(None)));
        self.push_built_fn(&fname, Ty::Void, params, stmt(StmtKind::Block(body)), at);
        fname
    }
}
