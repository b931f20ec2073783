//! libcu++'s `cuda::atomic_ref<T, Scope>` and `cuda::std::atomic_ref<T>` (C++20
//! [atomics.ref.generic]): an object that performs atomic operations on the object it
//! references, lowered onto the atomics the interpreter already runs ([`crate::atomics`]).
//!
//! `cuda::atomic_ref<int, cuda::thread_scope_block> r(s);` declares `r` as a pointer to `s`,
//! bound once where it is declared (a reference binds at its initialization,
//! [dcl.init.ref]), and each member function becomes the GCC builtin of the same meaning:
//! `fetch_add/sub/and/or/xor/max/min(v[, order])` → `__atomic_fetch_OP(r, v, order)` (the
//! value before, C++20 [atomics.ref.int]/[atomics.ref.float]; `fetch_max`/`fetch_min` are
//! libcu++ extensions, CCCL documentation "cuda::atomic_ref": "atomically … the maximum …
//! returns the value before"), `load([order])` → `__atomic_load_n`, `store(v[, order])` →
//! `__atomic_store_n`, `exchange(v[, order])` → `__atomic_exchange_n`, and
//! `compare_exchange_strong(expected, desired[, order])` → `__atomic_compare_exchange_n`
//! (writing the current value to `expected` on failure, [atomics.ref.operations]). The
//! order defaults to `memory_order_seq_cst` ([atomics.ref.operations]); the scope
//! (`thread_scope_thread/block/device/system`, CCCL "Thread Scopes") is read and changes no
//! value here, for the reason `crate::atomics` gives: the emulator applies every access at
//! once, in one order.

use std::collections::HashSet;

use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::types::Ty;
use crate::KernelError;

/// The scopes `cuda::atomic_ref`'s second argument may name (CCCL, "Thread Scopes").
const SCOPES: &[&str] = &[
    "thread_scope_thread",
    "thread_scope_block",
    "thread_scope_device",
    "thread_scope_system",
];

/// `memory_order_*` by name, and its value in [`crate::atomics::ORDERS`].
const ORDERS: &[(&str, i64)] = &[
    ("memory_order_relaxed", 0),
    ("memory_order_consume", 1),
    ("memory_order_acquire", 2),
    ("memory_order_release", 3),
    ("memory_order_acq_rel", 4),
    ("memory_order_seq_cst", 5),
];

/// Most `atomic_ref` names one source declares.
const MAX_REFS: usize = 4096;

/// The names declared as `atomic_ref`s.
pub(super) type AtomicRefs = HashSet<String>;

