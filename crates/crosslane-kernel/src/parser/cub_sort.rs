//! CUB's and hipCUB's `BlockRadixSort<KeyT, BLOCK_DIM_X, ITEMS_PER_THREAD[, ValueT, …]>`:
//! `Sort(keys[, values])`, `SortDescending(keys[, values])`, `SortBlockedToStriped(keys[,
//! values])` and `SortDescendingBlockedToStriped(keys[, values])`, lowered to a device function
//! of syntax-tree nodes that computes CUB's documented result, not its digit passes.
//!
//! The result (CUB API reference, `cub::BlockRadixSort`): the block's `X·N` keys in ascending
//! (descending) order, in a blocked arrangement (thread t holds sorted items `t·N + i`) or, for
//! the `BlockedToStriped` methods, a striped one (items `t + i·X`). A radix sort is stable: keys
//! that compare equal keep the order of their input ranks (the blocked rank `t·N + i`); values
//! move with their keys. Signed integers and floats are ordered by CUB's bit twiddling (the
//! sign bit flipped, a negative float's bits all flipped), which for integers is their numeric
//! order and for floats the numeric order with a positive NaN after +inf and a negative NaN
//! before -inf ("no special handling is implemented for NaN values; these are sorted according
//! to their bit representations after any transformations"). "Positive and negative zeros are
//! considered equivalent" (CUB API, BlockRadixSort, "Floating-Point Special Cases"; rocPRIM's
//! digit extractor maps -0.0 to +0.0 likewise): -0.0 and +0.0 are equal keys, so they keep their
//! input order, each with its own bits.
//!
//! Each thread's rank of item j is the count of keys ordered before it plus the equal keys of
//! lower input rank (a loop over the block's keys in the shared `TempStorage`), then each key
//! is written to its rank and read back in the arrangement asked for; three barriers. Keys of
//! 8- to 64-bit integers and `float` are modelled, at most [`MAX_ITEMS`] per block;
//! `begin_bit` / `end_bit` (a sort of some bits) are refused.

use super::cub::{CubClass, Kind, INT, SORT_VALUES};
use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::types::{BinOp, Scalar, Ty, UnOp, ValTy};
use crate::KernelError;

/// Most keys one block sorts here (each thread's rank loop reads every key).
pub(super) const MAX_ITEMS: u32 = 2048;

const U32: ValTy = ValTy {
    scalar: Scalar::U32,
    lanes: 1,
};

