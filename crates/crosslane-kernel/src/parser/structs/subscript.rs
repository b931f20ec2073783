//! `operator[]` of a small vector struct (FlashInfer's `vec_t<T, N>`, CUTLASS's `Array`): a
//! member array `T data[N]` (or `float4 data[N / 4]`) and
//! `T& operator[](size_t i) { return ((T*)(&data))[i]; }` (also `reinterpret_cast<T*>(&data)[i]`
//! and `data[i]`), or one member of another type seen as `T` (FlashInfer's `vec_t<half, 8>`:
//! `uint4 data;` and `((half*)(&data))[i]`). The subscript `v[i]` calls the operator ([over.sub]/1: `x[y]` is
//! `x.operator[](y)`), whose result names element `i` of the array seen as `T` cells
//! ([expr.sub]/1, [basic.lval]/11 for the view through `T*`). Read that way, `v[i]` is
//! lowered to the body's element access on `v`'s own array, `(T*)(v.data)[i]`, which is an
//! lvalue: `v[i] = x;` and `y = v[i];` both work. An array member of a union member is
//! indexed the same way (`union { uint4 u; half h[8]; } data;` with `return data.h[i];`):
//! `v[i]` is `v.data.h[i]`, which the union's own lowering reads and writes
//! ([`super::unions`], [`super::punning`]). Another body is refused at the operator.

use super::*;

/// What `v[i]` names for a struct with `operator[]`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Subscript {
    /// The array member the operator indexes.
    field: String,
    /// The element type the operator views the array as (`T` of `(T*)(&data)`), when it
    /// differs from the array's own element type.
    view: Option<ValTy>,
    /// The member is one value, not an array (FlashInfer's `uint4 data;` read as `half`
    /// through `((T*)(&data))[i]`): `v[i]` takes its address, as the body does.
    whole: bool,
    /// The array member of the union (or struct) member `field` the operator indexes
    /// (`h` of `return data.h[i];`).
    inner: Option<String>,
}

/// The message for a body of another shape.
const SHAPES: &str = "`operator[]` is supported when its body returns an element of an array \
     member (`T data[N]`, a vector of T such as `float4 data[N / 4]`, or another type's array \
     such as `int4 data[N / 8]` seen as T), read as `return data[i];`, `return ((T*)data)[i];`, \
     `return ((T*)(&data))[i];` or `return reinterpret_cast<T*>(&data)[i];`, or an element of \
     one scalar or vector member seen through a pointer (FlashInfer's `uint4 data;` with \
     `return ((half*)(&data))[i];`), or an element of an array member of a union member \
     (`union { uint4 u; half h[8]; } data;` with `return data.h[i];`); write another body as \
     a named member function";

