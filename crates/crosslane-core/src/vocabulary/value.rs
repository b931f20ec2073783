//! Lane values: the operand types of every dialect, stored as raw bits.
//!
//! Shuffles move bits, not numbers: a value is its type plus its bit pattern (`bits`, low bits
//! used), so NaN payloads, -0.0 and subnormals arrive bit-exact. f16 and bf16 use the `half` crate.
//! Packed pairs (`f16x2`, `bf16x2`) hold the low half in bits 0..16 and the high half in 16..32.

use half::{bf16, f16};
use serde::{Deserialize, Serialize};

use crate::error::InputError;

/// The operand type of a lane (`--type`). Vendor spellings map onto these (see [`ValueType::parse`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum ValueType {
    /// 32-bit two's complement (`int`, `int32_t`).
    #[default]
    I32,
    /// 32-bit unsigned (`unsigned`, `uint32_t`).
    U32,
    /// IEEE binary32 (`float`).
    F32,
    /// 64-bit two's complement (`long long`, `int64_t`).
    I64,
    /// 64-bit unsigned (`unsigned long long`, `uint64_t`).
    U64,
    /// IEEE binary64 (`double`).
    F64,
    /// IEEE binary16 (`half`, `__half`).
    F16,
    /// bfloat16 (`bfloat16_t`, `__nv_bfloat16`).
    Bf16,
    /// Two binary16 in one 32-bit register (`half2`, `__half2`).
    F16x2,
    /// Two bfloat16 in one 32-bit register (`bfloat16x2_t`, `__nv_bfloat162`).
    Bf16x2,
}

impl ValueType {
    /// Every type, in the order the UI lists them.
    pub const ALL: [ValueType; 10] = [
        ValueType::I32,
        ValueType::U32,
        ValueType::F32,
        ValueType::I64,
        ValueType::U64,
        ValueType::F64,
        ValueType::F16,
        ValueType::Bf16,
        ValueType::F16x2,
        ValueType::Bf16x2,
    ];

    /// The `--type` name: `i32`, `u32`, `f32`, `i64`, `u64`, `f64`, `f16`, `bf16`, `f16x2`, `bf16x2`.
    pub fn name(self) -> &'static str {
        match self {
            ValueType::I32 => "i32",
            ValueType::U32 => "u32",
            ValueType::F32 => "f32",
            ValueType::I64 => "i64",
            ValueType::U64 => "u64",
            ValueType::F64 => "f64",
            ValueType::F16 => "f16",
            ValueType::Bf16 => "bf16",
            ValueType::F16x2 => "f16x2",
            ValueType::Bf16x2 => "bf16x2",
        }
    }

    /// Size of one lane's value in bits (16, 32 or 64).
    pub fn bit_width(self) -> u32 {
        match self {
            ValueType::F16 | ValueType::Bf16 => 16,
            ValueType::I64 | ValueType::U64 | ValueType::F64 => 64,
            _ => 32,
        }
    }

    /// Whether the type is a floating-point (or packed floating-point) type.
    pub fn is_float(self) -> bool {
        !matches!(
            self,
            ValueType::I32 | ValueType::U32 | ValueType::I64 | ValueType::U64
        )
    }

    /// Parses a type name: the `--type` names and the vendor spellings (`int`, `int32_t`,
    /// `unsigned`, `float`, `long long`, `double`, `half`, `__half2`, `bfloat16_t`, …).
    ///
    /// # Errors
    /// [`InputError`] on field `type` listing the accepted names.
    pub fn parse(text: &str) -> Result<Self, InputError> {
        let t = text.trim().to_ascii_lowercase();
        let ty = match t.as_str() {
            "i32" | "int" | "int32_t" | "int32" | "signed" => ValueType::I32,
            "u32" | "unsigned" | "unsigned int" | "uint32_t" | "uint" | "uint32" => ValueType::U32,
            "f32" | "float" => ValueType::F32,
            "i64" | "long long" | "int64_t" | "long" => ValueType::I64,
            "u64" | "unsigned long long" | "uint64_t" => ValueType::U64,
            "f64" | "double" => ValueType::F64,
            "f16" | "half" | "__half" => ValueType::F16,
            "bf16" | "bfloat16_t" | "bfloat16" | "__nv_bfloat16" => ValueType::Bf16,
            "f16x2" | "half2" | "__half2" => ValueType::F16x2,
            "bf16x2" | "bfloat16x2_t" | "__nv_bfloat162" => ValueType::Bf16x2,
            _ => {
                return Err(InputError::new(
                    "type",
                    format!(
                        "`{text}` is not a value type; allowed: i32, u32, f32, i64, u64, f64, f16, bf16, f16x2, bf16x2"
                    ),
                ))
            }
        };
        Ok(ty)
    }
}

