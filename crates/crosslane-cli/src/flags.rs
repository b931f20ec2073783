//! The flags of the commands that run one op (`crosslane op`, `crosslane gpu DIALECT OP`, and
//! `--compare`'s view): the common ones ([`Common`]) and the op's own `--PARAM VALUE` pairs,
//! matched against the registry ([`parse_params`]). One module below all three, so none of them
//! imports another for it.

use std::collections::BTreeMap;

use crosslane_core::{OpSpec, ParamKind};

use crate::describe;
use crate::error::CliError;

/// The words of every command that runs one op, declared once: `DIALECT OP`, the common flags
/// and the op's `--PARAM VALUE` pairs. `crosslane op` ([`crate::cmd::op::OpArgs`]) and `crosslane
/// gpu DIALECT OP` ([`crate::cmd::gpu::GpuArgs`], beside [`crate::cmd::gpu::op::GpuOpFlags`])
/// flatten it and add their own flags.
#[derive(clap::Args, Debug)]
pub struct OpCall {
    /// cuda, hip, ascend, amdgcn, maca or wgsl.
    pub dialect: String,
    /// The vendor's op name (asc_shfl_xor, __shfl_xor_sync, ds_swizzle_b32, …) or an alias.
    pub op: String,
    /// Lanes in the warp: cuda/ascend 32, maca 64, amdgcn/hip 32 or 64 (default 64), wgsl a power
    /// of two in 4..=128 (default 32; on the GPU, the device's subgroup size).
    #[arg(long, allow_hyphen_values = true)]
    pub lanes: Option<String>,
    /// Active (exec) mask, hex; default all lanes that have not exited.
    #[arg(long, allow_hyphen_values = true)]
    pub active: Option<String>,
    /// The operand: `lane` (default), a lane expression (`lane^1`, `(lane+1)%32`), or a comma
    /// list of exactly N items.
    #[arg(long, allow_hyphen_values = true)]
    pub values: Option<String>,
    /// Value type: i32 (default), u32, f32, i64, u64, f64, f16, bf16, f16x2, bf16x2 (on the GPU,
    /// those WGSL can hold).
    #[arg(long = "type", value_name = "T")]
    pub ty: Option<String>,
    /// Print one JSON object instead of a table: the contract of docs/cli.md (`crosslane op`), the
    /// comparison with the WGSL under "wgsl" (`crosslane gpu`).
    #[arg(long)]
    pub json: bool,
    /// The op's parameters as `--PARAM VALUE` (or `--PARAM=VALUE`) pairs.
    #[arg(
        value_name = "--PARAM VALUE",
        num_args = 0..,
        allow_hyphen_values = true,
        trailing_var_arg = true
    )]
    pub params: Vec<String>,
}

impl OpCall {
    /// The common flags as clap read them, before [`parse_params`] adds those given after the
    /// first op parameter.
    pub fn common(&self) -> Common {
        Common {
            lanes: self.lanes.clone(),
            active: self.active.clone(),
            values: self.values.clone(),
            ty: self.ty.clone(),
            json: self.json,
            ..Common::default()
        }
    }
}

/// The flags every op takes. clap reads them while they come before the first op parameter; once
/// an op parameter starts the trailing list, clap hands every later word to [`parse_params`],
/// which fills these in too, so `--width 16 --json` and `--json --width 16` mean the same.
#[derive(Debug, Default)]
pub struct Common {
    /// `--lanes`.
    pub lanes: Option<String>,
    /// `--active`.
    pub active: Option<String>,
    /// `--exited`.
    pub exited: Option<String>,
    /// `--values`.
    pub values: Option<String>,
    /// `--type`.
    pub ty: Option<String>,
    /// `--json`.
    pub json: bool,
    /// `--compare`.
    pub compare: bool,
    /// `crosslane gpu`'s own flags, accepted in the trailing list only when this is `Some`.
    pub gpu: Option<GpuFlags>,
}

/// The flags `crosslane gpu DIALECT OP` takes beside `crosslane op`'s.
#[derive(Debug, Default)]
pub struct GpuFlags {
    /// `--lowering`.
    pub lowering: Option<String>,
    /// `--wgsl`.
    pub wgsl: bool,
}

impl Common {
    /// The slot of a common value flag, if `name` is one.
    fn slot(&mut self, name: &str) -> Option<&mut Option<String>> {
        match name {
            "lanes" => Some(&mut self.lanes),
            "active" => Some(&mut self.active),
            "exited" => Some(&mut self.exited),
            "values" => Some(&mut self.values),
            "type" => Some(&mut self.ty),
            "lowering" => self.gpu.as_mut().map(|g| &mut g.lowering),
            _ => None,
        }
    }
}