impl Parser<'_> {
    /// The template arguments of `BlockRadixSort<KeyT, X, N[, ValueT[, RADIX_BITS[, MEMOIZE[,
    /// INNER_SCAN[, SMEM_CONFIG[, Y[, Z]]]]]]]>` after `KeyT` was not read (`record`: it was a
    /// struct). The digit width, the memoizing and the inner scan change how, not what, it
    /// sorts: read and not used.
    ///
    /// # Errors
    /// A key or value that is no integer or `float` scalar, a non-constant size, more than
    /// [`MAX_ITEMS`] keys.
    pub(super) fn cub_sort_args(&mut self, record: bool, at: Span) -> PResult<CubClass> {
        let scalar = |t: &PResult<Ty>| match t {
            Ok(Ty::Val(v))
                if v.lanes == 1
                    && (v.scalar == Scalar::F32
                        || (!v.scalar.is_float() && v.scalar != Scalar::Bool)) =>
            {
                Some(*v)
            }
            _ => None,
        };
        let t = self.base_type();
        let Some(elem) = scalar(&t).filter(|_| !record) else {
            return Err(KernelError::new(
                at.line,
                at.col,
                "BlockRadixSort<KeyT, …>: keys of integer types and float are modelled here",
            ));
        };
        self.expect_punct(",")?;
        let mut threads = self.cub_const("BlockRadixSort's BLOCK_DIM_X")?;
        self.expect_punct(",")?;
        let items = self.cub_const("BlockRadixSort's ITEMS_PER_THREAD")?;
        let mut value = None;
        if self.eat(",") {
            self.skip_cub_ns();
            if self.is_word("NullType") {
                self.bump();
            } else {
                let t = self.base_type();
                value = Some(scalar(&t).ok_or_else(|| {
                    KernelError::new(
                        at.line,
                        at.col,
                        "BlockRadixSort's ValueT: values of integer types and float are \
                         modelled here",
                    )
                })?);
            }
            // RADIX_BITS, MEMOIZE_OUTER_SCAN, INNER_SCAN_ALGORITHM, SMEM_CONFIG.
            for _ in 0..4 {
                if !self.eat(",") {
                    break;
                }
                self.skip_cub_ns();
                match self.peek(0) {
                    Tok::Ident(_) => {
                        self.bump();
                    }
                    _ => {
                        self.cub_const("a BlockRadixSort template argument")?;
                    }
                }
                // `BlockRadixSort<…, 4, true, BLOCK_SCAN_WARP_SCANS, 1, 1>`: the sizes next.
                if !self.is_punct(",") {
                    break;
                }
            }
            for dim in ["BLOCK_DIM_Y", "BLOCK_DIM_Z"] {
                if !self.eat(",") {
                    break;
                }
                let d = self.cub_const(&format!("BlockRadixSort's {dim}"))?;
                threads = threads.saturating_mul(d);
            }
        }
        let n = threads.saturating_mul(items);
        if threads > 1024 || n > MAX_ITEMS {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "BlockRadixSort of {threads} threads × {items} items: at most 1024 threads \
                     and {MAX_ITEMS} keys per block are modelled"
                ),
            ));
        }
        Ok(CubClass {
            kind: Kind::BlockRadixSort,
            elem,
            record: None,
            threads,
            items,
            alg: String::new(),
            value,
        })
    }

    /// `R(temp).Sort(keys[, values])` and kin, from the `(` after the class: the call of the
    /// sort's device function.
    ///
    /// # Errors
    /// Another method, arrays that are not the thread's `KeyT keys[N]` (`ValueT values[N]`),
    /// `begin_bit` / `end_bit`, a storage that is not a `__shared__ TempStorage` variable.
    pub(super) fn cub_sort_call(&mut self, c: &CubClass, at: Span) -> PResult<Expr> {
        let st_at = self.span();
        let storage = match self.cub_object_storage.take() {
            Some(st) => st,
            None => {
                self.expect_punct("(")?;
                let storage = self.assign_expr()?;
                self.expect_punct(")")?;
                storage
            }
        };
        // A `__shared__` TempStorage, or a member of a union of them (`cub_union`).
        let st = match &storage.kind {
            ExprKind::Ident(n) => Some(n.clone()),
            ExprKind::Member(base, m) => self.cub_union_member(base, m),
            _ => None,
        };
        let Some(st) = st else {
            return Err(KernelError::new(
                st_at.line,
                st_at.col,
                "a BlockRadixSort's TempStorage must be a `__shared__` variable here",
            ));
        };
        self.expect_punct(".")?;
        let m_at = self.span();
        let m = self.ident()?;
        let (descending, striped) = match m.as_str() {
            "Sort" => (false, false),
            "SortDescending" => (true, false),
            "SortBlockedToStriped" => (false, true),
            "SortDescendingBlockedToStriped" => (true, true),
            _ => {
                return Err(KernelError::new(
                    m_at.line,
                    m_at.col,
                    format!(
                        "BlockRadixSort::{m} is not modelled here (Sort, SortDescending, \
                         SortBlockedToStriped and SortDescendingBlockedToStriped are)"
                    ),
                ))
            }
        };
        self.expect_punct("(")?;
        let mut args = Vec::new();
        loop {
            let a_at = self.span();
            let e = self.assign_expr()?;
            args.push((e, a_at));
            if !self.eat(",") {
                break;
            }
        }
        self.expect_punct(")")?;
        let want = 1 + usize::from(c.value.is_some());
        if args.len() != want {
            return Err(KernelError::new(
                m_at.line,
                m_at.col,
                format!(
                    "BlockRadixSort::{m} takes ({}) here (begin_bit / end_bit are not modelled)",
                    if c.value.is_some() {
                        "keys, values"
                    } else {
                        "keys; a ValueT template argument for values"
                    }
                ),
            ));
        }
        for ((e, a_at), ty) in args.iter().zip([Some(c.elem), c.value]) {
            let ok = matches!(&e.kind, ExprKind::Ident(n)
                if ty.is_some_and(|t| self.var_type(n) == Some(Ty::Ptr(t))));
            if !ok {
                return Err(KernelError::new(
                    a_at.line,
                    a_at.col,
                    format!(
                        "BlockRadixSort::{m}'s arrays must be the thread's `T items[{}]` arrays \
                         of the class's key (and value) type here",
                        c.items
                    ),
                ));
            }
        }
        self.cub_storage_use(&storage, at);
        let f = self.cub_sort_fn(c, descending, striped, at);
        let mut call: Vec<Expr> = args.into_iter().map(|(e, _)| e).collect();
        call.push(self.e_ident(at, &st));
        if c.value.is_some() {
            call.push(self.e_ident(at, &format!("{st}{SORT_VALUES}")));
        }
        Ok(self.e_call(at, &f, call))
    }

    /// The sort's device function (made once per shape), its name.
    fn cub_sort_fn(&mut self, c: &CubClass, descending: bool, striped: bool, at: Span) -> String {
        let lib = if self.hip { "hipcub" } else { "cub" };
        let tag = |t: ValTy| t.scalar.name().replace(' ', "_");
        let fname = format!(
            "__{lib}_block_radix_sort_{}{}_{}{}_{}x{}",
            if descending { "desc" } else { "asc" },
            if striped { "_striped" } else { "" },
            tag(c.elem),
            c.value.map(|v| format!("_{}", tag(v))).unwrap_or_default(),
            c.threads,
            c.items
        );
        if self.fn_types.contains_key(&fname) {
            return fname;
        }
        let s = Sorter {
            at,
            stmts: Vec::new(),
        };
        let (params, body) = s.build(self, c, descending, striped);
        self.push_built_fn(&fname, Ty::Void, params, body, at);
        fname
    }
}

