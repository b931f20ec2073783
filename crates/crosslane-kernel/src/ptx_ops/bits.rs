//! The integer rows of [`super::ROWS`] (PTX ISA 8.5, "Integer Arithmetic Instructions",
//! "Logic and Shift Instructions", "Data Movement and Conversion Instructions"): the bit
//! tricks dequantization and hashing code writes. Each is exact on 32-bit registers.

use super::{u32_of, Mods};
use crate::types::{KVal, Scalar};

fn out(v: u32) -> Result<KVal, String> {
    Ok(KVal::int(Scalar::U32, i128::from(v)))
}

/// `lop3.b32 d, a, b, c, immLut;` (PTX ISA, lop3): bit i of `d` is bit
/// `a_i·4 + b_i·2 + c_i` of `immLut` — the truth table the constants `0xF0` (a), `0xCC` (b),
/// `0xAA` (c) combine into (`0xF0 & 0xCC | 0xAA` = `0xEA` is `(a & b) | c`).
pub(super) fn lop3(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    let (x, y, z, lut) = (u32_of(a, 0)?, u32_of(a, 1)?, u32_of(a, 2)?, u32_of(a, 3)?);
    let mut d = 0u32;
    for i in 0..32 {
        let k = ((x >> i) & 1) << 2 | ((y >> i) & 1) << 1 | ((z >> i) & 1);
        d |= ((lut >> k) & 1) << i;
    }
    out(d)
}

/// `prmt.b32 d, a, b, c;` in the default mode (PTX ISA, prmt): the eight bytes of
/// `{b, a}` (a bytes 0–3, b bytes 4–7); byte i of `d` is the byte nibble i of `c` selects
/// with its low three bits, or, when the nibble's bit 3 is set, that byte's sign bit
/// replicated (`0x00` or `0xff`). CUDA's `__byte_perm` is this instruction without the sign
/// mode.
pub(super) fn prmt(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    let (x, y, c) = (u32_of(a, 0)?, u32_of(a, 1)?, u32_of(a, 2)?);
    let src = u64::from(y) << 32 | u64::from(x);
    let mut d = 0u32;
    for i in 0..4 {
        let ctl = (c >> (4 * i)) & 0xf;
        let byte = ((src >> (8 * (ctl & 7))) & 0xff) as u32;
        let byte = if ctl & 8 != 0 {
            if byte & 0x80 != 0 {
                0xff
            } else {
                0
            }
        } else {
            byte
        };
        d |= byte << (8 * i);
    }
    out(d)
}

/// `bfe` (PTX ISA, bfe): `len` bits of `a` from bit `pos` (each from the low 8 bits of its
/// operand); bits past bit 31 of `a`, and the bits above `len`, are the sign bit
/// `a[min(pos + len - 1, 31)]` for `.s32` (0 when `len` is 0) and 0 for `.u32`.
fn bfe(a: &[KVal], signed: bool) -> Result<KVal, String> {
    let (x, pos, len) = (u32_of(a, 0)?, u32_of(a, 1)? & 0xff, u32_of(a, 2)? & 0xff);
    let sbit = if signed && len != 0 {
        (x >> (pos + len - 1).min(31)) & 1
    } else {
        0
    };
    let mut d = 0u32;
    for i in 0..32 {
        let bit = if i < len && pos + i <= 31 {
            (x >> (pos + i)) & 1
        } else {
            sbit
        };
        d |= bit << i;
    }
    out(d)
}

/// `bfe.u32 d, a, pos, len;`.
pub(super) fn bfe_u32(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    bfe(a, false)
}

/// `bfe.s32 d, a, pos, len;`.
pub(super) fn bfe_s32(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    bfe(a, true)
}

/// `bfi.b32 f, a, b, pos, len;` (PTX ISA, bfi): `b` with its bits `pos..pos+len` (those
/// within bit 31) replaced by the low bits of `a`.
pub(super) fn bfi(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    let (x, y) = (u32_of(a, 0)?, u32_of(a, 1)?);
    let (pos, len) = (u32_of(a, 2)? & 0xff, u32_of(a, 3)? & 0xff);
    let mut f = y;
    let mut i = 0;
    while i < len && pos + i <= 31 {
        f = (f & !(1 << (pos + i))) | (((x >> i) & 1) << (pos + i));
        i += 1;
    }
    out(f)
}