impl Parser<'_> {
    /// Whether the member at the position declares `operator[]` (before its `(`).
    pub(super) fn subscript_operator_starts(&self) -> bool {
        let mut k = 0;
        while k < 24 {
            match self.peek(k) {
                Tok::Ident(w) if w == "operator" => {
                    return matches!(self.peek(k + 1), Tok::Punct("["))
                        && matches!(self.peek(k + 2), Tok::Punct("]"));
                }
                Tok::Punct("(" | ";" | "{" | "}" | "=") | Tok::Eof => return false,
                _ => k += 1,
            }
        }
        false
    }

    /// `RET operator[](INT i) [const] { return E; }` of struct `sname`, read and recorded.
    ///
    /// # Errors
    /// A body other than `return` of an element of an array member; a parameter list other
    /// than one index.
    pub(super) fn subscript_operator(&mut self, sname: &str) -> PResult<()> {
        let at = self.span();
        while !self.is_word("operator") {
            if matches!(self.peek(0), Tok::Eof) {
                return self.err("`operator[]`");
            }
            self.bump();
        }
        self.bump(); // operator
        self.expect_punct("[")?;
        self.expect_punct("]")?;
        self.expect_punct("(")?;
        self.qualifiers()?;
        let index_ty = self.base_type()?;
        let param = self.ident()?;
        self.expect_punct(")")?;
        if !matches!(index_ty, Ty::Val(v) if v.lanes == 1 && !v.scalar.is_float()) {
            return Err(KernelError::new(
                at.line,
                at.col,
                "`operator[]` with a parameter of this type is not supported; take an integer index",
            ));
        }
        while matches!(self.peek(0), Tok::Ident(w) if matches!(w.as_str(), "const" | "noexcept" | "__device__" | "__host__"))
        {
            self.bump();
        }
        if self.eat(";") {
            return self.unsupported(SHAPES);
        }
        self.expect_punct("{")?;
        let body_at = self.span();
        if !self.eat_word("return") {
            return Err(KernelError::new(body_at.line, body_at.col, SHAPES));
        }
        let e = self.expr()?;
        self.expect_punct(";")?;
        self.expect_punct("}")?;
        let sub = self
            .subscript_of(sname, &e, &param)
            .ok_or_else(|| KernelError::new(body_at.line, body_at.col, SHAPES))?;
        if let Some(def) = self.structs.get_mut(sname) {
            // `const T& operator[](…) const` beside `T& operator[](…)`: the same element.
            def.subscript = Some(sub);
        }
        Ok(())
    }

    /// The element view `e` (the operator's returned expression) names: `ARR[param]` with
    /// `ARR` an array member of `sname`, through at most one cast to a pointer and an `&`.
    fn subscript_of(&self, sname: &str, e: &Expr, param: &str) -> Option<Subscript> {
        let ExprKind::Index(base, i) = &e.kind else {
            return None;
        };
        if !matches!(&i.kind, ExprKind::Ident(n) if n == param) {
            return None;
        }
        let (view, inner) = match &base.kind {
            ExprKind::Cast(Ty::Ptr(v), x) => (Some(*v), x.as_ref()),
            _ => (None, base.as_ref()),
        };
        let (addr, inner) = match &inner.kind {
            ExprKind::AddrOf(x) if view.is_some() => (true, x.as_ref()),
            _ => (false, inner),
        };
        // A member of this struct: `data`, `this->data`.
        let own = |x: &Expr| match &x.kind {
            ExprKind::Ident(n) => Some(n.clone()),
            ExprKind::Member(t, n) if matches!(&t.kind, ExprKind::Ident(w) if w == "this") => {
                Some(n.clone())
            }
            _ => None,
        };
        let field = match own(inner) {
            Some(n) => n,
            // `data.h` (an array member of a union or struct member), indexed as it is.
            None if view.is_none() => {
                let ExprKind::Member(outer, member) = &inner.kind else {
                    return None;
                };
                return self.nested_subscript(sname, &own(outer)?, member);
            }
            None => return None,
        };
        let def = self.structs.get(sname)?;
        let f = def.fields.iter().find(|f| f.name == field)?;
        match f.ty {
            FieldTy::Arr(elem, _) => Some(Subscript {
                field,
                view: view.filter(|v| *v != elem),
                whole: false,
                inner: None,
            }),
            // One scalar or vector seen through a pointer to its first byte: element `i` of
            // the view is bytes `i·sizeof(T)` on of the member ([expr.reinterpret.cast]/7,
            // [basic.lval]/11; the bytes as `reinterpret.rs` reads them), so `v[i]` is
            // `((T*)(&v.data))[i]`, read and written through the member's own storage.
            FieldTy::Val(_) if addr => Some(Subscript {
                field,
                view,
                whole: true,
                inner: None,
            }),
            _ => None,
        }
    }

    /// `field.member[i]` in `operator[]` of `sname`: `field` a union or struct member whose
    /// `member` is an array (a member of its own, or a union's view of the held member's
    /// bytes).
    fn nested_subscript(&self, sname: &str, field: &str, member: &str) -> Option<Subscript> {
        let def = self.structs.get(sname)?;
        let FieldTy::Struct(u) = &def.fields.iter().find(|f| f.name == field)?.ty else {
            return None;
        };
        let udef = self.structs.get(u)?;
        let is_array = udef
            .fields
            .iter()
            .any(|f| f.name == member && matches!(f.ty, FieldTy::Arr(..)))
            || udef.views.iter().any(|v| {
                v.name == member && matches!(&v.sel, super::unions::Sel::Bytes(FieldTy::Arr(..)))
            })
            || self.view_of_struct(u, member).is_some_and(|v| {
                udef.fields
                    .iter()
                    .any(|f| f.name == v.field && matches!(f.ty, FieldTy::Arr(..)))
                    && matches!(v.sel, super::unions::Sel::Whole)
            });
        is_array.then(|| Subscript {
            field: field.to_string(),
            view: None,
            whole: false,
            inner: Some(member.to_string()),
        })
    }

    /// `v[i]` of a struct value `v` whose struct has `operator[]`: the element the operator
    /// returns; `None` when `v` is no such struct.
    pub(crate) fn struct_subscript(&mut self, v: &Expr, i: Expr, span: Span) -> Option<Expr> {
        let s = self.struct_of(v)?;
        let sub = self.structs.get(&s)?.subscript.clone()?;
        let arr = Expr::new(ExprKind::Member(Box::new(v.clone()), sub.field), span);
        let arr = match sub.inner {
            Some(m) => Expr::new(ExprKind::Member(Box::new(arr), m), span),
            None => arr,
        };
        let arr = if sub.whole {
            Expr::new(ExprKind::AddrOf(Box::new(arr)), span)
        } else {
            arr
        };
        let arr = match sub.view {
            Some(t) => Expr::new(ExprKind::Cast(Ty::Ptr(t), Box::new(arr)), span),
            None => arr,
        };
        Some(Expr::new(ExprKind::Index(Box::new(arr), Box::new(i)), span))
    }
}
