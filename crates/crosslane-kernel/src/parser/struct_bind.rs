//! Structured bindings (C++17 [dcl.struct.bind]): `auto [a, b] = make_pair_like(x);`,
//! `auto [x, y] = some_float2;`, `auto& [k, v] = kv;`, `const auto& [lo, hi] = range;`.
//!
//! [dcl.struct.bind]/1: a hidden variable `e` is declared as `auto e = init;` (or `auto& e`,
//! `const auto& e` with the ref-qualifiers written), and each name is an lvalue naming a part
//! of `e`: for an array, its elements in order (/2); for a class, its non-static data members
//! in declaration order, as many names as members (/4: "the number of elements in the
//! identifier-list shall be equal to the number of non-static data members of E"). The names
//! are lowered to local references to those parts ([`super::local_ref`]): with `auto&` the
//! hidden variable is the initializer's object itself, so writes through the names change it.
//! With `auto` the hidden variable is a copy that only the names reach, so a scalar or vector
//! part is declared as a variable of the name's own, initialized from the copy (the same
//! values; the trace then shows `a` and `b`, not the hidden `__sbN`).
//!
//! CUDA's vector types are classes whose public members are `x`, `y`, `z`, `w`
//! (`vector_types.h`: `struct float2 { float x; float y; };`), so `auto [x, y] = f2;` binds
//! them (nvcc accepts it). HIP's are `HIP_vector_type`s whose members sit in an anonymous union
//! (`hip_vector_types.h`), and [dcl.struct.bind]/4 requires that "E shall not have an
//! anonymous union member": hipcc refuses it, and so does the HIP dialect here.
//! Tuple-like types (`std::pair`, `std::tuple`: /3, through `std::tuple_size` and `get`) are
//! refused, naming the members to bind instead.

use super::structs::FieldTy;
use super::{PResult, Parser};
use crate::ast::{Declarator, Expr, ExprKind, NodeId, Span};
use crate::lexer::Tok;
use crate::types::Ty;
use crate::KernelError;

