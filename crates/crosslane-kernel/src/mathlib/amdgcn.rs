//! clang's AMDGPU bit built-ins that map to one VALU instruction: `__builtin_amdgcn_ubfe`,
//! `__builtin_amdgcn_sbfe` (bit-field extract), `__builtin_amdgcn_perm` (byte permute) and
//! `__builtin_amdgcn_fmed3f` (median of three floats). Their semantics are the instructions'
//! pseudocode in AMD's ISA reference guides (AMD "Instinct MI300" CDNA3 ISA and "RDNA3" ISA,
//! VOP3 opcodes `V_BFE_U32`, `V_BFE_I32`, `V_PERM_B32`, `V_MED3_F32`); the operands are the
//! built-ins' arguments in order.

use crate::types::{KVal, Scalar};

const NAMES: &[&str] = &[
    "__builtin_amdgcn_ubfe",
    "__builtin_amdgcn_sbfe",
    "__builtin_amdgcn_perm",
    FMED3F,
];

/// `float __builtin_amdgcn_fmed3f(float, float, float)` (clang `BuiltinsAMDGPU.def`, every
/// target): `V_MED3_F32`.
pub const FMED3F: &str = "__builtin_amdgcn_fmed3f";

/// Whether `name` is one of these built-ins.
pub fn is_amdgcn(name: &str) -> bool {
    NAMES.contains(&name)
}

/// Runs `name` on one lane's three arguments, or `None` when it is not one of these built-ins.
///
/// # Errors
/// Fewer than three arguments, or one that is not an integer.
pub fn call(name: &str, args: &[KVal]) -> Option<Result<KVal, String>> {
    if !is_amdgcn(name) {
        return None;
    }
    if name == FMED3F {
        return Some(fmed3_call(args));
    }
    let mut v = [0u32; 3];
    for (k, slot) in v.iter_mut().enumerate() {
        match args.get(k).and_then(KVal::as_int) {
            Some(n) => *slot = n as u32,
            None => {
                return Some(Err(format!(
                    "`{name}` takes three 32-bit integer arguments; argument {} is {}",
                    k + 1,
                    if args.len() <= k {
                        "missing"
                    } else {
                        "not an integer"
                    }
                )))
            }
        }
    }
    let [s0, s1, s2] = v;
    Some(Ok(match name {
        // V_BFE_U32: D = (S0 >> S1[4:0]) & ((1 << S2[4:0]) − 1). Offset and width are read
        // modulo 32; a field past bit 31 gets zeros from the shift; width 0 gives 0.
        "__builtin_amdgcn_ubfe" => KVal::int(Scalar::U32, i128::from(ubfe(s0, s1, s2))),
        // V_BFE_I32: the same field of the arithmetic shift S0.i >> S1[4:0], sign-extended from
        // its top bit (bit width − 1); width 0 gives 0.
        "__builtin_amdgcn_sbfe" => KVal::int(Scalar::I32, i128::from(sbfe(s0, s1, s2))),
        _ => KVal::int(Scalar::U32, i128::from(perm(s0, s1, s2))),
    }))
}

fn fmed3_call(args: &[KVal]) -> Result<KVal, String> {
    let mut v = [0f32; 3];
    for (k, slot) in v.iter_mut().enumerate() {
        // C converts each argument to the prototype's `float`.
        match args.get(k).and_then(KVal::as_f64) {
            Some(x) => *slot = x as f32,
            None => {
                return Err(format!(
                    "`{FMED3F}` takes three float arguments; argument {} is {}",
                    k + 1,
                    if args.len() <= k {
                        "missing"
                    } else {
                        "not a number"
                    }
                ))
            }
        }
    }
    Ok(KVal::float(Scalar::F32, f64::from(fmed3(v[0], v[1], v[2]))))
}

/// `V_MIN_F32` in IEEE mode (the mode compute kernels run in) for quiet NaNs: a NaN operand
/// gives the other operand (both NaN: NaN), and −0 < +0. The emulator keeps no NaN payload
/// (semantics.md "NaN bit patterns"), so every NaN here is quiet; the ISA's signaling-NaN rows
/// (which return the quieted NaN) are not reachable.
fn vmin(a: f32, b: f32) -> f32 {
    if b.is_nan() {
        a
    } else if a.is_nan() {
        b
    } else if a < b || (a == 0.0 && b == 0.0 && a.is_sign_negative() && b.is_sign_positive()) {
        a
    } else {
        b
    }
}

/// `V_MAX_F32` likewise: a NaN operand gives the other; +0 > −0.
fn vmax(a: f32, b: f32) -> f32 {
    if b.is_nan() {
        a
    } else if a.is_nan() {
        b
    } else if a > b || (a == 0.0 && b == 0.0 && a.is_sign_positive() && b.is_sign_negative()) {
        a
    } else {
        b
    }
}

/// `V_MED3_F32` (RDNA3 ISA, 16.12 VOP3): with any NaN operand, `v_min3_f32(S0, S1, S2)` =
/// `min(min(S0, S1), S2)`, which drops quiet NaNs, so the smaller of the two numbers (all
/// three NaN: NaN); else, with `m = v_max3_f32(S0, S1, S2)`: `m == S0` → `max(S1, S2)`,
/// `m == S1` → `max(S0, S2)`, otherwise `max(S0, S1)` — the median (the `==` is the float
/// comparison, so −0 equals +0 there).
fn fmed3(s0: f32, s1: f32, s2: f32) -> f32 {
    if s0.is_nan() || s1.is_nan() || s2.is_nan() {
        return vmin(vmin(s0, s1), s2);
    }
    let m = vmax(vmax(s0, s1), s2);
    if m == s0 {
        vmax(s1, s2)
    } else if m == s1 {
        vmax(s0, s2)
    } else {
        vmax(s0, s1)
    }
}

