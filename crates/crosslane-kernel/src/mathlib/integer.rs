//! The integer intrinsics and functions of the CUDA Math API ("Integer Intrinsics", "Integer
//! Mathematical Functions") that the kernel built-ins lacked: 24-bit multiplies, high halves of
//! products, sums of absolute differences, funnel shifts, halving adds and the typed `min` /
//! `max` forms. HIP provides them under the same names (HIP math API, "Integer intrinsics").
//! `__brev`, `__clz`, `__ffs` and `__popc` are the existing built-ins; `__byte_perm`, clang's
//! bit built-ins and HIP's bit-field functions are here (`bits`). `__hadd` with integer
//! arguments is the integer halving add (`__half` arguments take the half add, `crate::half`). The packed integer dot products `__dp4a`, `__dp2a_lo` and
//! `__dp2a_hi` (CUDA Math API, "Integer Intrinsics"; PTX ISA `dp4a`, `dp2a`: compute
//! capability 6.1 and newer) take their signedness from the first argument: an `unsigned`
//! one selects the unsigned form, as the overloads do. HIP's math API documentation does
//! not list `__dp4a` (llama.cpp's HIP path computes it with its own helper); it is accepted in
//! HIP sources as the same function.

use crate::types::{KVal, Scalar};

const NAMES: &[&str] = &[
    "__mul24",
    "__umul24",
    "__mulhi",
    "__umulhi",
    "__mul64hi",
    "__umul64hi",
    "__sad",
    "__usad",
    "__funnelshift_l",
    "__funnelshift_r",
    "__funnelshift_lc",
    "__funnelshift_rc",
    "__hadd",
    "__rhadd",
    "__uhadd",
    "__urhadd",
    "umin",
    "umax",
    "llmin",
    "llmax",
    "ullmin",
    "ullmax",
    "llabs",
    "labs",
    "__dp4a",
    "__dp2a_lo",
    "__dp2a_hi",
    "__builtin_popcount",
    "__builtin_popcountl",
    "__builtin_popcountll",
    "__builtin_clz",
    "__builtin_clzl",
    "__builtin_clzll",
    "__builtin_ctz",
    "__builtin_ctzl",
    "__builtin_ctzll",
    "__builtin_ffs",
    "__builtin_ffsl",
    "__builtin_ffsll",
    "__builtin_expect",
    "__builtin_bswap16",
    "__builtin_bswap32",
    "__builtin_bswap64",
    "__builtin_bitreverse32",
    "__builtin_bitreverse64",
    "__bitextract_u32",
    "__bitextract_u64",
    "__bitinsert_u32",
    "__bitinsert_u64",
    "__byte_perm",
];

/// Whether `name` is one of these functions.
pub fn is_integer(name: &str) -> bool {
    NAMES.contains(&name)
}

/// Whether an argument is of an unsigned integer type (it selects the unsigned overload).
fn is_unsigned(v: &KVal) -> bool {
    matches!(v, KVal::Int { ty, .. } if !ty.is_signed())
}

fn int(name: &str, args: &[KVal], k: usize) -> Result<i128, String> {
    match args.get(k) {
        Some(v) => v
            .as_int()
            .or_else(|| v.as_f64().map(|x| x as i128))
            .ok_or_else(|| format!("`{name}` needs an integer as argument {}", k + 1)),
        None => Err(format!(
            "`{name}` takes at least {} argument(s), got {}",
            k + 1,
            args.len()
        )),
    }
}

/// Runs `name`, or `None` when it is not one of these functions.
pub fn call(name: &str, args: &[KVal]) -> Option<Result<KVal, String>> {
    if !is_integer(name) {
        return None;
    }
    Some(run(name, args))
}

