//! An object's bytes read as another type: the one operation behind a union read through a
//! member other than the one last written (`union { float f; uint32_t u; } v; v.f = x;
//! bits = v.u;`) and `memcpy` between objects of different types in device code.
//!
//! ISO C++17 [class.union]/1 makes at most one member active and [basic.life]/7 makes reading
//! another undefined; GCC ("Options That Control Optimization", `-fstrict-aliasing`: "The
//! practice of reading from a different union member than the one most recently written to
//! (called 'type-punning') is common. Even with -fstrict-aliasing, type-punning is allowed,
//! provided the memory is accessed through the union type.") and Clang (which follows GCC
//! here) define it as reading the stored bytes, and nvcc's device compiler and hipcc (Clang)
//! do the same. [basic.types]/2–3 with [cstring.syn] (`memcpy` copies the
//! underlying bytes) give the same for `memcpy`. The bytes are the little-endian object
//! representation the devices use: an integer's two's-complement bits, a float's IEEE 754
//! binary16/bfloat16/binary32/binary64 encoding, a vector's components in order.
//!
//! The front end lowers each read to a call `__crosslane_bytes:TYPE(start, part, …)`: the
//! parts' bytes concatenated (the first part lowest), `start` bytes skipped, the next
//! `size(TYPE)` bytes read as a `TYPE` (`f32`, `u16`, `f16x2`, …). A part that is undefined
//! leaves the result undefined with that part's reason (the engine's rule for any built-in),
//! so bytes never written stay undefined.

use half::{bf16, f16};

use crate::types::{KVal, Scalar, ValTy};

/// The callee name prefix. A name no source can spell (`:`).
pub const PREFIX: &str = "__crosslane_bytes:";

/// Whether `name` is a lowered byte read.
pub fn is_reinterpret(name: &str) -> bool {
    name.starts_with(PREFIX)
}

/// The short spelling of a scalar in the callee name (`f32`, `u16`).
fn scalar_code(s: Scalar) -> &'static str {
    match s {
        Scalar::Bool => "bool",
        Scalar::I8 => "i8",
        Scalar::U8 => "u8",
        Scalar::I16 => "i16",
        Scalar::U16 => "u16",
        Scalar::I32 => "i32",
        Scalar::U32 => "u32",
        Scalar::I64 => "i64",
        Scalar::U64 => "u64",
        Scalar::F16 => "f16",
        Scalar::Bf16 => "bf16",
        Scalar::F32 => "f32",
        Scalar::F64 => "f64",
        Scalar::E4M3 => "e4m3",
        Scalar::E5M2 => "e5m2",
        Scalar::E4M3Fnuz => "e4m3fnuz",
        Scalar::E5M2Fnuz => "e5m2fnuz",
    }
}

/// The callee reading a `ty` (`__crosslane_bytes:f16x2`).
pub fn callee(ty: ValTy) -> String {
    if ty.lanes > 1 {
        format!("{PREFIX}{}x{}", scalar_code(ty.scalar), ty.lanes)
    } else {
        format!("{PREFIX}{}", scalar_code(ty.scalar))
    }
}

/// The callee of a whole-object read (`__crosslane_bytes:f32=`): as [`callee`], and the parts'
/// bytes must be exactly `size(ty)`, as `std::bit_cast` requires of its source (C++20
/// [bit.cast]/1: `sizeof(To) == sizeof(From)`); another size is a run-time error naming both.
/// The front end uses it where it cannot tell the source's type before the run.
pub fn exact_callee(ty: ValTy) -> String {
    format!("{}{EXACT}", callee(ty))
}

/// The suffix marking a whole-object read ([`exact_callee`]). No type code contains it.
const EXACT: char = '=';

/// The word after [`PREFIX`] that marks an index check ([`index_callee`]).
const INDEX: &str = "index";

/// The callee checking an index into a union's array member of `n` elements read through a
/// view of another type with an index known only at run time (`t.u32[i]`, lowered by
/// `parser::structs::pun_index`): `__crosslane_bytes:index2(i)` is `i` (as `long long`) when
/// `0 <= i < n`, else undefined with a warning, as an access outside an array is ([expr.add]/4).
pub fn index_callee(n: u32) -> String {
    format!("{PREFIX}{INDEX}{n}")
}

