//! Operation parameters: their specs (name, kind, range, default) and their parsed values.
//!
//! Parameter names are the vendor's own in snake_case (`lane_mask`, `src_lane`, `dpp_ctrl`); the CLI
//! spells them in kebab-case (`--lane-mask`) and the page labels its controls with them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::error::InputError;
use crate::lanes::LaneMask;
pub use crate::number::parse_int;
use crate::value::{Value, ValueType};

/// What a parameter holds and which values can be encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ParamKind {
    /// One integer in `min..=max` (the encodable range, not the defined range: a width of 31 is
    /// encodable and runs as undefined; a width of 0 is not).
    Int {
        /// Smallest encodable value.
        min: i64,
        /// Largest encodable value.
        max: i64,
    },
    /// One integer per lane in `min..=max` (a comma list of exactly N, or one value broadcast).
    PerLaneInt {
        /// Smallest encodable value of each lane's item.
        min: i64,
        /// Largest encodable value of each lane's item.
        max: i64,
    },
    /// One value of the op's value type per lane (DPP `old`), list or broadcast.
    PerLaneValue,
    /// A lane mask (CUDA's sync `mask`), hex.
    Mask,
    /// true/false (also 1/0).
    Flag,
    /// A text control word parsed by the op (DPP `dpp_ctrl`, e.g. `row_shl:3`).
    Text,
}

/// The default of a parameter when the user gives none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ParamDefault {
    /// Required: no default.
    Required,
    /// A fixed integer.
    Int(i64),
    /// The lane count (`width = warpSize`).
    Lanes,
    /// The active mask (CUDA's `mask` defaults to `--active`).
    Active,
    /// A fixed text.
    Text(&'static str),
    /// A flag.
    Flag(bool),
}

/// One parameter of an operation: an argument's ([`crate::args::Arg::param`]) or a setting
/// outside the call ([`crate::OpSpec::settings`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ParamSpec {
    /// Vendor name in snake_case (`lane_mask`).
    pub name: &'static str,
    /// Kind and encodable range.
    pub kind: ParamKind,
    /// Default when omitted.
    pub default: ParamDefault,
    /// One line: meaning and units (lanes, bytes, bits).
    pub doc: &'static str,
}

impl ParamSpec {
    /// The CLI flag, `--` plus the name in kebab-case.
    pub fn flag(&self) -> String {
        format!("--{}", self.name.replace('_', "-"))
    }
}

/// A parsed parameter value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ParamValue {
    /// [`ParamKind::Int`].
    Int(i64),
    /// [`ParamKind::PerLaneInt`], one per lane.
    Ints(Vec<i64>),
    /// [`ParamKind::PerLaneValue`], one per lane.
    Values(Vec<Value>),
    /// [`ParamKind::Mask`].
    Mask(LaneMask),
    /// [`ParamKind::Flag`].
    Flag(bool),
    /// [`ParamKind::Text`].
    Text(String),
}

fn parse_flag(text: &str, field: &str) -> Result<bool, InputError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        _ => Err(InputError::new(
            field,
            format!("`{text}` is not a flag; allowed: true, false, 1, 0"),
        )),
    }
}

fn int_in(text: &str, field: &str, min: i64, max: i64) -> Result<i64, InputError> {
    let v = parse_int(text).ok_or_else(|| {
        if crate::number::is_int_text(text) {
            return InputError::too_large(field, text, min, max);
        }
        InputError::new(
            field,
            format!(
                "`{text}` is not an integer (decimal, 0x hex, or negative); allowed {min}..={max}"
            ),
        )
    })?;
    if v < min || v > max {
        return Err(InputError::out_of_range(field, v, min, max));
    }
    Ok(v)
}

