//! Named CUB collective objects: `WarpScan ws(temp_storage);` (or `BlockReduce br{temp};`) and
//! later calls of their methods, `ws.InclusiveSum(x, out)`, `br.Sum(x)`. CUB API, the
//! collective classes: the constructor takes the `TempStorage` reference the object keeps, and
//! each method runs the collective on it, so a named object's call is the temporary's call
//! `WarpScan(temp_storage).InclusiveSum(x, out)` (the class's own reading, [`super::cub`]).
//! The object is recorded at its declaration with its class alias and storage expression; a
//! method call hands the storage to the class's call in place of its `(storage).`.

use super::{PResult, Parser};
use crate::ast::{Expr, Span, StmtKind};
use crate::lexer::Tok;

impl Parser<'_> {
    /// `R name(storage);` / `R name{storage};` of a CUB class alias `R` (the position at `R`):
    /// the object recorded, an empty statement. `None` (position kept) for another shape.
    ///
    /// # Errors
    /// A malformed storage expression or a missing `)` / `}` / `;`.
    pub(super) fn cub_object_decl(&mut self) -> PResult<Option<StmtKind>> {
        let save = self.pos;
        let (Tok::Ident(class), Tok::Ident(name)) = (self.peek(0).clone(), self.peek(1).clone())
        else {
            return Ok(None);
        };
        let close = match self.peek(2) {
            Tok::Punct("(") => ")",
            Tok::Punct("{") => "}",
            _ => return Ok(None),
        };
        if !self.cub.contains_key(&class) {
            return Ok(None);
        }
        self.bump();
        self.bump();
        self.bump();
        if self.is_punct(close) {
            // `R name();` is a function declaration ([dcl.ambig.res]); `R name{}` has no storage.
            self.pos = save;
            return Ok(None);
        }
        let storage = self.assign_expr()?;
        self.expect_punct(close)?;
        self.expect_punct(";")?;
        self.cub_objects.insert(name, (class, storage));
        Ok(Some(StmtKind::Empty))
    }

    /// `name.Method(…)` of a named object `name` (the position after `name`, at `.`): the
    /// class's call with the object's storage.
    ///
    /// # Errors
    /// As the class's call.
    pub(super) fn cub_object_call(&mut self, name: &str, at: Span) -> PResult<Expr> {
        let Some((class, storage)) = self.cub_objects.get(name).cloned() else {
            return self.err("a CUB collective object");
        };
        self.cub_object_storage = Some(storage);
        let r = self.cub_call(Some(&class), at);
        self.cub_object_storage = None;
        r
    }

    /// The storage of a class's call and the `.` after it: a named object's (set by
    /// [`Self::cub_object_call`]), else `(storage).` read here.
    ///
    /// # Errors
    /// A missing `(`, `)` or `.`, a malformed storage expression.
    pub(super) fn cub_storage_then_dot(&mut self) -> PResult<Expr> {
        if let Some(st) = self.cub_object_storage.take() {
            self.expect_punct(".")?;
            return Ok(st);
        }
        self.expect_punct("(")?;
        let storage = self.assign_expr()?;
        self.expect_punct(")")?;
        self.expect_punct(".")?;
        Ok(storage)
    }
}