/// The word after [`PREFIX`] that marks an index check of a struct's members read as an
/// array ([`members_index_callee`]).
const MEMBERS: &str = "members";

/// The callee checking a run-time index into a struct of `n` same-typed scalar members read
/// through a pointer to that scalar (`int* p = (int*)&s; p[i]`, lowered by
/// `parser::structs::layout_view`): `i` when `0 <= i < n`, else undefined with a warning, as
/// an access outside the object is (C++17 [expr.add]/4).
pub fn members_index_callee(n: u32) -> String {
    format!("{PREFIX}{MEMBERS}{n}")
}

/// The bound of an index check, if `name` is one, and whether it checks a struct's members.
fn index_bound(name: &str) -> Option<(i128, bool)> {
    let rest = name.strip_prefix(PREFIX)?;
    if let Some(n) = rest.strip_prefix(INDEX) {
        return n.parse().ok().map(|n| (n, false));
    }
    rest.strip_prefix(MEMBERS)?.parse().ok().map(|n| (n, true))
}

/// Runs an index check ([`index_callee`], [`members_index_callee`]).
fn check_index((n, members): (i128, bool), args: &[KVal]) -> Result<KVal, String> {
    let i = args
        .first()
        .and_then(KVal::as_int)
        .ok_or_else(|| "an index check needs an integer".to_string())?;
    if (0..n).contains(&i) {
        Ok(KVal::int(Scalar::I64, i))
    } else if members {
        Err(format!(
            "index {i} is outside the struct of {n} members read as an array: undefined \
             (C++17 [expr.add]/4); nothing is read or written"
        ))
    } else {
        Err(format!(
            "index {i} is outside the union's array member of {n} elements: undefined \
             (C++17 [expr.add]/4); nothing is read or written"
        ))
    }
}

/// The type a callee reads, if `name` is one.
pub fn result_type(name: &str) -> Option<ValTy> {
    if index_bound(name).is_some() {
        return Some(ValTy::scalar(Scalar::I64));
    }
    let rest = name.strip_prefix(PREFIX)?;
    let rest = rest.strip_suffix(EXACT).unwrap_or(rest);
    let (s, lanes) = match rest.split_once('x') {
        Some((s, n)) => (s, n.parse::<u8>().ok().filter(|n| (2..=16).contains(n))?),
        None => (rest, 1),
    };
    let scalar = [
        Scalar::Bool,
        Scalar::I8,
        Scalar::U8,
        Scalar::I16,
        Scalar::U16,
        Scalar::I32,
        Scalar::U32,
        Scalar::I64,
        Scalar::U64,
        Scalar::F16,
        Scalar::Bf16,
        Scalar::F32,
        Scalar::F64,
        Scalar::E4M3,
        Scalar::E5M2,
        Scalar::E4M3Fnuz,
        Scalar::E5M2Fnuz,
    ]
    .into_iter()
    .find(|x| scalar_code(*x) == s)?;
    Some(ValTy { scalar, lanes })
}

/// Bytes of one scalar in memory (`bool`: one).
pub fn scalar_bytes(s: Scalar) -> usize {
    (s.bits() as usize).div_ceil(8)
}

/// A value's object representation, appended to `out`.
fn push_bytes(v: &KVal, out: &mut Vec<u8>) -> Result<(), String> {
    match v {
        KVal::Int { ty, bits } => {
            out.extend_from_slice(&bits.to_le_bytes()[..scalar_bytes(*ty)]);
        }
        KVal::Float { ty, x, .. } => match ty {
            Scalar::F16 => out.extend_from_slice(&f16::from_f64(*x).to_bits().to_le_bytes()),
            Scalar::Bf16 => out.extend_from_slice(&bf16::from_f64(*x).to_bits().to_le_bytes()),
            Scalar::F32 => out.extend_from_slice(&(*x as f32).to_bits().to_le_bytes()),
            t if t.is_fp8() => out.push(crate::fp8::encode(*t, *x).ok_or_else(|| {
                format!(
                    "the bytes of a {} NaN: the format has more than one NaN encoding, and the emulator keeps floats as values, not their encodings",
                    t.name()
                )
            })?),
            _ => out.extend_from_slice(&x.to_bits().to_le_bytes()),
        },
        KVal::Vector { items, .. } => {
            for item in items {
                push_bytes(item, out)?;
            }
        }
        KVal::Ptr { .. } => {
            return Err(
                "a pointer's bytes are not emulated (its address is no number here); \
                        keep pointers out of unions and `memcpy`"
                    .to_string(),
            )
        }
    }
    Ok(())
}