/// Builds a sort's device function.
struct Sorter {
    at: Span,
    stmts: Vec<Stmt>,
}

impl Sorter {
    fn stmt(&self, kind: StmtKind) -> Stmt {
        Stmt {
            kind,
            span: self.at,
            end: self.at,
        }
    }

    fn decl(&self, p: &mut Parser<'_>, name: &str, ty: ValTy, init: Expr) -> Stmt {
        let span = p.syn_span(self.at);
        self.stmt(StmtKind::Decl(
            Storage::default(),
            vec![Declarator {
                name: name.to_string(),
                ty: Ty::Val(ty),
                array: None,
                init: Some(init),
                span,
                id: NodeId::fresh(),
            }],
        ))
    }

    fn set(&self, p: &mut Parser<'_>, target: Expr, value: Expr) -> Stmt {
        let s = p.syn_span(self.at);
        self.stmt(StmtKind::Expr(Expr::new(
            ExprKind::Assign(None, Box::new(target), Box::new(value)),
            s,
        )))
    }

    fn index(&self, p: &mut Parser<'_>, base: &str, k: Expr) -> Expr {
        let b = p.e_ident(self.at, base);
        let s = p.syn_span(self.at);
        Expr::new(ExprKind::Index(Box::new(b), Box::new(k)), s)
    }

    fn int(&self, p: &mut Parser<'_>, v: u32) -> Expr {
        p.e_int(self.at, i64::from(v))
    }

    fn sync(&mut self, p: &mut Parser<'_>) {
        let e = p.e_call(self.at, "__syncthreads", Vec::new());
        let s = self.stmt(StmtKind::Expr(e));
        self.stmts.push(s);
    }

