//! CUB's radix traits, `cub::Traits<T>` (and `hipcub::Traits<T>`): crosslane's own C++
//! declarations of them, put before a source that names `cub::Traits` / `hipcub::Traits` and
//! declares no `Traits` of its own (as [`super::rocprim_lib`] does for rocPRIM).
//!
//! Source: CUB (CCCL) `cub/util_type.cuh`, `BaseTraits` and `NumericTraits` — the radix
//! sort's key transform ("twiddling"), per the type's category:
//! - unsigned integers: `TwiddleIn(k) = TwiddleOut(k) = k`, `LOWEST_KEY = 0`,
//!   `MAX_KEY = ~0`;
//! - signed integers: `TwiddleIn(k) = TwiddleOut(k) = k ^ HIGH_BIT` (the sign bit),
//!   `LOWEST_KEY = HIGH_BIT`, `MAX_KEY = ~0 ^ HIGH_BIT`;
//! - floating point: `TwiddleIn(k) = k ^ (k & HIGH_BIT ? ~0 : HIGH_BIT)` (a negative value's
//!   bits all flipped, a positive value's sign bit set: unsigned order is then the value's
//!   order), `TwiddleOut(k) = k ^ (k & HIGH_BIT ? HIGH_BIT : ~0)` (its inverse),
//!   `LOWEST_KEY = ~0`, `MAX_KEY = ~0 ^ HIGH_BIT`;
//!
//! with `UnsignedBits` the unsigned integer of the type's size, `CATEGORY` one of
//! `NOT_A_NUMBER`, `SIGNED_INTEGER`, `UNSIGNED_INTEGER`, `FLOATING_POINT`, and `Max()` /
//! `Lowest()` the type's largest and lowest finite values (`numeric_limits<T>::max()` /
//! `lowest()`). Declared for `float`, `double`, `char`, `signed char`, `unsigned char`,
//! `short`, `unsigned short`, `int`, `unsigned int`, `long`, `unsigned long`, `long long`,
//! `unsigned long long`; `cub::Traits` of another type is not declared (the front end says
//! so at its use).

use crate::lexer::{Tok, Token};

/// One declared type: its name, its `UnsignedBits`, its width in bits, its category, and its
/// `Max()` / `Lowest()` as C++ literals.
struct Row {
    name: &'static str,
    bits_type: &'static str,
    width: u32,
    category: &'static str,
    max: &'static str,
    lowest: &'static str,
}

/// The declared types (`char` is signed, as nvcc and hipcc on x86-64 and AArch64 hosts take it
/// for device code: CUB picks its category from `numeric_limits<char>::is_signed`).
const ROWS: &[Row] = &[
    Row {
        name: "float",
        bits_type: "unsigned int",
        width: 32,
        category: "FLOATING_POINT",
        max: "3.40282347e+38f",
        lowest: "-3.40282347e+38f",
    },
    Row {
        name: "double",
        bits_type: "unsigned long long",
        width: 64,
        category: "FLOATING_POINT",
        max: "1.7976931348623157e+308",
        lowest: "-1.7976931348623157e+308",
    },
    Row {
        name: "char",
        bits_type: "unsigned char",
        width: 8,
        category: "SIGNED_INTEGER",
        max: "127",
        lowest: "-128",
    },
    Row {
        name: "signed char",
        bits_type: "unsigned char",
        width: 8,
        category: "SIGNED_INTEGER",
        max: "127",
        lowest: "-128",
    },
    Row {
        name: "unsigned char",
        bits_type: "unsigned char",
        width: 8,
        category: "UNSIGNED_INTEGER",
        max: "255",
        lowest: "0",
    },
    Row {
        name: "short",
        bits_type: "unsigned short",
        width: 16,
        category: "SIGNED_INTEGER",
        max: "32767",
        lowest: "-32768",
    },
    Row {
        name: "unsigned short",
        bits_type: "unsigned short",
        width: 16,
        category: "UNSIGNED_INTEGER",
        max: "65535",
        lowest: "0",
    },
    Row {
        name: "int",
        bits_type: "unsigned int",
        width: 32,
        category: "SIGNED_INTEGER",
        max: "2147483647",
        lowest: "(-2147483647 - 1)",
    },
    Row {
        name: "unsigned int",
        bits_type: "unsigned int",
        width: 32,
        category: "UNSIGNED_INTEGER",
        max: "4294967295u",
        lowest: "0u",
    },
    Row {
        name: "long",
        bits_type: "unsigned long",
        width: 64,
        category: "SIGNED_INTEGER",
        max: "9223372036854775807l",
        lowest: "(-9223372036854775807l - 1)",
    },
    Row {
        name: "unsigned long",
        bits_type: "unsigned long",
        width: 64,
        category: "UNSIGNED_INTEGER",
        max: "18446744073709551615ul",
        lowest: "0ul",
    },
    Row {
        name: "long long",
        bits_type: "unsigned long long",
        width: 64,
        category: "SIGNED_INTEGER",
        max: "9223372036854775807ll",
        lowest: "(-9223372036854775807ll - 1)",
    },
    Row {
        name: "unsigned long long",
        bits_type: "unsigned long long",
        width: 64,
        category: "UNSIGNED_INTEGER",
        max: "18446744073709551615ull",
        lowest: "0ull",
    },
];

