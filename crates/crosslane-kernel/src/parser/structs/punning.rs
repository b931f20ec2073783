//! Unions whose members reinterpret each other's bytes (type punning): `union { float f;
//! uint32_t u; } v; v.f = x; bits = v.u;`, `union { half2 h; uint32_t u; }`, vLLM's
//! `union { uint32_t u32; uint16_t u16[2]; }`.
//!
//! ISO C++17 [class.union]/1 leaves reading a member other than the last written undefined;
//! GCC and Clang document it as reading the stored bytes (see [`crate::reinterpret`]), and
//! nvcc's device compiler and hipcc do so. That is what runs here, with no diagnostic per read.
//!
//! How such a union is held: by ONE member, the first widest one whose scalars are the
//! narrowest (`u16[2]` over `u32`, `half2` over `uint32_t`, the first of `float`/`uint32_t`),
//! so every other member's scalar spans whole held scalars ("units"). Every other member is a
//! view at its byte offset ([`Sel::Bytes`]): reading a scalar, a vector or an array element of
//! it reads the units under it as bytes (`__crosslane_bytes:u32(0, h.x, h.y)`); writing one
//! writes each unit under it from the written value's bytes. A unit never written is
//! undefined, so a read that covers it is undefined with that unit's reason, while a write of
//! one member leaves the units it does not cover as they were (vLLM's `u16[0] = a; u16[1] = b;
//! return u32;` reads both halves).

use super::arrays::value_layout;
use super::unions::{Sel, UMember, View};
use super::*;
use crate::reinterpret;

/// A scalar run of a union the front end can name: a member's scalar, vector component or
/// array element, at a byte offset of the union, with its held field.
#[derive(Clone, Debug)]
pub(super) struct Place {
    /// The held field's leaf expression (`v.f`, `t.u16`).
    pub(super) held: Expr,
    /// The held field's type.
    pub(super) held_ty: FieldTy,
    /// Byte offset from the union's start (the held field's start); with `dynamic`, of the
    /// array's element 0.
    pub(super) off: u64,
    /// What is named there: a value, or a whole array member (which must be indexed).
    pub(super) ty: FieldTy,
    /// The element of an array view chosen by an index known only at run time
    /// ([`super::pun_index`]).
    pub(super) dynamic: Option<DynIndex>,
}

/// The element of an array view chosen by an index known only at run time
/// ([`super::pun_index`]).
#[derive(Clone, Debug)]
pub(super) struct DynIndex {
    /// The index, lowered.
    pub(super) index: Expr,
    /// Elements of the array.
    pub(super) count: u32,
    /// Bytes from one element to the next.
    pub(super) stride: u64,
}

/// The scalar type and count of units of a held member (`half2` → (half, 2)).
fn units_of(t: &FieldTy) -> Option<(ValTy, u64)> {
    match t {
        FieldTy::Val(v) if v.lanes <= 4 => Some((ValTy::scalar(v.scalar), u64::from(v.lanes))),
        FieldTy::Arr(v, n) if v.lanes <= 4 => {
            Some((ValTy::scalar(v.scalar), u64::from(*n) * u64::from(v.lanes)))
        }
        _ => None,
    }
}

/// The scalar width in bytes of a value or array member (`None`: not one).
fn scalar_width(t: &FieldTy) -> Option<u64> {
    match t {
        FieldTy::Val(v) | FieldTy::Arr(v, _) => Some(value_layout(ValTy::scalar(v.scalar)).0),
        _ => None,
    }
}

/// Size in bytes of a value or array member.
fn field_size(t: &FieldTy) -> Option<u64> {
    match t {
        FieldTy::Val(v) => Some(value_layout(*v).0),
        FieldTy::Arr(v, n) => Some(value_layout(*v).0 * u64::from(*n)),
        _ => None,
    }
}

