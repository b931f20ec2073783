//! `switch` (C++17 [stmt.switch]): the selector is promoted and evaluated once; control goes to
//! the `case` whose value equals it, else to `default`, else past the switch; a case falls
//! through into the next unless a `break` leaves the switch ([stmt.break]).
//!
//! Lowered here, before the compiler sees it, to the statements it already runs:
//!
//! ```text
//! { T sel = selector; int hit = 0;         // hit: some case matches (only with a default)
//!   hit |= sel == K1; hit |= sel == K2; …
//!   int fell = 0;                           // a case above ran and fell through
//!   do {
//!     if (fell || sel == K1) { fell = 1; body1 }
//!     if (fell || !hit) { fell = 1; body_default }
//!     if (fell || sel == K2) { fell = 1; body2 }
//!   } while (0);                            // `break` leaves it, as it leaves the switch
//! }
//! ```
//!
//! Per lane this is exactly the rule above, so divergent lanes take their own cases. A
//! `continue` inside the switch (which continues the loop around it) would continue the
//! `do … while (0)` instead: it is refused with what to write. A `case` label inside a nested
//! statement (Duff's device) is refused by the parser (labels are read only at the switch
//! body's top level).

use super::{PResult, Parser};
use crate::ast::*;
use crate::types::{BinOp, Scalar, Ty, ValTy};
use crate::KernelError;

/// One `case K:` or `default:` label and the statements after it.
struct Arm {
    /// `None` for `default`.
    value: Option<Expr>,
    body: Vec<Stmt>,
}

