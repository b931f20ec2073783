//! The GCC/Clang bit built-ins in constant evaluation (`__builtin_clz`, `__builtin_ctz`,
//! `__builtin_popcount` and their `l` / `ll` forms), so that a `constexpr` function using one
//! folds where a template argument needs it (vLLM's `_nextPow2`: `1 << (CHAR_BIT *
//! sizeof(num) - __builtin_clz(num - 1))`). GCC manual, "Other Built-in Functions Provided by
//! GCC": `int __builtin_clz (unsigned int x)` "Returns the number of leading 0-bits in x,
//! starting at the most significant bit position. If x is 0, the result is undefined";
//! `__builtin_ctz` the trailing 0-bits, likewise undefined at 0; `__builtin_popcount` "the
//! number of 1-bits in x"; the `l` forms take `unsigned long` (64 bits, LP64) and the `ll`
//! forms `unsigned long long`. Clang documents the same built-ins (Clang Language Extensions,
//! "Builtin Functions": GCC's). At 0 `clz`/`ctz` give no value here, so the constant
//! expression is refused (Clang rejects `__builtin_clz(0)` in a constant expression too).

/// The value (an `int`) of bit built-in `name` applied to integer `v` (converted to the
/// built-in's unsigned parameter type, modulo 2^N as [conv.integral]/2 converts), `None` when
/// `name` is none of them or `clz`/`ctz` is given 0 (undefined, see the module's doc).
pub(super) fn builtin_bits(name: &str, v: i128) -> Option<i128> {
    let (op, wide) = match name {
        "__builtin_clz" => ("clz", false),
        "__builtin_ctz" => ("ctz", false),
        "__builtin_popcount" => ("popcount", false),
        "__builtin_clzl" | "__builtin_clzll" => ("clz", true),
        "__builtin_ctzl" | "__builtin_ctzll" => ("ctz", true),
        "__builtin_popcountl" | "__builtin_popcountll" => ("popcount", true),
        _ => return None,
    };
    // The low 32 or 64 bits: the argument as the parameter's unsigned type.
    let bits = if wide { v as u64 } else { u64::from(v as u32) };
    let width = if wide { 64 } else { 32 };
    let n = match op {
        "popcount" => bits.count_ones(),
        _ if bits == 0 => return None,
        "clz" => bits.leading_zeros() - (64 - width),
        _ => bits.trailing_zeros(),
    };
    Some(i128::from(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(name: &str, v: i128) -> Option<i128> {
        builtin_bits(name, v)
    }

    #[test]
    fn counts_bits_of_the_parameter_width() {
        // 31 = 0b11111: 27 leading zeros in 32 bits, 59 in 64; 40 = 0b101000: 3 trailing.
        assert_eq!(at("__builtin_clz", 31), Some(27));
        assert_eq!(at("__builtin_clzll", 31), Some(59));
        assert_eq!(at("__builtin_clzl", 1), Some(63));
        assert_eq!(at("__builtin_ctz", 40), Some(3));
        assert_eq!(at("__builtin_ctzll", 1 << 40), Some(40));
        assert_eq!(at("__builtin_popcount", 0xF0F0), Some(8));
        // -1 converts to 0xFFFFFFFF (32 ones) or 64 ones; 2^32 + 1 to 1 in 32 bits.
        assert_eq!(at("__builtin_popcount", -1), Some(32));
        assert_eq!(at("__builtin_popcountll", -1), Some(64));
        assert_eq!(at("__builtin_clz", (1 << 32) + 1), Some(31));
        assert_eq!(at("__builtin_popcount", 0), Some(0));
    }

    #[test]
    fn clz_and_ctz_of_zero_have_no_value() {
        for name in [
            "__builtin_clz",
            "__builtin_ctz",
            "__builtin_clzll",
            "__builtin_ctzl",
        ] {
            assert_eq!(at(name, 0), None, "{name}");
        }
        assert_eq!(at("__builtin_ffs", 4), None);
    }
}