/// The held member and every other member's view, for a union whose members reinterpret
/// bytes (see the module). `Err` says why the union cannot be held so.
pub(super) fn pun_layout(
    members: &[UMember],
    offsets: impl Fn(&UMember) -> Vec<((String, FieldTy), u64)>,
) -> Result<(usize, Vec<View>), String> {
    let size = |m: &UMember| match m {
        UMember::One(_, t) => field_size(t).unwrap_or(0),
        UMember::Group(_) => offsets(m)
            .iter()
            .map(|((_, t), o)| o + field_size(t).unwrap_or(0))
            .max()
            .unwrap_or(0),
    };
    let widest = members.iter().map(size).max().unwrap_or(0);
    // The first widest single member of the narrowest scalars.
    let held_at = members
        .iter()
        .enumerate()
        .filter_map(|(k, m)| match m {
            UMember::One(_, t) if size(m) == widest && units_of(t).is_some() => {
                Some((scalar_width(t)?, k))
            }
            _ => None,
        })
        .min()
        .map(|(_, k)| k)
        .ok_or_else(|| {
            "a union that reinterprets bytes needs a widest member that is a scalar, a vector of \
             up to 4 components or an array of them (it holds the union's bytes)"
                .to_string()
        })?;
    let UMember::One(held_name, held_ty) = &members[held_at] else {
        return Err("the held member must be a single member".to_string());
    };
    let unit = scalar_width(held_ty).unwrap_or(1);
    let mut views = Vec::new();
    for (k, m) in members.iter().enumerate() {
        if k == held_at {
            continue;
        }
        for ((name, ty), off) in offsets(m) {
            if matches!(ty, FieldTy::Ptr(_)) {
                return Err(format!(
                    "pointer member `{name}` in a union that reinterprets bytes: a pointer's \
                     bytes are not emulated (its address is no number here); keep the pointer \
                     out of the union"
                ));
            }
            let ok = matches!(&ty, FieldTy::Val(v) | FieldTy::Arr(v, _) if v.lanes <= 4)
                && scalar_width(&ty).is_some_and(|w| w % unit == 0)
                && off % unit == 0;
            if !ok {
                return Err(format!(
                    "member `{name}` cannot be read from the held member `{held_name}`'s \
                     {unit}-byte scalars: a member that reinterprets bytes must be a scalar, a \
                     vector of up to 4 components or an array of them, at least as wide as the \
                     narrowest scalar of the widest members (write narrower scalars as one \
                     array member, e.g. `uint8_t b[4]`)"
                ));
            }
            views.push(View {
                name,
                field: held_name.clone(),
                sel: Sel::Bytes(ty),
                offset: off,
            });
        }
    }
    Ok((held_at, views))
}