/// Parses the user's text for one parameter.
///
/// # Errors
/// [`InputError`] naming the parameter and its allowed range.
pub fn parse_param(
    spec: &ParamSpec,
    text: &str,
    lanes: usize,
    ty: ValueType,
) -> Result<ParamValue, InputError> {
    let field = spec.name;
    match spec.kind {
        ParamKind::Int { min, max } => Ok(ParamValue::Int(int_in(text, field, min, max)?)),
        ParamKind::PerLaneInt { min, max } => {
            if crate::lane_expr::looks_like_expr(text) {
                let expr = crate::lane_expr::LaneExpr::parse(text, field)?;
                let ints = expr.row(lanes, field)?;
                if let Some((i, v)) = ints.iter().enumerate().find(|(_, &v)| v < min || v > max) {
                    return Err(InputError::new(
                        field,
                        format!(
                            "`{}` is {v} in lane {i}; allowed {min}..={max}",
                            expr.text()
                        ),
                    ));
                }
                return Ok(ParamValue::Ints(ints));
            }
            let items: Vec<&str> = text.split(',').map(str::trim).collect();
            let ints = if items.len() == 1 {
                vec![int_in(items[0], field, min, max)?; lanes]
            } else if items.len() == lanes {
                items
                    .iter()
                    .enumerate()
                    .map(|(i, s)| int_in(s, &format!("{field}[{i}]"), min, max))
                    .collect::<Result<Vec<_>, _>>()?
            } else {
                return Err(InputError::new(
                    field,
                    format!("needs one value or exactly {lanes} comma-separated values (one per lane), got {}", items.len()),
                ));
            };
            Ok(ParamValue::Ints(ints))
        }
        ParamKind::PerLaneValue => {
            if crate::lane_expr::looks_like_expr(text) {
                let expr = crate::lane_expr::LaneExpr::parse(text, field)?;
                let values = expr
                    .row(lanes, field)?
                    .into_iter()
                    .map(|v| Value::from_i64(ty, v))
                    .collect();
                return Ok(ParamValue::Values(values));
            }
            let items: Vec<&str> = text.split(',').map(str::trim).collect();
            let values = if items.len() == 1 {
                vec![Value::parse(ty, items[0], field)?; lanes]
            } else if items.len() == lanes {
                items
                    .iter()
                    .enumerate()
                    .map(|(i, s)| Value::parse(ty, s, &format!("{field}[{i}]")))
                    .collect::<Result<Vec<_>, _>>()?
            } else {
                return Err(InputError::new(
                    field,
                    format!("needs one value or exactly {lanes} comma-separated values (one per lane), got {}", items.len()),
                ));
            };
            Ok(ParamValue::Values(values))
        }
        ParamKind::Mask => Ok(ParamValue::Mask(LaneMask::parse(text, lanes, field)?)),
        ParamKind::Flag => Ok(ParamValue::Flag(parse_flag(text, field)?)),
        ParamKind::Text => Ok(ParamValue::Text(text.trim().to_string())),
    }
}

/// The default value of `spec` for a warp of `lanes` lanes with `active` lanes.
///
/// # Errors
/// [`InputError`] when the parameter is required.
pub fn default_param(
    spec: &ParamSpec,
    lanes: usize,
    active: LaneMask,
    ty: ValueType,
) -> Result<ParamValue, InputError> {
    let missing = || InputError::new(spec.name, format!("is required ({})", spec.doc));
    Ok(match (spec.default, spec.kind) {
        (ParamDefault::Required, _) => return Err(missing()),
        (ParamDefault::Int(v), ParamKind::PerLaneInt { .. }) => ParamValue::Ints(vec![v; lanes]),
        (ParamDefault::Int(v), ParamKind::PerLaneValue) => {
            ParamValue::Values(vec![Value::from_i64(ty, v); lanes])
        }
        (ParamDefault::Int(v), _) => ParamValue::Int(v),
        (ParamDefault::Lanes, _) => ParamValue::Int(lanes as i64),
        (ParamDefault::Active, _) => ParamValue::Mask(active),
        (ParamDefault::Text(t), _) => ParamValue::Text(t.to_string()),
        (ParamDefault::Flag(b), _) => ParamValue::Flag(b),
    })
}

/// The parsed parameters of one operation call, by vendor name.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Params(pub BTreeMap<String, ParamValue>);

impl Params {
    fn get(&self, name: &str) -> Result<&ParamValue, InputError> {
        self.0
            .get(name)
            .ok_or_else(|| InputError::new(name, "is required"))
    }

    /// An integer parameter.
    ///
    /// # Errors
    /// [`InputError`] when it is missing or not an integer.
    pub fn int(&self, name: &str) -> Result<i64, InputError> {
        match self.get(name)? {
            ParamValue::Int(v) => Ok(*v),
            // A per-lane parameter with the same value in every lane is that value.
            ParamValue::Ints(v) if v.windows(2).all(|w| w[0] == w[1]) && !v.is_empty() => Ok(v[0]),
            ParamValue::Ints(_) => Err(InputError::new(
                name,
                "differs between lanes here; this use needs one value for every lane",
            )),
            _ => Err(InputError::new(name, "must be one integer")),
        }
    }

