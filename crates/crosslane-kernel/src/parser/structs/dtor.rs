//! Destructors with statements (`~Guard() { out[i] = acc; }`): the body is the member function
//! [`DTOR`] of its class, and a block-scope object of the class is destroyed where its scope
//! ends by a call of it, the objects of one block in reverse order of their declaration (C++17
//! [class.dtor]/12: "a destructor is invoked implicitly … for a constructed object with
//! automatic storage duration when the block in which an object is created exits";
//! [stmt.dcl]/2 and [basic.life]; the reverse order, [stmt.jump]/2: "objects with automatic
//! storage duration … are destroyed in the reverse order of their construction").
//!
//! A `break`, `continue` or `return` that leaves the scope of such objects destroys them on
//! the way out, the last declared first ([stmt.jump]/2), after a `return`'s value is computed
//! ([stmt.return]/3). Refused before the run, each naming what to write instead: a `return` of
//! a struct or in a lambda past such an object, arrays of such objects, a `__shared__` one, one
//! declared in a `for`'s init-statement, directly in a `switch`'s case or as the whole body of
//! an `if` or a loop, a temporary, and a destructor with statements defined outside its class.

use super::super::Parser;
use crate::ast::*;
use crate::types::Ty;
use crate::KernelError;

type PResult<T> = Result<T, KernelError>;

/// The member function a destructor's body becomes (not a name a source can write).
pub(crate) const DTOR: &str = "~dtor";

/// A live block-scope object whose class has a destructor with statements.
#[derive(Clone, Debug)]
pub(crate) struct Destructible {
    /// The scope (index into the parser's scopes) it was declared in.
    scope: usize,
    name: String,
    class: String,
    at: Span,
}

impl Destructible {
    /// Whether it was declared in scope `scope` or one inside it.
    pub(crate) fn in_scope(&self, scope: usize) -> bool {
        self.scope >= scope
    }
}

