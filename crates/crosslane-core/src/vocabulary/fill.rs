//! A buffer's initial contents as the user writes them (`--buffer NAME[:LEN]=FILL`, the page's
//! fill field): one parser for every kernel form.
//!
//! ```text
//! FILL := index            cell i holds i
//!       | NUMBER           every cell (decimal, 0x hex, negative, or a float such as 0.5)
//!       | i*K | i+K | i*K+C | i*K-C   (K, C integers; `index` or `lane` may stand for `i`)
//!       | A,B,C,…          one item per cell, exactly LEN items when LEN is given
//!       | random:SEED      integers in 0..1000 from the seed (reproducible)
//! ```

use crate::error::InputError;

/// A parsed fill.
#[derive(Clone, Debug, PartialEq)]
pub enum Fill {
    /// Cell i holds `i * mul + add` (`index` is mul 1, add 0).
    Affine {
        /// Factor.
        mul: i64,
        /// Offset.
        add: i64,
    },
    /// Every cell holds this number (as written).
    Number(String),
    /// One item per cell.
    List(Vec<String>),
    /// Reproducible integers in 0..1000.
    Random(u64),
}

fn int(s: &str, field: &str) -> Result<i64, InputError> {
    let t = s.trim();
    let (neg, t) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t),
    };
    let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        i64::from_str_radix(h, 16)
    } else {
        t.parse::<i64>()
    }
    .map_err(|_| InputError::new(field, format!("`{s}` is not an integer")))?;
    Ok(if neg { -v } else { v })
}

fn is_number(s: &str) -> bool {
    let t = s.trim();
    !t.is_empty() && (int(t, "").is_ok() || t.parse::<f64>().is_ok_and(f64::is_finite))
}

/// Parses a fill; `field` names it in errors (`buffer data`).
///
/// # Errors
/// [`InputError`] on `field` for text that is none of the forms above.
pub fn parse_fill(text: &str, field: &str) -> Result<Fill, InputError> {
    let t = text.trim();
    if t == "index" || t == "i" || t == "lane" {
        return Ok(Fill::Affine { mul: 1, add: 0 });
    }
    if let Some(seed) = t.strip_prefix("random:") {
        let s = seed.trim().parse::<u64>().map_err(|_| {
            InputError::new(
                field,
                format!("random:SEED needs an integer seed, got `{seed}`"),
            )
        })?;
        return Ok(Fill::Random(s));
    }
    if t.contains(',') {
        let items: Vec<String> = t.split(',').map(|s| s.trim().to_string()).collect();
        if let Some(bad) = items.iter().find(|s| !is_number(s)) {
            return Err(InputError::new(
                field,
                format!("list item `{bad}` is not a number"),
            ));
        }
        return Ok(Fill::List(items));
    }
    if is_number(t) {
        return Ok(Fill::Number(t.to_string()));
    }
    let body = t
        .strip_prefix("index")
        .or_else(|| t.strip_prefix("lane"))
        .or_else(|| t.strip_prefix('i'))
        .ok_or_else(|| bad_fill(t, field))?;
    let body: String = body.chars().filter(|c| !c.is_whitespace()).collect();
    // *K, +K, -K, *K+C, *K-C
    let (mul, rest) = match body.strip_prefix('*') {
        Some(r) => {
            let end = r
                .char_indices()
                .skip(1)
                .find(|(_, c)| *c == '+' || *c == '-')
                .map_or(r.len(), |(k, _)| k);
            (int(&r[..end], field)?, &r[end..])
        }
        None => (1, body.as_str()),
    };
    let add = match rest {
        "" => 0,
        r if r.starts_with('+') => int(&r[1..], field)?,
        r if r.starts_with('-') => -int(&r[1..], field)?,
        _ => return Err(bad_fill(t, field)),
    };
    Ok(Fill::Affine { mul, add })
}

fn bad_fill(t: &str, field: &str) -> InputError {
    InputError::new(
        field,
        format!("`{t}` is not a fill: use index, a number, i*K, i+K, i*K+C, a comma list or random:SEED"),
    )
}

/// The `len` integers `random:SEED` gives, uniform in 0..1000: fastrand's WyRand, whose output
/// depends only on the seed, so a seed fills the same cells in the CLI, the page, C kernels and
/// WGSL shaders.
pub fn random_ints(seed: u64, len: usize) -> impl Iterator<Item = i64> {
    let mut rng = fastrand::Rng::with_seed(seed);
    (0..len).map(move |_| rng.i64(0..1000))
}

impl Fill {
    /// The `len` cells as numbers written out (the engine's list form).
    ///
    /// # Errors
    /// [`InputError`] on `field` for a list whose length is not `len`, or an `i*K+C` that
    /// overflows 64 bits.
    pub fn cells(&self, len: usize, field: &str) -> Result<Vec<String>, InputError> {
        Ok(match self {
            Fill::Affine { mul, add } => (0..len as i64)
                .map(|i| {
                    i.checked_mul(*mul)
                        .and_then(|v| v.checked_add(*add))
                        .map(|v| v.to_string())
                        .ok_or_else(|| InputError::new(field, "i*K+C overflows 64 bits"))
                })
                .collect::<Result<_, _>>()?,
            Fill::Number(n) => vec![n.clone(); len],
            Fill::List(items) => {
                if items.len() != len {
                    return Err(InputError::new(
                        field,
                        format!(
                            "the list has {} items; the buffer has {len} cells",
                            items.len()
                        ),
                    ));
                }
                items.clone()
            }
            Fill::Random(seed) => random_ints(*seed, len).map(|v| v.to_string()).collect(),
        })
    }

    /// The length a list gives (`None` for the other forms).
    pub fn list_len(&self) -> Option<usize> {
        match self {
            Fill::List(v) => Some(v.len()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(t: &str, n: usize) -> Vec<String> {
        parse_fill(t, "f").unwrap().cells(n, "f").unwrap()
    }

    #[test]
    fn every_form() {
        assert_eq!(cells("index", 3), ["0", "1", "2"]);
        assert_eq!(cells("7", 2), ["7", "7"]);
        assert_eq!(cells("0.5", 2), ["0.5", "0.5"]);
        assert_eq!(cells("i*3", 3), ["0", "3", "6"]);
        assert_eq!(cells("i+2", 2), ["2", "3"]);
        assert_eq!(cells("i*2+1", 3), ["1", "3", "5"]);
        assert_eq!(cells("i*-2-1", 2), ["-1", "-3"]);
        assert_eq!(cells("4,5,6", 3), ["4", "5", "6"]);
        let r = cells("random:7", 5);
        assert_eq!(r, cells("random:7", 5));
        assert!(r.iter().all(|v| v.parse::<u32>().unwrap() < 1000));
        assert!(parse_fill("4,5", "f").unwrap().cells(3, "f").is_err());
        assert!(parse_fill("banana", "f").is_err());
        assert!(parse_fill("i*", "f").is_err());
    }
}
