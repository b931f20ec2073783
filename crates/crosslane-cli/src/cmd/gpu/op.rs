//! `crosslane gpu DIALECT OP [--lanes N] [--active MASK] [--values SPEC] [--type T]
//! [--PARAM VALUE]... [--lowering auto|workgroup|subgroup] [--wgsl] [--json]`: the op in the
//! emulator and on the native GPU, lane by lane (lane, emulator, GPU, verdict, source) under a
//! header with the adapter, subgroup sizes (min, max, observed), the lowering and the time. For
//! `wgsl` ops `--lanes` defaults to the device's subgroup size. `--wgsl` also prints the WGSL that
//! ran; `--json` prints [`crosslane_gpu::Comparison::to_json`] plus `"wgsl"`, the text that ran.
//!
//! The flags are `crosslane op`'s ([`crate::flags::parse_params`] matches the op's parameters
//! against the registry), plus `--lowering` and `--wgsl`; `--exited` and `--compare` are
//! `crosslane op`'s only (the device runs every lane that has not exited as a real invocation).

use std::collections::BTreeMap;

use crosslane_core::{find_op, Dialect, OpRequest};
use crosslane_gpu::native::NativeGpu;
use crosslane_gpu::LoweringChoice;

use super::gpu_error;
use crate::error::CliError;
use crate::flags::{parse_params, Common, OpCall};
use crate::print_out;

/// The flags `crosslane gpu DIALECT OP …` takes beside `crosslane op`'s [`OpCall`] (both are
/// flattened into [`super::GpuArgs`]: clap fills an optional flattened group only from its own
/// arguments, so the op's words cannot sit one level further down).
#[derive(clap::Args, Debug)]
pub struct GpuOpFlags {
    /// How the value moves on the device: auto (default), workgroup (workgroup memory) or
    /// subgroup (subgroupShuffle, when the device's subgroup holds the warp).
    #[arg(long, value_name = "LOWERING")]
    pub lowering: Option<String>,
    /// Also print the WGSL that ran.
    #[arg(long)]
    pub wgsl: bool,
}

/// `crosslane gpu DIALECT OP …` with its flags checked, before a device is asked for.
#[derive(Debug)]
pub struct Prepared {
    /// The dialect.
    pub dialect: Dialect,
    /// `crosslane op`'s flags (`--lanes`, `--active`, `--values`, `--type`, `--json`).
    pub common: Common,
    /// The op's parameters by vendor (snake_case) name.
    pub params: BTreeMap<String, String>,
    /// `--lowering`.
    pub lowering: LoweringChoice,
    /// `--wgsl`, given before or after the op's parameters.
    pub wgsl: bool,
}

/// The checks `crosslane gpu DIALECT OP` makes before it opens a device: the dialect, the op,
/// its parameters, `--exited` / `--compare` refused, `--lowering`.
///
/// # Errors
/// [`CliError::Input`] / [`CliError::Usage`] (exit 2) for input that does not parse.
pub fn prepare(call: &OpCall, args: &GpuOpFlags) -> Result<Prepared, CliError> {
    let dialect = Dialect::parse(&call.dialect)?;
    let spec = find_op(dialect, &call.op)?;
    let mut common = Common {
        gpu: Some(Default::default()),
        ..call.common()
    };
    let params = parse_params(spec, &call.params, &mut common)?;
    let gpu_flags = common.gpu.take().unwrap_or_default();
    if common.exited.is_some() || common.compare {
        let flag = if common.compare {
            "--compare"
        } else {
            "--exited"
        };
        return Err(CliError::Usage(format!(
            "{flag}: not a flag of crosslane gpu (it is crosslane op's)"
        )));
    }
    let lowering = args.lowering.as_deref().or(gpu_flags.lowering.as_deref());
    let lowering = LoweringChoice::parse(lowering.unwrap_or_default()).map_err(gpu_error)?;
    Ok(Prepared {
        dialect,
        common,
        params,
        lowering,
        wgsl: args.wgsl || gpu_flags.wgsl,
    })
}

/// Runs `crosslane gpu DIALECT OP …`.
///
/// # Errors
/// [`CliError::Input`] / [`CliError::Usage`] (exit 2) for input that does not parse or cannot
/// be encoded, or a run the GPU path cannot do as asked; [`CliError::Gpu`] (exit 3) without a
/// usable GPU; [`CliError::Failed`] (exit 1) when a lane mismatches, after the diff was printed.
pub fn run(call: &OpCall, args: &GpuOpFlags) -> Result<(), CliError> {
    let Prepared {
        dialect,
        common,
        params,
        lowering,
        wgsl,
    } = prepare(call, args)?;
    let gpu = NativeGpu::new().map_err(gpu_error)?;
    let mut lanes = common.lanes.unwrap_or_default();
    if dialect == Dialect::Wgsl && lanes.is_empty() && gpu.caps().min_size > 0 {
        lanes = gpu.caps().min_size.to_string();
    }
    let request = OpRequest {
        dialect: call.dialect.clone(),
        op: call.op.clone(),
        lanes,
        active: common.active.unwrap_or_default(),
        exited: String::new(),
        values: common.values.unwrap_or_default(),
        ty: common.ty.unwrap_or_default(),
        params,
    };
    let step = request.run()?;
    let (cmp, run) = gpu.compare_step(&step, lowering).map_err(gpu_error)?;
    let text = if common.json {
        let mut v = cmp.to_json();
        if let Some(obj) = v.as_object_mut() {
            obj.insert("wgsl".into(), run.wgsl.clone().into());
        }
        serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
    } else if wgsl {
        format!("{}\n{}", run.wgsl, cmp.to_table())
    } else {
        cmp.to_table()
    };
    print_out(&text)?;
    if cmp.agrees() {
        Ok(())
    } else {
        Err(CliError::Failed(
            "a lane on the GPU does not match the emulator: see the diff".into(),
        ))
    }
}