    /// `tid·N + i` (blocked) or `tid + i·X` (striped).
    fn position(&self, p: &mut Parser<'_>, c: &CubClass, i: u32, striped: bool) -> Expr {
        let t = p.e_ident(self.at, "tid");
        if striped {
            let k = self.int(p, i * c.threads);
            p.e_bin(self.at, BinOp::Add, t, k)
        } else {
            let n = self.int(p, c.items);
            let first = p.e_bin(self.at, BinOp::Mul, t, n);
            let ie = self.int(p, i);
            p.e_bin(self.at, BinOp::Add, first, ie)
        }
    }

    /// The key `e` in the order compared: a float's bits twiddled as CUB's (±0 as +0); an
    /// integer itself (its numeric order is the twiddled order).
    fn order_key(&self, p: &mut Parser<'_>, e: Expr, elem: ValTy, out: &str) -> Vec<Stmt> {
        let at = self.at;
        if elem.scalar != Scalar::F32 {
            return vec![self.decl(p, out, elem, e)];
        }
        let bits_name = format!("{out}_bits");
        let bits = p.e_call(at, "__float_as_uint", vec![e]);
        let mut out_stmts = vec![self.decl(p, &bits_name, U32, bits)];
        // -0.0 (0x80000000) is +0.0 (0).
        let (b, m) = (p.e_ident(at, &bits_name), p.e_mask(at, 0x7fff_ffff));
        let mag = p.e_bin(at, BinOp::And, b, m);
        let z = p.e_mask(at, 0);
        let is_zero = p.e_bin(at, BinOp::Eq, mag, z);
        let (target, zero) = (p.e_ident(at, &bits_name), p.e_mask(at, 0));
        let clear = self.set(p, target, zero);
        out_stmts.push(self.stmt(StmtKind::If(is_zero, Box::new(clear), None)));
        // Negative: all bits flipped; otherwise the sign bit set.
        let (b, s) = (p.e_ident(at, &bits_name), p.e_mask(at, 0x8000_0000));
        let neg = p.e_bin(at, BinOp::And, b, s);
        let b = p.e_ident(at, &bits_name);
        let sp = p.syn_span(at);
        let flipped = Expr::new(ExprKind::Unary(UnOp::BitNot, Box::new(b)), sp);
        let (b, s) = (p.e_ident(at, &bits_name), p.e_mask(at, 0x8000_0000));
        let signed = p.e_bin(at, BinOp::Or, b, s);
        let sp = p.syn_span(at);
        let tw = Expr::new(
            ExprKind::Ternary(Box::new(neg), Box::new(flipped), Box::new(signed)),
            sp,
        );
        out_stmts.push(self.decl(p, out, U32, tw));
        out_stmts
    }