fn ubfe(src: u32, offset: u32, width: u32) -> u32 {
    let w = width & 31;
    if w == 0 {
        return 0;
    }
    (src >> (offset & 31)) & ((1u32 << w) - 1)
}

fn sbfe(src: u32, offset: u32, width: u32) -> i32 {
    let w = width & 31;
    if w == 0 {
        return 0;
    }
    let field = ((src as i32) >> (offset & 31)) as u32 & ((1u32 << w) - 1);
    // Sign-extend from bit w − 1.
    ((field << (32 - w)) as i32) >> (32 - w)
}

/// V_PERM_B32: the eight input bytes are {S0, S1} (S1 bytes 0–3, S0 bytes 4–7); result byte
/// n is picked by selector byte n of S2: 0–7 that input byte, 8 / 9 / 10 / 11 the sign of
/// input byte 1 / 3 / 5 / 7 repeated (0x00 or 0xFF), 12 the constant 0x00, 13 and above 0xFF.
fn perm(s0: u32, s1: u32, sel: u32) -> u32 {
    let data = (u64::from(s0) << 32) | u64::from(s1);
    let byte = |k: u32| ((data >> (8 * k)) & 0xff) as u32;
    (0..4).fold(0, |r, n| {
        let s = (sel >> (8 * n)) & 0xff;
        let b = match s {
            0..=7 => byte(s),
            8..=11 => {
                let sign = byte(2 * (s - 8) + 1) >> 7;
                sign * 0xff
            }
            12 => 0,
            _ => 0xff,
        };
        r | (b << (8 * n))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_worked_by_hand() {
        // 0xABCD1234 >> 8 = 0x00ABCD12, low 12 bits: 0xD12.
        assert_eq!(ubfe(0xABCD_1234, 8, 12), 0xD12);
        // Offset 40 & 31 = 8 and width 44 & 31 = 12: the same field.
        assert_eq!(ubfe(0xABCD_1234, 40, 44), 0xD12);
        // Past the top: 0xABCD1234 >> 28 = 0xA, a 16-bit field of it: 0xA. Width 32 & 31 = 0.
        assert_eq!(ubfe(0xABCD_1234, 28, 16), 0xA);
        assert_eq!(ubfe(0xABCD_1234, 0, 32), 0);
        // 0xD12's top bit (bit 11) is 1: 0xD12 − 0x1000 = −750.
        assert_eq!(sbfe(0xABCD_1234, 8, 12), -750);
        // 0x234 (bits 0..12 of 0x1234) has bit 11 clear: 564.
        assert_eq!(sbfe(0xABCD_1234, 0, 12), 0x234);
        // Arithmetic shift: 0xABCD1234 >> 28 = 0xFFFFFFFA, 8-bit field 0xFA = −6.
        assert_eq!(sbfe(0xABCD_1234, 28, 8), -6);
        // Bytes of {S0, S1} with S0 = 0x8899AABB, S1 = 0x11223344: 0 → 0x44, 4 → 0xBB.
        // Selector 0x0C0C0400: byte 0 = input 0 (0x44), byte 1 = input 4 (0xBB), bytes 2, 3 = 0.
        assert_eq!(perm(0x8899_AABB, 0x1122_3344, 0x0C0C_0400), 0x0000_BB44);
        // 7 → 0x88; 8: sign of input byte 1 (0x33: 0) → 0x00; 11: sign of byte 7 (0x88) →
        // 0xFF; 13 → 0xFF.
        assert_eq!(perm(0x8899_AABB, 0x1122_3344, 0x0D0B_0807), 0xFFFF_0088);
        // 9: sign of byte 3 (0x11) → 0; 10: sign of byte 5 (0xAA) → 0xFF; 0xFF → 0xFF; 12 → 0.
        assert_eq!(perm(0x8899_AABB, 0x1122_3344, 0x0CFF_0A09), 0x00FF_FF00);
    }

    #[test]
    fn med3_by_the_pseudocode() {
        // max3(3, 1, 2) = 3 = S0 → max(1, 2) = 2; max3(1, 3, 2) = S1 → max(1, 2) = 2;
        // max3(1, 2, 3) = S2 → max(1, 2) = 2.
        assert_eq!(fmed3(3.0, 1.0, 2.0), 2.0);
        assert_eq!(fmed3(1.0, 3.0, 2.0), 2.0);
        assert_eq!(fmed3(1.0, 2.0, 3.0), 2.0);
        // Any NaN: min3, quiet NaNs dropped: min(min(NaN, 5), -1) = -1; min(min(4, NaN), 7)
        // = 4; min(min(NaN, NaN), 2) = 2; all NaN: NaN.
        assert_eq!(fmed3(f32::NAN, 5.0, -1.0), -1.0);
        assert_eq!(fmed3(4.0, f32::NAN, 7.0), 4.0);
        assert_eq!(fmed3(f32::NAN, f32::NAN, 2.0), 2.0);
        assert!(fmed3(f32::NAN, f32::NAN, f32::NAN).is_nan());
        // Infinities are numbers: med3(-inf, +inf, 0) = 0.
        assert_eq!(fmed3(f32::NEG_INFINITY, f32::INFINITY, 0.0), 0.0);
        // Signed zeros: max3(-0, +0, -0) = +0 (+0 > -0), and +0 == S0 (-0) as floats, so
        // max(S1, S2) = max(+0, -0) = +0.
        assert!(fmed3(-0.0, 0.0, -0.0).is_sign_positive());
    }
}