impl std::fmt::Display for ValueType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One lane's value: a type and its raw bits (low `bit_width` bits used, the rest zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Value {
    /// The operand type.
    pub ty: ValueType,
    /// The raw bit pattern.
    pub bits: u64,
}

impl Value {
    /// A value from raw bits (bits above the type's width are dropped).
    pub fn from_bits(ty: ValueType, bits: u64) -> Self {
        let width = ty.bit_width();
        let bits = if width == 64 {
            bits
        } else {
            bits & ((1u64 << width) - 1)
        };
        Value { ty, bits }
    }

    /// The integer `n` converted to `ty` as C would (`(T)n`; floats round to nearest; packed types
    /// hold `n` in the low half and `-n` in the high half, so that both halves are visible).
    pub fn from_i64(ty: ValueType, n: i64) -> Self {
        match ty {
            ValueType::I32 | ValueType::U32 => Value::from_bits(ty, n as u32 as u64),
            ValueType::I64 | ValueType::U64 => Value::from_bits(ty, n as u64),
            ValueType::F32 => Value::from_bits(ty, (n as f32).to_bits() as u64),
            ValueType::F64 => Value::from_bits(ty, (n as f64).to_bits()),
            ValueType::F16 => Value::from_bits(ty, f16::from_f64(n as f64).to_bits() as u64),
            ValueType::Bf16 => Value::from_bits(ty, bf16::from_f64(n as f64).to_bits() as u64),
            ValueType::F16x2 => Value::pack(
                ty,
                f16::from_f64(n as f64).to_bits(),
                f16::from_f64(-(n as f64)).to_bits(),
            ),
            ValueType::Bf16x2 => Value::pack(
                ty,
                bf16::from_f64(n as f64).to_bits(),
                bf16::from_f64(-(n as f64)).to_bits(),
            ),
        }
    }

    /// A packed pair from its low and high 16-bit halves.
    pub fn pack(ty: ValueType, lo: u16, hi: u16) -> Self {
        Value::from_bits(ty, (lo as u64) | ((hi as u64) << 16))
    }

    /// The low and high 16-bit halves of a packed pair (or of any value's low 32 bits).
    pub fn halves(self) -> (u16, u16) {
        (self.bits as u16, (self.bits >> 16) as u16)
    }

    /// The value as a signed integer where the type is an integer type (i32/i64 sign-extended).
    pub fn as_i64(self) -> Option<i64> {
        match self.ty {
            ValueType::I32 => Some(self.bits as u32 as i32 as i64),
            ValueType::U32 => Some(self.bits as u32 as i64),
            ValueType::I64 => Some(self.bits as i64),
            ValueType::U64 => i64::try_from(self.bits).ok(),
            _ => None,
        }
    }

    /// The value as f64 for scalar types (integers converted, floats widened exactly); `None` for
    /// packed pairs.
    pub fn as_f64(self) -> Option<f64> {
        Some(match self.ty {
            ValueType::I32 => self.bits as u32 as i32 as f64,
            ValueType::U32 => self.bits as u32 as f64,
            ValueType::I64 => self.bits as i64 as f64,
            ValueType::U64 => self.bits as f64,
            ValueType::F32 => f32::from_bits(self.bits as u32) as f64,
            ValueType::F64 => f64::from_bits(self.bits),
            ValueType::F16 => f16::from_bits(self.bits as u16).to_f64(),
            ValueType::Bf16 => bf16::from_bits(self.bits as u16).to_f64(),
            ValueType::F16x2 | ValueType::Bf16x2 => return None,
        })
    }