    fn build(
        mut self,
        p: &mut Parser<'_>,
        c: &CubClass,
        descending: bool,
        striped: bool,
    ) -> (Vec<Param>, Stmt) {
        let at = self.at;
        let n = c.threads * c.items;
        let param = |name: &str, t: ValTy| Param {
            name: name.to_string(),
            ty: Ty::Ptr(t),
            reference: false,
            const_ref: false,
            span: at,
        };
        let mut params = vec![param("keys", c.elem)];
        if let Some(v) = c.value {
            params.push(param("values", v));
        }
        params.push(param("sk", c.elem));
        if let Some(v) = c.value {
            params.push(param("sv", v));
        }
        let lin = p.e_linear(at);
        let d = self.decl(p, "tid", INT, lin);
        self.stmts.push(d);
        // The keys (and values) in the shared storage at their input ranks.
        for i in 0..c.items {
            for (from, to) in [("keys", "sk"), ("values", "sv")] {
                if from == "values" && c.value.is_none() {
                    continue;
                }
                let k = self.position(p, c, i, false);
                let target = self.index(p, to, k);
                let ie = self.int(p, i);
                let v = self.index(p, from, ie);
                let s = self.set(p, target, v);
                self.stmts.push(s);
            }
        }
        self.sync(p);
        // Each item's rank: the keys before it, and the equal keys of lower input rank.
        for i in 0..c.items {
            let rank = format!("__rank{i}");
            let z = self.int(p, 0);
            let d = self.decl(p, &rank, INT, z);
            self.stmts.push(d);
            let ie = self.int(p, i);
            let own = self.index(p, "keys", ie);
            let me = format!("__me{i}");
            let ks = self.order_key(p, own, c.elem, &me);
            self.stmts.extend(ks);
            let j = self.position(p, c, i, false);
            let jn = format!("__j{i}");
            let d = self.decl(p, &jn, INT, j);
            self.stmts.push(d);
            // for (int k = 0; k < n; k = k + 1) { … }
            let kv = p.e_ident(at, "__k");
            let other = self.index(p, "sk", kv);
            let mut body = self.order_key(p, other, c.elem, "__o");
            let (o, m) = (p.e_ident(at, "__o"), p.e_ident(at, &me));
            let before = p.e_bin(at, if descending { BinOp::Gt } else { BinOp::Lt }, o, m);
            let (o, m) = (p.e_ident(at, "__o"), p.e_ident(at, &me));
            let equal = p.e_bin(at, BinOp::Eq, o, m);
            let (k, jj) = (p.e_ident(at, "__k"), p.e_ident(at, &jn));
            let earlier = p.e_bin(at, BinOp::Lt, k, jj);
            let sp = p.syn_span(at);
            let tie = Expr::new(
                ExprKind::Logical(true, Box::new(equal), Box::new(earlier)),
                sp,
            );
            let sp = p.syn_span(at);
            let counts = Expr::new(
                ExprKind::Logical(false, Box::new(before), Box::new(tie)),
                sp,
            );
            let (r, one) = (p.e_ident(at, &rank), self.int(p, 1));
            let plus = p.e_bin(at, BinOp::Add, r, one);
            let target = p.e_ident(at, &rank);
            let bump = self.set(p, target, plus);
            body.push(self.stmt(StmtKind::If(counts, Box::new(bump), None)));
            let z = self.int(p, 0);
            let init = self.decl(p, "__k", INT, z);
            let (k, nn) = (p.e_ident(at, "__k"), self.int(p, n));
            let cond = p.e_bin(at, BinOp::Lt, k, nn);
            let (k, one) = (p.e_ident(at, "__k"), self.int(p, 1));
            let next = p.e_bin(at, BinOp::Add, k, one);
            let kt = p.e_ident(at, "__k");
            let sp = p.syn_span(at);
            let step = Expr::new(ExprKind::Assign(None, Box::new(kt), Box::new(next)), sp);
            let body = self.stmt(StmtKind::Block(body));
            let lp = self.stmt(StmtKind::For(
                Some(Box::new(init)),
                Some(cond),
                Some(step),
                Box::new(body),
            ));
            self.stmts.push(lp);
        }
        self.sync(p);
        // Each key (and value) at its rank.
        for i in 0..c.items {
            for (from, to) in [("keys", "sk"), ("values", "sv")] {
                if from == "values" && c.value.is_none() {
                    continue;
                }
                let r = p.e_ident(at, &format!("__rank{i}"));
                let target = self.index(p, to, r);
                let ie = self.int(p, i);
                let v = self.index(p, from, ie);
                let s = self.set(p, target, v);
                self.stmts.push(s);
            }
        }
        self.sync(p);
        // Read back in the arrangement asked for.
        for i in 0..c.items {
            for (to, from) in [("keys", "sk"), ("values", "sv")] {
                if to == "values" && c.value.is_none() {
                    continue;
                }
                let k = self.position(p, c, i, striped);
                let v = self.index(p, from, k);
                let ie = self.int(p, i);
                let target = self.index(p, to, ie);
                let s = self.set(p, target, v);
                self.stmts.push(s);
            }
        }
        let ret = self.stmt(StmtKind::Return(None));
        self.stmts.push(ret);
        let stmts = std::mem::take(&mut self.stmts);
        (params, self.stmt(StmtKind::Block(stmts)))
    }
}