/// The C++ text of the declarations in namespace `ns` (module doc).
fn prelude(ns: &str) -> String {
    let mut s = format!(
        "namespace {ns} {{ enum Category {{ NOT_A_NUMBER, SIGNED_INTEGER, UNSIGNED_INTEGER, \
         FLOATING_POINT }}; template <typename T> struct Traits; "
    );
    for r in ROWS {
        let all = if r.width == 64 {
            "0xffffffffffffffffull".to_string()
        } else {
            format!("0x{:x}u", (1u64 << r.width) - 1)
        };
        let high = if r.width == 64 {
            "0x8000000000000000ull".to_string()
        } else {
            format!("0x{:x}u", 1u64 << (r.width - 1))
        };
        let b = r.bits_type;
        let (low_key, max_key, tin, tout) = match r.category {
            "UNSIGNED_INTEGER" => (
                "0".to_string(),
                format!("({b})({all})"),
                "return key;".to_string(),
                "return key;".to_string(),
            ),
            "SIGNED_INTEGER" => (
                format!("({b})({high})"),
                format!("({b})(({all}) ^ ({high}))"),
                format!("return ({b})(key ^ ({b})({high}));"),
                format!("return ({b})(key ^ ({b})({high}));"),
            ),
            _ => (
                format!("({b})({all})"),
                format!("({b})(({all}) ^ ({high}))"),
                format!(
                    "{b} mask = (key & ({b})({high})) ? ({b})({all}) : ({b})({high}); \
                     return ({b})(key ^ mask);"
                ),
                format!(
                    "{b} mask = (key & ({b})({high})) ? ({b})({high}) : ({b})({all}); \
                     return ({b})(key ^ mask);"
                ),
            ),
        };
        let t = r.name;
        s.push_str(&format!(
            "template <> struct Traits<{t}> {{ typedef {b} UnsignedBits; \
             static constexpr Category CATEGORY = {cat}; \
             static constexpr bool PRIMITIVE = true; static constexpr bool NULL_TYPE = false; \
             static constexpr {b} HIGH_BIT = ({b})({high}); \
             static constexpr {b} LOWEST_KEY = {low_key}; \
             static constexpr {b} MAX_KEY = {max_key}; \
             static __host__ __device__ {b} TwiddleIn({b} key) {{ {tin} }} \
             static __host__ __device__ {b} TwiddleOut({b} key) {{ {tout} }} \
             static __host__ __device__ {t} Max() {{ return ({t})({max}); }} \
             static __host__ __device__ {t} Lowest() {{ return ({t})({lowest}); }} }}; ",
            cat = r.category,
            max = r.max,
            lowest = r.lowest,
        ));
    }
    s.push_str("} ");
    s
}

/// The identifier a token is, if it is one.
fn word(t: Option<&Token>) -> Option<&str> {
    match t.map(|t| &t.tok) {
        Some(Tok::Ident(s)) => Some(s.as_str()),
        _ => None,
    }
}

/// `tokens` with the declarations of [`prelude`] put before them, in namespace `cub` and/or
/// `hipcub` as the source writes `NS::Traits`, when it does and declares no `Traits` class
/// itself; else `tokens` unchanged. The declarations' tokens sit on the line of the source's
/// first `NS::Traits`, at columns of their own from [`super::rocprim_lib`]'s prelude column on.
pub(super) fn cub_traits(tokens: Vec<Token>) -> Vec<Token> {
    let colons = |t: Option<&Token>| matches!(t.map(|t| &t.tok), Some(Tok::Punct("::")));
    let mut first: Option<&Token> = None;
    let mut spaces: Vec<&'static str> = Vec::new();
    for k in 0..tokens.len() {
        let ns = match word(tokens.get(k)) {
            Some("cub") => "cub",
            Some("hipcub") => "hipcub",
            _ => continue,
        };
        if colons(tokens.get(k + 1)) && word(tokens.get(k + 2)) == Some("Traits") {
            first.get_or_insert(&tokens[k]);
            if !spaces.contains(&ns) {
                spaces.push(ns);
            }
        }
    }
    let Some(first) = first.cloned() else {
        return tokens;
    };
    // The source's own `struct Traits` / `class Traits`, or a namespace alias of one of the
    // names (`namespace cub = hipcub;`), is left to the source.
    let own = tokens.windows(3).any(|w| {
        (matches!(word(w.first()), Some("struct" | "class")) && word(w.get(1)) == Some("Traits"))
            || (word(w.first()) == Some("namespace")
                && word(w.get(1)).is_some_and(|n| spaces.contains(&n))
                && matches!(w.get(2).map(|t| &t.tok), Some(Tok::Punct("="))))
    });
    if own {
        return tokens;
    }
    let text: String = spaces.iter().map(|ns| prelude(ns)).collect();
    let Ok(lexed) = crate::lexer::lex(&text) else {
        return tokens;
    };
    let base = super::rocprim_lib::PRELUDE_COL + (1 << 16);
    super::rocprim_lib::prelude_at(lexed.tokens, tokens, first, base, 1 << 16)
}