    /// The raw bits as hex, zero-padded to the type's width (`0x0000002a`).
    pub fn bits_hex(self) -> String {
        let digits = (self.ty.bit_width() / 4) as usize;
        format!("0x{:0digits$x}", self.bits, digits = digits)
    }

    /// Parses one lane value typed by a user. Integers: decimal within the type's range, `0x` hex
    /// (taken as raw bits), or negative (unsigned types convert a negative number as C does:
    /// -1 → all ones). Floats: decimal, `inf`, `-inf`, `nan`, or `0x…` raw bits. Packed pairs: `lo:hi`.
    ///
    /// # Errors
    /// [`InputError`] on `field` when the text does not parse or does not fit the type.
    pub fn parse(ty: ValueType, text: &str, field: &str) -> Result<Self, InputError> {
        let t = text.trim();
        let bad = |why: &str| {
            InputError::new(
                field,
                format!(
                    "`{text}` is not {} value: {why}",
                    crate::error::with_article(ty.name())
                ),
            )
        };
        if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
            let bits = u64::from_str_radix(&hex.replace('_', ""), 16)
                .map_err(|_| bad("bad hex digits"))?;
            let width = ty.bit_width();
            if width < 64 && bits >> width != 0 {
                return Err(bad(&format!("raw bits must fit in {width} bits")));
            }
            return Ok(Value::from_bits(ty, bits));
        }
        match ty {
            ValueType::I32 => {
                let n: i64 = t.parse().map_err(|_| bad("expected an integer"))?;
                let n = i32::try_from(n).map_err(|_| {
                    bad("must be in -2147483648..=2147483647 (give raw bits as 0x…)")
                })?;
                Ok(Value::from_bits(ty, n as u32 as u64))
            }
            ValueType::U32 => {
                // A negative number converts as C converts it to unsigned (-1 → 0xffffffff).
                let n: i64 = t.parse().map_err(|_| bad("expected an integer"))?;
                if !(i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&n) {
                    return Err(bad(
                        "must be in 0..=4294967295, or -2147483648..=-1 as C converts it",
                    ));
                }
                Ok(Value::from_bits(ty, n as u32 as u64))
            }
            ValueType::I64 => {
                let n: i64 = t.parse().map_err(|_| {
                    bad("expected an integer in -9223372036854775808..=9223372036854775807")
                })?;
                Ok(Value::from_bits(ty, n as u64))
            }
            ValueType::U64 => {
                // A negative number converts as C converts it to unsigned (-1 → all ones).
                let bits = match t.parse::<i64>() {
                    Ok(n) => n as u64,
                    Err(_) => t.parse::<u64>().map_err(|_| {
                        bad("expected an integer in 0..=18446744073709551615 (or a negative i64)")
                    })?,
                };
                Ok(Value::from_bits(ty, bits))
            }
            ValueType::F32 => {
                let x = parse_float(t).ok_or_else(|| bad("expected a number"))?;
                let y = x as f32;
                overflow_check(x, f64::from(y), "3.4028235e38", &bad)?;
                Ok(Value::from_bits(ty, y.to_bits() as u64))
            }
            ValueType::F64 => {
                let x = parse_float(t).ok_or_else(|| bad("expected a number"))?;
                Ok(Value::from_bits(ty, x.to_bits()))
            }
            ValueType::F16 => {
                let x = parse_float(t).ok_or_else(|| bad("expected a number"))?;
                let y = f16::from_f64(x);
                overflow_check(x, y.to_f64(), "65504", &bad)?;
                Ok(Value::from_bits(ty, y.to_bits() as u64))
            }
            ValueType::Bf16 => {
                let x = parse_float(t).ok_or_else(|| bad("expected a number"))?;
                let y = bf16::from_f64(x);
                overflow_check(x, y.to_f64(), "3.3895314e38", &bad)?;
                Ok(Value::from_bits(ty, y.to_bits() as u64))
            }
            ValueType::F16x2 | ValueType::Bf16x2 => {
                let (lo, hi) = t
                    .split_once(':')
                    .ok_or_else(|| bad("a packed pair is written lo:hi, e.g. 1.5:-2"))?;
                let lo = parse_float(lo.trim()).ok_or_else(|| bad("low half is not a number"))?;
                let hi = parse_float(hi.trim()).ok_or_else(|| bad("high half is not a number"))?;
                let (lo, hi) = if ty == ValueType::F16x2 {
                    (f16::from_f64(lo).to_bits(), f16::from_f64(hi).to_bits())
                } else {
                    (bf16::from_f64(lo).to_bits(), bf16::from_f64(hi).to_bits())
                };
                Ok(Value::pack(ty, lo, hi))
            }
        }
    }

    /// The value as a JSON number (or `"NaN"`, `"inf"`, `"-inf"` for non-finite floats; `[lo, hi]`
    /// for packed pairs), per the CLI contract in docs/cli.md.
    pub fn to_json(self) -> serde_json::Value {
        use serde_json::Value as J;
        let float = |x: f64| {
            if x.is_nan() {
                J::String("NaN".into())
            } else if x.is_infinite() {
                J::String(if x > 0.0 { "inf" } else { "-inf" }.into())
            } else {
                serde_json::Number::from_f64(x).map_or(J::Null, J::Number)
            }
        };
        match self.ty {
            ValueType::I32 => J::from(self.bits as u32 as i32),
            ValueType::U32 => J::from(self.bits as u32),
            ValueType::I64 => J::from(self.bits as i64),
            ValueType::U64 => J::from(self.bits),
            ValueType::F32 => float(f32::from_bits(self.bits as u32) as f64),
            ValueType::F64 | ValueType::F16 | ValueType::Bf16 => {
                float(self.as_f64().unwrap_or(f64::NAN))
            }
            ValueType::F16x2 => {
                let (lo, hi) = self.halves();
                J::Array(vec![
                    float(f16::from_bits(lo).to_f64()),
                    float(f16::from_bits(hi).to_f64()),
                ])
            }
            ValueType::Bf16x2 => {
                let (lo, hi) = self.halves();
                J::Array(vec![
                    float(bf16::from_bits(lo).to_f64()),
                    float(bf16::from_bits(hi).to_f64()),
                ])
            }
        }
    }
}

