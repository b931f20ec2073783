//! `constexpr` function templates called where device code needs a constant: `constexpr
//! unsigned warps = test_utils::max(BlockSize / LogicalWarpSize, 1u);` before
//! `__shared__ typename WarpScan<T, W>::TempStorage storage[warps];` (hipCUB's and rocPRIM's
//! tests). A template instance is read after the function that calls it (its pending
//! instantiation), so its body is not yet known where the constant is folded; here the
//! instances such an initializer calls are instantiated at once, their bodies recorded as
//! `constexpr` functions ([`super::constexpr_fn`]: C++17 [dcl.constexpr]/6, "the
//! instantiated template specialization of a constexpr function template … is constexpr";
//! [expr.const]/2, its call is a constant expression when its body is), and the pending
//! instantiation left as it was, so the run instantiates the function as before.
//!
//! Bounded: at most [`MAX_EAGER`] instances per initializer, each instantiated once per
//! source, the calls in its body at most [`super::host_tmpl_call::MAX_NESTED`] deep; the walk
//! over the initializer follows a tree the parser built (its height bounded by the depth
//! budget).

use super::Parser;
use crate::ast::{Expr, ExprKind};
use crate::lexer::Tok;

/// Most template instances one initializer instantiates for its value.
pub const MAX_EAGER: usize = 8;

impl Parser<'_> {
    /// Instantiates and records the `constexpr` function template instances `e` calls that
    /// are pending and not yet recorded (see the module documentation).
    pub(super) fn eager_constexpr_instances(&mut self, e: &Expr) {
        let mut names = Vec::new();
        call_names(e, &mut names);
        names.truncate(MAX_EAGER);
        for name in names {
            self.eager_constexpr_instance(&name, 0);
        }
    }

    fn eager_constexpr_instance(&mut self, name: &str, depth: u32) {
        if depth > super::host_tmpl_call::MAX_NESTED || self.constexpr_fns.contains_key(name) {
            return;
        }
        let Some(pending) = self.pending.iter().find(|p| p.0 == name).cloned() else {
            return;
        };
        let is_constexpr = self
            .templates
            .get(&pending.0)
            .or_else(|| self.templates.get(&pending.1))
            .is_some_and(|t| {
                t.tokens()
                    .iter()
                    .take_while(|x| !matches!(x.tok, Tok::Punct("(" | "{")))
                    .any(|x| matches!(&x.tok, Tok::Ident(w) if w == "constexpr"))
            });
        if !is_constexpr {
            return;
        }
        let saved = (
            self.pending.len(),
            self.instances.len(),
            self.extra_fns.len(),
        );
        let f = self.instantiate_one(pending).ok().flatten();
        let nested: Vec<String> = self
            .pending
            .get(saved.0..)
            .unwrap_or(&[])
            .iter()
            .map(|p| p.0.clone())
            .collect();
        // The instantiation is read again where the run instantiates it: its side effects on
        // the queues are undone, and only the recorded body is kept.
        let keep_nested: Vec<super::templates::Pending> =
            self.pending.get(saved.0..).unwrap_or(&[]).to_vec();
        self.pending.truncate(saved.0);
        self.instances.truncate(saved.1);
        self.extra_fns.truncate(saved.2);
        let Some(f) = f else {
            return;
        };
        self.record_const_value_fn(name.to_string(), &f);
        // Calls in its body of other instances: pending until recorded here.
        let before = self.pending.len();
        self.pending.extend(keep_nested);
        for n in nested.into_iter().take(MAX_EAGER) {
            self.eager_constexpr_instance(&n, depth + 1);
        }
        self.pending.truncate(before);
    }
}

/// The names of the functions `e` calls, outermost first (bounded by [`MAX_EAGER`]).
fn call_names(e: &Expr, out: &mut Vec<String>) {
    if out.len() >= MAX_EAGER {
        return;
    }
    match &e.kind {
        ExprKind::Call(n, args) => {
            out.push(n.clone());
            for a in args {
                call_names(a, out);
            }
        }
        ExprKind::Assign(_, a, b)
        | ExprKind::Binary(_, a, b)
        | ExprKind::Logical(_, a, b)
        | ExprKind::Comma(a, b)
        | ExprKind::Index(a, b) => {
            call_names(a, out);
            call_names(b, out);
        }
        ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => call_names(a, out),
        ExprKind::Ternary(c, a, b) => {
            call_names(c, out);
            call_names(a, out);
            call_names(b, out);
        }
        _ => {}
    }
}
