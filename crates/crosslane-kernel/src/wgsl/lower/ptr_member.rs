//! A pointer to an array member of a structure passed to a helper (`fill(&s.v, 7u)` with `var
//! s: S; struct S { v: array<u32, 4>, … }`), which Tint accepts (WGSL § Function Calls: a
//! pointer argument is a memory view, here of a member of a function-scope variable).
//!
//! A structure local is held as one local per cell, so its array member has no array to point
//! at. The call passes a temporary array instead: the member's cells copied in before the call,
//! and copied back after it. That is exact because the helper reaches the caller's `function`
//! or `private` memory only through its pointer parameters, and WGSL § Alias Analysis rejects a
//! call in which two of them reach the same memory while one is written: nothing else sees
//! the member between the copy in and the copy back.

use super::*;

/// What the call does around a pointer to a member array: the statements before it (the
/// temporary declared and filled), the argument, the statements after it (the copy back).
pub(super) type MemberArray = (Vec<Stmt>, Expr, Vec<Stmt>);

impl Lower<'_> {
    /// For a pointer argument `a` to an array (`base`, in `space`) held as separate cells (a
    /// member of a structure local): the temporary that passes it. `None` for any other pointer
    /// argument, or an array of one cell (no different from a scalar's), or cells of mixed
    /// types.
    ///
    /// # Errors
    /// A cell the lowering cannot place.
    pub(super) fn member_array_argument(
        &mut self,
        a: Handle<Expression>,
        base: Handle<naga::Type>,
        space: AddressSpace,
        at: ast::Span,
    ) -> Result<Option<MemberArray>, KernelError> {
        let inner = self.module().types[base].inner.clone();
        if !matches!(inner, TypeInner::Array { .. }) || !places::pointer_kind(space, &inner) {
            return Ok(None);
        }
        let Some(cells) = self.type_cells(&inner) else {
            return Ok(None);
        };
        let Some(&(_, elem)) = cells.first() else {
            return Ok(None);
        };
        if cells.len() < 2 || cells.iter().any(|(_, t)| *t != elem) {
            return Ok(None);
        }
        let mut places = Vec::new();
        for &(c, _) in &cells {
            let p = self.place_c(a, Some(c), 0)?;
            if !matches!(p.kind, ExprKind::Ident(_)) {
                // An array of its own (a local, a buffer): passed as it is.
                return Ok(None);
            }
            places.push(p);
        }
        let tmp = format!("_ptr{}", a.index());
        let span = self.uniq(at);
        let mut before = vec![stmt(
            StmtKind::Decl(
                Storage::default(),
                vec![Declarator {
                    name: tmp.clone(),
                    ty: Ty::Ptr(elem),
                    array: Some(Some(int_lit(places.len() as u64, at))),
                    init: None,
                    span,
                    id: NodeId::fresh(),
                }],
            ),
            at,
        )];
        let cell = |k: usize| {
            ex(
                ExprKind::Index(
                    Box::new(ex(ExprKind::Ident(tmp.clone()), at)),
                    Box::new(int_lit(k as u64, at)),
                ),
                at,
            )
        };
        let set = |to: Expr, from: Expr| {
            stmt(
                StmtKind::Expr(ex(ExprKind::Assign(None, Box::new(to), Box::new(from)), at)),
                at,
            )
        };
        let mut after = Vec::new();
        for (k, p) in places.into_iter().enumerate() {
            before.push(set(cell(k), p.clone()));
            after.push(set(p, cell(k)));
        }
        Ok(Some((before, ex(ExprKind::Ident(tmp), at), after)))
    }
}