fn run(name: &str, args: &[KVal]) -> Result<KVal, String> {
    let a = int(name, args, 0)?;
    if let Some(r) = bits(name, args, a) {
        return r;
    }
    let b = || int(name, args, 1);
    let (i32_, u32_, i64_, u64_) = (Scalar::I32, Scalar::U32, Scalar::I64, Scalar::U64);
    Ok(match name {
        // "the least significant 32 bits of the product of the least significant 24 bits of
        // x and y; the high order 8 bits are ignored" (signed: the 24-bit values sign-extend,
        // PTX ISA `mul24.lo.s32`).
        "__mul24" => {
            let s24 = |v: i128| (((v as u32) << 8) as i32 >> 8) as i64;
            KVal::int(i32_, i128::from(s24(a).wrapping_mul(s24(b()?))))
        }
        "__umul24" => {
            let u24 = |v: i128| u64::from(v as u32 & 0x00ff_ffff);
            KVal::int(u32_, i128::from(u24(a) * u24(b()?)))
        }
        // The high 32 (64) bits of the 64-bit (128-bit) product.
        "__mulhi" => KVal::int(i32_, (i128::from(a as i32) * i128::from(b()? as i32)) >> 32),
        "__umulhi" => KVal::int(u32_, (i128::from(a as u32) * i128::from(b()? as u32)) >> 32),
        "__mul64hi" => KVal::int(i64_, (i128::from(a as i64) * i128::from(b()? as i64)) >> 64),
        "__umul64hi" => KVal::int(
            u64_,
            ((u128::from(a as u64) * u128::from(b()? as u64)) >> 64) as i128,
        ),
        // |x − y| + z, z and the result unsigned.
        "__sad" => {
            let z = int(name, args, 2)? as u32;
            let d = (i64::from(a as i32) - i64::from(b()? as i32)).unsigned_abs() as u32;
            KVal::int(u32_, i128::from(d.wrapping_add(z)))
        }
        "__usad" => {
            let z = int(name, args, 2)? as u32;
            let d = (a as u32).abs_diff(b()? as u32);
            KVal::int(u32_, i128::from(d.wrapping_add(z)))
        }
        // The funnel shifts: hi:lo as 64 bits, shifted by `shift & 31` (the `c` forms clamp
        // the shift to 32): `_l` returns the high 32 bits of the left shift, `_r` the low 32
        // bits of the right shift (CUDA Math API, __funnelshift_l/_lc/_r/_rc).
        "__funnelshift_l" | "__funnelshift_lc" | "__funnelshift_r" | "__funnelshift_rc" => {
            let hi = b()? as u32;
            let s = int(name, args, 2)? as u32;
            let s = if name.ends_with('c') {
                s.min(32)
            } else {
                s & 31
            };
            let wide = (u64::from(hi) << 32) | u64::from(a as u32);
            let r = if name.starts_with("__funnelshift_l") {
                ((wide << s) >> 32) as u32
            } else {
                (wide >> s) as u32
            };
            KVal::int(u32_, i128::from(r))
        }
        // Halving adds without overflow: (x + y) >> 1, the `r` forms (x + y + 1) >> 1.
        // `int __hadd(int, int)` (the half-precision `__hadd` takes the `__half` arguments).
        "__hadd" => KVal::int(i32_, (i128::from(a as i32) + i128::from(b()? as i32)) >> 1),
        "__rhadd" => KVal::int(
            i32_,
            (i128::from(a as i32) + i128::from(b()? as i32) + 1) >> 1,
        ),
        "__uhadd" => KVal::int(u32_, (i128::from(a as u32) + i128::from(b()? as u32)) >> 1),
        "__urhadd" => KVal::int(
            u32_,
            (i128::from(a as u32) + i128::from(b()? as u32) + 1) >> 1,
        ),
        // c + Σ a.byte[i] · b.byte[i] over the four bytes, each byte sign-extended (the
        // `int` overload) or zero-extended (`unsigned`); the sum wraps to 32 bits as the
        // PTX `dp4a` accumulate does.
        "__dp4a" => {
            let (x, y, c) = (a as u32, b()? as u32, int(name, args, 2)? as u32);
            let unsigned = args.first().is_some_and(is_unsigned);
            let byte = |v: u32, k: u32| -> i64 {
                let raw = (v >> (8 * k)) & 0xff;
                if unsigned {
                    i64::from(raw)
                } else {
                    i64::from(raw as u8 as i8)
                }
            };
            let dot: i64 = (0..4).map(|k| byte(x, k) * byte(y, k)).sum();
            let r = (i64::from(c) + dot) as u32;
            if unsigned {
                KVal::int(u32_, i128::from(r))
            } else {
                KVal::int(i32_, i128::from(r as i32))
            }
        }
        // c + a.half[0] · b.byte[j] + a.half[1] · b.byte[j+1], j = 0 (`_lo`) or 2 (`_hi`):
        // two 16-bit values of `a` times two bytes of `b` (PTX `dp2a.lo` / `dp2a.hi`).
        "__dp2a_lo" | "__dp2a_hi" => {
            let (x, y, c) = (a as u32, b()? as u32, int(name, args, 2)? as u32);
            let unsigned = args.first().is_some_and(is_unsigned);
            let j = if name == "__dp2a_hi" { 2 } else { 0 };
            let half = |k: u32| -> i64 {
                let raw = (x >> (16 * k)) & 0xffff;
                if unsigned {
                    i64::from(raw)
                } else {
                    i64::from(raw as u16 as i16)
                }
            };
            let byte = |k: u32| -> i64 {
                let raw = (y >> (8 * (j + k))) & 0xff;
                if unsigned {
                    i64::from(raw)
                } else {
                    i64::from(raw as u8 as i8)
                }
            };
            let r = (i64::from(c) + half(0) * byte(0) + half(1) * byte(1)) as u32;
            if unsigned {
                KVal::int(u32_, i128::from(r))
            } else {
                KVal::int(i32_, i128::from(r as i32))
            }
        }
        "umin" | "umax" => {
            let (x, y) = (a as u32, b()? as u32);
            KVal::int(
                u32_,
                i128::from(if name == "umin" { x.min(y) } else { x.max(y) }),
            )
        }
        "llmin" | "llmax" => {
            let (x, y) = (a as i64, b()? as i64);
            KVal::int(
                i64_,
                i128::from(if name == "llmin" { x.min(y) } else { x.max(y) }),
            )
        }
        "ullmin" | "ullmax" => {
            let (x, y) = (a as u64, b()? as u64);
            KVal::int(
                u64_,
                i128::from(if name == "ullmin" { x.min(y) } else { x.max(y) }),
            )
        }
        _ => {
            // llabs / labs: |x| of a 64-bit value; the most negative value has no absolute
            // value (C11 7.22.6.1: undefined).
            let x = a as i64;
            let v = x.checked_abs().ok_or_else(|| {
                format!("`{name}` of the most negative value overflows: undefined (C11 7.22.6.1)")
            })?;
            KVal::int(i64_, i128::from(v))
        }
    })
}