/// Shortest text that reads back as the same value (`-0`, `NaN`, `1.5:-2` for pairs). A NaN's
/// payload is only visible in [`Value::bits_hex`].
impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        fn float(f: &mut std::fmt::Formatter<'_>, x: f64) -> std::fmt::Result {
            if x.is_nan() {
                f.write_str("NaN")
            } else if x.is_infinite() {
                f.write_str(if x > 0.0 { "inf" } else { "-inf" })
            } else {
                write!(f, "{x}")
            }
        }
        match self.ty {
            ValueType::I32 => write!(f, "{}", self.bits as u32 as i32),
            ValueType::U32 => write!(f, "{}", self.bits as u32),
            ValueType::I64 => write!(f, "{}", self.bits as i64),
            ValueType::U64 => write!(f, "{}", self.bits),
            ValueType::F32 => {
                // Print the f32 itself so 0.1f32 reads "0.1", not its f64 widening.
                let x = f32::from_bits(self.bits as u32);
                if x.is_finite() {
                    write!(f, "{x}")
                } else {
                    float(f, x as f64)
                }
            }
            ValueType::F64 | ValueType::F16 | ValueType::Bf16 => {
                float(f, self.as_f64().unwrap_or(f64::NAN))
            }
            ValueType::F16x2 | ValueType::Bf16x2 => {
                let (lo, hi) = self.halves();
                let (lo, hi) = if self.ty == ValueType::F16x2 {
                    (f16::from_bits(lo).to_f64(), f16::from_bits(hi).to_f64())
                } else {
                    (bf16::from_bits(lo).to_f64(), bf16::from_bits(hi).to_f64())
                };
                float(f, lo)?;
                f.write_str(":")?;
                float(f, hi)
            }
        }
    }
}