/// `shf.{l,r}.{wrap,clamp}.b32 d, a, b, c;` (PTX ISA, shf): the 64-bit `b:a` (`b` high)
/// shifted by `c` mod 32 (`.wrap`) or min(c, 32) (`.clamp`); `.l` keeps the high word, `.r`
/// the low one (CUDA's `__funnelshift_l`/`_lc`, `_r`/`_rc`).
pub(super) fn shf(m: Mods, a: &[KVal]) -> Result<KVal, String> {
    let (lo, hi, c) = (u32_of(a, 0)?, u32_of(a, 1)?, u32_of(a, 2)?);
    let n = if m.shift == "wrap" { c & 31 } else { c.min(32) };
    let both = u64::from(hi) << 32 | u64::from(lo);
    out(if m.choice == "l" {
        ((both << n) >> 32) as u32
    } else {
        (both >> n) as u32
    })
}

/// The 64-bit product's high or low word (PTX ISA, mul: `.hi` bits 63..32, `.lo` 31..0).
fn product(m: Mods, a: &[KVal], signed: bool) -> Result<u32, String> {
    let (x, y) = (u32_of(a, 0)?, u32_of(a, 1)?);
    let p: u64 = if signed {
        (i64::from(x as i32) * i64::from(y as i32)) as u64
    } else {
        u64::from(x) * u64::from(y)
    };
    Ok(if m.choice == "hi" {
        (p >> 32) as u32
    } else {
        p as u32
    })
}

/// `mul.{hi,lo}.u32`.
pub(super) fn mul_u32(m: Mods, a: &[KVal]) -> Result<KVal, String> {
    out(product(m, a, false)?)
}

/// `mul.{hi,lo}.s32`.
pub(super) fn mul_s32(m: Mods, a: &[KVal]) -> Result<KVal, String> {
    out(product(m, a, true)?)
}

/// `mad.{hi,lo}.u32 d, a, b, c;` (PTX ISA, mad): that word of a · b, plus c, mod 2^32.
pub(super) fn mad_u32(m: Mods, a: &[KVal]) -> Result<KVal, String> {
    out(product(m, a, false)?.wrapping_add(u32_of(a, 2)?))
}

/// `mad.{hi,lo}.s32`.
pub(super) fn mad_s32(m: Mods, a: &[KVal]) -> Result<KVal, String> {
    out(product(m, a, true)?.wrapping_add(u32_of(a, 2)?))
}

/// `popc.b32` (PTX ISA, popc): the set bits.
pub(super) fn popc(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    out(u32_of(a, 0)?.count_ones())
}

/// `brev.b32` (PTX ISA, brev): bit i to bit 31 - i.
pub(super) fn brev(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    out(u32_of(a, 0)?.reverse_bits())
}

/// `clz.b32` (PTX ISA, clz): the leading zeros, 32 for 0.
pub(super) fn clz(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    out(u32_of(a, 0)?.leading_zeros())
}

/// `mov.b32 d, {a, b};` (PTX ISA, mov: a vector packed into a scalar, element 0 in the low
/// bits): `a` the low half, `b` the high.
pub(super) fn pack(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    let (lo, hi) = (u32_of(a, 0)? & 0xffff, u32_of(a, 1)? & 0xffff);
    out(hi << 16 | lo)
}

/// `mov.b32 {a, b}, d;`, element `k` (the second source): 0 the low half of `d`, 1 the high.
pub(super) fn unpack(_: Mods, a: &[KVal]) -> Result<KVal, String> {
    let (d, k) = (u32_of(a, 0)?, u32_of(a, 1)?);
    let half = if k == 0 { d & 0xffff } else { d >> 16 };
    Ok(KVal::int(Scalar::U16, i128::from(half)))
}

