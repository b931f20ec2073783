//! Bit-fields (C++17 [class.bit]): `struct Flags { unsigned valid : 1; unsigned idx : 15;
//! unsigned tag : 16; };`, read, written, laid out.
//!
//! Values. Each named bit-field is a leaf of its declared type holding the value the field
//! holds: a write stores the value converted to the declared type and then reduced to the
//! field's width — modulo 2^w for an unsigned field ([class.bit]/3 with [conv.integral]/2),
//! the low w bits read as two's complement for a signed one (the value "is
//! implementation-defined" when it does not fit, [conv.integral]/3: nvcc and clang keep the
//! low bits, as GCC's manual, "Integers implementation", says for conversions to a narrower
//! signed type). The assignment's value is the stored value. A read is promoted as
//! [conv.prom]/5 says: to `int` when `int` can represent every value of the field (an unsigned
//! field narrower than 32 bits, a signed one up to 32), else to `unsigned int` (an unsigned
//! 32-bit field), else not at all. A plain `int` field is signed (C++14's CWG 739 removed the
//! implementation-defined signedness; nvcc and clang treat it so). `++`/`--` and compound
//! assignment store through the same reduction. `&` of a bit-field is refused
//! ([expr.unary.op]/5: "The operand of `&` shall not be a bit-field"); a reference to
//! non-`const` cannot bind one ([dcl.init.ref]/5.1), a `const` one binds a copy.
//!
//! Layout (`sizeof`, `alignof`; [class.bit]/1 leaves allocation implementation-defined). nvcc
//! lays device structs out as the host compiler does, and clang (hipcc) follows the same
//! Itanium C++ ABI rules on x86-64 and the AMDGPU and NVPTX targets: the System V x86-64 psABI
//! §3.1.2, "Bit-Fields": "bit-fields must be contained in a storage unit appropriate for its
//! declared type", "bit-fields may share a storage unit with other struct/union members", and
//! "unnamed bit-fields' types do not affect the alignment of a structure or union". So a field
//! of type T and width w starts at the current bit offset unless `[off, off + w)` would cross
//! a `sizeof(T)`-byte boundary, in which case it starts at the next multiple of `alignof(T)`;
//! a named field raises the struct's alignment to `alignof(T)`; a zero-width unnamed field
//! moves the offset to the next multiple of `alignof(T)` ([class.bit]/2: "the next bit-field
//! … allocation unit boundary"); the next ordinary member starts at the next byte, then at its
//! own alignment. In a packed struct (GCC: "one bit for a bit-field") no boundary applies. A
//! bit-field has no byte offset (`offsetof` of one is ill-formed, [support.types.layout]/1),
//! so it is absent from [`super::arrays::Layout::offsets`], and byte copies of such a struct
//! (`memcpy`) are refused.

use super::*;

/// A bit-field's width and declared type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Bits {
    /// Width in bits (1 ..= the type's; 0 only for an unnamed field).
    pub(crate) width: u8,
    /// The declared type (an integer or `bool`).
    pub(crate) ty: ValTy,
}

fn int_lit(v: u64, unsigned: bool, long: bool, span: Span) -> Expr {
    Expr::new(
        ExprKind::Int {
            value: v,
            unsigned,
            long,
        },
        span,
    )
}

fn bin(op: BinOp, a: Expr, b: Expr, span: Span) -> Expr {
    Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), span)
}

fn cast(s: Scalar, e: Expr, span: Span) -> Expr {
    Expr::new(ExprKind::Cast(Ty::Val(ValTy::scalar(s)), Box::new(e)), span)
}

/// `e` converted to the field's type and reduced to its width (see the module's text).
pub(crate) fn reduce(b: Bits, e: Expr, span: Span) -> Expr {
    let s = b.ty.scalar;
    let bits = s.bits();
    let w = u32::from(b.width);
    if s == Scalar::Bool || w >= bits {
        return cast(s, e, span);
    }
    // Computed in 32 bits, or 64 for a 64-bit type (narrower types promote to int).
    let wide = bits > 32;
    let (u, i, n) = if wide {
        (Scalar::U64, Scalar::I64, 64)
    } else {
        (Scalar::U32, Scalar::I32, 32)
    };
    if s.is_signed() {
        // ((int)((unsigned)e << (n - w))) >> (n - w): the low w bits, sign-extended.
        let sh = u64::from(n - w);
        let up = bin(
            BinOp::Shl,
            cast(u, e, span),
            int_lit(sh, false, false, span),
            span,
        );
        let down = bin(
            BinOp::Shr,
            cast(i, up, span),
            int_lit(sh, false, false, span),
            span,
        );
        cast(s, down, span)
    } else {
        let mask = (1u64 << w) - 1;
        cast(
            s,
            bin(
                BinOp::And,
                cast(u, e, span),
                int_lit(mask, true, wide, span),
                span,
            ),
            span,
        )
    }
}

