//! `goto` forward to a label later in the same or an enclosing block (C++17 [stmt.goto],
//! [stmt.label]): the "leave the nested loops" shape, `for (…) for (…) if (hit) goto done; …
//! done: use(…);`.
//!
//! [stmt.goto]/1: "The goto statement unconditionally transfers control to the statement
//! labeled by the identifier." A lane that jumps skips everything from the `goto` to the label
//! and goes on there; the other lanes go on where they are. Lowered here, before the compiler
//! sees it, to the statements it already runs, per lane exactly that:
//!
//! ```text
//! s0; s1 (holds `goto L`); s2; L: s3;
//! ⇒ s0; bool __goto#L = false;
//!   do { s1'; s2; } while (0);        // s1' has `{ __goto#L = true; break; }` for `goto L`,
//!   s3;                                // and `if (__goto#L) break;` after each loop it is in
//! ```
//!
//! The lane's `break` leaves the innermost loop; the flag takes it out of each enclosing one up
//! to the `do … while (0)` around the statements from the first `goto` to the label, and the
//! lane waits there for the others, then runs the labeled statement with them.
//!
//! Refused at the `goto`, with what to write instead: a jump backwards (a loop written with
//! `goto`), into a block, to a label of no enclosing block; a `break` or `continue` at the top
//! level of the skipped statements (it would leave the `do … while (0)`, not the loop around
//! it); a declaration among the skipped statements (its scope would end before the label;
//! jumping past one with an initializer is ill-formed, [stmt.dcl]/3).

use super::{PResult, Parser};
use crate::ast::*;
use crate::types::{Scalar, Ty, ValTy};
use crate::KernelError;

/// The callee of a `goto L;` placeholder until its label's block lowers it.
const GOTO: &str = "@goto:";
/// The callee of an `L:` placeholder.
const LABEL: &str = "@label:";

/// What to write instead of a `goto` that is not a forward jump to an enclosing block's label.
const INSTEAD: &str = "crosslane runs a `goto` forward to a label later in the same block or \
                       an enclosing one (`goto done;` out of nested loops); write a backward \
                       jump as a `while` / `do … while` loop, and a jump into a block as a flag \
                       tested there";

fn placeholder(s: &Stmt, prefix: &str) -> Option<String> {
    match &s.kind {
        StmtKind::Expr(Expr {
            kind: ExprKind::Call(n, _),
            ..
        }) => n.strip_prefix(prefix).map(str::to_string),
        _ => None,
    }
}

/// The statements of `s`, `s` first, in source order (an explicit stack, no recursion).
fn each_stmt(s: &Stmt) -> Vec<&Stmt> {
    let mut out = Vec::new();
    let mut stack: Vec<&Stmt> = vec![s];
    while let Some(x) = stack.pop() {
        out.push(x);
        let mut inner: Vec<&Stmt> = Vec::new();
        x.kind.for_each_part(|p| {
            if let StmtPartRef::Stmt(c) = p {
                inner.push(c);
            }
        });
        stack.extend(inner.into_iter().rev());
    }
    out
}

/// Whether `s` holds a `goto label` (at any depth).
fn holds_goto(s: &Stmt, label: &str) -> bool {
    each_stmt(s)
        .iter()
        .any(|x| placeholder(x, GOTO).as_deref() == Some(label))
}

/// The first `break` / `continue` in `s` outside every loop inside it.
fn loose_jump(s: &Stmt) -> Option<Span> {
    let mut stack: Vec<&Stmt> = vec![s];
    while let Some(x) = stack.pop() {
        match &x.kind {
            StmtKind::Break | StmtKind::Continue => return Some(x.span),
            StmtKind::If(_, a, b) => {
                stack.push(a);
                if let Some(b) = b {
                    stack.push(b);
                }
            }
            StmtKind::Block(list) => stack.extend(list.iter()),
            _ => {}
        }
    }
    None
}