#[cfg(test)]
mod tests {
    use super::super::{call, callee};
    use super::*;

    fn r(v: u32) -> KVal {
        KVal::int(Scalar::U32, i128::from(v))
    }

    fn run(m: &str, args: &[u32]) -> u32 {
        let args: Vec<KVal> = args.iter().map(|&v| r(v)).collect();
        call(&callee(m), &args).unwrap().unwrap().as_int().unwrap() as u32
    }

    #[test]
    fn lop3_truth_tables() {
        // 0x96 = a ^ b ^ c (0xF0 ^ 0xCC ^ 0xAA); 0xEA = (a & b) | c.
        let (a, b, c) = (0x1234_5678, 0x0f0f_0f0f, 0xff00_ff00);
        assert_eq!(run("lop3.b32", &[a, b, c, 0x96]), a ^ b ^ c);
        assert_eq!(run("lop3.b32", &[a, b, c, 0xea]), (a & b) | c);
    }

    #[test]
    fn prmt_selects_and_replicates_sign() {
        // {b, a} bytes: a = 0x44332211 (bytes 0-3), b = 0x88776655 (bytes 4-7).
        // c = 0x3210 → a unchanged; 0x7654 → b; 0x0004 → bytes 0x11, 0x11, 0x11, 0x55.
        let (a, b) = (0x4433_2211, 0x8877_6655);
        assert_eq!(run("prmt.b32", &[a, b, 0x3210]), a);
        assert_eq!(run("prmt.b32", &[a, b, 0x7654]), b);
        assert_eq!(run("prmt.b32", &[a, b, 0x0004]), 0x1111_1155);
        // nibble 0xf: byte 7 (0x88) sign-replicated → 0xff; 0x8: byte 0 (0x11) → 0x00.
        assert_eq!(run("prmt.b32", &[a, b, 0x888f]), 0x0000_00ff);
    }

    #[test]
    fn bit_fields() {
        // 0xABCD1234: bits 8..16 are 0x12; .s32 of bits 28..32 (0xA = 0b1010) is -6.
        assert_eq!(run("bfe.u32", &[0xabcd_1234, 8, 8]), 0x12);
        assert_eq!(run("bfe.s32", &[0xabcd_1234, 28, 4]), (-6i32) as u32);
        assert_eq!(run("bfe.u32", &[0xabcd_1234, 40, 4]), 0);
        assert_eq!(run("bfi.b32", &[0xf, 0, 4, 4]), 0xf0);
    }

    #[test]
    fn funnel_shifts() {
        // b:a = 0x00000001:0x80000000; left by 1 → high word 0x00000003.
        assert_eq!(run("shf.l.wrap.b32", &[0x8000_0000, 1, 1]), 3);
        // right clamp by 40 → 32: the high word 1.
        assert_eq!(run("shf.r.clamp.b32", &[0x8000_0000, 1, 40]), 1);
        // right wrap by 33 → 1: 0x80000000 >> 1 | 1 << 31.
        assert_eq!(run("shf.r.wrap.b32", &[0x8000_0000, 1, 33]), 0xc000_0000);
    }

    #[test]
    fn products_and_counts() {
        // 0xffffffff² = 0xfffffffe_00000001; as s32 (-1)² = 1.
        assert_eq!(run("mul.hi.u32", &[u32::MAX, u32::MAX]), 0xffff_fffe);
        assert_eq!(run("mul.hi.s32", &[u32::MAX, u32::MAX]), 0);
        assert_eq!(run("mad.lo.s32", &[3, (-4i32) as u32, 20]), 8);
        assert_eq!(run("popc.b32", &[0xf0f0]), 8);
        assert_eq!(run("brev.b32", &[1]), 0x8000_0000);
        assert_eq!(run("clz.b32", &[0]), 32);
        assert_eq!(run("mov.pack.b32", &[0x1234, 0xabcd]), 0xabcd_1234);
        assert_eq!(run("mov.unpack.b32", &[0xabcd_1234, 1]), 0xabcd);
    }
}