/// A read of the field `e` promoted by [conv.prom]/5.
pub(crate) fn promote(b: Bits, e: Expr, span: Span) -> Expr {
    let s = b.ty.scalar;
    let w = b.width;
    if s == Scalar::Bool {
        return e;
    }
    if (s.is_signed() && w <= 32) || (!s.is_signed() && w <= 31) {
        cast(Scalar::I32, e, span)
    } else if !s.is_signed() && w == 32 {
        cast(Scalar::U32, e, span)
    } else {
        e
    }
}

/// Whether a place may be evaluated twice (a read and a write of `++` or `op=`): a variable
/// or a cell whose index is a name or a literal.
fn twice_safe(e: &Expr) -> bool {
    let simple = |x: &Expr| matches!(x.kind, ExprKind::Ident(_) | ExprKind::Int { .. });
    match &e.kind {
        ExprKind::Ident(_) => true,
        ExprKind::Index(b, i) => matches!(b.kind, ExprKind::Ident(_)) && simple(i),
        _ => false,
    }
}

impl Parser<'_> {
    /// After a member's name (or its type, for an unnamed one), at `:`: the width, a constant
    /// expression ([class.bit]/1).
    ///
    /// # Errors
    /// A width that is not a constant, negative, wider than the type ([class.bit]/1 lets it
    /// be wider, with padding bits; not modelled), zero for a named field ([class.bit]/2), or
    /// a type that is not an integer or `bool`; a default member initializer (C++20).
    pub(super) fn bitfield_width(&mut self, fname: Option<&str>, ty: &FieldTy) -> PResult<Bits> {
        let at = self.span();
        self.expect_punct(":")?;
        let e = self.ternary()?;
        let shown = fname.unwrap_or("(unnamed)");
        let Some(w) = self.fold_int(&e) else {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("the width of bit-field `{shown}` must be a constant expression ([class.bit]/1)"),
            ));
        };
        let v = match ty {
            FieldTy::Val(v) if v.lanes == 1 && !v.scalar.is_float() => *v,
            _ => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "bit-field `{shown}` must have an integer or `bool` type ([class.bit]/3)"
                    ),
                ))
            }
        };
        let bits = i128::from(if v.scalar == Scalar::Bool {
            1
        } else {
            v.scalar.bits()
        });
        if w < 0 || w > bits || (w == 0 && fname.is_some()) {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "bit-field `{shown}` has width {w}: 1 to {bits} bits of its type are \
                     supported (a named field of width 0 is ill-formed, [class.bit]/2; a width \
                     beyond the type's adds padding bits, not modelled here)"
                ),
            ));
        }
        if self.is_punct("=") || self.is_punct("{") {
            return self.unsupported(
                "a default member initializer for a bit-field is C++20 ([class.mem]/10 in \
                 C++17 allows none); set the field in a constructor or after the declaration",
            );
        }
        Ok(Bits {
            width: w as u8,
            ty: v,
        })
    }

    /// The bit-field a leaf path of struct `s` names (`flags.valid`), if it is one.
    pub(crate) fn bitfield_path(&self, s: &str, path: &str) -> Option<Bits> {
        let mut st = s.to_string();
        let mut parts = path.split('.').peekable();
        while let Some(seg) = parts.next() {
            let def = self.structs.get(&st)?;
            if parts.peek().is_none() {
                return def.bitfields.get(seg).copied();
            }
            match &def.fields.iter().find(|f| f.name == seg)?.ty {
                FieldTy::Struct(inner) | FieldTy::SArr(inner, _) => st = inner.clone(),
                _ => return None,
            }
        }
        None
    }

    /// The bit-field a lowered place (a leaf variable, or a cell of one) holds, if any: the
    /// leaf's struct variable and path found from its name.
    fn bitfield_leaf(&self, e: &Expr) -> Option<Bits> {
        let name = match &e.kind {
            ExprKind::Ident(n) => n,
            ExprKind::Index(b, _) => match &b.kind {
                ExprKind::Ident(n) => n,
                _ => return None,
            },
            _ => return None,
        };
        // `f.inner.valid`: the struct variable is the longest prefix that names one.
        let mut cut = name.len();
        while let Some(dot) = name[..cut].rfind('.') {
            let root = &name[..dot];
            if let Some(sv) = self.var_struct(root) {
                return self.bitfield_path(&sv.sname, &name[dot + 1..]);
            }
            cut = dot;
        }
        None
    }

    /// Whether `e` may name a bit-field: a member or a bare name spelled as some struct's
    /// bit-field (a quick test before lowering).
    fn may_be_bitfield(&self, e: &Expr) -> bool {
        let f = match &e.kind {
            ExprKind::Member(_, f) | ExprKind::Ident(f) => f,
            _ => return false,
        };
        // A struct-valued member of the same name (another struct's) takes the struct paths.
        self.bitfield_names.contains(f) && self.struct_of(e).is_none()
    }

    /// `e` lowered as a place: the leaf itself, not its promoted read.
    fn bitfield_place(&mut self, e: &Expr) -> PResult<Expr> {
        // A member named bare in a member function: `this->f`, as the lowering reads it.
        let e = match &e.kind {
            ExprKind::Ident(n) if self.self_field(n).is_some() => {
                let this = ident("this", e.span);
                Expr::new(ExprKind::Member(Box::new(this), n.clone()), e.span)
            }
            _ => e.clone(),
        };
        let prev = self.bf_skip.replace(e.id);
        let r = self.lower_struct(e);
        self.bf_skip = prev;
        r
    }

    /// A read, write, `++`/`--` or `&` of a bit-field, lowered (see the module's text);
    /// `None` for any other expression.
    ///
    /// # Errors
    /// `&` of a bit-field; `++` or `op=` on one whose place has an index with effects.
    pub(super) fn bitfield_access(&mut self, e: &Expr) -> PResult<Option<Expr>> {
        if self.bitfield_names.is_empty() || self.bf_skip == Some(e.id) {
            return Ok(None);
        }
        let span = e.span;
        match &e.kind {
            ExprKind::Member(..) | ExprKind::Ident(_) if self.may_be_bitfield(e) => {
                let place = self.bitfield_place(e)?;
                Ok(Some(match self.bitfield_leaf(&place) {
                    Some(b) => promote(b, place, span),
                    None => place,
                }))
            }
            ExprKind::Assign(op, l, r) if self.may_be_bitfield(l) => {
                let place = self.bitfield_place(l)?;
                let Some(b) = self.bitfield_leaf(&place) else {
                    let r = self.lower_struct(r.as_ref().clone())?;
                    let kind = ExprKind::Assign(*op, Box::new(place), Box::new(r));
                    return Ok(Some(Expr::new(kind, span)));
                };
                let r = self.lower_struct(r.as_ref().clone())?;
                let value = match op {
                    None => r,
                    Some(op) => {
                        self.twice(&place, span)?;
                        bin(*op, promote(b, place.clone(), span), r, span)
                    }
                };
                let stored = reduce(b, value, span);
                let a = Expr::new(
                    ExprKind::Assign(None, Box::new(place), Box::new(stored)),
                    span,
                );
                Ok(Some(promote(b, a, span)))
            }
            ExprKind::IncDec {
                inc,
                prefix,
                target,
            } if self.may_be_bitfield(target) => {
                let place = self.bitfield_place(target)?;
                let Some(b) = self.bitfield_leaf(&place) else {
                    let kind = ExprKind::IncDec {
                        inc: *inc,
                        prefix: *prefix,
                        target: Box::new(place),
                    };
                    return Ok(Some(Expr::new(kind, span)));
                };
                self.twice(&place, span)?;
                // [expr.pre.incr]/1: `++x` is `x += 1`; the postfix form's value is the old
                // one, recovered from the new by the opposite step within the width.
                let (step, back) = if *inc {
                    (BinOp::Add, BinOp::Sub)
                } else {
                    (BinOp::Sub, BinOp::Add)
                };
                let one = || int_lit(1, false, false, span);
                let new = reduce(
                    b,
                    bin(step, promote(b, place.clone(), span), one(), span),
                    span,
                );
                let a = Expr::new(ExprKind::Assign(None, Box::new(place), Box::new(new)), span);
                let value = if *prefix {
                    a
                } else {
                    reduce(b, bin(back, a, one(), span), span)
                };
                Ok(Some(promote(b, value, span)))
            }
            ExprKind::AddrOf(x) if self.may_be_bitfield(x) => {
                let place = self.bitfield_place(x)?;
                if self.bitfield_leaf(&place).is_some() {
                    return Err(KernelError::new(
                        span.line,
                        span.col,
                        "the address of a bit-field cannot be taken ([expr.unary.op]/5); copy \
                         it into a local and take that one's address",
                    ));
                }
                Ok(Some(Expr::new(ExprKind::AddrOf(Box::new(place)), span)))
            }
            _ => Ok(None),
        }
    }

    /// Refuses `++` or `op=` on a bit-field whose place cannot be evaluated twice.
    fn twice(&self, place: &Expr, span: Span) -> PResult<()> {
        if twice_safe(place) {
            return Ok(());
        }
        Err(KernelError::new(
            span.line,
            span.col,
            "`++`, `--` or a compound assignment on a bit-field reached through a computed \
             index is not supported: compute the index into a local first",
        ))
    }

    /// `value` for leaf `path` of struct `s`, reduced to its width when the leaf is a
    /// bit-field (an initializer or a member-by-member copy).
    pub(super) fn bitfield_value(&self, s: &str, path: &str, value: Expr) -> Expr {
        match self.bitfield_path(s, path) {
            Some(b) => {
                let span = value.span;
                reduce(b, value, span)
            }
            None => value,
        }
    }
}