/// One scalar of type `s` from its little-endian bytes.
fn scalar_from(s: Scalar, b: &[u8]) -> Result<KVal, String> {
    let mut w = [0u8; 8];
    w[..b.len()].copy_from_slice(b);
    let bits = u64::from_le_bytes(w);
    Ok(match s {
        // [basic.fundamental]/6 with [conv.lval]: a bool object whose byte is neither 0 nor 1
        // has no bool value; reading it is undefined.
        Scalar::Bool if bits > 1 => {
            return Err(format!(
                "the byte {bits:#04x} read as a `bool` is neither false (0) nor true (1): \
                 undefined ([basic.fundamental]/6)"
            ))
        }
        Scalar::F16 => KVal::float(s, f16::from_bits(bits as u16).to_f64()),
        Scalar::Bf16 => KVal::float(s, bf16::from_bits(bits as u16).to_f64()),
        Scalar::F32 => KVal::float(s, f64::from(f32::from_bits(bits as u32))),
        Scalar::F64 => KVal::float(s, f64::from_bits(bits)),
        t if t.is_fp8() => KVal::Float {
            ty: t,
            x: crate::fp8::decode(t, bits as u8).unwrap_or(f64::NAN),
            approx: None,
        },
        _ => KVal::Int { ty: s, bits },
    })
}

/// Runs a byte read (see the module): `None` when `name` is not one.
pub fn call(name: &str, args: &[KVal]) -> Option<Result<KVal, String>> {
    if let Some(n) = index_bound(name) {
        return Some(check_index(n, args));
    }
    let ty = result_type(name)?;
    Some(read(ty, args, name.ends_with(EXACT)))
}

