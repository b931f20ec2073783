//! A buffer's initial contents as the user writes them (`--buffer NAME[:LEN]=FILL`, the page's
//! fill field, a scenario's `args`, the JS API's buffers): the one grammar of fills, parsed here
//! and nowhere else ([`parse_fill`]; [`GRAMMAR`] is its one-line statement for help texts and
//! error messages).
//!
//! ```text
//! FILL := index                cell i holds i (`i` and `lane` are the same)
//!       | i*K | i+C | i-C | i*K+C | i*K-C
//!                              cell i holds i×K+C, exactly; K and C are integers (decimal
//!                              or 0x hex) or decimals such as 0.1, -1.5, 0.001
//!       | NUMBER               every cell: an integer, a decimal (1.5, -0.25, 1e-3),
//!                              inf, -inf, nan, true or false
//!       | ITEM,ITEM,…          one item per cell, integers and decimals mixed; an ITEM is a
//!                              NUMBER, `undef` (or `?`, or nothing) for an uninitialized cell,
//!                              or a vector element's components joined by `:` (1:2:3:4)
//!       | zero                 every cell 0
//!       | undef                every cell uninitialized
//!       | random:SEED          integers in 0..1000 from the seed (reproducible)
//!       | TYPE:FILL            a typed fill ([`split_typed`]): FILL's values are of TYPE
//!                              (f32, f16, i32, …) and their little-endian bytes are laid
//!                              over the buffer's cells, for a `char*` buffer the kernel
//!                              reads through a `float*`
//! ```
//!
//! Whether a number suits the buffer (a decimal in an `int` buffer, a component count) is the
//! buffer's element type's question, asked where the cells are made
//! (`crosslane_kernel::memory::fill_cells`).

use crate::error::InputError;

/// The fill grammar in one line, as the CLI's `--help`, the page's hint and every fill error
/// state it.
pub const GRAMMAR: &str = "index, i*K+C (also i*K, i+C, i*K-C; K and C integers or decimals \
                           such as 0.1 or -1.5), a number, a comma list (integers and decimals \
                           mixed; undef for an uninitialized cell), zero, undef or random:SEED";

/// The component types a typed fill (`TYPE:FILL`, e.g. `f32:1.5,2.5`) may name: its values
/// are of that type and are laid out as their little-endian bytes over the buffer's cells, for a
/// buffer the kernel reads through a pointer of another type (a `char*` read as `float*`).
pub const TYPED_FILL_TYPES: [&str; 12] = [
    "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f16", "bf16", "f32", "f64",
];

/// The typed fill's one-line statement for help texts and error messages.
pub const TYPED_GRAMMAR: &str = "TYPE:FILL with TYPE one of i8 u8 i16 u16 i32 u32 i64 u64 f16 \
                                 bf16 f32 f64 (values of TYPE laid out as little-endian bytes \
                                 over the buffer's cells)";

/// Splits a typed fill `TYPE:FILL` into its type (one of [`TYPED_FILL_TYPES`], lowercase) and
/// the fill after the colon; `None` for a fill without such a prefix (`random:7`, `1:2:3:4`
/// and every other form of [`GRAMMAR`] start with no type name).
pub fn split_typed(text: &str) -> Option<(&'static str, &str)> {
    let (head, rest) = text.trim().split_once(':')?;
    let head = head.trim().to_ascii_lowercase();
    TYPED_FILL_TYPES
        .iter()
        .find(|t| **t == head)
        .map(|t| (*t, rest))
}

/// Most digits after the point of a decimal K or C: `i*K+C` is computed exactly in 128-bit
/// integers scaled by 10^digits, so the scale is bounded to keep `i` up to 2^64 in range.
const MAX_DECIMALS: u32 = 18;

/// A number written in decimal, held exactly: `mant / 10^scale` (`0.25` is 25 / 10^2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decimal {
    /// The digits as an integer, with the sign.
    pub mant: i128,
    /// Digits after the point (0..=18).
    pub scale: u32,
}

