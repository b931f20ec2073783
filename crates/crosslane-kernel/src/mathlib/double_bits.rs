//! The `double` type-casting intrinsics of the CUDA Math API ("Type Casting Intrinsics"),
//! which HIP's device library defines under the same names: a `double`'s IEEE 754 binary64
//! bits as an integer and back, whole or as two 32-bit halves.
//!
//! - `long long int __double_as_longlong(double x)`: "Reinterpret bits in a double as a 64-bit
//!   signed integer".
//! - `double __longlong_as_double(long long int x)`: "Reinterpret bits in a 64-bit signed
//!   integer as a double".
//! - `int __double2hiint(double x)` / `int __double2loint(double x)`: "Reinterpret high
//!   (low) 32 bits in a double as a signed integer".
//! - `double __hiloint2double(int hi, int lo)`: "Reinterpret high and low 32-bit integer
//!   values as a double".
//!
//! These are the bit casts of the Programming Guide's `atomicAdd` for `double` built on
//! `atomicCAS` ("Atomic Functions"). The emulator keeps floats as values, not NaN payloads,
//! so a NaN argument has no known bits: the call is an error naming that reason (the value is
//! undefined), never a chosen NaN encoding.

use crate::types::{KVal, Scalar};

/// The names of this module with their result types.
const NAMES: [(&str, Scalar); 5] = [
    ("__double_as_longlong", Scalar::I64),
    ("__longlong_as_double", Scalar::F64),
    ("__double2hiint", Scalar::I32),
    ("__double2loint", Scalar::I32),
    ("__hiloint2double", Scalar::F64),
];

/// The type intrinsic `name` returns, or `None` for a name not of this module.
pub fn result_type(name: &str) -> Option<Scalar> {
    NAMES.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}

/// Whether `name` is one of this module's intrinsics.
pub fn is_double_bits(name: &str) -> bool {
    result_type(name).is_some()
}

/// The binary64 bits of argument `k` (a `double` parameter: the argument converted to it).
fn bits_of(name: &str, args: &[KVal], k: usize) -> Result<u64, String> {
    let x = args
        .get(k)
        .and_then(KVal::as_f64)
        .ok_or_else(|| format!("`{name}` needs a number as argument {}", k + 1))?;
    if x.is_nan() {
        return Err(format!(
            "`{name}` of a NaN: the emulator keeps floats as values, not their NaN payloads, so \
             its bits are unknown"
        ));
    }
    Ok(x.to_bits())
}

/// The integer argument `k` (converted to the parameter's type by the caller's conversion
/// rules: its low 64 bits).
fn int_of(name: &str, args: &[KVal], k: usize) -> Result<i128, String> {
    args.get(k)
        .and_then(KVal::as_int)
        .ok_or_else(|| format!("`{name}` needs an integer as argument {}", k + 1))
}

/// Applies `name` to one lane's arguments; `None` when `name` is not of this module.
///
/// # Errors
/// A missing or non-numeric argument, or the bits of a NaN.
pub fn call(name: &str, args: &[KVal]) -> Option<Result<KVal, String>> {
    let ty = result_type(name)?;
    let arity = if name == "__hiloint2double" { 2 } else { 1 };
    if args.len() != arity {
        return Some(Err(format!(
            "`{name}` takes {arity} argument(s), got {}",
            args.len()
        )));
    }
    Some((|| {
        Ok(match name {
            "__double_as_longlong" => KVal::int(ty, i128::from(bits_of(name, args, 0)? as i64)),
            "__double2hiint" => KVal::int(ty, i128::from((bits_of(name, args, 0)? >> 32) as i32)),
            "__double2loint" => KVal::int(ty, i128::from(bits_of(name, args, 0)? as u32 as i32)),
            "__longlong_as_double" => {
                KVal::float(ty, f64::from_bits(int_of(name, args, 0)? as u64))
            }
            _ => {
                let hi = int_of(name, args, 0)? as u32;
                let lo = int_of(name, args, 1)? as u32;
                KVal::float(ty, f64::from_bits(u64::from(hi) << 32 | u64::from(lo)))
            }
        })
    })())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_and_their_bits() {
        // 1.0 is 0x3FF0000000000000 (IEEE 754 binary64: exponent 1023, fraction 0);
        // -2.5 = -1.25·2^1 is 0xC004000000000000 (sign 1, exponent 1024, fraction 0.25·2^52).
        let d = |x: f64| KVal::float(Scalar::F64, x);
        let i64v = |n: i128| KVal::int(Scalar::I64, n);
        assert_eq!(
            call("__double_as_longlong", &[d(1.0)]),
            Some(Ok(i64v(0x3ff0_0000_0000_0000)))
        );
        assert_eq!(
            call("__double_as_longlong", &[d(-2.5)]),
            Some(Ok(i64v(0xc004_0000_0000_0000_u64 as i64 as i128)))
        );
        assert_eq!(
            call("__longlong_as_double", &[i64v(0x4008_0000_0000_0000)]),
            Some(Ok(d(3.0)))
        );
        assert_eq!(
            call("__double2hiint", &[d(-2.5)]),
            Some(Ok(KVal::int(Scalar::I32, 0xc004_0000_u32 as i32 as i128)))
        );
        // 0.1 is 0x3FB999999999999A: low word 0x9999999A (negative as int).
        assert_eq!(
            call("__double2loint", &[d(0.1)]),
            Some(Ok(KVal::int(Scalar::I32, 0x9999_999a_u32 as i32 as i128)))
        );
        assert_eq!(
            call(
                "__hiloint2double",
                &[
                    KVal::int(Scalar::I32, 0x3fb9_9999),
                    KVal::int(Scalar::I32, 0x9999_999a_u32 as i32 as i128)
                ]
            ),
            Some(Ok(d(0.1)))
        );
        assert!(
            matches!(call("__double_as_longlong", &[d(f64::NAN)]), Some(Err(m)) if m.contains("NaN"))
        );
        assert_eq!(call("__double_as_int", &[d(1.0)]), None);
    }
}