impl Parser<'_> {
    /// The union place `e` names, if it names one through a byte view: `v.u`, `t.u16[1]`,
    /// `x.h.y` (a component of a vector view).
    ///
    /// # Errors
    /// An array view indexed with no constant, or out of its bounds.
    pub(super) fn pun_place(&mut self, e: &Expr) -> PResult<Option<Place>> {
        let span = e.span;
        match &e.kind {
            ExprKind::Member(b, f) => {
                if let Some(p) = self.pun_place(b)? {
                    let FieldTy::Val(v) = p.ty else {
                        return Ok(None);
                    };
                    let k = ["x", "y", "z", "w"].iter().position(|c| c == f);
                    let Some(k) = k.filter(|k| *k < usize::from(v.lanes)) else {
                        return Err(KernelError::new(
                            span.line,
                            span.col,
                            format!("`{}` has no component `{f}`", v.name()),
                        ));
                    };
                    let one = value_layout(ValTy::scalar(v.scalar)).0;
                    return Ok(Some(Place {
                        off: p.off + one * k as u64,
                        ty: FieldTy::Val(ValTy::scalar(v.scalar)),
                        ..p
                    }));
                }
                if !self.has_bytes_view(f) {
                    return Ok(None);
                }
                let Some((s, leaves)) = self.leaves_of(b, None)? else {
                    return Ok(None);
                };
                let Some(v) = self.view_of_struct(&s, f) else {
                    return Ok(None);
                };
                let Sel::Bytes(ty) = v.sel else {
                    return Ok(None);
                };
                let held_ty = self
                    .structs
                    .get(&s)
                    .and_then(|d| d.fields.iter().find(|x| x.name == v.field))
                    .map(|x| x.ty.clone());
                let held = leaves.into_iter().find(|(p, _)| *p == v.field);
                let (Some(held_ty), Some((_, held))) = (held_ty, held) else {
                    return Err(KernelError::new(
                        span.line,
                        span.col,
                        format!("`{s}` has no member `{}`", v.field),
                    ));
                };
                Ok(Some(Place {
                    held,
                    held_ty,
                    off: v.offset,
                    ty,
                    dynamic: None,
                }))
            }
            ExprKind::Index(a, i) => {
                let Some(p) = self.pun_place(a)? else {
                    return Ok(None);
                };
                let FieldTy::Arr(v, n) = p.ty else {
                    return Ok(None);
                };
                let i_src = (**i).clone();
                let i = self.lower_struct(i_src.clone())?;
                let Some(k) = super::super::const_int(&i).or_else(|| self.fold_int(&i)) else {
                    // An index known only at run time ([`super::pun_index`]).
                    let dynamic = Self::pun_dyn_index(e, a, &i_src, i, v, n)?;
                    return Ok(Some(Place {
                        ty: FieldTy::Val(v),
                        dynamic: Some(dynamic),
                        ..p
                    }));
                };
                let k = u32::try_from(k).ok().filter(|k| *k < n).ok_or_else(|| {
                    KernelError::new(
                        span.line,
                        span.col,
                        format!(
                            "index {k} is outside the union's array member of {n} elements \
                             ([expr.add]/4: undefined)"
                        ),
                    )
                })?;
                Ok(Some(Place {
                    off: p.off + value_layout(v).0 * u64::from(k),
                    ty: FieldTy::Val(v),
                    ..p
                }))
            }
            _ => Ok(None),
        }
    }

    /// Whether any struct has a byte view named `f` (a cheap test before the lookups).
    fn has_bytes_view(&self, f: &str) -> bool {
        self.structs.values().any(|d| {
            d.views
                .iter()
                .any(|v| v.name == f && matches!(v.sel, Sel::Bytes(_)))
        })
    }

    /// The held units a place's `size` bytes cover, with the byte offset of the first unit's
    /// start from the place's start (≤ 0, as a count of bytes before it).
    pub(super) fn pun_units(
        &mut self,
        p: &Place,
        size: u64,
        span: Span,
    ) -> PResult<(u64, Vec<Expr>)> {
        let (unit_ty, count) = units_of(&p.held_ty).unwrap_or((ValTy::scalar(Scalar::U8), 0));
        let unit = value_layout(unit_ty).0.max(1);
        let first = p.off / unit;
        let last = (p.off + size).div_ceil(unit);
        if last > count {
            return Err(KernelError::new(
                span.line,
                span.col,
                "this union member reaches past the held member's bytes",
            ));
        }
        let mut out = Vec::new();
        for k in first..last {
            out.push(self.unit_expr(p, k, span)?);
        }
        Ok((p.off - first * unit, out))
    }

    /// The held member's unit `k` as an expression (`h.y`, `u16[1]`, `v[2].x`).
    fn unit_expr(&mut self, p: &Place, k: u64, span: Span) -> PResult<Expr> {
        let comp = |e: Expr, c: u64, sp: Span| {
            Expr::new(
                ExprKind::Member(
                    Box::new(e),
                    ["x", "y", "z", "w"][(c % 4) as usize].to_string(),
                ),
                sp,
            )
        };
        let int = |n: u64, sp: Span| {
            Expr::new(
                ExprKind::Int {
                    value: n,
                    unsigned: false,
                    long: false,
                },
                sp,
            )
        };
        let sp = self.syn_span(span);
        Ok(match &p.held_ty {
            FieldTy::Val(v) if v.lanes > 1 => comp(p.held.clone(), k, sp),
            FieldTy::Arr(v, _) if v.lanes > 1 => {
                let l = u64::from(v.lanes);
                let elem = self.node(
                    ExprKind::Index(Box::new(p.held.clone()), Box::new(int(k / l, sp))),
                    sp,
                )?;
                comp(elem, k % l, sp)
            }
            FieldTy::Arr(..) => self.node(
                ExprKind::Index(Box::new(p.held.clone()), Box::new(int(k, sp))),
                sp,
            )?,
            _ => p.held.clone(),
        })
    }

    /// Reads a place's value from the held units' bytes.
    ///
    /// # Errors
    /// An array member read whole (it must be indexed).
    pub(super) fn pun_read(&mut self, p: &Place, span: Span) -> PResult<Expr> {
        if let Some(d) = &p.dynamic {
            let (idx, set) = self.dyn_index_temp(d, span)?;
            let read = self.dyn_read(p, d, &idx, span)?;
            return self.node(ExprKind::Comma(Box::new(set), Box::new(read)), span);
        }
        let FieldTy::Val(v) = p.ty else {
            return Err(KernelError::new(
                span.line,
                span.col,
                "an array member of a union is read whole here: read it an element at a time, \
                 indexing it (`member[i]`)",
            ));
        };
        let (start, units) = self.pun_units(p, value_layout(v).0, span)?;
        let sp = self.syn_span(span);
        let mut args = vec![Expr::new(
            ExprKind::Int {
                value: start,
                unsigned: false,
                long: false,
            },
            sp,
        )];
        args.extend(units);
        self.node(ExprKind::Call(reinterpret::callee(v), args), sp)
    }

    /// `place op= rhs` (`op` `None` for `=`): the value converted to the place's type, kept in
    /// a temporary, each unit under the place written from its bytes; the expression's value is
    /// the place read back ([expr.ass]/1: the left operand after the assignment). An element
    /// chosen at run time writes the units of that element only ([`super::pun_index`]).
    pub(super) fn pun_write(
        &mut self,
        p: &Place,
        op: Option<BinOp>,
        rhs: Expr,
        span: Span,
    ) -> PResult<Expr> {
        let FieldTy::Val(v) = p.ty else {
            return Err(KernelError::new(
                span.line,
                span.col,
                "an array member of a union is assigned whole here: assign it an element at a \
                 time, indexing it (`member[i] = x;`)",
            ));
        };
        let rhs = self.lower_struct(rhs)?;
        // The run-time index, taken once, before the value ([expr.ass]/1 sequences the
        // right operand before the assignment, and either order gives the same element).
        let index = match &p.dynamic {
            Some(d) => Some((d, self.dyn_index_temp(d, span)?)),
            None => None,
        };
        let value = match (op, &index) {
            (Some(op), Some((d, (idx, _)))) => {
                let old = self.dyn_read(p, d, idx, span)?;
                self.node(ExprKind::Binary(op, Box::new(old), Box::new(rhs)), span)?
            }
            (Some(op), None) => {
                let old = self.pun_read(p, span)?;
                self.node(ExprKind::Binary(op, Box::new(old), Box::new(rhs)), span)?
            }
            (None, _) => rhs,
        };
        let value = self.node(ExprKind::Cast(Ty::Val(v), Box::new(value)), span)?;
        let name = self.pun_temp(Ty::Val(v), span);
        let tmp = |p: &mut Self| {
            let sp = p.syn_span(span);
            Expr::new(ExprKind::Ident(name.clone()), sp)
        };
        let t = tmp(self);
        let mut e = self.node(ExprKind::Assign(None, Box::new(t), Box::new(value)), span)?;
        if let Some((_, (_, set))) = &index {
            e = self.node(ExprKind::Comma(Box::new(set.clone()), Box::new(e)), span)?;
        }
        let writes = match &index {
            Some((d, (idx, _))) => self.dyn_write(p, d, idx, &name, span)?,
            None => self.unit_writes(p, &name, span)?,
        };
        e = self.node(ExprKind::Comma(Box::new(e), Box::new(writes)), span)?;
        let back = tmp(self);
        self.node(ExprKind::Comma(Box::new(e), Box::new(back)), span)
    }

    /// A temporary of type `ty` declared before the statement (so a value is taken where the
    /// expression is, after what the statement does before it): its name.
    pub(super) fn pun_temp(&mut self, ty: Ty, span: Span) -> String {
        self.named_temp("union", ty, span)
    }

    /// A temporary `PREFIX#N` of type `ty` declared before the statement being read.
    pub(super) fn named_temp(&mut self, prefix: &str, ty: Ty, span: Span) -> String {
        self.syn = self.syn.wrapping_add(1);
        let name = format!("{prefix}#{}", self.syn);
        let decl_at = self.syn_span(span);
        self.declare(&name, ty);
        self.pre.push(Stmt {
            kind: StmtKind::Decl(
                Storage::default(),
                vec![Declarator {
                    name: name.clone(),
                    ty,
                    array: None,
                    init: None,
                    span: decl_at,
                    id: NodeId::fresh(),
                }],
            ),
            span,
            end: span,
        });
        name
    }

    /// Each unit under the fixed place `p` written from the bytes of the temporary `tmp`
    /// holding its new value: one expression, the assignments joined by commas.
    pub(super) fn unit_writes(&mut self, p: &Place, tmp: &str, span: Span) -> PResult<Expr> {
        let FieldTy::Val(v) = p.ty else {
            return Err(KernelError::new(
                span.line,
                span.col,
                "an array member of a union is assigned whole here: assign it an element at a \
                 time, indexing it (`member[i] = x;`)",
            ));
        };
        let (unit_ty, _) = units_of(&p.held_ty).unwrap_or((ValTy::scalar(Scalar::U8), 0));
        let unit = value_layout(unit_ty).0.max(1);
        let (start, units) = self.pun_units(p, value_layout(v).0, span)?;
        let mut out: Option<Expr> = None;
        for (k, u) in units.into_iter().enumerate() {
            // Unit k starts `k·unit − start` bytes into the value (start is 0 here: the
            // place's scalars span whole units).
            let at = (k as u64 * unit).saturating_sub(start);
            let sp = self.syn_span(span);
            let bytes = Expr::new(
                ExprKind::Call(
                    reinterpret::callee(unit_ty),
                    vec![
                        Expr::new(
                            ExprKind::Int {
                                value: at,
                                unsigned: false,
                                long: false,
                            },
                            sp,
                        ),
                        Expr::new(ExprKind::Ident(tmp.to_string()), self.syn_span(span)),
                    ],
                ),
                sp,
            );
            let w = self.node(ExprKind::Assign(None, Box::new(u), Box::new(bytes)), sp)?;
            out = Some(match out {
                Some(e) => self.node(ExprKind::Comma(Box::new(e), Box::new(w)), sp)?,
                None => w,
            });
        }
        out.ok_or_else(|| KernelError::new(span.line, span.col, "this union member has no bytes"))
    }
}