impl Decimal {
    /// A whole number.
    pub fn int(v: i64) -> Self {
        Decimal {
            mant: i128::from(v),
            scale: 0,
        }
    }

    /// Parses `-1.5`, `0.001`, `42`, `0x1f` (integers also in hex); `None` for anything else
    /// (an exponent, more than 18 decimals, more digits than 128 bits hold).
    fn parse(text: &str) -> Option<Self> {
        let t = text.trim();
        if let Some(v) = crate::params::parse_int(t) {
            return Some(Decimal::int(v));
        }
        let (neg, body) = match t.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, t.strip_prefix('+').unwrap_or(t)),
        };
        let (whole, frac) = body.split_once('.')?;
        let digits_ok = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if (whole.is_empty() && frac.is_empty()) || !digits_ok(whole) || !digits_ok(frac) {
            return None;
        }
        let scale = u32::try_from(frac.len())
            .ok()
            .filter(|s| *s <= MAX_DECIMALS)?;
        let joined = format!("{whole}{frac}");
        let digits = joined.trim_start_matches('0');
        let mant: i128 = if digits.is_empty() {
            0
        } else {
            digits.parse().ok()?
        };
        Some(Decimal {
            mant: if neg { -mant } else { mant },
            scale,
        })
    }

    /// The same number at a larger scale.
    fn rescale(self, scale: u32) -> Option<i128> {
        self.mant
            .checked_mul(10i128.checked_pow(scale - self.scale.min(scale))?)
    }

    /// Whether it is a whole number.
    pub fn is_whole(self) -> bool {
        self.whole().is_some()
    }

    /// Its value when it is a whole number.
    pub fn whole(self) -> Option<i128> {
        let p = 10i128.checked_pow(self.scale)?;
        (self.mant % p == 0).then(|| self.mant / p)
    }

    /// `i*mul + add` exactly; `None` when it does not fit 128 bits.
    pub fn affine(i: u64, mul: Decimal, add: Decimal) -> Option<Decimal> {
        let scale = mul.scale.max(add.scale);
        let mant = i128::from(i)
            .checked_mul(mul.rescale(scale)?)?
            .checked_add(add.rescale(scale)?)?;
        Some(Decimal { mant, scale })
    }
}

impl std::fmt::Display for Decimal {
    /// The shortest decimal text: `2`, `-1.5`, `0.001` (no exponent, no trailing zeros).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let digits = self.mant.unsigned_abs().to_string();
        let scale = self.scale as usize;
        let padded = format!("{digits:0>width$}", width = scale + 1);
        let (whole, frac) = padded.split_at(padded.len() - scale);
        let frac = frac.trim_end_matches('0');
        let sign = if self.mant < 0 { "-" } else { "" };
        if frac.is_empty() {
            write!(f, "{sign}{whole}")
        } else {
            write!(f, "{sign}{whole}.{frac}")
        }
    }
}

/// A parsed fill.
#[derive(Clone, Debug, PartialEq)]
pub enum Fill {
    /// Cell i holds `i * mul + add` exactly (`index` is mul 1, add 0).
    Affine {
        /// Factor.
        mul: Decimal,
        /// Offset.
        add: Decimal,
    },
    /// Every cell holds this number (as written).
    Number(String),
    /// One item per cell (as written; an empty item, `?` or `undef` is an uninitialized cell).
    List(Vec<String>),
    /// Every cell 0.
    Zero,
    /// Every cell uninitialized.
    Undef,
    /// Reproducible integers in 0..1000.
    Random(u64),
}