/// The bit built-ins of clang and GCC (clang "Builtin Functions"; GCC "Other Built-in
/// Functions Provided by GCC": `long` is 64 bits on the LP64 targets CUDA and HIP compile for)
/// and HIP's bit-field device functions; `None` for any other name. `a` is argument 1.
fn bits(name: &str, args: &[KVal], a: i128) -> Option<Result<KVal, String>> {
    let (i32_, u32_, u64_) = (Scalar::I32, Scalar::U32, Scalar::U64);
    let wide = name.ends_with('l') || name.ends_with("64");
    // The operand as its unsigned type (32 or 64 bits).
    let x = if wide { a as u64 } else { u64::from(a as u32) };
    let width = if wide { 64 } else { 32 };
    let undefined_at_zero = |what: &str| {
        format!(
            "`{name}(0)`: the {what} of zero is undefined (clang and GCC built-ins: \
             \"if x is 0, the result is undefined\"; CUDA's `__clz`/`__ffs` define it)"
        )
    };
    Some(Ok(match name {
        // The number of 1 bits.
        "__builtin_popcount" | "__builtin_popcountl" | "__builtin_popcountll" => {
            KVal::int(i32_, i128::from(x.count_ones()))
        }
        // Leading (trailing) 0 bits, from the most (least) significant bit; zero: undefined.
        "__builtin_clz" | "__builtin_clzl" | "__builtin_clzll" => {
            if x == 0 {
                return Some(Err(undefined_at_zero("count of leading zeros")));
            }
            KVal::int(i32_, i128::from(x.leading_zeros() - (64 - width)))
        }
        "__builtin_ctz" | "__builtin_ctzl" | "__builtin_ctzll" => {
            if x == 0 {
                return Some(Err(undefined_at_zero("count of trailing zeros")));
            }
            KVal::int(i32_, i128::from(x.trailing_zeros()))
        }
        // One plus the index of the least significant 1 bit; zero for zero (defined).
        "__builtin_ffs" | "__builtin_ffsl" | "__builtin_ffsll" => KVal::int(
            i32_,
            if x == 0 {
                0
            } else {
                i128::from(x.trailing_zeros() + 1)
            },
        ),
        // `long __builtin_expect(long exp, long c)`: the value of `exp` (`c` only a hint).
        "__builtin_expect" => KVal::int(Scalar::I64, i128::from(a as i64)),
        "__builtin_bswap16" => KVal::int(Scalar::U16, i128::from((a as u16).swap_bytes())),
        "__builtin_bswap32" => KVal::int(u32_, i128::from((a as u32).swap_bytes())),
        "__builtin_bswap64" => KVal::int(u64_, i128::from((a as u64).swap_bytes())),
        "__builtin_bitreverse32" => KVal::int(u32_, i128::from((a as u32).reverse_bits())),
        "__builtin_bitreverse64" => KVal::int(u64_, i128::from((a as u64).reverse_bits())),
        // CUDA Math API, "Integer Intrinsics", `__byte_perm(x, y, s)`: the eight input bytes
        // are x's four (bytes 0-3, least significant first) then y's (4-7); result byte n is
        // input byte s[4n+2:4n] (the selector's nibble n, its top bit ignored).
        "__byte_perm" => {
            let y = match int(name, args, 1) {
                Ok(v) => v as u32,
                Err(e) => return Some(Err(e)),
            };
            let sel = match int(name, args, 2) {
                Ok(v) => v as u32,
                Err(e) => return Some(Err(e)),
            };
            let input = (u64::from(y) << 32) | u64::from(a as u32);
            let r = (0..4).fold(0u32, |r, n| {
                let pick = (sel >> (4 * n)) & 7;
                r | ((((input >> (8 * pick)) & 0xff) as u32) << (8 * n))
            });
            KVal::int(u32_, i128::from(r))
        }
        // HIP device functions (HIP math API, "Integer intrinsics"; the HIP headers define
        // them): the offset and width are taken modulo the word size (`& 31`, `& 63`, as
        // `v_bfe_u32` reads its operands), width 0 extracts nothing, and the field is cut out
        // by `(src << (W − offset − width)) >> (W − width)`: a field running past the top bit
        // (offset + width > W) makes that left shift's count negative: undefined
        // (C++ [expr.shift]/1).
        "__bitextract_u32" | "__bitextract_u64" => {
            let (w, ty) = if wide { (64u32, u64_) } else { (32, u32_) };
            let src = if wide { a as u64 } else { u64::from(a as u32) };
            let off = match int(name, args, 1) {
                Ok(v) => v as u32 & (w - 1),
                Err(e) => return Some(Err(e)),
            };
            let len = match int(name, args, 2) {
                Ok(v) => v as u32 & (w - 1),
                Err(e) => return Some(Err(e)),
            };
            if len == 0 {
                return Some(Ok(KVal::int(ty, 0)));
            }
            if off + len > w {
                return Some(Err(format!(
                    "`{name}`: offset {off} + width {len} runs past bit {}: the shift the \
                     HIP definition makes is negative, undefined (C++ [expr.shift]/1)",
                    w - 1
                )));
            }
            KVal::int(ty, i128::from((src >> off) & ((1u64 << len) - 1)))
        }
        // `src0` with the low `width` bits of `src1` written at `offset` (both modulo the word
        // size, as for the extract): `mask = (1 << width) − 1`,
        // `(src0 & ~(mask << offset)) | ((src1 & mask) << offset)` in the word's type.
        "__bitinsert_u32" | "__bitinsert_u64" => {
            let (w, ty) = if wide { (64u32, u64_) } else { (32, u32_) };
            let keep = if wide { u64::MAX } else { u64::from(u32::MAX) };
            let mut v = [0u64; 3];
            for (k, slot) in v.iter_mut().enumerate() {
                match int(name, args, k + 1) {
                    Ok(n) => *slot = n as u64,
                    Err(e) => return Some(Err(e)),
                }
            }
            let (src1, off, len) = (v[0] & keep, v[1] as u32 & (w - 1), v[2] as u32 & (w - 1));
            let mask = (1u64 << len) - 1;
            let src0 = (a as u64) & keep;
            let r = ((src0 & !(mask << off)) | ((src1 & mask) << off)) & keep;
            KVal::int(ty, i128::from(r))
        }
        _ => return None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(n: u32) -> KVal {
        KVal::int(Scalar::U32, i128::from(n))
    }

    fn i(n: i32) -> KVal {
        KVal::int(Scalar::I32, i128::from(n))
    }

    fn go(name: &str, args: &[KVal]) -> i128 {
        call(name, args).unwrap().unwrap().as_int().unwrap()
    }

    #[test]
    fn values_worked_by_hand() {
        // 0x01000003 keeps its low 24 bits, 3: 3 * 5 = 15.
        assert_eq!(go("__umul24", &[u(0x0100_0003), u(5)]), 15);
        // 0x00ffffff is −1 as a signed 24-bit value: −1 * 7 = −7.
        assert_eq!(go("__mul24", &[i(0x00ff_ffff), i(7)]), -7);
        // 0x80000000 * 4 = 2^33: high word 2.
        assert_eq!(go("__umulhi", &[u(0x8000_0000), u(4)]), 2);
        // −2^31 * 2 = −2^32: high word −1.
        assert_eq!(go("__mulhi", &[i(i32::MIN), i(2)]), -1);
        // |3 − 10| + 4 = 11.
        assert_eq!(go("__sad", &[i(3), i(10), u(4)]), 11);
        // hi:lo = 0x00000001:0x80000000 shifted left by 1: high word 3.
        assert_eq!(go("__funnelshift_l", &[u(0x8000_0000), u(1), u(1)]), 3);
        // shifted right by 33 & 31 = 1: low word 0xC0000000; clamped to 32: hi itself.
        assert_eq!(
            go("__funnelshift_r", &[u(0x8000_0000), u(1), u(33)]),
            0xC000_0000
        );
        assert_eq!(go("__funnelshift_rc", &[u(0x8000_0000), u(1), u(33)]), 1);
        assert_eq!(
            go("__urhadd", &[u(u32::MAX), u(u32::MAX)]),
            i128::from(u32::MAX)
        );
        assert_eq!(go("umax", &[u(3), u(0xffff_ffff)]), 0xffff_ffff);
        // Bytes (low first) a = 1, -2, 3, -4 and b = 5, 6, -7, 8:
        // 5 - 12 - 21 - 32 = -60, plus c = 100: 40.
        let a = i32::from_le_bytes([1, (-2i8) as u8, 3, (-4i8) as u8]);
        let b = i32::from_le_bytes([5, 6, (-7i8) as u8, 8]);
        assert_eq!(go("__dp4a", &[i(a), i(b), i(100)]), 40);
        // Unsigned: the same bytes read as 1, 254, 3, 252 and 5, 6, 249, 8:
        // 5 + 1524 + 747 + 2016 = 4292.
        assert_eq!(go("__dp4a", &[u(a as u32), u(b as u32), u(0)]), 4292);
        // Halves of a = 300, -2; low bytes of b = 5, 6: 1500 - 12 + 1 = 1489; high bytes
        // -7, 8: -2100 - 16 + 1 = -2115.
        let h = (300u32) | (((-2i16) as u16 as u32) << 16);
        assert_eq!(go("__dp2a_lo", &[i(h as i32), i(b), i(1)]), 1489);
        assert_eq!(go("__dp2a_hi", &[i(h as i32), i(b), i(1)]), -2115);
    }
}
