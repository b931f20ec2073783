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
        // A layout union of a storage alias beside other members (`union ShmemLayout {
        // TempStorageT reduce; int aggregate; };`, for `alignof` of a dynamic shared array):
        // its definition is skipped; a variable of it meets the unknown type.
        if let Some(close) = self.storage_alias_layout() {
            self.pos = close + 1;
            self.expect_punct(";")?;
            return Ok(true);
        }
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

    /// The index of the `}` of the braces starting here when they hold a member whose type
    /// is an alias of a CUB storage (`TempStorageT m;`) and no `TempStorage` spelled out.
    fn storage_alias_layout(&self) -> Option<usize> {
        let open = self.pos;
        let close = self.closing(open)?;
        let inner = &self.toks[open + 1..close];
        let alias = inner
            .iter()
            .any(|t| matches!(&t.tok, Tok::Ident(w) if self.cub_storage_types.contains_key(w)));
        let spelled = inner
            .iter()
            .any(|t| matches!(&t.tok, Tok::Ident(w) if w == "TempStorage"));
        (alias && !spelled).then_some(close)
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

    /// `auto& t = reinterpret_cast<TS&>(smem);` (also `TS& t = …`, and `*reinterpret_cast<TS*>(smem)`)
    /// where `TS` names a CUB class's storage (`using TS = typename R::TempStorage;`): CUB's
    /// dynamic-shared-memory form (CCCL's `example_block_reduce_dyn_smem.cu`), read as the
    /// storage `__shared__ TS t;` declares. The collective's cells are its own here, so the
    /// bytes of `smem` the kernel reuses after a barrier are not the collective's (CUB API:
    /// the storage's contents after the collective are unspecified, and its reuse needs the
    /// barrier). `None` (position kept) for any other statement.
    ///
    /// # Errors
    /// A malformed declaration.
    pub(super) fn cub_storage_ref(&mut self) -> PResult<Option<StmtKind>> {
        let save = self.pos;
        let named = |p: &Self, k: usize| match p.peek(k) {
            Tok::Ident(n) => p.cub_storage_types.get(n).cloned(),
            _ => None,
        };
        // `auto&` or `TS&`.
        let c = match self.peek(0) {
            Tok::Ident(w) if w == "auto" => None,
            _ => named(self, 0),
        };
        let is_auto = matches!(self.peek(0), Tok::Ident(w) if w == "auto");
        if !(is_auto || c.is_some()) || !matches!(self.peek(1), Tok::Punct("&")) {
            return Ok(None);
        }
        let at = {
            self.bump();
            self.bump();
            self.span()
        };
        let Tok::Ident(name) = self.peek(0).clone() else {
            self.pos = save;
            return Ok(None);
        };
        self.bump();
        if !self.eat("=") {
            self.pos = save;
            return Ok(None);
        }
        let deref = self.eat("*");
        if !self.is_word("reinterpret_cast") || !matches!(self.peek(1), Tok::Punct("<")) {
            self.pos = save;
            return Ok(None);
        }
        let Some(cast) = named(self, 2) else {
            self.pos = save;
            return Ok(None);
        };
        let want = if deref { "*" } else { "&" };
        if !matches!(self.peek(3), Tok::Punct(p) if *p == want)
            || !matches!(self.peek(4), Tok::Punct(">"))
            || c.as_ref().is_some_and(|c| c != &cast)
        {
            self.pos = save;
            return Ok(None);
        }
        for _ in 0..5 {
            self.bump();
        }
        self.expect_punct("(")?;
        let _bytes = self.assign_expr()?;
        self.expect_punct(")")?;
        self.expect_punct(";")?;
        let decls = self.cub_storage_decls(cast, name, at, 1)?;
        Ok(Some(StmtKind::Decl(
            Storage {
                shared: true,
                external: false,
            },
            decls,
        )))
    }
}
