//! Element access and swizzles of clang's extended vectors (clang Language Extensions,
//! "Vectors and Extended Vectors"; the same names as OpenCL C's vector components):
//!
//! | field | elements |
//! |---|---|
//! | `.x .y .z .w` (also `.r .g .b .a`), several in a row (`.xy`, `.wzyx`, `.xx`) | 0, 1, 2, 3 in the order written |
//! | `.s0` … `.sF` (also `.S…`), several hex digits after one `s` (`.s01`, `.s7654`) | the digits' values |
//! | `.lo`, `.hi` | the first half, the second half |
//! | `.even`, `.odd` | elements 0, 2, 4, … and 1, 3, 5, … |
//!
//! One element is that element's scalar; several are a vector of that many. A name past the
//! vector's end is refused (clang: "vector component access exceeds type"); `.x`-style and
//! `.s`-style names are not mixed in one field. As the left side of an assignment the field
//! names the elements written; a field that names one element twice is refused there (clang:
//! "vector is not assignable (contains duplicate components)"). `.lo`/`.hi`/`.even`/`.odd` are
//! taken on vectors of an even count only (clang pads a 3-element vector to 4 for them, with the
//! padding element undefined; not modelled).
//!
//! The parser (`parser::swizzle`) lowers a field read to a call named [`GET`] followed by the
//! field (`__crosslane_swizzle:wzyx(v)`) and `v.xy = e` to `v = __crosslane_swizzle_set:xy(v, e)`;
//! [`call`] runs them on one lane's values.

use crate::types::KVal;

/// The name prefix of a swizzle read: `GET` + field, one argument (the vector).
pub const GET: &str = "__crosslane_swizzle:";
/// The name prefix of a swizzle write: `SET` + field, two arguments (the vector, the value
/// written); gives the vector with those elements replaced.
pub const SET: &str = "__crosslane_swizzle_set:";

/// Whether `field` is spelled as a vector field ([`indices`] may still refuse it for a vector
/// that is too short): xyzw/rgba letters, `s` + hex digits, `lo`, `hi`, `even`, `odd`.
pub fn is_field(field: &str) -> bool {
    if matches!(field, "lo" | "hi" | "even" | "odd") {
        return true;
    }
    if let Some(hex) = field.strip_prefix(['s', 'S']) {
        return !hex.is_empty() && hex.len() <= 16 && hex.chars().all(|c| c.is_ascii_hexdigit());
    }
    !field.is_empty()
        && field.len() <= 16
        && (field.chars().all(|c| "xyzw".contains(c)) || field.chars().all(|c| "rgba".contains(c)))
}

/// The elements `field` names in a vector of `n` elements, in order.
///
/// # Errors
/// A message when the field is not a vector field, names an element past the end, or is a
/// halving field (`lo`, `hi`, `even`, `odd`) of an odd count.
pub fn indices(field: &str, n: usize) -> Result<Vec<usize>, String> {
    let halving = |f: &dyn Fn(usize) -> usize| -> Result<Vec<usize>, String> {
        if !n.is_multiple_of(2) || n < 2 {
            return Err(format!(
                "`.{field}` of a {n}-element vector: clang pads it to {} with an undefined element, which is not modelled; name the elements (`.s01`)",
                n + 1
            ));
        }
        Ok((0..n / 2).map(f).collect())
    };
    let idx: Vec<usize> = match field {
        "lo" => return halving(&|i| i),
        "hi" => return halving(&|i| n / 2 + i),
        "even" => return halving(&|i| 2 * i),
        "odd" => return halving(&|i| 2 * i + 1),
        _ if !is_field(field) => {
            return Err(format!("`.{field}` is not a vector element or swizzle"))
        }
        f if f.starts_with(['s', 'S']) => f[1..]
            .chars()
            .filter_map(|c| c.to_digit(16))
            .map(|d| d as usize)
            .collect(),
        f => f
            .chars()
            .filter_map(|c| "xyzw".find(c).or_else(|| "rgba".find(c)))
            .collect(),
    };
    if let Some(bad) = idx.iter().find(|&&k| k >= n) {
        return Err(format!(
            "`.{field}` names element {bad} of a {n}-element vector (clang: vector component access exceeds type)"
        ));
    }
    Ok(idx)
}

