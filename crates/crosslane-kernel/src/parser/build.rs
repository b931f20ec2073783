//! Syntax-tree builders: the nodes a lowering makes (expressions, statements, a device
//! function's parameters) at a source position, built directly instead of printing C++ text and
//! parsing it again (the front end's rule: cooperative groups and vendor helpers are lowered to
//! the registry's operations as nodes, never as C++ text; ARCHITECTURE.md).
//!
//! A [`Build`] either puts every node at one position ([`Build::at`]: a lowering that stands
//! in for one call, as the text lowerings did) or gives each node a synthesized position of
//! its own on the call's line ([`Build::fresh`]: the body of a device function the front end
//! makes, whose statements the trace shows at the user's call; [`Span::shown`] maps each back
//! to the call's column).
//!
//! Source: the node forms are the parser's own (`crate::ast`); what each lowering builds, and
//! the vendor rule behind it, is documented where the lowering is (`super::cg`,
//! `super::ascend_simt`).

use crate::ast::*;
use crate::types::{BinOp, Ty, UnOp};

/// A maker of syntax-tree nodes at a position.
pub(super) struct Build<'a> {
    at: Span,
    /// The parser's synthesized-node counter, for [`Build::fresh`].
    syn: Option<&'a mut u32>,
}

impl Build<'static> {
    /// Every node at `at`.
    pub(super) fn at(at: Span) -> Build<'static> {
        Build { at, syn: None }
    }
}

