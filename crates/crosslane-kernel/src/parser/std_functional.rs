//! The standard function objects of `<functional>` as class templates: `std::plus<T>`,
//! `minus`, `multiplies`, `divides`, `modulus`, `bit_and`, `bit_or`, `bit_xor`, `less`,
//! `greater` (C++17 [arithmetic.operations], [comparisons], [bitwise.operations]: each
//! `operator()(const T& x, const T& y)` returns `x OP y`), so `cuda::std::plus<float>{}` passed
//! to a template's `Op op` parameter, or declared as `std::plus<float> add;`, is a functor like
//! a user's own. Registered only when the source names one as `std::NAME<` and defines no
//! `NAME` of its own; CUB's and cooperative groups' operator arguments keep their own reading.
//! The transparent `plus<>` (`T = void`, [arithmetic.operations.plus]/2) is not defined here:
//! outside a CUB call its use is refused naming the form to write (`plus<float>`).

use super::scopes::{punct, word};
use super::targs::TParam;
use super::templates::Template;
use super::Parser;
use crate::lexer::{lex, Token};

/// Each function object: its name and its declaration as the header has it (a class template
/// body over `T`, read as a header is: declarations, not a lowering of a call).
const FUNCTORS: &[(&str, &str)] = &[
    (
        "plus",
        "struct plus { __device__ T operator()(const T& a, const T& b) const { return a + b; } };",
    ),
    (
        "minus",
        "struct minus { __device__ T operator()(const T& a, const T& b) const { return a - b; } };",
    ),
    (
        "multiplies",
        "struct multiplies { __device__ T operator()(const T& a, const T& b) const { return a * b; } };",
    ),
    (
        "divides",
        "struct divides { __device__ T operator()(const T& a, const T& b) const { return a / b; } };",
    ),
    (
        "modulus",
        "struct modulus { __device__ T operator()(const T& a, const T& b) const { return a % b; } };",
    ),
    (
        "bit_and",
        "struct bit_and { __device__ T operator()(const T& a, const T& b) const { return a & b; } };",
    ),
    (
        "bit_or",
        "struct bit_or { __device__ T operator()(const T& a, const T& b) const { return a | b; } };",
    ),
    (
        "bit_xor",
        "struct bit_xor { __device__ T operator()(const T& a, const T& b) const { return a ^ b; } };",
    ),
    (
        "less",
        "struct less { __device__ bool operator()(const T& a, const T& b) const { return a < b; } };",
    ),
    (
        "greater",
        "struct greater { __device__ bool operator()(const T& a, const T& b) const { return a > b; } };",
    ),
];

/// Whether `name` is one of the function objects defined here.
pub(super) fn is_functor(name: &str) -> bool {
    FUNCTORS.iter().any(|(n, _)| *n == name)
}

impl Parser<'_> {
    /// Registers the function objects `tokens` name as `std::NAME<` with a type argument
    /// (`plus<>` stays unregistered) and do not define themselves.
    pub(super) fn std_functors(&mut self, tokens: &[Token]) {
        // Each name looked at once: the scan for the source's own definition is linear.
        let mut seen: Vec<&str> = Vec::new();
        for (k, t) in tokens.iter().enumerate() {
            let Some(name) = word(tokens.get(k + 2)) else {
                continue;
            };
            let Some((_, text)) = FUNCTORS.iter().find(|(n, _)| *n == name) else {
                continue;
            };
            if word(Some(t)) != Some("std")
                || !punct(tokens.get(k + 1), "::")
                || !punct(tokens.get(k + 3), "<")
                || punct(tokens.get(k + 4), ">")
                || self.class_templates.contains_key(name)
                || seen.contains(&name)
            {
                continue;
            }
            seen.push(name);
            let own = tokens.windows(2).any(|w| {
                matches!(word(Some(&w[0])), Some("struct" | "class"))
                    && word(Some(&w[1])) == Some(name)
            });
            if own {
                continue;
            }
            let Ok(lexed) = lex(text) else {
                continue;
            };
            // At the use's position: a message about the definition points at the source.
            let mut def = lexed.tokens;
            for d in &mut def {
                d.line = t.line;
                d.col = t.col;
                d.end = t.end;
            }
            let param = TParam {
                name: "T".into(),
                value: None,
                default: None,
                pack: false,
                named: false,
                placeholder: false,
                enumeration: None,
            };
            self.class_templates
                .insert(name.to_string(), Template::class(vec![param], def));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::parser::parse;

    #[test]
    fn a_std_function_object_is_a_functor() {
        let p = parse(
            "template <typename Op> __device__ float ap(float a, float b, Op op) { return op(a, b); }\n\
             __global__ void k(float* o) { std::multiplies<float> m; o[0] = ap(2.0f, 3.0f, m) + ap(1.0f, 1.0f, std::plus<float>{}); }",
        );
        assert!(p.is_ok(), "{:?}", p.err());
    }
}