/// Whether `s` is a NUMBER of the grammar: an integer, a finite decimal (exponent allowed),
/// `inf`, `-inf`, `nan`, `true` or `false`.
pub fn is_number(s: &str) -> bool {
    let t = s.trim();
    if t.is_empty() {
        return false;
    }
    let lower = t.to_ascii_lowercase();
    matches!(
        lower.as_str(),
        "inf" | "-inf" | "+inf" | "nan" | "true" | "false"
    ) || crate::params::parse_int(t).is_some()
        || (t.parse::<f64>().is_ok_and(f64::is_finite) && !lower.contains("inf"))
}

/// Whether `s` is an ITEM of a list: a NUMBER, an uninitialized cell, or `:`-joined components.
fn is_item(s: &str) -> bool {
    let t = s.trim();
    t.is_empty() || t == "?" || t.eq_ignore_ascii_case("undef") || t.split(':').all(is_number)
}

/// Parses a fill; `field` names it in errors (`x fill`, `--buffer x`).
///
/// # Errors
/// [`InputError`] on `field`, stating [`GRAMMAR`], for text that is none of the forms above.
pub fn parse_fill(text: &str, field: &str) -> Result<Fill, InputError> {
    let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let lower = t.to_ascii_lowercase();
    match lower.as_str() {
        "" | "index" | "i" | "lane" => {
            return Ok(Fill::Affine {
                mul: Decimal::int(1),
                add: Decimal::int(0),
            })
        }
        "zero" | "zeros" => return Ok(Fill::Zero),
        "undef" | "uninit" => return Ok(Fill::Undef),
        _ => {}
    }
    if let Some(seed) = lower.strip_prefix("random:") {
        let s = seed.parse::<u64>().map_err(|_| {
            InputError::new(
                field,
                format!("random:SEED needs a whole-number seed, got `{seed}`; a fill is {GRAMMAR}"),
            )
        })?;
        return Ok(Fill::Random(s));
    }
    if t.contains(',') {
        let items: Vec<String> = t.split(',').map(str::to_string).collect();
        if let Some(bad) = items.iter().find(|s| !is_item(s)) {
            return Err(InputError::new(
                field,
                format!("list item `{bad}` is not a number; a fill is {GRAMMAR}"),
            ));
        }
        return Ok(Fill::List(items));
    }
    if t.split(':').all(is_number) {
        return Ok(Fill::Number(t));
    }
    let body = lower
        .strip_prefix("index")
        .or_else(|| lower.strip_prefix("lane"))
        .or_else(|| lower.strip_prefix('i'))
        .ok_or_else(|| bad_fill(&t, field))?;
    // *K, +C, -C, *K+C, *K-C (K may itself be negative: i*-2-1)
    let (mul, rest) = match body.strip_prefix('*') {
        Some(r) => {
            let end = r
                .char_indices()
                .skip(1)
                .find(|(_, c)| *c == '+' || *c == '-')
                .map_or(r.len(), |(k, _)| k);
            let k = Decimal::parse(&r[..end]).ok_or_else(|| bad_fill(&t, field))?;
            (k, &r[end..])
        }
        None => (Decimal::int(1), body),
    };
    let add = match rest {
        "" => Decimal::int(0),
        r if r.starts_with('+') || r.starts_with('-') => {
            let c = Decimal::parse(&r[1..])
                .filter(|_| !r[1..].starts_with(['+', '-']))
                .ok_or_else(|| bad_fill(&t, field))?;
            if r.starts_with('-') {
                Decimal { mant: -c.mant, ..c }
            } else {
                c
            }
        }
        _ => return Err(bad_fill(&t, field)),
    };
    Ok(Fill::Affine { mul, add })
}

fn bad_fill(t: &str, field: &str) -> InputError {
    InputError::new(field, format!("`{t}` is not a fill: a fill is {GRAMMAR}"))
}

/// The `len` integers `random:SEED` gives, uniform in 0..1000: fastrand's WyRand, whose output
/// depends only on the seed, so a seed fills the same cells in the CLI, the page, C kernels and
/// WGSL shaders.
pub fn random_ints(seed: u64, len: usize) -> impl Iterator<Item = i64> {
    let mut rng = fastrand::Rng::with_seed(seed);
    (0..len).map(move |_| rng.i64(0..1000))
}

