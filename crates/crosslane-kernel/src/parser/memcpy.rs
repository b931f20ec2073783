//! `memcpy` and `memset` in device code (CUDA C++ Programming Guide, "Dynamic Global Memory
//! Allocation and Operations": `memcpy`/`memset` are device functions), in the shapes
//! inference code uses: a float from an integer's bits (`memcpy(&f, &bits, sizeof(f))`,
//! ggml's e8m0 conversion), a struct from a buffer's bytes (`memcpy(&blk, p, sizeof(blk))`),
//! a struct cleared (`memset(&s, 0, sizeof(s))`).
//!
//! ISO C17 7.24.2.1 (`memcpy` "copies n characters from the object pointed to by s2 into the
//! object pointed to by s1"; overlapping objects are undefined) and 7.24.6.1 (`memset` copies
//! `(unsigned char)c` into each of the first n characters), which C++17 [cstring.syn] adopts;
//! [basic.types]/2–3: copying an object's bytes into another of the same type gives it the
//! same value, and GCC/Clang/nvcc define the bytes read as another type (see
//! [`crate::reinterpret`]).
//!
//! Lowered before the run, with the count a constant: each side is its scalars at their byte
//! offsets (a variable's components, a struct's leaves at their [`super::structs`] layout
//! offsets, a pointer's or array's elements from the one it points at); each destination
//! scalar inside the first `n` bytes is assigned the source bytes under it
//! (`f = __crosslane_bytes:f32(0, bits)`). A source scalar never written leaves the scalars
//! built from its bytes undefined, with its reason.

use super::{PResult, Parser};
use crate::ast::*;
use crate::types::{Scalar, Ty, ValTy};
use crate::KernelError;

/// Most scalars one `memcpy`/`memset` writes (each is an assignment of its own).
const MAX_UNITS: u64 = 256;

/// One scalar of an object: its place, its type and its byte offset in the object.
struct Unit {
    place: Expr,
    ty: Scalar,
    off: u64,
}