impl Parser<'_> {
    /// `switch (selector) { labels and statements }` from the `switch` word, lowered (see the
    /// module documentation).
    pub(super) fn switch_stmt(&mut self) -> PResult<Stmt> {
        let at = self.span();
        self.bump();
        self.expect_punct("(")?;
        let sel = self.expr()?;
        let sel = self.lower_struct(sel)?;
        self.expect_punct(")")?;
        let head_end = self.last_end();
        self.expect_punct("{")?;
        let mut arms: Vec<Arm> = Vec::new();
        let mut before_label = false;
        // `break` leaves the switch: the objects with destructors declared since here.
        let live = self.destructibles.len();
        self.jump_bases.push((live, false));
        loop {
            if self.eat("}") {
                break;
            }
            if self.is_word("case") {
                self.bump();
                let v = self.expr()?;
                self.expect_punct(":")?;
                arms.push(Arm {
                    value: Some(v),
                    body: Vec::new(),
                });
                continue;
            }
            if self.is_word("default") {
                if arms.iter().any(|a| a.value.is_none()) {
                    return Err(KernelError::new(
                        self.span().line,
                        self.span().col,
                        "a `switch` has at most one `default` label (C++17 [stmt.switch]/2)",
                    ));
                }
                self.bump();
                self.expect_punct(":")?;
                arms.push(Arm {
                    value: None,
                    body: Vec::new(),
                });
                continue;
            }
            let mark = self.pre.len();
            let s = self.stmt()?;
            let pre: Vec<Stmt> = self.pre.drain(mark..).collect();
            match arms.last_mut() {
                Some(a) => {
                    a.body.extend(pre);
                    a.body.push(s);
                }
                // Statements before the first label never run (C++17 [stmt.switch]/5).
                None => before_label = true,
            }
        }
        self.jump_bases.pop();
        if self.destructibles.len() > live {
            return Err(KernelError::new(
                at.line,
                at.col,
                "an object whose class has a destructor with statements, declared directly in a \
                 `switch`'s case, is not supported; put the case's statements in a block `{ … }`",
            ));
        }
        let _ = before_label;
        for a in &arms {
            for s in &a.body {
                if let Some(sp) = free_continue(s) {
                    return Err(KernelError::new(
                        sp.line,
                        sp.col,
                        "`continue` inside a `switch` is not supported (it would continue the \
                         switch, which is run as a one-pass loop); set a flag, `break`, and \
                         `continue` after the switch",
                    ));
                }
            }
        }
        let end = self.last_end();
        // [stmt.switch]/2: the selector undergoes integral promotion; the case values are
        // converted to the promoted type (64-bit selectors keep theirs).
        let ty = self
            .expr_type(&sel)
            .map_or(Scalar::I32, |t| t.scalar.promote());
        let (sel_at, fell_at, hit_at) = (self.syn_span(at), self.syn_span(at), self.syn_span(at));
        let ident = |name: &str, span: Span| Expr::new(ExprKind::Ident(name.to_string()), span);
        let int = |v: u64| super::cg_lower::int_lit(at, v);
        let stmt = |kind: StmtKind| Stmt {
            kind,
            span: at,
            end: head_end,
        };
        let decl = |name: &str, ty: Scalar, init: Expr, span: Span| {
            stmt(StmtKind::Decl(
                Storage::default(),
                vec![Declarator {
                    name: name.to_string(),
                    ty: Ty::Val(ValTy::scalar(ty)),
                    array: None,
                    init: Some(init),
                    span,
                    id: NodeId::fresh(),
                }],
            ))
        };
        let (sel_n, fell_n, hit_n) = (
            format!("switch@{}:{}", at.line, at.col),
            format!("fell@{}:{}", at.line, at.col),
            format!("matched@{}:{}", at.line, at.col),
        );
        let sel_is = |v: &Expr| {
            Expr::new(
                ExprKind::Binary(
                    BinOp::Eq,
                    Box::new(ident(&sel_n, sel_at)),
                    Box::new(Expr::new(
                        ExprKind::Cast(Ty::Val(ValTy::scalar(ty)), Box::new(v.clone())),
                        v.span,
                    )),
                ),
                v.span,
            )
        };
        let mut out = vec![decl(&sel_n, ty, sel, sel_at)];
        let has_default = arms.iter().any(|a| a.value.is_none());
        if has_default {
            out.push(decl(&hit_n, Scalar::I32, int(0), hit_at));
            for v in arms.iter().filter_map(|a| a.value.as_ref()) {
                out.push(stmt(StmtKind::Expr(Expr::new(
                    ExprKind::Assign(
                        Some(BinOp::Or),
                        Box::new(ident(&hit_n, hit_at)),
                        Box::new(sel_is(v)),
                    ),
                    v.span,
                ))));
            }
        }
        out.push(decl(&fell_n, Scalar::I32, int(0), fell_at));
        let mut pass = Vec::new();
        for a in arms {
            let test = match &a.value {
                Some(v) => sel_is(v),
                None => Expr::new(
                    ExprKind::Unary(crate::types::UnOp::Not, Box::new(ident(&hit_n, hit_at))),
                    at,
                ),
            };
            let cond = Expr::new(
                ExprKind::Logical(false, Box::new(ident(&fell_n, fell_at)), Box::new(test)),
                at,
            );
            let mut body = vec![stmt(StmtKind::Expr(Expr::new(
                ExprKind::Assign(None, Box::new(ident(&fell_n, fell_at)), Box::new(int(1))),
                at,
            )))];
            body.extend(a.body);
            pass.push(stmt(StmtKind::If(
                cond,
                Box::new(stmt(StmtKind::Block(body))),
                None,
            )));
        }
        out.push(Stmt {
            kind: StmtKind::DoWhile(Box::new(stmt(StmtKind::Block(pass))), int(0)),
            span: at,
            end,
        });
        Ok(Stmt {
            kind: StmtKind::Block(out),
            span: at,
            end,
        })
    }
}

/// Where a `continue` that is not inside a loop of its own sits in `s`. The walk's depth is
/// the statement nesting, which the parser's depth budget bounds.
fn free_continue(s: &Stmt) -> Option<Span> {
    match &s.kind {
        StmtKind::Continue => Some(s.span),
        StmtKind::If(_, a, b) => free_continue(a).or_else(|| b.as_deref().and_then(free_continue)),
        StmtKind::Block(list) => list.iter().find_map(free_continue),
        _ => None,
    }
}