/// Cell `i` of `i*mul+add`, or the message for one that does not fit.
///
/// # Errors
/// [`InputError`] on `field` when the value does not fit 128 bits.
pub fn affine_cell(
    i: usize,
    mul: Decimal,
    add: Decimal,
    field: &str,
) -> Result<Decimal, InputError> {
    Decimal::affine(i as u64, mul, add).ok_or_else(|| {
        InputError::new(
            field,
            format!("i*K+C at cell {i} does not fit 128 bits; a fill is {GRAMMAR}"),
        )
    })
}

impl Fill {
    /// The `len` cells as numbers written out (the list form every engine reads); an
    /// uninitialized cell is `undef`.
    ///
    /// # Errors
    /// [`InputError`] on `field` for a list whose length is not `len`, or an `i*K+C` that
    /// overflows.
    pub fn cells(&self, len: usize, field: &str) -> Result<Vec<String>, InputError> {
        Ok(match self {
            Fill::Affine { mul, add } => (0..len)
                .map(|i| affine_cell(i, *mul, *add, field).map(|d| d.to_string()))
                .collect::<Result<_, _>>()?,
            Fill::Number(n) => vec![n.clone(); len],
            Fill::Zero => vec!["0".to_string(); len],
            Fill::Undef => vec!["undef".to_string(); len],
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
        assert_eq!(cells("-1.5", 2), ["-1.5", "-1.5"]);
        assert_eq!(cells("i*3", 3), ["0", "3", "6"]);
        assert_eq!(cells("i+2", 2), ["2", "3"]);
        assert_eq!(cells("i*2+1", 3), ["1", "3", "5"]);
        assert_eq!(cells("i*-2-1", 2), ["-1", "-3"]);
        assert_eq!(cells("4,5,6", 3), ["4", "5", "6"]);
        assert_eq!(cells("zero", 2), ["0", "0"]);
        assert_eq!(cells("undef", 1), ["undef"]);
        let r = cells("random:7", 5);
        assert_eq!(r, cells("random:7", 5));
        assert!(r.iter().all(|v| v.parse::<u32>().unwrap() < 1000));
        assert!(parse_fill("4,5", "f").unwrap().cells(3, "f").is_err());
        for bad in ["banana", "i*", "i*0.1.2", "i+-+1", "i*1e3", "1,x"] {
            let e = parse_fill(bad, "x fill").unwrap_err();
            assert_eq!(e.field, "x fill");
            assert!(e.message.contains(GRAMMAR), "{bad}: {}", e.message);
        }
    }

    #[test]
    fn decimals_are_exact() {
        // Hand-derived: i*0.1 for i = 0..4 is 0, 0.1, 0.2, 0.3 exactly (no binary rounding:
        // 3*0.1 in f64 would be 0.30000000000000004).
        assert_eq!(cells("i*0.1", 4), ["0", "0.1", "0.2", "0.3"]);
        // i*0.25+0.5: 0.5, 0.75, 1, 1.25.
        assert_eq!(cells("i*0.25+0.5", 4), ["0.5", "0.75", "1", "1.25"]);
        // i*0.001+1.5: 1.5, 1.501, 1.502.
        assert_eq!(cells("i*0.001+1.5", 3), ["1.5", "1.501", "1.502"]);
        // i*-0.5-1.25: -1.25, -1.75, -2.25.
        assert_eq!(cells("i*-0.5-1.25", 3), ["-1.25", "-1.75", "-2.25"]);
        assert_eq!(cells("i+.5", 2), ["0.5", "1.5"]);
        assert_eq!(cells("1,2.5,-3,0.125", 4), ["1", "2.5", "-3", "0.125"]);
        assert_eq!(cells("1:2,undef,?", 3), ["1:2", "undef", "?"]);
    }
}
