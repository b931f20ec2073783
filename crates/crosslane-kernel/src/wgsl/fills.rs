//! The initial fill of a buffer whose WGSL type is a struct mixing 32-bit types
//! (`struct M { a: u32, b: f32, c: i32 }`): the engine holds such a buffer as `u32` cells
//! (WGSL § Memory Layout: the members share the bytes), so each fill value is first read as
//! its member's type and then stored as that value's bits: `3` in an `f32` member is 3.0
//! (0x40400000), `-4` in an `i32` member is 0xFFFFFFFC, and `3.0` is accepted there. Without
//! this the value was read as the cell's `u32` (the `f32` member held the bits 3, 4.2e-45; a
//! negative `i32` was no `u32` and left the cell undefined).
//!
//! A buffer of structs mixing `f16` with 4-byte scalars is held in 2-byte cells
//! (`lower::types::HALF_WORDS`): the fill gives one value per cell, an `f16` member's as its
//! half's bits, a 4-byte member's split over its two cells, low half first (WGSL § Internal
//! Layout of Values: little-endian); the item for a member's second cell is ignored.
//!
//! A typed fill (`f32:1.5,2.5`, [`crosslane_core::fill::split_typed`]) is bytes laid over the
//! cells as written and is left alone; so is a fill the engine refuses anyway (a list longer
//! than the buffer, a buffer over the memory budget), whose error it then gives.

use crosslane_core::fill::{affine_cell, parse_fill, random_ints, split_typed, Fill};

use super::Binding;
use crate::memory::parse_cell;
use crate::types::{KVal, Scalar, ValTy};
use crate::{budget, KernelError, LaunchConfig};

/// Rewrites the fill of each buffer of `bindings` that holds members of another type than its
/// cells (see the module comment) into the cells' values, one per cell; the default fill
/// `index` too (cell c holds the value c in its member's type).
///
/// # Errors
/// [`KernelError::in_input`] on `NAME fill` for a value its member's type cannot hold
/// (`1.5` in a `u32` member, `x` anywhere).
pub fn member_fills(bindings: &[Binding], config: &mut LaunchConfig) -> Result<(), KernelError> {
    for b in bindings {
        if b.padding.retyped_head.is_empty() && b.padding.retyped_element.is_empty() {
            continue;
        }
        let text = config
            .args
            .get(&b.name)
            .map_or_else(|| "index".to_string(), Clone::clone);
        if split_typed(&text).is_some() {
            continue;
        }
        let Some(&len) = config.buffer_len.get(&b.name) else {
            continue;
        };
        // Held twice (the text and the cells): past half the budget the engine refuses the
        // buffer itself, naming it.
        if (len as u64).saturating_mul(budget::size::OPTION_KVAL) > config.limits.max_memory / 2 {
            continue;
        }
        let field = format!("{} fill", b.name);
        let err = |m: String| KernelError::in_input(field.clone(), m);
        let fill = parse_fill(&text, &field).map_err(|e| err(e.message))?;
        if fill.list_len().is_some_and(|n| n > len) {
            continue;
        }
        let random: Vec<i64> = match fill {
            Fill::Random(seed) => random_ints(seed, len).collect(),
            _ => Vec::new(),
        };
        let cell = b.elem.scalar;
        let mut out = Vec::with_capacity(len);
        for k in 0..len {
            if cell == Scalar::U16 && b.member_type(k) == Some(super::lower::HIGH_HALF) {
                // Written with the member's first cell.
                continue;
            }
            let item = match &fill {
                Fill::Affine { mul, add } => affine_cell(k, *mul, *add, &field)
                    .map_err(|e| err(e.message))?
                    .to_string(),
                Fill::Number(n) => n.clone(),
                Fill::List(items) => items.get(k).cloned().unwrap_or_else(|| "undef".into()),
                Fill::Zero => "0".into(),
                Fill::Undef => "undef".into(),
                Fill::Random(_) => random.get(k).map_or_else(String::new, i64::to_string),
            };
            let member = match b.member_type(k) {
                Some("f16") => Scalar::F16,
                Some("f32") => Scalar::F32,
                Some("i32") => Scalar::I32,
                Some("u32") => Scalar::U32,
                _ => cell,
            };
            let value = match parse_cell(ValTy::scalar(member), &item, &field) {
                Ok(v) => v,
                // A padding cell is never read: a value that fits no member leaves it unset.
                Err(_) if b.is_padding(k) => None,
                Err(e) => {
                    let wgsl = match member {
                        Scalar::F16 => "f16",
                        Scalar::F32 => "f32",
                        Scalar::I32 => "i32",
                        _ => "u32",
                    };
                    return Err(err(format!("cell {k} ({wgsl} member): {}", e.message)));
                }
            };
            if cell == Scalar::U16 {
                // 2-byte cells: an `f16` is its cell's bits; a 4-byte member its two cells',
                // low half first (WGSL § Internal Layout of Values: little-endian).
                let bits = value.and_then(|v| member_bits(&v, member));
                let cells = if member.bits() == 32 { 2 } else { 1 };
                for h in 0..cells {
                    out.push(bits.map_or_else(
                        || "undef".to_string(),
                        |b| ((b >> (16 * h)) & 0xFFFF).to_string(),
                    ));
                }
                out.truncate(len);
                continue;
            }
            out.push(match value.and_then(|v| bits_as(&v, member, cell)) {
                Some(s) => s,
                None => "undef".to_string(),
            });
        }
        config.args.insert(b.name.clone(), out.join(","));
    }
    Ok(())
}