fn read(ty: ValTy, args: &[KVal], exact: bool) -> Result<KVal, String> {
    let (start, parts) = args
        .split_first()
        .ok_or_else(|| "a byte read needs its start".to_string())?;
    let start = start
        .as_int()
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| "a byte read's start is no offset".to_string())?;
    let mut bytes = Vec::new();
    for p in parts {
        push_bytes(p, &mut bytes)?;
    }
    let one = scalar_bytes(ty.scalar);
    let need = one * usize::from(ty.lanes.max(1));
    if exact && bytes.len() != need {
        return Err(format!(
            "`bit_cast` to a {need}-byte {} from a {}-byte value: the sizes must be equal \
             (C++20 [bit.cast]/1)",
            ty.name(),
            bytes.len()
        ));
    }
    let Some(have) = bytes.get(start..start + need) else {
        return Err(format!(
            "a {}-byte read at byte {start} of {} bytes",
            need,
            bytes.len()
        ));
    };
    if ty.lanes <= 1 {
        return scalar_from(ty.scalar, have);
    }
    let items = have
        .chunks(one)
        .map(|c| scalar_from(ty.scalar, c))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(KVal::Vector {
        ty: ty.scalar,
        items,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32v(x: f32) -> KVal {
        KVal::float(Scalar::F32, f64::from(x))
    }

    #[test]
    fn float_bits_both_ways() {
        // 1.0f is 0x3f800000 (IEEE 754 binary32: sign 0, exponent 127, fraction 0).
        let u = call(
            &callee(ValTy::scalar(Scalar::U32)),
            &[KVal::int(Scalar::I32, 0), f32v(1.0)],
        );
        assert_eq!(u, Some(Ok(KVal::int(Scalar::U32, 0x3f80_0000))));
        let f = call(
            &callee(ValTy::scalar(Scalar::F32)),
            &[
                KVal::int(Scalar::I32, 0),
                KVal::int(Scalar::U32, 0xc000_0000),
            ],
        );
        assert_eq!(f, Some(Ok(f32v(-2.0))));
    }

    #[test]
    fn halves_and_words() {
        // half 1.0 is 0x3c00, 2.0 is 0x4000: the pair (1, 2) is the word 0x4000_3c00 (the
        // first component in the low bytes), and byte 2 of it starts the second half.
        let h = |x: f64| KVal::float(Scalar::F16, x);
        let pair = KVal::Vector {
            ty: Scalar::F16,
            items: vec![h(1.0), h(2.0)],
        };
        let w = call(
            &callee(ValTy::scalar(Scalar::U32)),
            &[KVal::int(Scalar::I32, 0), pair],
        );
        assert_eq!(w, Some(Ok(KVal::int(Scalar::U32, 0x4000_3c00))));
        let hi = call(
            &callee(ValTy::scalar(Scalar::F16)),
            &[
                KVal::int(Scalar::I32, 2),
                KVal::int(Scalar::U32, 0x4000_3c00),
            ],
        );
        assert_eq!(hi, Some(Ok(h(2.0))));
        assert_eq!(
            result_type("__crosslane_bytes:f16x2"),
            Some(ValTy {
                scalar: Scalar::F16,
                lanes: 2
            })
        );
        assert_eq!(result_type("__crosslane_bytes:q8"), None);
    }

    #[test]
    fn index_checks_keep_the_bounds() {
        // An array of 2 elements has the indices 0 and 1 ([dcl.array]/1); 2 and -1 are
        // outside it ([expr.add]/4).
        let c = index_callee(2);
        assert_eq!(
            call(&c, &[KVal::int(Scalar::U32, 1)]),
            Some(Ok(KVal::int(Scalar::I64, 1)))
        );
        assert!(
            matches!(call(&c, &[KVal::int(Scalar::U32, 2)]), Some(Err(m)) if m.contains("[expr.add]/4"))
        );
        assert!(matches!(
            call(&c, &[KVal::int(Scalar::I32, -1)]),
            Some(Err(_))
        ));
        assert_eq!(result_type(&c), Some(ValTy::scalar(Scalar::I64)));
    }

    #[test]
    fn short_or_bad_reads_are_errors() {
        let r = call(
            &callee(ValTy::scalar(Scalar::U64)),
            &[KVal::int(Scalar::I32, 0), f32v(1.0)],
        );
        assert!(matches!(r, Some(Err(_))));
        let b = call(
            &callee(ValTy::scalar(Scalar::Bool)),
            &[KVal::int(Scalar::I32, 0), KVal::int(Scalar::U8, 2)],
        );
        assert!(matches!(b, Some(Err(m)) if m.contains("bool")));
    }

    #[test]
    fn a_whole_object_read_needs_exactly_its_size() {
        // 1.0 as binary64 is 0x3ff0000000000000; its 8 bytes read whole as a u64 give it back.
        let u64t = ValTy::scalar(Scalar::U64);
        let one = KVal::float(Scalar::F64, 1.0);
        assert_eq!(
            call(
                &exact_callee(u64t),
                &[KVal::int(Scalar::I32, 0), one.clone()]
            ),
            Some(Ok(KVal::int(Scalar::U64, 0x3ff0_0000_0000_0000)))
        );
        // 8 bytes read whole as a 4-byte u32: refused ([bit.cast]/1), where a plain byte read
        // takes the first four.
        let u32t = ValTy::scalar(Scalar::U32);
        let r = call(
            &exact_callee(u32t),
            &[KVal::int(Scalar::I32, 0), one.clone()],
        );
        assert!(matches!(r, Some(Err(m)) if m.contains("[bit.cast]/1")));
        assert_eq!(
            call(&callee(u32t), &[KVal::int(Scalar::I32, 0), one]),
            Some(Ok(KVal::int(Scalar::U32, 0)))
        );
        assert_eq!(result_type(&exact_callee(u32t)), Some(u32t));
    }
}
