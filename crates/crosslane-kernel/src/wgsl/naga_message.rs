//! Renders naga's validation errors in the user's terms: the place is the innermost span naga
//! attaches (the expression, not the function holding it), and naga's IR type notation
//! (`Scalar(Scalar { kind: Float, width: 2 })`) is written as the WGSL type (`f16`); a parse
//! error naga words generically gets Tint's reason where the source shows it (a module-scope
//! `let`).
//!
//! naga 30 builds a validation error from the inside out and lists its spans outermost first
//! for a helper function (`map_err_inner` puts the function's span before the expression's),
//! so the first span of "Function 'get_offset' is invalid: Expression \[2\] is invalid: Shift
//! amount exceeds the bit width" is the whole function; Tint reports such an error at the
//! expression (WGSL spec, § 8.6 Bit Expressions: a const shift count at or past the bit width
//! is a shader-creation error, reported where the shift is written).

use std::ops::Range;

/// The span to report: of the defined spans, the shortest (the innermost: naga's spans of one
/// error nest, the expression inside its function or entry point); of equal ones, the first.
pub fn innermost_span(spans: impl Iterator<Item = naga::Span>) -> Option<Range<usize>> {
    let mut best: Option<Range<usize>> = None;
    for s in spans {
        if !s.is_defined() {
            continue;
        }
        let Some(r) = s.to_range() else { continue };
        if best.as_ref().is_none_or(|b| r.len() < b.len()) {
            best = Some(r);
        }
    }
    best
}

/// The WGSL name of naga's `Scalar { kind: K, width: W }` (WGSL spec, § 6.2 Plain Types:
/// `bool`, `i32`, `u32`, `f32`, `f16`; naga's 64-bit and abstract kinds by their names).
fn scalar_name(kind: &str, width: &str) -> Option<&'static str> {
    Some(match (kind, width) {
        ("Bool", _) => "bool",
        ("Sint", "4") => "i32",
        ("Sint", "8") => "i64",
        ("Uint", "4") => "u32",
        ("Uint", "8") => "u64",
        ("Float", "2") => "f16",
        ("Float", "4") => "f32",
        ("Float", "8") => "f64",
        ("AbstractInt", _) => "AbstractInt",
        ("AbstractFloat", _) => "AbstractFloat",
        _ => return None,
    })
}

/// naga's vector and matrix sizes (`VectorSize::{Bi, Tri, Quad}`) as WGSL's 2, 3, 4.
fn size_digit(size: &str) -> Option<char> {
    match size {
        "Bi" => Some('2'),
        "Tri" => Some('3'),
        "Quad" => Some('4'),
        _ => None,
    }
}

/// Replaces every match of `open … }` whose fields `parse` turns into a WGSL name; the text
/// between `open` and the first `}` after it is handed to `parse` (naga's Debug form of these
/// types has no nested braces once their scalars are rewritten). Linear in the text.
fn replace_braced(text: &str, open: &str, parse: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(open) {
        out.push_str(&rest[..at]);
        let body_start = at + open.len();
        let rewritten = rest[body_start..].find('}').and_then(|end| {
            parse(rest[body_start..body_start + end].trim())
                .map(|name| (name, body_start + end + 1))
        });
        match rewritten {
            Some((name, next)) => {
                out.push_str(&name);
                rest = &rest[next..];
            }
            None => {
                out.push_str(open);
                rest = &rest[body_start..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The value of `key: VALUE` among comma-separated fields.
fn field<'a>(fields: &'a str, key: &str) -> Option<&'a str> {
    fields.split(',').find_map(|f| {
        let (k, v) = f.split_once(':')?;
        (k.trim() == key).then(|| v.trim())
    })
}

/// naga's Debug notation of a type written as WGSL: `Scalar { kind: Uint, width: 4 }` is
/// `u32`, `Scalar(Scalar { kind: Float, width: 2 })` is `f16`, `Vector { size: Tri, scalar:
/// … }` is `vec3<…>`, `Matrix { columns: Bi, rows: Quad, scalar: … }` is `mat2x4<…>`,
/// `Atomic(…)` is `atomic<…>`. Text that is not such a type is kept.
pub fn wgsl_types(msg: &str) -> String {
    let scalars = replace_braced(msg, "Scalar { ", |f| {
        scalar_name(field(f, "kind")?, field(f, "width")?).map(str::to_string)
    });
    let vectors = replace_braced(&scalars, "Vector { ", |f| {
        Some(format!(
            "vec{}<{}>",
            size_digit(field(f, "size")?)?,
            field(f, "scalar")?
        ))
    });
    let matrices = replace_braced(&vectors, "Matrix { ", |f| {
        let c = size_digit(field(f, "columns")?)?;
        let r = size_digit(field(f, "rows")?)?;
        Some(format!("mat{c}x{r}<{}>", field(f, "scalar")?))
    });
    let mut out = matrices;
    for name in [
        "bool",
        "i32",
        "i64",
        "u32",
        "u64",
        "f16",
        "f32",
        "f64",
        "AbstractInt",
        "AbstractFloat",
    ] {
        out = out.replace(&format!("Scalar({name})"), name);
        out = out.replace(&format!("Atomic({name})"), &format!("atomic<{name}>"));
    }
    out
}

/// What naga's parse error at byte `at` means when the shader is written in an older WGSL:
/// a module-scope `let` (WGSL spec, § 7 Variable and Value Declarations: `let` is for function
/// scope only; a module-scope value is a `const`, § 7.2; older shaders, vello's and wgpu
/// tutorials' among them, used `let`). naga says only "expected global item … found `let`";
/// Tint says "module-scope 'let' is invalid, use 'const'". `None` for any other error.
pub fn parse_hint(text: &str, at: usize, message: &str) -> Option<String> {
    if !message.starts_with("expected global item") {
        return None;
    }
    let rest = text.get(at..)?;
    let after = rest.strip_prefix("let")?;
    if !after.starts_with(|c: char| c.is_whitespace()) {
        return None;
    }
    Some(
        " — a module-scope `let` is not WGSL (WGSL spec, § 7.2 const Declarations: a value at \
         module scope is a `const`; Tint: \"module-scope 'let' is invalid, use 'const'\"): \
         write `const` instead of `let`"
            .to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn naga_type_notation_reads_as_wgsl() {
        assert_eq!(
            wgsl_types(
                "can't work with [219] (of type Scalar(Scalar { kind: Float, width: 2 })) and \
                 [194] (of type Scalar(Scalar { kind: Float, width: 4 }))"
            ),
            "can't work with [219] (of type f16) and [194] (of type f32)"
        );
        assert_eq!(
            wgsl_types("Vector { size: Quad, scalar: Scalar { kind: Uint, width: 4 } } and Matrix { columns: Bi, rows: Tri, scalar: Scalar { kind: Float, width: 4 } }"),
            "vec4<u32> and mat2x3<f32>"
        );
        assert_eq!(
            wgsl_types("Atomic(Scalar { kind: Sint, width: 4 })"),
            "atomic<i32>"
        );
        assert_eq!(
            wgsl_types("a { b } Scalar { kind: Odd, width: 3 }"),
            "a { b } Scalar { kind: Odd, width: 3 }"
        );
    }

    #[test]
    fn a_module_scope_let_is_named() {
        let m = "expected global item (`struct`, …) or the end of the file, found \"let\"";
        assert!(parse_hint("let N = 4u;", 0, m).is_some_and(|h| h.contains("`const`")));
        assert!(parse_hint("letter", 0, m).is_none());
        assert!(parse_hint("let N = 4u;", 0, "expected `,`").is_none());
    }
}