/// The bits of `v`, a value of `member` (`f16` or a 4-byte type), in its width.
fn member_bits(v: &KVal, member: Scalar) -> Option<u32> {
    Some(match member {
        Scalar::F16 => u32::from(half::f16::from_f64(v.as_f64()?).to_bits()),
        Scalar::F32 => (v.as_f64()? as f32).to_bits(),
        _ => v.as_int()? as u32,
    })
}

/// The value of the member whose (first) cell is `k` of buffer `b`, from the buffer's
/// `cells`, when it is not the cell's own value: an `f32` or `i32` member of a buffer of
/// `u32` bits (a struct mixing 32-bit types); in 2-byte cells (a struct mixing `f16` with
/// 4-byte scalars), an `f16` from its cell's bits and a 4-byte member from its two cells, low
/// half first (WGSL § Internal Layout of Values: little-endian). `None` for a cell that is
/// its own value, padding, the high half of a member, or a member with an undefined part.
pub fn member_value(b: &Binding, cells: &[Option<KVal>], k: usize) -> Option<KVal> {
    let member = b.member_type(k)?;
    let bits = |k: usize| -> Option<u32> {
        match cells.get(k)?.as_ref()? {
            KVal::Float {
                ty: Scalar::F16, x, ..
            } => Some(u32::from(half::f16::from_f64(*x).to_bits())),
            KVal::Float {
                ty: Scalar::F32, x, ..
            } => Some((*x as f32).to_bits()),
            v => v.as_int().map(|n| n as u32),
        }
    };
    let word = if b.elem.scalar == Scalar::U16 {
        match member {
            "f16" => {
                let h = half::f16::from_bits(bits(k)? as u16);
                return Some(KVal::float(Scalar::F16, h.to_f64()));
            }
            super::lower::HIGH_HALF => return None,
            _ => (bits(k)? & 0xFFFF) | (bits(k + 1)? << 16),
        }
    } else {
        bits(k)?
    };
    Some(match member {
        "f32" => KVal::float(Scalar::F32, f64::from(f32::from_bits(word))),
        "i32" => KVal::int(Scalar::I32, i128::from(word as i32)),
        _ => KVal::int(Scalar::U32, i128::from(word)),
    })
}

/// `v`, a value of the 32-bit `member` type, as the fill text of a cell of type `cell` holding
/// the same bits.
fn bits_as(v: &KVal, member: Scalar, cell: Scalar) -> Option<String> {
    let bits: u32 = if member == Scalar::F32 {
        (v.as_f64()? as f32).to_bits()
    } else {
        v.as_int()? as u32
    };
    Some(match cell {
        Scalar::F32 => {
            let x = f32::from_bits(bits);
            // A NaN's payload is not kept by the engine's float cells; the value is.
            if x.is_nan() {
                "nan".to_string()
            } else {
                format!("{x:?}")
            }
        }
        Scalar::I32 => (bits as i32).to_string(),
        _ => bits.to_string(),
    })
}