/// Matches the raw `--PARAM VALUE` words against `spec.params()` (and the [`Common`] flags).
///
/// Returns the parameters by vendor (snake_case) name. A [`ParamKind::Flag`] parameter may stand
/// alone (`--bound-ctrl` means true).
///
/// # Errors
/// [`CliError::Usage`] for a word that is not a flag, an unknown flag (the message lists the op's
/// flags), a missing value or a flag given twice.
pub fn parse_params(
    spec: &OpSpec,
    words: &[String],
    common: &mut Common,
) -> Result<BTreeMap<String, String>, CliError> {
    let mut params = BTreeMap::new();
    let mut rest = words.iter().peekable();
    while let Some(word) = rest.next() {
        let Some(flag) = word.strip_prefix("--") else {
            return Err(CliError::Usage(format!(
                "unexpected argument `{word}`: parameters are written --PARAM VALUE; {}",
                describe::flag_list(spec)
            )));
        };
        let (name, inline) = match flag.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (flag, None),
        };
        if name == "json" && inline.is_none() {
            common.json = true;
            continue;
        }
        if name == "compare" && inline.is_none() {
            common.compare = true;
            continue;
        }
        if let (Some(gpu), "wgsl", None) = (common.gpu.as_mut(), name, &inline) {
            gpu.wgsl = true;
            continue;
        }
        if let Some(slot) = common.slot(name) {
            let value = match inline {
                Some(v) => v,
                // Common values may start with '-' (a negative list item), so take the next word.
                None => rest.next().cloned().ok_or_else(|| {
                    CliError::Usage(format!("--{name}: needs a value (see crosslane op --help)"))
                })?,
            };
            if slot.replace(value).is_some() {
                return Err(CliError::Usage(format!("--{name}: given twice")));
            }
            continue;
        }
        let Some(param) = spec.param(name) else {
            return Err(CliError::Usage(format!(
                "unknown flag `--{name}` for {}; {}",
                spec.name,
                describe::flag_list(spec)
            )));
        };
        let value = match inline {
            Some(v) => v,
            None => {
                let next_is_value = rest.peek().is_some_and(|w| !w.starts_with("--"));
                if next_is_value {
                    rest.next().cloned().unwrap_or_default()
                } else if param.kind == ParamKind::Flag {
                    "true".to_string()
                } else {
                    return Err(CliError::Usage(format!(
                        "{}: needs a value ({})",
                        param.flag(),
                        describe::param_range(param)
                    )));
                }
            }
        };
        if params.insert(param.name.to_string(), value).is_some() {
            return Err(CliError::Usage(format!("{}: given twice", param.flag())));
        }
    }
    Ok(params)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crosslane_core::{
        Dialect, OpInput, OpKind, OpOutput, ParamDefault, ParamSpec, Proto, ValueType,
    };

    fn nothing(_: &OpInput) -> Result<OpOutput, crosslane_core::InputError> {
        Ok(OpOutput::default())
    }

    /// A registry-shaped op with one of each flag form (DPP-like `bound_ctrl`, a signed `delta`).
    const SPEC: OpSpec = OpSpec {
        dialect: Dialect::Amdgcn,
        name: "test_op",
        aliases: &[],
        proto: Proto::returns("int"),
        args: &[],
        rule: "",
        source: "",
        settings: &[
            ParamSpec {
                name: "bound_ctrl",
                kind: ParamKind::Flag,
                default: ParamDefault::Flag(false),
                doc: "",
            },
            ParamSpec {
                name: "delta",
                kind: ParamKind::Int { min: -64, max: 64 },
                default: ParamDefault::Int(1),
                doc: "",
            },
        ],
        types: &[ValueType::I32],
        type_note: "",
        kind: OpKind::Lanes,
        run: nothing,
    };

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn flags_stand_alone_or_take_a_value_and_negatives_are_values() {
        let mut common = Common::default();
        let p = parse_params(&SPEC, &words("--bound-ctrl --delta -3 --json"), &mut common).unwrap();
        assert_eq!(p["bound_ctrl"], "true");
        assert_eq!(p["delta"], "-3");
        assert!(common.json);
        let p = parse_params(&SPEC, &words("--bound-ctrl false"), &mut common).unwrap();
        assert_eq!(p["bound_ctrl"], "false");
        let p = parse_params(&SPEC, &words("--delta=-64 --bound-ctrl"), &mut common).unwrap();
        assert_eq!(p["delta"], "-64");
        assert_eq!(p["bound_ctrl"], "true");
    }

    #[test]
    fn common_flags_in_the_trailing_list_fill_their_slots() {
        let mut common = Common {
            lanes: Some("32".into()),
            ..Common::default()
        };
        let p = parse_params(
            &SPEC,
            &words("--delta 2 --values -1,-2 --type u32 --active 0xf"),
            &mut common,
        )
        .unwrap();
        assert_eq!(p.len(), 1);
        assert_eq!(common.values.as_deref(), Some("-1,-2"));
        assert_eq!(common.ty.as_deref(), Some("u32"));
        assert_eq!(common.active.as_deref(), Some("0xf"));
        let e = parse_params(&SPEC, &words("--lanes 64"), &mut common).unwrap_err();
        assert_eq!(e.to_string(), "--lanes: given twice");
    }

    #[test]
    fn errors_name_the_flag_and_what_is_allowed() {
        let mut common = Common::default();
        let e = parse_params(&SPEC, &words("--delta"), &mut common).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--delta: needs a value (integer in -64..=64)"
        );
        let e = parse_params(&SPEC, &words("--width 3"), &mut common).unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown flag `--width` for test_op; test_op's flags are: --bound-ctrl, --delta"
        );
        let e = parse_params(&SPEC, &words("3"), &mut common).unwrap_err();
        assert!(e.to_string().starts_with("unexpected argument `3`"), "{e}");
    }
}