/// A finite number typed by the user that rounds to infinity in the target type cannot be
/// encoded as typed: an input error naming the type's largest finite value (type `inf` for
/// infinity).
fn overflow_check(
    typed: f64,
    stored: f64,
    max: &str,
    bad: &dyn Fn(&str) -> InputError,
) -> Result<(), InputError> {
    if typed.is_finite() && stored.is_infinite() {
        return Err(bad(&format!(
            "overflows the type (largest finite value {max}; type inf for infinity)"
        )));
    }
    Ok(())
}

fn parse_float(t: &str) -> Option<f64> {
    match t.to_ascii_lowercase().as_str() {
        "nan" => Some(f64::NAN),
        "inf" | "+inf" | "infinity" => Some(f64::INFINITY),
        "-inf" | "-infinity" => Some(f64::NEG_INFINITY),
        _ => t.parse::<f64>().ok(),
    }
}

/// How the input row is given (`--values`): `lane`, `lane+K`, `lane*K`, any lane expression
/// ([`crate::lane_expr`]: `lane^K`, `lane&K`, `lane-K`, `(lane+K)%N`, …), or a comma list of
/// exactly one value per lane.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ValuesSpec {
    /// Lane `i` holds `i + offset` (`lane`, `lane+K`, `lane-K`).
    LanePlus(i64),
    /// Lane `i` holds `i * factor` (`lane*K`).
    LaneTimes(i64),
    /// One typed item per lane.
    List(Vec<String>),
    /// A lane expression (its text), evaluated per lane in 64-bit integers, then converted to
    /// the value type.
    Expr(String),
}

impl ValuesSpec {
    /// Parses the `--values` text.
    ///
    /// # Errors
    /// [`InputError`] on field `values` when the text is none of the accepted forms.
    pub fn parse(text: &str) -> Result<Self, InputError> {
        let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let lower = t.to_ascii_lowercase();
        if lower.is_empty() || lower == "lane" || lower == "laneid" {
            return Ok(ValuesSpec::LanePlus(0));
        }
        // The two forms older scenarios name by variant; everything else with `lane` in it is
        // an expression.
        if let Some(rest) = lower.strip_prefix("lane") {
            let k = |s: &str| crate::number::parse_int(s).filter(|_| !s.starts_with(['+', '-']));
            if let Some(k) = rest.strip_prefix('+').and_then(k) {
                return Ok(ValuesSpec::LanePlus(k));
            }
            if let Some(k) = rest.strip_prefix('-').and_then(k) {
                return Ok(ValuesSpec::LanePlus(k.wrapping_neg()));
            }
            if let Some(k) = rest.strip_prefix('*').and_then(k) {
                return Ok(ValuesSpec::LaneTimes(k));
            }
        }
        if crate::lane_expr::looks_like_expr(&t) {
            crate::lane_expr::LaneExpr::parse(&t, "values")?;
            return Ok(ValuesSpec::Expr(t));
        }
        Ok(ValuesSpec::List(
            t.split(',').map(|s| s.to_string()).collect(),
        ))
    }

