//! The integer intrinsics and functions of the CUDA Math API ("Integer Intrinsics", "Integer
//! Mathematical Functions") that the kernel built-ins lacked: 24-bit multiplies, high halves of
//! products, sums of absolute differences, funnel shifts, halving adds and the typed `min` /
//! `max` forms. HIP provides them under the same names (HIP math API, "Integer intrinsics").
//! `__byte_perm` is the dialect operation of the same name, `__brev`, `__clz`, `__ffs` and
//! `__popc` the existing built-ins.

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
];

/// Whether `name` is one of these functions.
pub fn is_integer(name: &str) -> bool {
    NAMES.contains(&name)
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
        "__rhadd" => KVal::int(
            i32_,
            (i128::from(a as i32) + i128::from(b()? as i32) + 1) >> 1,
        ),
        "__uhadd" => KVal::int(u32_, (i128::from(a as u32) + i128::from(b()? as u32)) >> 1),
        "__urhadd" => KVal::int(
            u32_,
            (i128::from(a as u32) + i128::from(b()? as u32) + 1) >> 1,
        ),
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
    }
}
