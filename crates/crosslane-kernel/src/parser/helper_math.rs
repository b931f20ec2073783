//! The CUDA samples' `helper_math.h` (NVIDIA/cuda-samples, `Common/helper_math.h`): operators
//! and small functions on CUDA's vector types, which `vector_types.h` leaves out ("CUDA C++
//! Programming Guide", "Built-in Vector Types": the types are structures of `x`, `y`, `z`, `w`
//! with constructor functions `make_<type>`, no operators). Programs derived from the samples
//! and books include the header and write `v4 += in4[i];`, `a * 0.5f`, `dot(a, b)`.
//!
//! A token pass after preprocessing, as [`super::cccl_warp`] is: where the source includes a
//! file named `helper_math.h` and defines no vector operator of its own (a pasted copy of the
//! header keeps its definitions), declarations of this crate's own are put before the source.
//! They are written here (generated per type, never copied), for `float2`, `float3`,
//! `float4` and the `int` and `uint` vectors of 2 to 4 components: component-wise `+ - * /`
//! of two vectors, a vector and a scalar, and a scalar and a vector, their compound
//! assignments, unary `-` (not of the unsigned ones), `dot` (`a.x * b.x + a.y * b.y + …`, of
//! the component type), and for the `float` ones `length` (`sqrtf(dot(v, v))`), `normalize`
//! (`v * rsqrtf(dot(v, v))`), `cross`, `lerp(a, b, t)` (`a + t * (b - a)`) and `clamp`
//! (`fmaxf(lo, fminf(f, hi))`), as the header defines
//! them. Each is an ordinary device function of the kernel language, so contraction, rounding
//! and undefined values follow the same rules as the program's own code. The header's
//! overloads of the built-in `make_<type>` functions (`make_float3(float4)`,
//! `make_float4(float3, w)`, a scalar broadcast) and of `fminf` / `fmaxf` on vectors are not
//! declared: the built-ins keep their one form.

use crate::lexer::{Tok, Token};

/// The vector types with their component count and scalar type: the `float` ones, and the
/// `int` and `unsigned int` ones whose component-wise operators and `dot` the header declares
/// as well (the float-only helpers, `length` to `clamp`, are declared for the `float` ones).
const TYPES: &[(&str, usize, &str)] = &[
    ("float2", 2, "float"),
    ("float3", 3, "float"),
    ("float4", 4, "float"),
    ("int2", 2, "int"),
    ("int3", 3, "int"),
    ("int4", 4, "int"),
    ("uint2", 2, "unsigned int"),
    ("uint3", 3, "unsigned int"),
    ("uint4", 4, "unsigned int"),
];

const FIELDS: [&str; 4] = ["x", "y", "z", "w"];

/// `f(x) op f(y), …` over the first `n` components, joined by `sep`.
fn each(n: usize, sep: &str, f: impl Fn(&str) -> String) -> String {
    FIELDS[..n]
        .iter()
        .map(|c| f(c))
        .collect::<Vec<_>>()
        .join(sep)
}

/// The declarations, in the kernel language.
fn prelude() -> String {
    let mut s = String::new();
    let q = "inline __host__ __device__";
    for &(t, n, sc) in TYPES {
        let mk = format!("make_{t}");
        for op in ["+", "-", "*", "/"] {
            s += &format!(
                "{q} {t} operator{op}({t} a, {t} b) {{ return {mk}({}); }}\n",
                each(n, ", ", |c| format!("a.{c} {op} b.{c}"))
            );
            s += &format!(
                "{q} {t} operator{op}({t} a, {sc} b) {{ return {mk}({}); }}\n",
                each(n, ", ", |c| format!("a.{c} {op} b"))
            );
            s += &format!(
                "{q} {t} operator{op}({sc} b, {t} a) {{ return {mk}({}); }}\n",
                each(n, ", ", |c| format!("b {op} a.{c}"))
            );
            s += &format!(
                "{q} void operator{op}=({t} &a, {t} b) {{ {} }}\n",
                each(n, " ", |c| format!("a.{c} {op}= b.{c};"))
            );
            s += &format!(
                "{q} void operator{op}=({t} &a, {sc} b) {{ {} }}\n",
                each(n, " ", |c| format!("a.{c} {op}= b;"))
            );
        }
        if !sc.starts_with("unsigned") {
            s += &format!(
                "{q} {t} operator-({t} a) {{ return {mk}({}); }}\n",
                each(n, ", ", |c| format!("-a.{c}"))
            );
        }
        s += &format!(
            "{q} {sc} dot({t} a, {t} b) {{ return {}; }}\n",
            each(n, " + ", |c| format!("a.{c} * b.{c}"))
        );
        if sc == "float" {
            s += &format!("{q} float length({t} v) {{ return sqrtf(dot(v, v)); }}\n");
            s += &format!(
                "{q} {t} normalize({t} v) {{ float invLen = rsqrtf(dot(v, v)); return v * invLen; }}\n"
            );
            s += &format!("{q} {t} lerp({t} a, {t} b, float t) {{ return a + t * (b - a); }}\n");
            s += &format!(
                "{q} {t} clamp({t} v, float a, float b) {{ return {mk}({}); }}\n",
                each(n, ", ", |c| format!("clamp(v.{c}, a, b)"))
            );
        }
    }
    // Scalar helpers the vector ones call, and `cross`.
    let scalar = format!(
        "{q} float lerp(float a, float b, float t) {{ return a + t * (b - a); }}\n\
         {q} float clamp(float f, float a, float b) {{ return fmaxf(a, fminf(f, b)); }}\n\
         {q} float3 cross(float3 a, float3 b) {{ return make_float3(a.y * b.z - a.z * b.y, \
         a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }}\n"
    );
    scalar + &s
}

/// Whether the source includes `helper_math.h` (any directory before it).
fn includes_helper_math(source: &str) -> bool {
    source.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with('#')
            && l[1..].trim_start().starts_with("include")
            && (l.contains("helper_math.h\"") || l.contains("helper_math.h>"))
    })
}

/// `tokens` with the declarations above put before them when the source includes
/// `helper_math.h` and defines no operator on `float3` or `float4` itself; else unchanged.
pub(super) fn helper_math(source: &str, tokens: Vec<Token>) -> Vec<Token> {
    if !includes_helper_math(source) {
        return tokens;
    }
    fn word(t: Option<&Token>) -> Option<&str> {
        match t.map(|t| &t.tok) {
            Some(Tok::Ident(w)) => Some(w.as_str()),
            _ => None,
        }
    }
    // A pasted header (or the program's own operators): `float3 operator+(…)`.
    if tokens.windows(2).any(|w| {
        matches!(word(w.first()), Some("float3" | "float4" | "float2"))
            && word(w.get(1)) == Some("operator")
    }) {
        return tokens;
    }
    let Some(first) = tokens.first().cloned() else {
        return tokens;
    };
    let Ok(lexed) = crate::lexer::lex(&prelude()) else {
        return tokens;
    };
    super::rocprim_lib::prelude_at(
        lexed.tokens,
        tokens,
        first,
        super::rocprim_lib::PRELUDE_COL,
        1 << 17,
    )
}