/// Whether `name` is a lowered swizzle read or write.
pub fn is_call(name: &str) -> bool {
    name.starts_with(GET) || name.starts_with(SET)
}

/// Runs a lowered swizzle ([`GET`] or [`SET`] + field) on one lane's arguments; `None` when
/// `name` is neither.
///
/// # Errors
/// A message when the first argument is no vector, the field does not fit it, a write names
/// an element twice, or the value written has another count of elements.
pub fn call(name: &str, args: &[KVal]) -> Option<Result<KVal, String>> {
    if let Some(field) = name.strip_prefix(SET) {
        return Some(set(field, args));
    }
    let field = name.strip_prefix(GET)?;
    Some(get(field, args))
}

fn items_of<'a>(field: &str, v: Option<&'a KVal>) -> Result<&'a [KVal], String> {
    match v {
        Some(KVal::Vector { items, .. }) => Ok(items),
        _ => Err(format!("`.{field}` needs a vector")),
    }
}

fn get(field: &str, args: &[KVal]) -> Result<KVal, String> {
    let items = items_of(field, args.first())?;
    let idx = indices(field, items.len())?;
    let picked: Vec<KVal> = idx.iter().map(|&k| items[k].clone()).collect();
    Ok(match (picked.as_slice(), args.first()) {
        ([one], _) => one.clone(),
        (_, Some(KVal::Vector { ty, .. })) => KVal::Vector {
            ty: *ty,
            items: picked,
        },
        _ => return Err(format!("`.{field}` needs a vector")),
    })
}

fn set(field: &str, args: &[KVal]) -> Result<KVal, String> {
    let (Some(v @ KVal::Vector { ty, .. }), Some(value)) = (args.first(), args.get(1)) else {
        return Err(format!("`.{field} = …` needs a vector on the left"));
    };
    let mut items = items_of(field, Some(v))?.to_vec();
    let idx = indices(field, items.len())?;
    let mut seen = [false; 16];
    for &k in &idx {
        if std::mem::replace(&mut seen[k], true) {
            return Err(format!(
                "`.{field}` names element {k} twice: it is not assignable (clang: vector is not assignable (contains duplicate components))"
            ));
        }
    }
    let elem = crate::types::ValTy::scalar(*ty);
    let values: Vec<KVal> = match value {
        KVal::Vector { items: src, .. } if src.len() == idx.len() => src.clone(),
        KVal::Vector { items: src, .. } => {
            return Err(format!(
                "`.{field} = …` writes {} element(s); the value has {}",
                idx.len(),
                src.len()
            ))
        }
        // A scalar converts to the extended vector by splatting (clang, "Vectors and Extended
        // Vectors": a scalar operand is splatted).
        one => vec![one.clone(); idx.len()],
    };
    for (&k, x) in idx.iter().zip(values) {
        items[k] = x
            .convert(elem)
            .map_err(|f| format!("`.{field}`: {}", f.message))?;
    }
    Ok(KVal::Vector { ty: *ty, items })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_name_the_documented_elements() {
        assert_eq!(indices("wzyx", 4).unwrap(), [3, 2, 1, 0]);
        assert_eq!(indices("sF0", 16).unwrap(), [15, 0]);
        assert_eq!(indices("S7", 8).unwrap(), [7]);
        assert_eq!(indices("lo", 8).unwrap(), [0, 1, 2, 3]);
        assert_eq!(indices("hi", 8).unwrap(), [4, 5, 6, 7]);
        assert_eq!(indices("even", 8).unwrap(), [0, 2, 4, 6]);
        assert_eq!(indices("odd", 4).unwrap(), [1, 3]);
        assert_eq!(indices("ba", 4).unwrap(), [2, 3]);
        assert!(indices("s8", 8).is_err());
        assert!(indices("lo", 3).is_err());
        assert!(indices("xs", 4).is_err());
        assert!(indices("xr", 4).is_err());
    }
}