    /// The input row for a warp of `lanes` lanes of type `ty`.
    ///
    /// # Errors
    /// [`InputError`] on field `values` for a list of the wrong length or an item that does not parse.
    pub fn materialize(&self, ty: ValueType, lanes: usize) -> Result<Vec<Value>, InputError> {
        match self {
            ValuesSpec::LanePlus(k) => Ok((0..lanes as i64)
                .map(|i| Value::from_i64(ty, i.wrapping_add(*k)))
                .collect()),
            ValuesSpec::LaneTimes(k) => Ok((0..lanes as i64)
                .map(|i| Value::from_i64(ty, i.wrapping_mul(*k)))
                .collect()),
            ValuesSpec::List(items) => {
                if items.len() != lanes {
                    return Err(InputError::new(
                        "values",
                        format!(
                            "a list needs exactly {lanes} items (one per lane), got {}",
                            items.len()
                        ),
                    ));
                }
                items
                    .iter()
                    .enumerate()
                    .map(|(i, s)| Value::parse(ty, s, &format!("values[{i}]")))
                    .collect()
            }
            ValuesSpec::Expr(text) => Ok(crate::lane_expr::LaneExpr::parse(text, "values")?
                .row(lanes, "values")?
                .into_iter()
                .map(|v| Value::from_i64(ty, v))
                .collect()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_keep_their_bits() {
        let nan = Value::parse(ValueType::F32, "0x7fc00123", "values").unwrap();
        assert_eq!(nan.bits, 0x7fc0_0123);
        assert_eq!(nan.to_string(), "NaN");
        let neg_zero = Value::parse(ValueType::F32, "-0", "values").unwrap();
        assert_eq!(neg_zero.bits, 0x8000_0000);
        assert_eq!(neg_zero.to_string(), "-0");
        let h = Value::parse(ValueType::F16x2, "1.5:-2", "values").unwrap();
        assert_eq!(h.halves(), (0x3e00, 0xc000));
        assert_eq!(h.to_string(), "1.5:-2");
    }

    #[test]
    fn out_of_range_numbers_are_input_errors() {
        assert!(Value::parse(ValueType::I32, "3000000000", "values").is_err());
        assert_eq!(
            Value::parse(ValueType::I32, "0xb2d05e00", "values").map(|v| v.bits),
            Ok(0xb2d0_5e00)
        );
        assert_eq!(
            Value::parse(ValueType::U32, "-1", "values").map(|v| v.bits),
            Ok(0xffff_ffff)
        );
        assert!(Value::parse(ValueType::U32, "4294967296", "values").is_err());
        let e = Value::parse(ValueType::F32, "1e40", "values").unwrap_err();
        assert!(e.message.contains("overflows"), "{}", e.message);
        assert!(Value::parse(ValueType::F16, "70000", "values").is_err());
        assert!(Value::parse(ValueType::F16, "inf", "values").is_ok());
        assert!(Value::parse(ValueType::I64, "99999999999999999999", "values").is_err());
    }

    #[test]
    fn values_spec_forms() {
        assert_eq!(
            ValuesSpec::parse("lane+1").unwrap(),
            ValuesSpec::LanePlus(1)
        );
        assert_eq!(
            ValuesSpec::parse("lane*10").unwrap(),
            ValuesSpec::LaneTimes(10)
        );
        let row = ValuesSpec::parse("lane-2")
            .unwrap()
            .materialize(ValueType::I32, 4)
            .unwrap();
        assert_eq!(row[0].to_string(), "-2");
        let err = ValuesSpec::parse("1,2,3")
            .unwrap()
            .materialize(ValueType::I32, 4)
            .unwrap_err();
        assert_eq!(err.field, "values");
        let err = ValuesSpec::parse("1,x,3,4")
            .unwrap()
            .materialize(ValueType::I32, 4)
            .unwrap_err();
        assert_eq!(err.field, "values[1]");
        let row = ValuesSpec::parse("(lane + 1) % 4")
            .unwrap()
            .materialize(ValueType::I32, 4)
            .unwrap();
        let shown: Vec<String> = row.iter().map(|v| v.to_string()).collect();
        assert_eq!(shown, ["1", "2", "3", "0"]);
        let row = ValuesSpec::parse("lane^1")
            .unwrap()
            .materialize(ValueType::U32, 4)
            .unwrap();
        assert_eq!(row.iter().map(|v| v.bits).collect::<Vec<_>>(), [1, 0, 3, 2]);
        assert!(ValuesSpec::parse("(lane+").is_err());
    }
}