impl Parser<'_> {
    /// Whether struct `s` has a destructor with statements.
    pub(crate) fn has_destructor(&self, s: &str) -> bool {
        self.structs
            .get(s)
            .is_some_and(|d| d.methods.contains_key(DTOR))
    }

    /// Records the block-scope object `name` of class `s`, declared at `at`, when its class has
    /// a destructor with statements.
    ///
    /// # Errors
    /// An array of such objects, or a `__shared__` / `extern` one.
    pub(crate) fn note_destructible(
        &mut self,
        s: &str,
        name: &str,
        at: Span,
        array: bool,
        storage: Storage,
    ) -> PResult<()> {
        if !self.has_destructor(s) || self.scopes.len() <= 1 {
            return Ok(());
        }
        if array || storage.shared || storage.external {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "`{name}`: destroying {} of `{s}`, whose destructor has statements, is not \
                     supported; declare each object on its own in a block",
                    if array {
                        "an array of objects"
                    } else {
                        "a `__shared__` or `extern` object"
                    }
                ),
            ));
        }
        self.destructibles.push(Destructible {
            scope: self.scopes.len() - 1,
            name: name.to_string(),
            class: s.to_string(),
            at,
        });
        Ok(())
    }

    /// Appends to `out` the destructor calls of the objects of the innermost scope, the last
    /// declared first, for the end of its block (at the current token, its `}`); the objects
    /// are no longer live.
    ///
    /// # Errors
    /// The call's own errors.
    #[inline(never)]
    pub(crate) fn scope_end_destructors(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        if self.destructibles.is_empty() {
            return Ok(());
        }
        let end = self.span();
        let scope = self.scopes.len().saturating_sub(1);
        while self.destructibles.last().is_some_and(|d| d.scope >= scope) {
            let Some(d) = self.destructibles.pop() else {
                break;
            };
            let receiver = Expr::new(ExprKind::Ident(d.name.clone()), end);
            let mark = self.pre.len();
            let call = self.lower_call(format!("@m:{DTOR}"), vec![receiver], end)?;
            out.extend(self.pre.drain(mark..));
            out.push(Stmt {
                kind: StmtKind::Expr(call),
                span: end,
                end,
            });
            let _ = d.class;
        }
        Ok(())
    }

    /// `break;` (`continue;` when `is_continue`) at `span`, already read: the jump, after the
    /// destructor calls of the objects it leaves ([`Parser::jump_destructors`]). Outside the
    /// statement parser's own frame, which every nested statement repeats.
    ///
    /// # Errors
    /// As [`Parser::jump_destructors`].
    #[inline(never)]
    pub(crate) fn break_or_continue(&mut self, is_continue: bool, span: Span) -> PResult<Stmt> {
        let (kind, word) = if is_continue {
            (StmtKind::Continue, "continue")
        } else {
            (StmtKind::Break, "break")
        };
        let end = self.last_end();
        let jump = Stmt { kind, span, end };
        let base = self.jump_base(is_continue);
        let mut calls = self.jump_destructors(word, base, span)?;
        if calls.is_empty() {
            return Ok(jump);
        }
        calls.push(jump);
        Ok(Stmt {
            kind: StmtKind::Block(calls),
            span,
            end,
        })
    }

    /// A loop's body, marking where `break` / `continue` go; checked as
    /// [`Parser::check_sub_stmt`] says.
    ///
    /// # Errors
    /// As said; the body's own.
    #[inline(never)]
    pub(crate) fn loop_body(&mut self) -> PResult<Stmt> {
        let live = self.destructibles.len();
        self.jump_bases.push((live, true));
        let body = self.stmt();
        self.jump_bases.pop();
        let body = body?;
        self.check_sub_stmt(live)?;
        Ok(body)
    }

    /// The destructor calls of the live objects declared since `base` (the length of the live
    /// list where the jump's target encloses), the last declared first, as statements for
    /// just before a jump (`what`) at `at` that leaves their scopes ([stmt.jump]/2); the objects
    /// stay live for the code after the jump.
    ///
    /// # Errors
    /// An object's name hidden at the jump by an inner declaration of that name.
    pub(crate) fn jump_destructors(
        &mut self,
        what: &str,
        base: usize,
        at: Span,
    ) -> PResult<Vec<Stmt>> {
        let leaving: Vec<Destructible> =
            self.destructibles.get(base..).unwrap_or_default().to_vec();
        let mut out = Vec::new();
        for d in leaving.iter().rev() {
            if self.var_struct(&d.name).map(|v| v.sname.as_str()) != Some(d.class.as_str()) {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "this `{what}` leaves the scope of `{}` (line {}), whose class `{}` has a \
                         destructor with statements, where an inner declaration hides the name; \
                         rename one of them",
                        d.name, d.at.line, d.class
                    ),
                ));
            }
            let receiver = Expr::new(ExprKind::Ident(d.name.clone()), at);
            let mark = self.pre.len();
            let call = self.lower_call(format!("@m:{DTOR}"), vec![receiver], at)?;
            out.extend(self.pre.drain(mark..));
            out.push(Stmt {
                kind: StmtKind::Expr(call),
                span: at,
                end: at,
            });
        }
        Ok(out)
    }

    /// `return e;` (or `return;`) at `at` with live objects whose class has a destructor: the
    /// value is computed into a temporary first, then every live object of the function is
    /// destroyed, the last declared first, then the temporary is returned ([stmt.return]/3:
    /// the result is initialized "before the destruction of … local variables of the block
    /// enclosing the return statement"; [stmt.jump]/2).
    ///
    /// # Errors
    /// A value of a type other than the function's value type (a lambda's, a struct), with the
    /// reason; [`Parser::jump_destructors`]'s.
    pub(crate) fn return_past_destructors(&mut self, e: Option<Expr>, at: Span) -> PResult<Stmt> {
        let mut list = Vec::new();
        let value = match e {
            None => None,
            Some(e) => {
                let Some(v) = self.ret_val.filter(|_| self.lambda.is_none()) else {
                    self.jump_past_destructors("return", 0, at)?;
                    return Ok(Stmt {
                        kind: StmtKind::Return(Some(e)),
                        span: at,
                        end: at,
                    });
                };
                let tmp = format!("~ret@{}:{}", at.line, at.col);
                list.push(Stmt {
                    kind: StmtKind::Decl(
                        Storage::default(),
                        vec![Declarator {
                            name: tmp.clone(),
                            ty: Ty::Val(v),
                            array: None,
                            init: Some(e),
                            span: at,
                            id: NodeId::fresh(),
                        }],
                    ),
                    span: at,
                    end: at,
                });
                Some(Expr::new(ExprKind::Ident(tmp), at))
            }
        };
        list.extend(self.jump_destructors("return", 0, at)?);
        list.push(Stmt {
            kind: StmtKind::Return(value),
            span: at,
            end: at,
        });
        Ok(Stmt {
            kind: StmtKind::Block(list),
            span: at,
            end: at,
        })
    }

    /// Refuses a jump (`return`, `break`, `continue`, named by `what`) at `at` that leaves the
    /// scope of a live object with a destructor: those declared since `base` (the length of
    /// the live list where the jump's target encloses).
    ///
    /// # Errors
    /// As said.
    pub(crate) fn jump_past_destructors(&self, what: &str, base: usize, at: Span) -> PResult<()> {
        if let Some(d) = self.destructibles.get(base..).and_then(|l| l.last()) {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "this `{what}` leaves the scope of `{}` (line {}), whose class `{}` has a \
                     destructor with statements; running destructors on a jump ([stmt.jump]/2) \
                     is not modelled: end the object's block before the `{what}` (put the object \
                     in an inner `{{ … }}`), or call the cleanup as a named member function",
                    d.name, d.at.line, d.class
                ),
            ));
        }
        Ok(())
    }

    /// The live list's length where the innermost loop (`loop_only`) or loop or `switch`
    /// encloses: a `continue` or `break` leaves the objects declared after it.
    pub(crate) fn jump_base(&self, loop_only: bool) -> usize {
        self.jump_bases
            .iter()
            .rev()
            .find(|(_, is_loop)| *is_loop || !loop_only)
            .map_or(0, |(n, _)| *n)
    }

    /// After the statement that is an `if`'s branch or a loop's body (`live`: the length of
    /// the live list before it): one that declares an object whose class has a destructor with
    /// statements, not in a block, would have its own scope ([stmt.select]/2, [stmt.iter]/2),
    /// which the parse does not keep. A check beside the statement's parse rather than a
    /// wrapper around it, so that nested statements take no extra stack frame.
    ///
    /// # Errors
    /// As said.
    pub(crate) fn check_sub_stmt(&self, live: usize) -> PResult<()> {
        if let Some(d) = self.destructibles.get(live..).and_then(|l| l.first()) {
            return Err(KernelError::new(
                d.at.line,
                d.at.col,
                format!(
                    "`{}` of class `{}`, whose destructor has statements, is declared as the \
                     whole body of an `if`, `else` or loop; put it in a block `{{ … }}`",
                    d.name, d.class
                ),
            ));
        }
        Ok(())
    }

    /// Parses a function's (or lambda's) body with `f`: its own objects and jump targets,
    /// not the enclosing function's.
    pub(crate) fn own_destructibles<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> PResult<T>,
    ) -> PResult<T> {
        let live = std::mem::take(&mut self.destructibles);
        let bases = std::mem::take(&mut self.jump_bases);
        let r = f(self);
        self.destructibles = live;
        self.jump_bases = bases;
        r
    }
}