impl Parser<'_> {
    /// After `auto` (and `&` when `by_ref`), at `[`: the declaration up to its `;` (not
    /// consumed). Returns the declarators to run (the hidden copy, the references' indices).
    ///
    /// # Errors
    /// A name count that does not match the parts, a type with no parts to bind (a scalar, a
    /// pointer, a tuple-like or unknown type), a HIP vector type, or a reference binding to a
    /// value that is no object.
    pub(super) fn structured_binding(
        &mut self,
        by_ref: bool,
        is_const: bool,
    ) -> PResult<Vec<Declarator>> {
        let open = self.span();
        self.expect_punct("[")?;
        let mut names: Vec<(String, Span)> = Vec::new();
        loop {
            let at = self.span();
            names.push((self.ident()?, at));
            if !self.eat(",") {
                break;
            }
        }
        self.expect_punct("]")?;
        // `= e`, `{e}` or `(e)` ([dcl.struct.bind]/1: "an initializer of the form = assignment-
        // expression, { assignment-expression } or ( assignment-expression )").
        let init = if self.eat("=") {
            self.assign_expr()?
        } else if self.is_punct("{") || self.is_punct("(") {
            let close = if self.is_punct("{") { "}" } else { ")" };
            self.bump();
            let e = self.assign_expr()?;
            self.expect_punct(close)?;
            e
        } else {
            return self.err("`=`, `{` or `(` and the initializer of the structured binding");
        };
        if !self.is_punct(";") {
            return self
                .err("`;` after a structured binding's initializer (it declares one object)");
        }
        let refuse = |at: Span, msg: String| -> PResult<Vec<Declarator>> {
            Err(KernelError::new(at.line, at.col, msg))
        };
        let listed = || {
            names
                .iter()
                .map(|(n, _)| n.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        // The parts: each one's name in `e` (a member, or an element index) and type.
        enum Part {
            Member(String, Ty),
            Element(u64, Ty),
        }
        let mut parts: Vec<Part> = Vec::new();
        let vector = self.expr_type(&init).filter(|v| v.lanes > 1);
        let struct_name = self.struct_of(&init);
        if let Some(s) = &struct_name {
            let def = self.structs.get(s).cloned().unwrap_or_default();
            if !def.views.is_empty() {
                return refuse(
                    open,
                    format!(
                        "`{s}` has an anonymous union member, so it cannot be bound \
                         ([dcl.struct.bind]/4); write `auto v = …;` and use its members"
                    ),
                );
            }
            for f in &def.fields {
                let ty = match &f.ty {
                    FieldTy::Val(v) => Ty::Val(*v),
                    FieldTy::Arr(v, _) | FieldTy::Ptr(v) => Ty::Ptr(*v),
                    FieldTy::Struct(_) | FieldTy::SArr(..) => Ty::Void,
                };
                parts.push(Part::Member(f.name.clone(), ty));
            }
        } else if let Some(v) = vector {
            if self.hip {
                return refuse(
                    open,
                    "HIP's vector types hold their components in an anonymous union \
                     (`hip_vector_types.h`), so hipcc refuses a structured binding of one \
                     ([dcl.struct.bind]/4): read the components, `float a = v.x, b = v.y;`"
                        .to_string(),
                );
            }
            let one = Ty::Val(crate::types::ValTy::scalar(v.scalar));
            for c in ["x", "y", "z", "w"].iter().take(usize::from(v.lanes)) {
                parts.push(Part::Member((*c).to_string(), one));
            }
        } else if let ExprKind::Ident(n) = &init.kind {
            match (self.array_len(n), self.var_type(n)) {
                (Some(len), Some(Ty::Ptr(v))) => {
                    for k in 0..len.min(names.len() as u64 + 1) {
                        parts.push(Part::Element(k, Ty::Val(v)));
                    }
                    if len > names.len() as u64 {
                        return refuse(
                            open,
                            format!(
                                "`{n}` has {len} elements and the structured binding names {} \
                                 ([dcl.struct.bind]/2: one name per element)",
                                names.len()
                            ),
                        );
                    }
                }
                _ => {
                    return refuse(
                        init.span,
                        format!(
                            "`[{}]` binds a struct's members, a CUDA vector's components or an \
                             array's elements; `{n}` is none of those here: declare each \
                             variable (`auto a = …;`)",
                            listed()
                        ),
                    )
                }
            }
        } else {
            return refuse(
                init.span,
                format!(
                    "`[{}]` binds a struct's members, a CUDA vector's components or an array's \
                     elements, and the front end cannot tell that this initializer is one of \
                     those (a tuple-like `std::pair` or `std::tuple` is not modelled): declare \
                     each variable (`auto a = e.first;`)",
                    listed()
                ),
            );
        }
        if parts.len() != names.len() {
            return refuse(
                open,
                format!(
                    "`[{}]` names {} parts, and the initializer has {} ([dcl.struct.bind]/4: \
                     one name per non-static data member, in declaration order)",
                    listed(),
                    names.len(),
                    parts.len()
                ),
            );
        }
        // `e`: the initializer's object itself for a reference to a place, else a hidden copy.
        let mut out: Vec<Declarator> = Vec::new();
        let mut place = None;
        if by_ref {
            place = self.ref_place_of(&init, &mut out)?;
            if place.is_none() && !is_const {
                return refuse(
                    init.span,
                    format!(
                        "`auto& [{}]` must bind a variable, an array or buffer cell or a member \
                         ([dcl.init.ref]/5): bind one, or copy it with `auto [{}]`",
                        listed(),
                        listed()
                    ),
                );
            }
        }
        let copied = place.is_none();
        let e = match place {
            Some(p) => p,
            None => {
                let hidden = format!("__sb{}", self.ref_count);
                self.ref_count += 1;
                let span = self.syn_span(open);
                if let Some(s) = &struct_name {
                    let decls =
                        self.struct_declarator(s, &hidden, span, false, None, Some(init))?;
                    out.extend(decls);
                } else {
                    let ty = match (vector, &init.kind) {
                        (Some(v), _) => Ty::Val(v),
                        _ => {
                            // An array by value: each name a copy of its element
                            // (the hidden copy is reachable through the names only).
                            let e = init.clone();
                            for ((name, at), part) in names.iter().zip(&parts) {
                                let Part::Element(k, ty) = part else { continue };
                                self.no_redefinition(name, *at)?;
                                let idx = self.folded_literal(i128::from(*k), *at);
                                let cell = Expr::new(
                                    ExprKind::Index(Box::new(e.clone()), Box::new(idx)),
                                    *at,
                                );
                                let cell = self.lower_struct(cell)?;
                                self.declare(name, *ty);
                                out.push(Declarator {
                                    name: name.clone(),
                                    ty: *ty,
                                    array: None,
                                    init: Some(cell),
                                    span: *at,
                                    id: NodeId::fresh(),
                                });
                            }
                            return Ok(out);
                        }
                    };
                    let init = self.lower_struct(init)?;
                    self.declare(&hidden, ty);
                    out.push(Declarator {
                        name: hidden.clone(),
                        ty,
                        array: None,
                        init: Some(init),
                        span,
                        id: NodeId::fresh(),
                    });
                }
                Expr::new(ExprKind::Ident(hidden), span)
            }
        };
        for ((name, at), part) in names.iter().zip(parts) {
            self.no_redefinition(name, *at)?;
            let (target, ty) = match part {
                Part::Member(m, ty) => (ExprKind::Member(Box::new(e.clone()), m), ty),
                Part::Element(k, ty) => {
                    let idx = self.folded_literal(i128::from(k), *at);
                    (ExprKind::Index(Box::new(e.clone()), Box::new(idx)), ty)
                }
            };
            // A scalar or vector part of a hidden copy: a variable of its own, initialized
            // from the copy. The copy is reachable through the names only, so a write through
            // one name changes what that name reads and nothing else, as for the part itself;
            // and the trace shows the name the kernel wrote (the hidden `__sbN` is not shown).
            if copied && matches!(ty, Ty::Val(_)) {
                let part = self.lower_struct(Expr::new(target, *at))?;
                self.declare(name, ty);
                out.push(Declarator {
                    name: name.clone(),
                    ty,
                    array: None,
                    init: Some(part),
                    span: *at,
                    id: NodeId::fresh(),
                });
                continue;
            }
            // `e` is a name or a place whose indices are held in locals: each part is a
            // place too (a bit-field member included: [dcl.struct.bind]/4 lets a name
            // denote one).
            self.bind_name(name, ty, Expr::new(target, *at));
        }
        Ok(out)
    }
}

/// Whether the tokens at a declaration's start, after `auto` and its `&`, open a structured
/// binding (`[` then a name).
pub(super) fn opens(tok: &Tok) -> bool {
    matches!(tok, Tok::Punct("["))
}
