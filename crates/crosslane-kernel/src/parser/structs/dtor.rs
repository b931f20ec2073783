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

    /// The destructor calls of the objects of the innermost scope, the last declared first, as
    /// statements for the end of its block (at `end`); the objects are no longer live.
    ///
    /// # Errors
    /// The call's own errors.
    pub(crate) fn scope_end_destructors(&mut self, end: Span) -> PResult<Vec<Stmt>> {
        let scope = self.scopes.len().saturating_sub(1);
        let mut out = Vec::new();
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
        Ok(out)
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

    /// Parses a loop's body, marking where `break` / `continue` go ([`Parser::sub_stmt`]).
    ///
    /// # Errors
    /// As [`Parser::sub_stmt`].
    pub(crate) fn loop_body(&mut self) -> PResult<Stmt> {
        self.jump_bases.push((self.destructibles.len(), true));
        let r = self.sub_stmt();
        self.jump_bases.pop();
        r
    }

    /// Parses the statement that is an `if`'s branch or a loop's body. One that declares an
    /// object whose class has a destructor with statements, not in a block, would have its
    /// own scope ([stmt.select]/2, [stmt.iter]/2), which the parse does not keep: refused.
    ///
    /// # Errors
    /// As said; the statement's own.
    pub(crate) fn sub_stmt(&mut self) -> PResult<Stmt> {
        let live = self.destructibles.len();
        let s = self.stmt()?;
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
        Ok(s)
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
