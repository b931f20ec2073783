//! The CUB idiom of one shared allocation for several collectives, as the CUB API reference's
//! examples write it ("Temporary storage", e.g. `cub::BlockLoad`'s and `cub::BlockScan`'s
//! `TempStorage` in one union):
//!
//! ```text
//! __shared__ union {
//!     typename BlockLoadT::TempStorage load;
//!     typename BlockScanT::TempStorage scan;
//! } temp_storage;
//! ... BlockLoadT(temp_storage.load).Load(...); __syncthreads(); BlockScanT(temp_storage.scan)...
//! ```
//!
//! (and the same with `struct`, or the union type named first, `union S { … };`, and the
//! variable declared after it, `__shared__ S tmp;`). Each member becomes the collective's shared storage, named
//! `temp_storage.load`; the members of a union share one record of use, so a second collective
//! on the union with no `__syncthreads()` between them is warned of as on one `TempStorage`
//! (CUB API: a `TempStorage` may be reused only after a barrier; in a union the members'
//! bytes are the same bytes). A union member that is not a `TempStorage` is refused here.

use super::cub::CubClass;
use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::KernelError;

impl Parser<'_> {
    /// After `__shared__`: `union|struct { [typename] R::TempStorage m; … } name;` as the
    /// members' shared arrays; `None` (position kept) when no such union starts here.
    ///
    /// # Errors
    /// A member that is not a CUB `TempStorage`, a malformed declaration.
    pub(super) fn cub_storage_union(&mut self) -> PResult<Option<Vec<Declarator>>> {
        let save = self.pos;
        // `__shared__ SharedTS tmp;` of a union type defined before (`cub_union_type`).
        if let Tok::Ident(t) = self.peek(0).clone() {
            if let Some(members) = self.cub_union_types.get(&t).cloned() {
                if matches!(self.peek(1), Tok::Ident(_)) && matches!(self.peek(2), Tok::Punct(";"))
                {
                    self.bump();
                    let name = self.ident()?;
                    self.expect_punct(";")?;
                    return self.cub_union_decls(&name, members).map(Some);
                }
            }
        }
        if !(self.is_word("union") || self.is_word("struct")) {
            return Ok(None);
        }
        self.bump();
        if matches!(self.peek(0), Tok::Ident(_)) && matches!(self.peek(1), Tok::Punct("{")) {
            // A tag (`union Storage { … } s;`): the members are what matter here.
            self.bump();
        }
        if !self.is_punct("{") || !self.union_holds_temp_storage() {
            self.pos = save;
            return Ok(None);
        }
        let members = self.cub_union_members()?;
        let name = self.ident()?;
        self.expect_punct(";")?;
        self.cub_union_decls(&name, members).map(Some)
    }

    /// `union NAME { [typename] R::TempStorage m; … };` as a statement: the union type recorded
    /// for a later `__shared__ NAME var;`. False (position kept) when no such union starts here.
    ///
    /// # Errors
    /// A member that is not a CUB `TempStorage`, a malformed definition.
    pub(super) fn cub_union_type(&mut self) -> PResult<bool> {
        let save = self.pos;
        if !(self.is_word("union") || self.is_word("struct")) {
            return Ok(false);
        }
        self.bump();
        let (Tok::Ident(tag), Tok::Punct("{")) = (self.peek(0).clone(), self.peek(1).clone())
        else {
            self.pos = save;
            return Ok(false);
        };
        self.bump();
        if !self.union_holds_temp_storage() {
            self.pos = save;
            return Ok(false);
        }
        let members = self.cub_union_members()?;
        self.expect_punct(";")?;
        self.cub_union_types.insert(tag, members);
        Ok(true)
    }

    /// The members `{ [typename] R::TempStorage m; … }` from the `{`, past the `}`.
    fn cub_union_members(&mut self) -> PResult<Vec<(CubClass, String, Span)>> {
        self.bump();
        let mut members = Vec::new();
        while !self.eat("}") {
            let at = self.span();
            if self.is_word("typename") {
                self.bump();
            }
            let c = match self.peek(0).clone() {
                Tok::Ident(n) if self.cub.contains_key(&n) => {
                    self.bump();
                    self.cub.get(&n).cloned()
                }
                _ if self.cub_class_starts() => Some(self.cub_class()?),
                _ => None,
            };
            let Some(c) = c.filter(|_| self.eat("::") && self.is_word("TempStorage")) else {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    "a `__shared__` union of CUB storages holds `typename R::TempStorage m;` \
                     members only here; declare other shared data beside it",
                ));
            };
            self.bump();
            let m_at = self.span();
            let member = self.ident()?;
            self.expect_punct(";")?;
            members.push((c, member, m_at));
        }
        Ok(members)
    }

    /// The shared arrays of union variable `name`'s members (`name.member`).
    fn cub_union_decls(
        &mut self,
        name: &str,
        members: Vec<(CubClass, String, Span)>,
    ) -> PResult<Vec<Declarator>> {
        let at = self.span();
        let mut decls = Vec::new();
        for (c, member, m_at) in members {
            decls.extend(self.cub_storage_decls(c, format!("{name}.{member}"), m_at, 1)?);
        }
        if decls.is_empty() {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("`{name}` holds no CUB TempStorage"),
            ));
        }
        Ok(decls)
    }

    /// Whether the braces starting here hold a `TempStorage` member (so a plain shared union
    /// or struct is left to the struct reader).
    fn union_holds_temp_storage(&self) -> bool {
        let mut k = 1;
        let mut depth = 1u32;
        while depth > 0 {
            match self.peek(k) {
                Tok::Eof => return false,
                Tok::Punct("{") => depth += 1,
                Tok::Punct("}") => depth -= 1,
                Tok::Ident(w) if w == "TempStorage" => return true,
                _ => {}
            }
            k += 1;
        }
        false
    }

    /// The storage name of `base.m` when `base` is a union of CUB storages with member `m`.
    pub(super) fn cub_union_member(&self, base: &Expr, m: &str) -> Option<String> {
        let ExprKind::Ident(u) = &base.kind else {
            return None;
        };
        let full = format!("{u}.{m}");
        self.cub_storage.contains_key(&full).then_some(full)
    }
}