impl<'a> Build<'a> {
    /// Each node at a synthesized position of its own on `at`'s line, counted by the parser's
    /// counter `syn` (the same positions `Parser::syn_span` makes).
    pub(super) fn fresh(syn: &'a mut u32, at: Span) -> Build<'a> {
        Build { at, syn: Some(syn) }
    }

    /// The next node's position.
    pub(super) fn span(&mut self) -> Span {
        match self.syn.as_deref_mut() {
            Some(n) => synthesized(n, self.at),
            None => self.at,
        }
    }

    /// A node of `kind`.
    pub(super) fn node(&mut self, kind: ExprKind) -> Expr {
        let s = self.span();
        Expr::new(kind, s)
    }

    /// A name.
    pub(super) fn ident(&mut self, name: &str) -> Expr {
        self.node(ExprKind::Ident(name.to_string()))
    }

    /// An `int` literal.
    pub(super) fn int(&mut self, value: u64) -> Expr {
        self.node(ExprKind::Int {
            value,
            unsigned: false,
            long: false,
        })
    }

    /// An `unsigned` literal (`1u`).
    pub(super) fn uint(&mut self, value: u64) -> Expr {
        self.node(ExprKind::Int {
            value,
            unsigned: true,
            long: false,
        })
    }

    /// A string literal.
    pub(super) fn str(&mut self, s: &str) -> Expr {
        self.node(ExprKind::Str(s.to_string()))
    }

    /// `name(args)`.
    pub(super) fn call(&mut self, name: &str, args: Vec<Expr>) -> Expr {
        self.node(ExprKind::Call(name.to_string(), args))
    }

    /// `base.field`.
    pub(super) fn member(&mut self, base: Expr, field: &str) -> Expr {
        self.node(ExprKind::Member(Box::new(base), field.to_string()))
    }

    /// `a op b`.
    pub(super) fn bin(&mut self, op: BinOp, a: Expr, b: Expr) -> Expr {
        self.node(ExprKind::Binary(op, Box::new(a), Box::new(b)))
    }

    /// `op a`.
    pub(super) fn unary(&mut self, op: UnOp, a: Expr) -> Expr {
        self.node(ExprKind::Unary(op, Box::new(a)))
    }

    /// `(ty)a`.
    pub(super) fn cast(&mut self, ty: Ty, a: Expr) -> Expr {
        self.node(ExprKind::Cast(ty, Box::new(a)))
    }

    /// `c ? a : b`.
    pub(super) fn ternary(&mut self, c: Expr, a: Expr, b: Expr) -> Expr {
        self.node(ExprKind::Ternary(Box::new(c), Box::new(a), Box::new(b)))
    }

    /// `target = value`, or `target op= value`.
    pub(super) fn assign(&mut self, op: Option<BinOp>, target: Expr, value: Expr) -> Expr {
        self.node(ExprKind::Assign(op, Box::new(target), Box::new(value)))
    }

    /// A statement of `kind`.
    pub(super) fn stmt(&mut self, kind: StmtKind) -> Stmt {
        let span = self.span();
        Stmt {
            kind,
            span,
            end: span,
        }
    }

    /// `ty name = init;` (or `ty name;`).
    pub(super) fn decl(&mut self, name: &str, ty: Ty, init: Option<Expr>) -> Stmt {
        let name_at = self.span();
        let at = self.span();
        decl_at(name, ty, init, at, name_at)
    }

    /// `T1 n1 = i1, T2 n2 = i2, …;`: one declaration statement of several names, each with its
    /// own type (a struct value's members declared together, as the struct lowering declares
    /// them, one trace step for all).
    pub(super) fn decls(&mut self, items: Vec<(String, Ty, Option<Expr>)>) -> Stmt {
        let declarators = items
            .into_iter()
            .map(|(name, ty, init)| Declarator {
                name,
                ty,
                array: None,
                init,
                span: self.span(),
                id: NodeId::fresh(),
            })
            .collect();
        self.stmt(StmtKind::Decl(Storage::default(), declarators))
    }

    /// `(e1, e2, …)`: the expressions in order as one (the last's value); `None` for none.
    pub(super) fn comma(&mut self, exprs: Vec<Expr>) -> Option<Expr> {
        let mut it = exprs.into_iter();
        let first = it.next()?;
        Some(it.fold(first, |acc, e| {
            self.node(ExprKind::Comma(Box::new(acc), Box::new(e)))
        }))
    }

    /// `e;`.
    pub(super) fn expr_stmt(&mut self, e: Expr) -> Stmt {
        self.stmt(StmtKind::Expr(e))
    }

    /// `return e;`.
    pub(super) fn ret(&mut self, e: Option<Expr>) -> Stmt {
        self.stmt(StmtKind::Return(e))
    }

    /// `if (c) then else otherwise`.
    pub(super) fn if_(&mut self, c: Expr, then: Stmt, otherwise: Option<Stmt>) -> Stmt {
        self.stmt(StmtKind::If(c, Box::new(then), otherwise.map(Box::new)))
    }

    /// `for (init; cond; step) body`.
    pub(super) fn for_(&mut self, init: Stmt, cond: Expr, step: Expr, body: Stmt) -> Stmt {
        self.stmt(StmtKind::For(
            Some(Box::new(init)),
            Some(cond),
            Some(step),
            Box::new(body),
        ))
    }

    /// `{ stmts }`.
    pub(super) fn block(&mut self, stmts: Vec<Stmt>) -> Stmt {
        self.stmt(StmtKind::Block(stmts))
    }

    /// A by-value parameter `ty name`.
    pub(super) fn param(&mut self, name: &str, ty: Ty) -> Param {
        Param {
            name: name.to_string(),
            ty,
            reference: false,
            const_ref: false,
            span: self.span(),
        }
    }
}

/// The statement `ty name = init;` (or `ty name;`) at `at`, its declarator at `name_at`: the
/// one declaration node every lowering makes (a [`Build`]'s, and a temporary declared before
/// the statement being read, `Parser::items_temp`).
pub(super) fn decl_at(name: &str, ty: Ty, init: Option<Expr>, at: Span, name_at: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Decl(
            Storage::default(),
            vec![Declarator {
                name: name.to_string(),
                ty,
                array: None,
                init,
                span: name_at,
                id: NodeId::fresh(),
            }],
        ),
        span: at,
        end: at,
    }
}

/// A fresh span for a synthesized node on `at`'s line, counted by `syn` (the parser's
/// counter, `Parser::syn_span`).
pub(crate) fn synthesized(syn: &mut u32, at: Span) -> Span {
    *syn = syn.wrapping_add(1);
    Span {
        line: at.line,
        // n in 1..=4095: the column stays within u32 (4095 · 2^20 + 2^20 - 1 < 2^32).
        col: at.shown().col % SYNTH_COL + SYNTH_COL * (*syn % (u32::MAX / SYNTH_COL) + 1),
    }
}