impl Parser<'_> {
    /// `cuda::atomic_ref<T[, cuda::thread_scope_X]> r(place);` (also `{place}`, and
    /// `std::atomic_ref<T>` from `cuda::std::`): the declaration of `r` as a pointer to
    /// `place`; `None` (nothing read) when none starts here.
    ///
    /// # Errors
    /// A non-scalar `T`, an unknown scope, a missing initializer.
    pub(super) fn atomic_ref_decl(&mut self) -> PResult<Option<StmtKind>> {
        let (Tok::Ident(ns), Tok::Punct("::"), Tok::Ident(w), Tok::Punct("<")) =
            (self.peek(0), self.peek(1), self.peek(2), self.peek(3))
        else {
            return Ok(None);
        };
        if !matches!(ns.as_str(), "cuda" | "std") || w != "atomic_ref" {
            return Ok(None);
        }
        let at = self.span();
        for _ in 0..4 {
            self.bump();
        }
        let no_gt = std::mem::replace(&mut self.no_gt, true);
        let t = self.base_type();
        self.no_gt = no_gt;
        let elem = match t? {
            Ty::Val(v) if v.lanes <= 1 => v,
            _ => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    "atomic_ref<T>: T must be a scalar type here (int, unsigned, float, …)",
                ))
            }
        };
        if self.eat(",") {
            // `cuda::thread_scope_block`, `cuda::std::thread_scope_block` (read `std::…`).
            while matches!(self.peek(0), Tok::Ident(n) if n == "cuda" || n == "std")
                && matches!(self.peek(1), Tok::Punct("::"))
            {
                self.bump();
                self.bump();
            }
            let s_at = self.span();
            let scope = self.ident()?;
            if !SCOPES.contains(&scope.as_str()) {
                return Err(KernelError::new(
                    s_at.line,
                    s_at.col,
                    format!(
                        "`{scope}` is not a thread scope: write one of cuda::{}",
                        SCOPES.join(", cuda::")
                    ),
                ));
            }
        }
        if !self.close_angle() {
            return self.err("`>` after atomic_ref's arguments");
        }
        let name_at = self.span();
        let name = self.ident()?;
        let close = if self.eat("(") {
            ")"
        } else if self.eat("{") {
            "}"
        } else {
            return Err(KernelError::new(
                name_at.line,
                name_at.col,
                format!("atomic_ref `{name}` needs the object it references: `{name}(x)`"),
            ));
        };
        let place = self.assign_expr()?;
        self.expect_punct(close)?;
        self.expect_punct(";")?;
        if self.atomic_refs.len() >= MAX_REFS {
            return Err(KernelError::new(
                name_at.line,
                name_at.col,
                format!("more than {MAX_REFS} atomic_ref declarations"),
            ));
        }
        let s = self.syn_span(at);
        let addr = Expr::new(ExprKind::AddrOf(Box::new(place)), s);
        self.declare(&name, Ty::Ptr(elem));
        self.atomic_refs.insert(name.clone());
        let span = self.syn_span(name_at);
        Ok(Some(StmtKind::Decl(
            Storage::default(),
            vec![Declarator {
                name,
                ty: Ty::Ptr(elem),
                array: None,
                init: Some(addr),
                span,
                id: NodeId::fresh(),
            }],
        )))
    }

    /// After `r.` where `r` is an `atomic_ref` and the member's name `m` (at `(`): the call
    /// of the atomic builtin; `None` (nothing read) when `recv` is no `atomic_ref`.
    ///
    /// # Errors
    /// A member not modelled here, a wrong number of arguments, an order that is no
    /// `memory_order_*`.
    pub(super) fn atomic_ref_call(
        &mut self,
        recv: &Expr,
        m: &str,
        span: Span,
    ) -> PResult<Option<Expr>> {
        let ExprKind::Ident(r) = &recv.kind else {
            return Ok(None);
        };
        // The name must still be the pointer the declaration made (a later function's
        // struct `r` with its own `load()` is not one).
        if !self.atomic_refs.contains(r)
            || !self.is_punct("(")
            || !matches!(self.var_type(r), Some(Ty::Ptr(_)))
            || self.var_struct(r).is_some()
        {
            return Ok(None);
        }
        if crate::atomics::atomic_ref_builtin(m).is_none() {
            return Err(KernelError::new(
                span.line,
                span.col,
                format!(
                    "atomic_ref::{m} is not modelled here: write fetch_add, fetch_sub, \
                     fetch_and, fetch_or, fetch_xor, fetch_max, fetch_min, load, store, \
                     exchange or compare_exchange_strong"
                ),
            ));
        }
        let builtin = format!("{}{m}", crate::atomics::ATOMIC_REF);
        let values = match m {
            "load" => 0,
            "compare_exchange_strong" => 2,
            _ => 1,
        };
        self.bump();
        let mut args = vec![recv.clone()];
        let mut order = None;
        if !self.eat(")") {
            loop {
                if args.len() > values {
                    order = Some(self.memory_order()?);
                } else {
                    args.push(self.assign_expr()?);
                }
                if self.eat(")") {
                    break;
                }
                self.expect_punct(",")?;
                if order.is_some() {
                    return self.err("`)`: atomic_ref's members take one memory order here");
                }
            }
        }
        if args.len() != values + 1 {
            return Err(KernelError::new(
                span.line,
                span.col,
                format!("atomic_ref::{m} takes {values} value argument(s) before the order"),
            ));
        }
        let order = match order {
            Some(o) => o,
            None => self.e_int(span, 5),
        };
        if m == "compare_exchange_strong" {
            // (ptr, &expected, desired, weak = false, success, failure): the one-order form's
            // failure order is the order, acq_rel read as acquire and release as relaxed
            // ([atomics.ref.operations], compare_exchange_strong).
            let expected = args.remove(1);
            let s = self.syn_span(span);
            args.insert(1, Expr::new(ExprKind::AddrOf(Box::new(expected)), s));
            let weak = self.e_int(span, 0);
            args.push(weak);
            let failure = match &order.kind {
                ExprKind::Int { value: 3, .. } => self.e_int(span, 0),
                ExprKind::Int { value: 4, .. } => self.e_int(span, 2),
                _ => order.clone(),
            };
            args.push(order);
            args.push(failure);
        } else {
            args.push(order);
        }
        self.node(ExprKind::Call(builtin, args), span).map(Some)
    }

    /// A memory order argument: `[cuda::][std::]memory_order_X` as its value, else any
    /// expression (`__ATOMIC_RELAXED`), checked where the atomic is compiled.
    fn memory_order(&mut self) -> PResult<Expr> {
        let at = self.span();
        let mut k = 0;
        while matches!(self.peek(k), Tok::Ident(n) if n == "cuda" || n == "std")
            && matches!(self.peek(k + 1), Tok::Punct("::"))
        {
            k += 2;
        }
        if let Tok::Ident(n) = self.peek(k) {
            if let Some((_, v)) = ORDERS.iter().find(|(o, _)| o == n) {
                let v = *v;
                for _ in 0..=k {
                    self.bump();
                }
                return Ok(self.e_int(at, v));
            }
        }
        self.assign_expr()
    }
}