impl Parser<'_> {
    /// From the word `memcpy` / `memset` (or their `__builtin_` spellings) to the `)`.
    ///
    /// # Errors
    /// A count that is no constant, an operand whose bytes the front end cannot name, a
    /// count that splits a destination scalar or reads padding, more than [`MAX_UNITS`]
    /// scalars.
    pub(super) fn mem_call(&mut self, span: Span) -> PResult<Expr> {
        let word = self.ident()?;
        let set = word.ends_with("memset");
        self.expect_punct("(")?;
        let dst = self.assign_expr()?;
        self.expect_punct(",")?;
        let src = self.assign_expr()?;
        self.expect_punct(",")?;
        let n_at = self.span();
        let n = self.assign_expr()?;
        self.expect_punct(")")?;
        let n = super::const_int(&n)
            .or_else(|| self.fold_int(&n))
            .and_then(|v| u64::try_from(v).ok())
            .ok_or_else(|| {
                KernelError::new(
                    n_at.line,
                    n_at.col,
                    format!(
                        "`{word}`'s byte count must be a constant here (`sizeof(x)`, a \
                         literal); copy element by element in a loop otherwise"
                    ),
                )
            })?;
        self.copy_bytes(&dst, &src, n, set, span, n_at, &word)
    }

    /// The first `n` bytes of the object `src` points at copied into the one `dst` points at
    /// (with `set`, `src` is the byte value written into each byte instead), as a comma list
    /// of scalar assignments; shared by `memcpy`/`memset` and a `__builtin_bit_cast` whose
    /// source or destination is a struct (`bit_cast.rs`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn copy_bytes(
        &mut self,
        dst: &Expr,
        src: &Expr,
        n: u64,
        set: bool,
        span: Span,
        n_at: Span,
        word: &str,
    ) -> PResult<Expr> {
        let dst_units = self.byte_units(dst, n, span)?;
        let mut out: Option<Expr> = None;
        let src_units = if set {
            Vec::new()
        } else {
            self.byte_units(src, n, span)?
        };
        for d in dst_units.iter().filter(|d| d.off < n) {
            let w = crate::reinterpret::scalar_bytes(d.ty) as u64;
            if d.off + w > n {
                return Err(KernelError::new(
                    n_at.line,
                    n_at.col,
                    format!(
                        "`{word}` of {n} bytes ends inside a {w}-byte scalar of the destination \
                         (at byte {}): copy whole scalars",
                        d.off
                    ),
                ));
            }
            let sp = self.syn_span(span);
            let int = |v: u64| {
                Expr::new(
                    ExprKind::Int {
                        value: v,
                        unsigned: false,
                        long: false,
                    },
                    sp,
                )
            };
            let mut args = Vec::new();
            if set {
                // 7.24.6.1: the value converted to `unsigned char`, in every byte.
                args.push(int(0));
                for _ in 0..w {
                    args.push(Expr::new(
                        ExprKind::Cast(Ty::Val(ValTy::scalar(Scalar::U8)), Box::new(src.clone())),
                        sp,
                    ));
                }
            } else {
                let (start, parts) = self.source_parts(&src_units, d.off, w, n_at, word)?;
                args.push(int(start));
                args.extend(parts);
            }
            let read = Expr::new(
                ExprKind::Call(crate::reinterpret::callee(ValTy::scalar(d.ty)), args),
                sp,
            );
            let assign = self.node(
                ExprKind::Assign(None, Box::new(d.place.clone()), Box::new(read)),
                sp,
            )?;
            out = Some(match out {
                None => assign,
                Some(e) => self.node(ExprKind::Comma(Box::new(e), Box::new(assign)), sp)?,
            });
        }
        Ok(out.unwrap_or_else(|| {
            Expr::new(
                ExprKind::Int {
                    value: 0,
                    unsigned: false,
                    long: false,
                },
                span,
            )
        }))
    }

    /// The source scalars under destination bytes `off .. off + w`, and the byte of the first
    /// one where they start.
    fn source_parts(
        &self,
        src: &[Unit],
        off: u64,
        w: u64,
        at: Span,
        word: &str,
    ) -> PResult<(u64, Vec<Expr>)> {
        let mut parts = Vec::new();
        let mut start = None;
        let mut next = None;
        for u in src {
            let uw = crate::reinterpret::scalar_bytes(u.ty) as u64;
            if u.off + uw <= off || u.off >= off + w {
                continue;
            }
            if next.is_some_and(|x| x != u.off) || (next.is_none() && u.off > off) {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "`{word}` reads padding bytes of the source at byte {off}: copy the \
                         members one by one"
                    ),
                ));
            }
            if start.is_none() {
                start = Some(off.saturating_sub(u.off));
            }
            next = Some(u.off + uw);
            parts.push(u.place.clone());
        }
        if next.is_none_or(|x| x < off + w) {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("`{word}` reads past the end of the source (byte {off} onward)"),
            ));
        }
        Ok((start.unwrap_or(0), parts))
    }

    /// The scalars of the object `e` points at, covering at least its first `n` bytes.
    fn byte_units(&mut self, e: &Expr, n: u64, span: Span) -> PResult<Vec<Unit>> {
        let refuse = || {
            KernelError::new(
                e.span.line,
                e.span.col,
                "this `memcpy`/`memset` operand is not supported: pass `&x` of a variable or \
                 struct, or a pointer or array of scalars",
            )
        };
        // A cast of the pointer (`(char*)&x`, `reinterpret_cast<uint8_t*>(p)`): the same bytes.
        if let ExprKind::Cast(Ty::Ptr(v), _) = &e.kind {
            if v.lanes > 4 {
                return Err(refuse());
            }
        }
        if let ExprKind::Cast(Ty::Ptr(_), inner) = &e.kind {
            return self.byte_units(inner, n, span);
        }
        if let ExprKind::AddrOf(x) = &e.kind {
            // `&a[i]`: the elements from a[i] on.
            if let ExprKind::Index(b, i) = &x.kind {
                if self.struct_of(x).is_none() {
                    let p = self.node(
                        ExprKind::Binary(crate::types::BinOp::Add, b.clone(), i.clone()),
                        e.span,
                    )?;
                    return self.byte_units(&p, n, span);
                }
            }
            if let Some((s, leaves)) = self.leaves_of(x, None)? {
                return self.struct_units(&s, leaves, span);
            }
            let v = self
                .expr_type(x)
                .filter(|v| v.lanes <= 4)
                .ok_or_else(refuse)?;
            let x = self.lower_struct((**x).clone())?;
            return Ok(components(&x, v, 0, e.span));
        }
        // A pointer to structs (`in + i`, `&arr[0]`, an array of structs): each element's
        // members at their layout offsets, elements `sizeof(S)` apart ([expr.sizeof]/2).
        if let Some((s, _)) = self.many_leaves(e)? {
            let size = self.struct_size(&s, span)?.max(1);
            let count = n.div_ceil(size);
            if count > MAX_UNITS {
                return Err(KernelError::new(
                    e.span.line,
                    e.span.col,
                    format!("a `memcpy`/`memset` of more than {MAX_UNITS} scalars: copy in a loop"),
                ));
            }
            let mut out = Vec::new();
            for k in 0..count {
                let sp = self.syn_span(span);
                let i = Expr::new(
                    ExprKind::Int {
                        value: k,
                        unsigned: false,
                        long: false,
                    },
                    sp,
                );
                let elem = Expr::new(ExprKind::Index(Box::new(e.clone()), Box::new(i)), sp);
                let Some((s, leaves)) = self.leaves_of(&elem, Some(&s))? else {
                    return Err(refuse());
                };
                let units = self.struct_units(&s, leaves, span)?;
                out.extend(units.into_iter().map(|u| Unit {
                    off: u.off + k * size,
                    ..u
                }));
                if out.len() as u64 > MAX_UNITS {
                    return Err(KernelError::new(
                        e.span.line,
                        e.span.col,
                        format!(
                            "a `memcpy`/`memset` of more than {MAX_UNITS} scalars: copy in a loop"
                        ),
                    ));
                }
            }
            return Ok(out);
        }
        let elem = self
            .pointee_type(e)
            .filter(|v| v.lanes <= 4)
            .ok_or_else(refuse)?;
        let (size, _) = super::structs::value_layout_of(elem);
        let count = n.div_ceil(size.max(1));
        if count * u64::from(elem.lanes) > MAX_UNITS {
            return Err(KernelError::new(
                e.span.line,
                e.span.col,
                format!("a `memcpy`/`memset` of more than {MAX_UNITS} scalars: copy in a loop"),
            ));
        }
        let base = self.lower_struct(e.clone())?;
        let mut out = Vec::new();
        self.indexed_units(&base, count, elem, 0, span, &mut out)?;
        Ok(out)
    }

    /// A struct's scalars at their layout offsets.
    fn struct_units(
        &mut self,
        s: &str,
        leaves: Vec<(String, Expr)>,
        span: Span,
    ) -> PResult<Vec<Unit>> {
        let layout = self.struct_layout(s, span)?;
        let types = self.leaves(s, span)?;
        if let Some(l) = types
            .iter()
            .find(|l| self.bitfield_path(s, &l.path).is_some())
        {
            // A bit-field has no byte offset of its own (`structs::bitfields`).
            return Err(KernelError::new(
                span.line,
                span.col,
                format!(
                    "`{s}` has bit-fields (`{}`), whose bytes are not modelled: copy it by \
                     assignment (`a = b;`) instead of byte by byte",
                    l.path
                ),
            ));
        }
        let mut out = Vec::new();
        for (path, e) in leaves {
            let Some(off) = layout.offsets.iter().find(|(p, _)| *p == path).map(|x| x.1) else {
                continue;
            };
            let Some(leaf) = types.iter().find(|l| l.path == path) else {
                continue;
            };
            let Some(v) = (match leaf.ty {
                Ty::Val(v) if v.lanes <= 4 => Some(v),
                _ => None,
            }) else {
                return Err(KernelError::new(
                    span.line,
                    span.col,
                    format!(
                        "member `{path}` is a pointer or a vector of more than 4 components: \
                         its bytes are not emulated in `memcpy`/`memset`"
                    ),
                ));
            };
            if leaf.count == 0 {
                out.extend(components(&e, v, off, span));
                continue;
            }
            if u64::from(leaf.count) * u64::from(v.lanes) > MAX_UNITS {
                return Err(KernelError::new(
                    span.line,
                    span.col,
                    format!("a `memcpy`/`memset` of more than {MAX_UNITS} scalars: copy in a loop"),
                ));
            }
            self.indexed_units(&e, u64::from(leaf.count), v, off, span, &mut out)?;
        }
        out.sort_by_key(|u| u.off);
        Ok(out)
    }

    /// The units of `base[0]` … `base[count - 1]`, cells of type `elem` from byte `off`, each
    /// index a synthesized position of its own at `span`.
    fn indexed_units(
        &mut self,
        base: &Expr,
        count: u64,
        elem: ValTy,
        off: u64,
        span: Span,
        out: &mut Vec<Unit>,
    ) -> PResult<()> {
        let (size, _) = super::structs::value_layout_of(elem);
        for k in 0..count {
            let sp = self.syn_span(span);
            let i = Expr::new(
                ExprKind::Int {
                    value: k,
                    unsigned: false,
                    long: false,
                },
                sp,
            );
            let cell = self.node(ExprKind::Index(Box::new(base.clone()), Box::new(i)), sp)?;
            out.extend(components(&cell, elem, off + k * size, sp));
        }
        Ok(())
    }
}

/// A value's scalars: itself, or a vector's components (`.x` … `.w`) in order (a vector of
/// more than four components is no operand here: [`Parser::byte_units`] refuses it).
fn components(e: &Expr, v: ValTy, off: u64, span: Span) -> Vec<Unit> {
    let one = crate::reinterpret::scalar_bytes(v.scalar) as u64;
    if v.lanes <= 1 {
        return vec![Unit {
            place: e.clone(),
            ty: v.scalar,
            off,
        }];
    }
    ["x", "y", "z", "w"]
        .iter()
        .take(usize::from(v.lanes))
        .enumerate()
        .map(|(k, c)| Unit {
            place: Expr::new(
                ExprKind::Member(Box::new(e.clone()), (*c).to_string()),
                span,
            ),
            ty: v.scalar,
            off: off + one * k as u64,
        })
        .collect()
}