impl Parser<'_> {
    /// `goto NAME;` (the word `goto` at the cursor) as its placeholder.
    pub(super) fn goto_stmt(&mut self) -> PResult<Stmt> {
        let span = self.span();
        self.bump();
        let label = self.ident()?;
        self.expect_punct(";")?;
        Ok(Stmt {
            kind: StmtKind::Expr(Expr::new(
                ExprKind::Call(format!("{GOTO}{label}"), Vec::new()),
                span,
            )),
            span,
            end: self.last_end(),
        })
    }

    /// `NAME:` (at the cursor, a `:` after it) as its placeholder; the labeled statement is
    /// the block's next one.
    pub(super) fn label_stmt(&mut self) -> PResult<Stmt> {
        let span = self.span();
        let label = self.ident()?;
        self.expect_punct(":")?;
        Ok(Stmt {
            kind: StmtKind::Expr(Expr::new(
                ExprKind::Call(format!("{LABEL}{label}"), Vec::new()),
                span,
            )),
            span,
            end: self.last_end(),
        })
    }

    /// A block's statements with each of its labels' forward `goto`s lowered (the module's
    /// text); a label nothing jumps to is dropped. `goto`s to labels of enclosing blocks stay
    /// for those.
    ///
    /// # Errors
    /// A `goto` jumping backwards to one of these labels, a `break`/`continue` or declaration
    /// among the statements it skips.
    pub(super) fn lower_gotos(&mut self, mut list: Vec<Stmt>) -> PResult<Vec<Stmt>> {
        if !list.iter().any(|s| placeholder(s, LABEL).is_some()) {
            return Ok(list);
        }
        let mut k = 0;
        while k < list.len() {
            let Some(label) = placeholder(&list[k], LABEL) else {
                k += 1;
                continue;
            };
            let at = list[k].span;
            list.remove(k);
            // A jump from the label on, the labeled statement included: backwards.
            if let Some(s) = list[k..].iter().find(|s| holds_goto(s, &label)) {
                let g = self.goto_span(s, &label).unwrap_or(s.span);
                return Err(KernelError::new(
                    g.line,
                    g.col,
                    format!(
                        "`goto {label};` jumps back to its label at line {}; {INSTEAD}",
                        at.line
                    ),
                ));
            }
            let Some(first) = list[..k].iter().position(|s| holds_goto(s, &label)) else {
                continue;
            };
            for s in &list[first..k] {
                let g = self.goto_span(&list[first], &label).unwrap_or(s.span);
                if let Some(j) = loose_jump(s) {
                    return Err(KernelError::new(
                        j.line,
                        j.col,
                        format!(
                            "a `break` or `continue` between `goto {label};` (line {}) and its \
                             label is not supported with the `goto`; set a flag and test it \
                             after the label",
                            g.line
                        ),
                    ));
                }
                if matches!(s.kind, StmtKind::Decl(..)) {
                    return Err(KernelError::new(
                        s.span.line,
                        s.span.col,
                        format!(
                            "a declaration between `goto {label};` (line {}) and its label: its \
                             scope would end at the jump's target ([stmt.dcl]/3); declare it \
                             before the `goto`",
                            g.line
                        ),
                    ));
                }
            }
            self.syn = self.syn.wrapping_add(1);
            let flag = format!("__goto#{label}#{}", self.syn);
            let skipped: Vec<Stmt> = list.drain(first..k).collect();
            let span = skipped.first().map_or(at, |s| s.span);
            let end = skipped.last().map_or(at, |s| s.end);
            let body: Vec<Stmt> = skipped
                .into_iter()
                .map(|s| self.goto_to_break(s, &label, &flag))
                .collect::<PResult<_>>()?;
            let decl = Stmt {
                kind: StmtKind::Decl(
                    Storage::default(),
                    vec![Declarator {
                        name: flag.clone(),
                        ty: Ty::Val(ValTy::scalar(Scalar::Bool)),
                        array: None,
                        init: Some(Expr::new(ExprKind::Bool(false), span)),
                        span,
                        id: NodeId::fresh(),
                    }],
                ),
                span,
                end: span,
            };
            let wrapper = Stmt {
                kind: StmtKind::DoWhile(
                    Box::new(Stmt {
                        kind: StmtKind::Block(body),
                        span,
                        end,
                    }),
                    Expr::new(
                        ExprKind::Int {
                            value: 0,
                            unsigned: false,
                            long: false,
                        },
                        end,
                    ),
                ),
                span,
                end,
            };
            list.insert(first, wrapper);
            list.insert(first, decl);
            k = first + 2;
        }
        Ok(list)
    }

    /// Where the first `goto label` in `s` is.
    fn goto_span(&self, s: &Stmt, label: &str) -> Option<Span> {
        each_stmt(s)
            .into_iter()
            .find(|x| placeholder(x, GOTO).as_deref() == Some(label))
            .map(|x| x.span)
    }

    /// `s` with each `goto label` as `{ flag = true; break; }` and `if (flag) break;` after
    /// each loop holding one. Recurses once per statement nesting level, which the parser's
    /// depth budget bounds.
    fn goto_to_break(&mut self, s: Stmt, label: &str, flag: &str) -> PResult<Stmt> {
        if !holds_goto(&s, label) {
            return Ok(s);
        }
        self.enter()?;
        let r = self.goto_to_break_inner(s, label, flag);
        self.depth -= 1;
        r
    }

    fn goto_to_break_inner(&mut self, s: Stmt, label: &str, flag: &str) -> PResult<Stmt> {
        let (span, end) = (s.span, s.end);
        let stmt = |kind| Stmt { kind, span, end };
        let flag_expr = || Expr::new(ExprKind::Ident(flag.to_string()), span);
        let leave = || Stmt {
            kind: StmtKind::If(
                flag_expr(),
                Box::new(Stmt {
                    kind: StmtKind::Break,
                    span,
                    end,
                }),
                None,
            ),
            span,
            end,
        };
        if placeholder(&s, GOTO).as_deref() == Some(label) {
            let set = Expr::new(
                ExprKind::Assign(
                    None,
                    Box::new(flag_expr()),
                    Box::new(Expr::new(ExprKind::Bool(true), span)),
                ),
                span,
            );
            return Ok(stmt(StmtKind::Block(vec![
                stmt(StmtKind::Expr(set)),
                stmt(StmtKind::Break),
            ])));
        }
        let kind = match s.kind {
            StmtKind::Block(list) => StmtKind::Block(
                list.into_iter()
                    .map(|x| self.goto_to_break(x, label, flag))
                    .collect::<PResult<_>>()?,
            ),
            StmtKind::If(c, a, b) => StmtKind::If(
                c,
                Box::new(self.goto_to_break(*a, label, flag)?),
                match b {
                    Some(b) => Some(Box::new(self.goto_to_break(*b, label, flag)?)),
                    None => None,
                },
            ),
            StmtKind::While(c, body) => {
                let body = self.goto_to_break(*body, label, flag)?;
                StmtKind::Block(vec![stmt(StmtKind::While(c, Box::new(body))), leave()])
            }
            StmtKind::DoWhile(body, c) => {
                let body = self.goto_to_break(*body, label, flag)?;
                StmtKind::Block(vec![stmt(StmtKind::DoWhile(Box::new(body), c)), leave()])
            }
            StmtKind::For(init, c, step, body) => {
                let body = self.goto_to_break(*body, label, flag)?;
                StmtKind::Block(vec![
                    stmt(StmtKind::For(init, c, step, Box::new(body))),
                    leave(),
                ])
            }
            other => other,
        };
        Ok(stmt(kind))
    }

    /// The first `goto` left in a function's body (its label in no enclosing block after it),
    /// refused.
    ///
    /// # Errors
    /// That `goto`, with what to write instead.
    pub(super) fn refuse_stray_goto(&self, body: &Stmt) -> PResult<()> {
        let stray = each_stmt(body).into_iter().find_map(|x| {
            if let Some(l) = placeholder(x, GOTO) {
                Some((x.span, l, true))
            } else {
                placeholder(x, LABEL).map(|l| (x.span, l, false))
            }
        });
        match stray {
            Some((at, l, true)) => Err(KernelError::new(
                at.line,
                at.col,
                format!("`goto {l};`: no label `{l}` later in this block or one enclosing it; {INSTEAD}"),
            )),
            Some((at, l, false)) => Err(KernelError::new(
                at.line,
                at.col,
                format!("the label `{l}:` labels a statement that is not in a block (the body of an `if`, a loop); {INSTEAD}"),
            )),
            None => Ok(()),
        }
    }
}
