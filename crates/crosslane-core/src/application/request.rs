//! An operation request as the user typed it (CLI flags, page form, scenario file), and its
//! validation into an [`OpInput`]. Everything stays text until here so that the page can keep what
//! the user typed and the CLI and page report the same errors.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::error::InputError;
use crate::lanes::LaneMask;
use crate::op::{find_op, Dialect, OpInput, OpKind, OpSpec};
use crate::params::{default_param, parse_int, parse_param, Params};
use crate::trace::Step;
use crate::value::{ValueType, ValuesSpec};

/// A per-lane form (a list or a lane expression) given for an argument the vendor takes once per
/// warp: the error says which rule makes it one value (semantics.md "Per-thread and uniform
/// operands").
fn one_value(spec: &OpSpec, p: &crate::params::ParamSpec, text: &str, e: InputError) -> InputError {
    let per_lane_form = text.contains(',') || crate::lane_expr::looks_like_expr(text);
    match spec.arg_of(p.name) {
        Some(a)
            if per_lane_form
                && !a.thread.per_thread()
                && !matches!(
                    p.kind,
                    crate::params::ParamKind::PerLaneInt { .. }
                        | crate::params::ParamKind::PerLaneValue
                        | crate::params::ParamKind::Text
                ) =>
        {
            InputError::new(
                e.field,
                format!(
                    "{} takes one value for the whole warp ({}: {}); {}",
                    a.name,
                    a.thread.word(),
                    a.thread.source(),
                    e.message
                ),
            )
        }
        _ => e,
    }
}

/// One operation call as text, exactly as typed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpRequest {
    /// `cuda`, `hip`, `ascend`, `amdgcn`, `maca` or `wgsl`.
    pub dialect: String,
    /// The op's vendor name or alias.
    pub op: String,
    /// Lane count; empty = the dialect's default.
    #[serde(default)]
    pub lanes: String,
    /// Active mask (hex); empty = all lanes that have not exited.
    #[serde(default)]
    pub active: String,
    /// CUDA exited lanes (hex): threads that have exited (or never launched, in a partial last
    /// warp). They do not call and do not count against the sync rule, which names only
    /// "non-exited threads" (CUDA C++ Programming Guide, Warp Shuffle / Vote Functions). Empty =
    /// none; omitted from a scenario's JSON when empty, so links made before it decode the same.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub exited: String,
    /// `lane`, `lane+K`, `lane*K` or a comma list; empty = `lane`.
    #[serde(default)]
    pub values: String,
    /// Value type; empty = i32.
    #[serde(default, rename = "type")]
    pub ty: String,
    /// Parameters by vendor name (snake or kebab case); a missing one takes its default.
    #[serde(default)]
    pub params: BTreeMap<String, String>,
}

impl OpRequest {
    /// Resolves the op and validates every field.
    ///
    /// # Errors
    /// The first [`InputError`], naming the field and the allowed range.
    pub fn resolve(&self) -> Result<(&'static OpSpec, OpInput), InputError> {
        let dialect = Dialect::parse(&self.dialect)?;
        let spec = find_op(dialect, &self.op)?;
        let lanes = if self.lanes.trim().is_empty() {
            dialect.default_lanes()
        } else {
            let n = parse_int(&self.lanes).ok_or_else(|| {
                InputError::new("lanes", format!("`{}` is not a lane count", self.lanes))
            })?;
            dialect.check_lanes(n)?
        };
        let exited = if self.exited.trim().is_empty() {
            LaneMask::default()
        } else {
            if dialect != Dialect::Cuda {
                return Err(InputError::new(
                    "exited",
                    format!(
                        "exited lanes are a CUDA lane state (its sync rule names non-exited \
                         threads); {} has none: leave the lanes out of --active instead",
                        dialect.title()
                    ),
                ));
            }
            LaneMask::parse(&self.exited, lanes, "exited")?
        };
        let active = if self.active.trim().is_empty() {
            LaneMask(LaneMask::all(lanes).0 & !exited.0)
        } else {
            LaneMask::parse(&self.active, lanes, "active")?
        };
        let both = LaneMask(active.0 & exited.0);
        if both.count() > 0 {
            return Err(InputError::new(
                "exited",
                format!(
                    "lane(s) {} are both active and exited; an exited thread executes nothing",
                    both.to_hex(lanes)
                ),
            ));
        }
        let ty = if self.ty.trim().is_empty() {
            spec.types.first().copied().unwrap_or_default()
        } else {
            ValueType::parse(&self.ty)?
        };
        if !spec.types.contains(&ty) {
            let allowed: Vec<&str> = spec.types.iter().map(|t| t.name()).collect();
            return Err(InputError::new(
                "type",
                format!(
                    "{} is not available for {}: {} (allowed: {})",
                    ty.name(),
                    spec.name,
                    spec.type_note,
                    allowed.join(", ")
                ),
            ));
        }
        for key in self.params.keys() {
            if spec.param(key).is_none() {
                let names: Vec<&str> = spec.params().map(|p| p.name).collect();
                return Err(InputError::new(
                    key.as_str(),
                    format!(
                        "{} has no parameter `{key}`; its parameters are: {}",
                        spec.name,
                        if names.is_empty() {
                            "none".to_string()
                        } else {
                            names.join(", ")
                        }
                    ),
                ));
            }
        }
        let mut params = Params::default();
        for p in spec.params() {
            let given = self
                .params
                .iter()
                .find(|(k, _)| spec.param(k).is_some_and(|s| s.name == p.name))
                .map(|(_, v)| v.as_str())
                .filter(|v| !v.trim().is_empty());
            let value = match given {
                Some(text) => {
                    parse_param(p, text, lanes, ty).map_err(|e| one_value(spec, p, text, e))?
                }
                None => default_param(p, lanes, active, ty)?,
            };
            params.0.insert(p.name.to_string(), value);
        }
        let values = match spec.kind {
            OpKind::Scalar => Vec::new(),
            OpKind::Lanes => ValuesSpec::parse(&self.values)?.materialize(ty, lanes)?,
        };
        Ok((
            spec,
            OpInput {
                lanes,
                active,
                exited,
                absent: LaneMask::default(),
                ty,
                values,
                params,
            },
        ))
    }

    /// Validates and runs the request.
    ///
    /// # Errors
    /// [`InputError`] for input that does not parse or cannot be encoded. Input that is undefined
    /// by the vendor's rules is not an error: it yields undefined lanes and warnings.
    pub fn run(&self) -> Result<Step, InputError> {
        let (spec, input) = self.resolve()?;
        let out = (spec.run)(&input)?;
        Ok(Step {
            dialect: spec.dialect,
            op: spec.name.to_string(),
            lanes: input.lanes,
            active: input.active,
            ty: input.ty,
            inputs: input.values.iter().copied().map(Some).collect(),
            params: input.params,
            results: out.results,
            diagnostics: out.diagnostics,
            scalar: spec.kind == OpKind::Scalar,
            label: None,
        })
    }
}