    /// Lane `lane`'s value of an integer parameter: its own item of a per-lane parameter, or the
    /// one value of a per-warp one.
    ///
    /// # Errors
    /// [`InputError`] when it is missing, of another kind, or has no item for `lane`.
    pub fn lane_int(&self, name: &str, lane: usize) -> Result<i64, InputError> {
        match self.get(name)? {
            ParamValue::Int(v) => Ok(*v),
            ParamValue::Ints(v) => v
                .get(lane)
                .copied()
                .ok_or_else(|| InputError::new(name, format!("has no value for lane {lane}"))),
            _ => Err(InputError::new(name, "must be an integer")),
        }
    }

    /// A per-lane integer parameter (one per lane).
    ///
    /// # Errors
    /// [`InputError`] when it is missing or of another kind.
    pub fn ints(&self, name: &str) -> Result<&[i64], InputError> {
        match self.get(name)? {
            ParamValue::Ints(v) => Ok(v),
            _ => Err(InputError::new(name, "must be a per-lane integer list")),
        }
    }

    /// A per-lane value parameter (one per lane).
    ///
    /// # Errors
    /// [`InputError`] when it is missing or of another kind.
    pub fn values(&self, name: &str) -> Result<&[Value], InputError> {
        match self.get(name)? {
            ParamValue::Values(v) => Ok(v),
            _ => Err(InputError::new(name, "must be a per-lane value list")),
        }
    }

    /// A lane-mask parameter.
    ///
    /// # Errors
    /// [`InputError`] when it is missing or of another kind.
    pub fn mask(&self, name: &str) -> Result<LaneMask, InputError> {
        match self.get(name)? {
            ParamValue::Mask(m) => Ok(*m),
            _ => Err(InputError::new(name, "must be a lane mask")),
        }
    }

    /// A flag parameter.
    ///
    /// # Errors
    /// [`InputError`] when it is missing or of another kind.
    pub fn flag(&self, name: &str) -> Result<bool, InputError> {
        match self.get(name)? {
            ParamValue::Flag(b) => Ok(*b),
            _ => Err(InputError::new(name, "must be true or false")),
        }
    }

    /// A text parameter.
    ///
    /// # Errors
    /// [`InputError`] when it is missing or of another kind.
    pub fn text(&self, name: &str) -> Result<&str, InputError> {
        match self.get(name)? {
            ParamValue::Text(t) => Ok(t),
            _ => Err(InputError::new(name, "must be text")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints_parse_in_every_base() {
        assert_eq!(parse_int("0x1f"), Some(31));
        assert_eq!(parse_int("-3"), Some(-3));
        assert_eq!(parse_int("0b101"), Some(5));
        assert_eq!(parse_int("1_000"), Some(1000));
        assert_eq!(parse_int("x"), None);
    }

    #[test]
    fn range_errors_name_the_field() {
        let spec = ParamSpec {
            name: "offset",
            kind: ParamKind::Int {
                min: 0,
                max: 0xffff,
            },
            default: ParamDefault::Required,
            doc: "16-bit swizzle pattern",
        };
        let e = parse_param(&spec, "0x10000", 32, ValueType::I32).unwrap_err();
        assert_eq!(e.field, "offset");
        assert!(e.message.contains("0..=65535"), "{}", e.message);
        let per_lane = ParamSpec {
            kind: ParamKind::PerLaneInt { min: 0, max: 255 },
            ..spec
        };
        let e = parse_param(&per_lane, "1,2,3", 4, ValueType::I32).unwrap_err();
        assert!(e.message.contains("exactly 4"), "{}", e.message);
        assert_eq!(
            parse_param(&per_lane, "7", 4, ValueType::I32).unwrap(),
            ParamValue::Ints(vec![7; 4])
        );
        assert_eq!(
            parse_param(&per_lane, "(lane+1)%4", 4, ValueType::I32).unwrap(),
            ParamValue::Ints(vec![1, 2, 3, 0])
        );
        let e = parse_param(&per_lane, "lane-1", 4, ValueType::I32).unwrap_err();
        assert!(e.message.contains("-1 in lane 0"), "{}", e.message);
    }
}
