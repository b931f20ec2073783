//! WGSL generation for one executed cross-lane step, as plain text the page can show and copy.
//!
//! Two ways a step reaches the GPU:
//! * **Built-in** — a WGSL subgroup or quad built-in (`subgroupShuffleXor`, `subgroupAdd`, …) runs as
//!   itself, looked up by op name in [`BUILTINS`]; the GPU then computes the answer on its own and
//!   the comparison is a real test of the device against the emulator.
//! * **Formula** — a vendor shuffle-family op (CUDA `__shfl*_sync`, HIP `__shfl*`, Ascend
//!   `asc_shfl*`, AMD ds_swizzle / ds_(b)permute / DPP / readlane, MACA mov_shfl / update_shfl /
//!   bsm_(b)permute / readlane) cannot run as itself on a WebGPU device. The device computes, per
//!   lane, the source lane and what the lane receives (its own value, zero, the old value, nothing,
//!   undefined) from the vendor's formula written in WGSL ([`crate::formula`]), with each lane's
//!   own operands read from the operand buffer. The emulator's decisions are not uploaded: the
//!   comparison checks a second implementation of the rule, not only the data movement. The value
//!   then moves with `subgroupShuffle` when the device's subgroup is at least as wide as the warp
//!   ([`Lowering::SubgroupShuffle`], a hardware subgroup operation), otherwise through workgroup
//!   memory ([`Lowering::WorkgroupMemory`]: write, `workgroupBarrier`, read the source).
//!
//! The active mask: WGSL has no exec mask, every invocation of the dispatch runs.
//! * Formula, subgroup lowering: an early `return` before `subgroupShuffle` would put the call in
//!   non-uniform control flow, where a source lane that returned would be indeterminate. Instead
//!   every invocation takes part in the shuffle and a lane the formula marks inactive discards the
//!   result (predication). Its source lanes still hold real values on the GPU; where a vendor calls
//!   a read of an inactive lane undefined, those lanes compare as indeterminate-by-spec and any GPU
//!   value is shown, not judged.
//! * Formula, workgroup lowering: every invocation writes its slot first (a register holds a value
//!   whether or not its lane is active, and `v_readlane` reads inactive lanes on purpose) and
//!   `workgroupBarrier` runs in uniform control flow before the formula; lanes the formula marks
//!   inactive skip the read.
//! * Built-ins: inactive invocations skip the call (`if (active) { … }`), which is exactly what an
//!   inactive lane is in WGSL. Browsers check subgroup uniformity, so the browser text turns the
//!   `subgroup_uniformity` diagnostic off (WGSL spec, "Diagnostics"); naga accepts the branch as is.
//!
//! Targets: browsers require `enable subgroups;` before any subgroup built-in, naga (wgpu 30)
//! rejects that directive, so the text differs only in that header ([`ShaderTarget`]).
//! `subgroupElect` is browser-only (naga lacks it).
//!
//! Buffer layout shared by every cross-lane kernel (binding, WGSL type, words per lane):
//! * 0 `values: array<vec2<u32>>` — the operand's raw bits, low word then high word (64-bit types).
//! * 1 `operands: array<vec4<u32>>` — two `vec4` per lane: `(flags, a, b, c)`, `(d, e, old low,
//!   old high)`; flags bit 0 = active (see [`crate::formula`] for the slots; built-ins put their
//!   per-lane `id` in `a`).
//! * 2 `results: array<vec4<u32>>` — two per lane: the result's raw bits (up to 128 bits, for a
//!   ballot), then `(subgroup_size, subgroup_invocation_id, kind, source lane)` as the dispatch
//!   observed and the formula computed them ([`LaneKind`]).

use std::fmt::Write as _;

use crosslane_core::params::ParamValue;
use crosslane_core::{Dialect, Source, Step, ValueType};

use crate::error::GpuError;
pub use crate::formula::LaneKind;
use crate::formula::{formula, Formula, OPERAND_VEC4_PER_LANE};

/// Which WGSL front end will compile the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShaderTarget {
    /// naga (wgpu natively): no `enable subgroups;` (naga rejects it).
    Naga,
    /// A browser's WebGPU (Tint, …): `enable subgroups;` first, as the WGSL spec requires.
    Browser,
}

/// How a step ran on the GPU. Shown next to the comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Lowering {
    /// A WGSL subgroup / quad built-in ran as itself.
    Builtin,
    /// The vendor's formula computed in WGSL, values moved with `subgroupShuffle` (subgroup ≥ warp).
    SubgroupShuffle,
    /// The vendor's formula computed in WGSL, values moved through workgroup memory (subgroup <
    /// warp, or no subgroup support).
    WorkgroupMemory,
}

impl Lowering {
    /// The name the CLI and page print: `builtin`, `subgroup-shuffle`, `workgroup-memory`.
    pub fn name(self) -> &'static str {
        match self {
            Lowering::Builtin => "builtin",
            Lowering::SubgroupShuffle => "subgroup-shuffle",
            Lowering::WorkgroupMemory => "workgroup-memory",
        }
    }
}

/// Which lowering the caller wants for a vendor op (its formula).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LoweringChoice {
    /// Built-in for WGSL ops in [`BUILTINS`]; otherwise subgroup shuffle when the device's smallest
    /// subgroup holds the whole warp, else workgroup memory.
    #[default]
    Auto,
    /// Force the workgroup-memory lowering (any device).
    WorkgroupMemory,
    /// Force the subgroup-shuffle lowering (an error when the subgroup is narrower than the warp).
    SubgroupShuffle,
}

impl LoweringChoice {
    /// Parses `auto`, `workgroup` / `workgroup-memory`, `subgroup` / `subgroup-shuffle`.
    ///
    /// # Errors
    /// [`GpuError::Unsupported`] on field `lowering` listing the names.
    pub fn parse(text: &str) -> Result<Self, GpuError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "" | "auto" => Ok(LoweringChoice::Auto),
            "workgroup" | "workgroup-memory" => Ok(LoweringChoice::WorkgroupMemory),
            "subgroup" | "subgroup-shuffle" => Ok(LoweringChoice::SubgroupShuffle),
            other => Err(GpuError::unsupported(
                "lowering",
                format!("`{other}` is not a lowering; allowed: auto, workgroup, subgroup"),
            )),
        }
    }
}

/// The device's subgroup facts that choose a lowering (read from the adapter, never assumed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct SubgroupCaps {
    /// Whether the device was created with the subgroups feature.
    pub supported: bool,
    /// Smallest subgroup size the device may use (invocations).
    pub min_size: u32,
    /// Largest subgroup size the device may use (invocations).
    pub max_size: u32,
}

/// The argument a built-in takes besides the operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltinArg {
    /// None (`subgroupAdd(e)`).
    None,
    /// A const-expression lane id from parameter `id` (`subgroupBroadcast`, `quadBroadcast`).
    ConstId,
    /// A lane id that may differ per lane, parameter `id` (`subgroupShuffle`).
    DynamicId,
    /// A subgroup-uniform integer parameter named here (`delta`, `mask`).
    Uniform(&'static str),
}

/// What the built-in's operand is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltinInput {
    /// The lane's value, as its WGSL scalar type.
    Value,
    /// A `bool`: the lane's value is nonzero (ballot, all, any).
    Predicate,
    /// No operand (`subgroupElect()`).
    Nothing,
}

/// What the built-in returns, and how the kernel stores it as raw words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltinResult {
    /// The operand's type.
    Same,
    /// `bool`, stored as 0 / 1.
    Bool,
    /// `vec4<u32>` ballot: bit `id % 32` of component `id / 32`; stored as 128 raw bits, compared on
    /// the low 64 (bits `0..64` of the emulator's value).
    Ballot,
}

/// One WGSL built-in that runs as itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuiltinSpec {
    /// The WGSL name, which is also the op name in crosslane-core's WGSL dialect.
    pub name: &'static str,
    /// Operand.
    pub input: BuiltinInput,
    /// Extra argument.
    pub arg: BuiltinArg,
    /// Result.
    pub result: BuiltinResult,
    /// Only for integer operands (`subgroupAnd/Or/Xor`, WGSL spec).
    pub integer_only: bool,
    /// Whether naga (wgpu natively) compiles it; `subgroupElect` is browser-only.
    pub naga: bool,
}

const fn b(
    name: &'static str,
    input: BuiltinInput,
    arg: BuiltinArg,
    result: BuiltinResult,
    integer_only: bool,
) -> BuiltinSpec {
    BuiltinSpec {
        name,
        input,
        arg,
        result,
        integer_only,
        naga: true,
    }
}

/// Every WGSL subgroup and quad built-in that runs as itself, keyed by op name (WGSL spec,
/// "Subgroup built-in functions" and "Quad operations"). An op of crosslane-core's WGSL dialect
/// with one of these names runs as the built-in; names not in core yet simply have no step to run.
pub const BUILTINS: &[BuiltinSpec] = {
    use BuiltinArg as A;
    use BuiltinInput as I;
    use BuiltinResult as R;
    &[
        b("subgroupShuffle", I::Value, A::DynamicId, R::Same, false),
        b(
            "subgroupShuffleUp",
            I::Value,
            A::Uniform("delta"),
            R::Same,
            false,
        ),
        b(
            "subgroupShuffleDown",
            I::Value,
            A::Uniform("delta"),
            R::Same,
            false,
        ),
        b(
            "subgroupShuffleXor",
            I::Value,
            A::Uniform("mask"),
            R::Same,
            false,
        ),
        b("subgroupBroadcast", I::Value, A::ConstId, R::Same, false),
        b("subgroupBroadcastFirst", I::Value, A::None, R::Same, false),
        b("subgroupBallot", I::Predicate, A::None, R::Ballot, false),
        b("subgroupAll", I::Predicate, A::None, R::Bool, false),
        b("subgroupAny", I::Predicate, A::None, R::Bool, false),
        b("subgroupAdd", I::Value, A::None, R::Same, false),
        b("subgroupMul", I::Value, A::None, R::Same, false),
        b("subgroupMin", I::Value, A::None, R::Same, false),
        b("subgroupMax", I::Value, A::None, R::Same, false),
        b("subgroupAnd", I::Value, A::None, R::Same, true),
        b("subgroupOr", I::Value, A::None, R::Same, true),
        b("subgroupXor", I::Value, A::None, R::Same, true),
        b("subgroupExclusiveAdd", I::Value, A::None, R::Same, false),
        b("subgroupExclusiveMul", I::Value, A::None, R::Same, false),
        b("subgroupInclusiveAdd", I::Value, A::None, R::Same, false),
        b("subgroupInclusiveMul", I::Value, A::None, R::Same, false),
        b("quadBroadcast", I::Value, A::ConstId, R::Same, false),
        b("quadSwapX", I::Value, A::None, R::Same, false),
        b("quadSwapY", I::Value, A::None, R::Same, false),
        b("quadSwapDiagonal", I::Value, A::None, R::Same, false),
        BuiltinSpec {
            name: "subgroupElect",
            input: I::Nothing,
            arg: A::None,
            result: R::Bool,
            integer_only: false,
            naga: false,
        },
    ]
};

/// The built-in named `op`, if it runs as itself.
pub fn builtin(op: &str) -> Option<&'static BuiltinSpec> {
    BUILTINS.iter().find(|b| b.name == op)
}

/// Words per lane in the results buffer (two `vec4<u32>`).
pub const RESULT_WORDS_PER_LANE: usize = 8;

/// A generated kernel with the data its buffers start with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrossLaneKernel {
    /// The WGSL text (entry point `main`).
    pub wgsl: String,
    /// Which lowering the text implements.
    pub lowering: Lowering,
    /// Lanes = the workgroup size of the single workgroup dispatched.
    pub lanes: u32,
    /// Binding 0: two words per lane.
    pub values: Vec<u32>,
    /// Binding 1: eight words per lane (the lanes' own operands, never the emulator's routes).
    pub operands: Vec<u32>,
    /// The vendor rule the WGSL computes per lane ([`Formula::describe`]); `None` for a built-in.
    pub formula: Option<&'static str>,
}

impl CrossLaneKernel {
    /// What ran as hardware subgroup operations on the device.
    pub fn hardware_part(&self) -> String {
        match self.lowering {
            Lowering::Builtin => {
                "the WGSL built-in itself (the device computes the whole answer)".to_string()
            }
            Lowering::SubgroupShuffle => {
                "the data movement: subgroupShuffle from the source lane the formula computed"
                    .to_string()
            }
            Lowering::WorkgroupMemory => {
                "none: the data moves through workgroup memory (write, workgroupBarrier, read the source lane)"
                    .to_string()
            }
        }
    }

    /// What ran as a formula written in WGSL (each lane's source lane and kind), if any.
    pub fn formula_part(&self) -> String {
        match self.formula {
            Some(f) => {
                format!("every lane's source lane and kind, computed on the device from {f}")
            }
            None => "none (the built-in is the rule)".to_string(),
        }
    }
}

/// What the GPU wrote for one lane.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct GpuLane {
    /// The result's raw bits, least significant word first (a ballot uses all four).
    pub words: [u32; 4],
    /// `subgroup_size` as this invocation saw it (0 when the kernel had no subgroup support).
    pub subgroup_size: u32,
    /// `subgroup_invocation_id` of this invocation.
    pub subgroup_invocation_id: u32,
    /// What the formula gave the lane ([`LaneKind`] as a word; for a built-in 1 = active).
    pub kind: u32,
    /// The source lane the formula computed (the lane itself for own / zero / old).
    pub from: u32,
}

impl GpuLane {
    /// The low 64 bits of the result.
    pub fn bits(&self) -> u64 {
        u64::from(self.words[0]) | (u64::from(self.words[1]) << 32)
    }
}

/// Generates the kernel for `step` on a device with `caps`.
///
/// # Errors
/// [`GpuError::Unsupported`] for a scalar op, an op that computes from several lanes but has no
/// built-in, a value type the built-in cannot take, a built-in naga lacks (for [`ShaderTarget::Naga`]),
/// a WGSL subgroup size outside the device's range, or a forced subgroup lowering the device cannot
/// hold; [`GpuError::SubgroupsMissing`] when the lowering needs subgroups the device lacks.
pub fn lower_step(
    step: &Step,
    caps: &SubgroupCaps,
    choice: LoweringChoice,
    target: ShaderTarget,
    adapter: &str,
) -> Result<CrossLaneKernel, GpuError> {
    if step.scalar {
        return Err(GpuError::unsupported(
            "op",
            format!(
                "{} is a scalar builtin: there is nothing to exchange between lanes",
                step.op
            ),
        ));
    }
    let lanes = u32::try_from(step.lanes)
        .map_err(|_| GpuError::unsupported("lanes", "lane count does not fit"))?;
    if step.dialect == Dialect::Wgsl && choice == LoweringChoice::Auto {
        if let Some(spec) = builtin(&step.op) {
            return lower_builtin(step, spec, caps, target, adapter, lanes);
        }
    }
    if step.results.iter().any(|r| r.source == Source::Computed) {
        return Err(GpuError::unsupported(
            "op",
            format!(
                "{} computes lanes from several inputs and has no WGSL built-in: it has no GPU lowering",
                step.op
            ),
        ));
    }
    let rule = formula(step.dialect, &step.op).ok_or_else(|| {
        GpuError::unsupported(
            "op",
            format!(
                "{} has no GPU lowering: no WGSL formula computes its rule",
                step.op
            ),
        )
    })?;
    let operands = rule.operands(step)?;
    let values = value_words(step);
    let wide = step.ty.bit_width() > 32;
    let lowering = match choice {
        LoweringChoice::WorkgroupMemory => Lowering::WorkgroupMemory,
        LoweringChoice::SubgroupShuffle => {
            if !caps.supported {
                return Err(GpuError::SubgroupsMissing {
                    adapter: adapter.to_string(),
                    needed_by: "the subgroup-shuffle lowering".into(),
                });
            }
            if caps.min_size < lanes {
                return Err(GpuError::unsupported(
                    "lowering",
                    format!(
                        "subgroup-shuffle needs subgroups of at least {lanes} invocations; this device's are {}..={}",
                        caps.min_size, caps.max_size
                    ),
                ));
            }
            Lowering::SubgroupShuffle
        }
        LoweringChoice::Auto => {
            if caps.supported && caps.min_size >= lanes {
                Lowering::SubgroupShuffle
            } else {
                Lowering::WorkgroupMemory
            }
        }
    };
    let wgsl = formula_kernel_text(rule, lowering, lanes, wide, caps.supported, target);
    Ok(CrossLaneKernel {
        wgsl,
        lowering,
        lanes,
        values,
        operands,
        formula: Some(rule.describe()),
    })
}

/// The operand row as two words per lane (an undefined input is uploaded as zero).
fn value_words(step: &Step) -> Vec<u32> {
    let mut words = Vec::with_capacity(step.lanes * 2);
    for lane in 0..step.lanes {
        let bits = step
            .inputs
            .get(lane)
            .copied()
            .flatten()
            .map_or(0, |v| v.bits);
        words.extend_from_slice(&[bits as u32, (bits >> 32) as u32]);
    }
    words
}

const BINDINGS: &str = "\
@group(0) @binding(0) var<storage, read> values: array<vec2<u32>>;
@group(0) @binding(1) var<storage, read> operands: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> results: array<vec4<u32>>;
";

fn header(target: ShaderTarget, subgroups: bool, out: &mut String) {
    if subgroups && target == ShaderTarget::Browser {
        out.push_str("enable subgroups;\n");
    }
}

fn entry(lanes: u32, subgroups: bool) -> String {
    if subgroups {
        format!(
            "@compute @workgroup_size({lanes})\nfn main(@builtin(local_invocation_index) lane: u32,\n        @builtin(subgroup_size) sg_size: u32,\n        @builtin(subgroup_invocation_id) sg_id: u32) {{\n"
        )
    } else {
        format!(
            "@compute @workgroup_size({lanes})\nfn main(@builtin(local_invocation_index) lane: u32) {{\n    // No subgroup support: the observed subgroup size is recorded as 0.\n    let sg_size = 0u;\n    let sg_id = 0u;\n"
        )
    }
}

const PICK_FN: &str = "\
// What a lane receives, by the kind its formula computed:
// 1 lane / 5 undefined -> the value read from the source lane, 2 own, 3 zero, 4 old, 0 inactive.
fn choose(p: Pick, own_value: vec2<u32>, got: vec2<u32>, old_value: vec2<u32>) -> vec2<u32> {
    switch p.kind {
        case 1u, 5u: { return got; }
        case 2u: { return own_value; }
        case 4u: { return old_value; }
        default: { return vec2<u32>(0u, 0u); }
    }
}
";

fn formula_kernel_text(
    rule: &Formula,
    lowering: Lowering,
    lanes: u32,
    wide: bool,
    subgroups: bool,
    target: ShaderTarget,
) -> String {
    let mut s = String::new();
    header(target, subgroups, &mut s);
    // The shuffle itself runs in uniform control flow; the switch-off only keeps a browser from
    // rejecting the text over the formula's data-dependent branches before it.
    if target == ShaderTarget::Browser && lowering == Lowering::SubgroupShuffle {
        s.push_str("diagnostic(off, subgroup_uniformity);\n");
    }
    let _ = writeln!(
        s,
        "// crosslane: the vendor's rule computed per lane in WGSL ({}), values moved by {}.",
        rule.describe(),
        lowering.name()
    );
    s.push_str(BINDINGS);
    if lowering == Lowering::WorkgroupMemory {
        let _ = writeln!(s, "var<workgroup> staged: array<vec2<u32>, {lanes}>;");
    }
    s.push_str(&rule.wgsl(lanes));
    s.push('\n');
    s.push_str(PICK_FN);
    s.push('\n');
    s.push_str(&entry(lanes, subgroups));
    s.push_str("    let own_value = values[lane];\n");
    match lowering {
        Lowering::SubgroupShuffle | Lowering::Builtin => {
            s.push_str(
                "    let p = rule(lane);\n    let reads = (p.kind == 1u || p.kind == 5u) && p.src < LANES;\n    let src = select(lane, p.src, reads);\n    // Every invocation takes part in the shuffle (uniform control flow); inactive lanes\n    // discard the result below instead of returning early.\n",
            );
            if wide {
                s.push_str("    let got = vec2<u32>(subgroupShuffle(own_value.x, src), subgroupShuffle(own_value.y, src));\n");
            } else {
                s.push_str("    let got = vec2<u32>(subgroupShuffle(own_value.x, src), 0u);\n");
            }
        }
        Lowering::WorkgroupMemory => {
            s.push_str(
                "    // Every lane publishes its register, active or not, before the formula runs (the\n    // barrier stays in uniform control flow): some rules read inactive lanes on purpose\n    // (v_readlane ignores EXEC). Inactive lanes only skip the read.\n    staged[lane] = own_value;\n    workgroupBarrier();\n    let p = rule(lane);\n    let reads = (p.kind == 1u || p.kind == 5u) && p.src < LANES;\n    let src = select(lane, p.src, reads);\n    var got = vec2<u32>(0u, 0u);\n    if (p.kind != 0u) {\n        got = staged[src];\n    }\n",
            );
        }
    }
    s.push_str(
        "    let res = choose(p, own_value, got, operands[lane * 2u + 1u].zw);\n    results[lane * 2u] = vec4<u32>(res.x, res.y, 0u, 0u);\n    results[lane * 2u + 1u] = vec4<u32>(sg_size, sg_id, p.kind, p.src);\n}\n",
    );
    s
}

fn wgsl_scalar(ty: ValueType) -> Option<&'static str> {
    match ty {
        ValueType::I32 => Some("i32"),
        ValueType::U32 => Some("u32"),
        ValueType::F32 => Some("f32"),
        _ => None,
    }
}

fn lower_builtin(
    step: &Step,
    spec: &BuiltinSpec,
    caps: &SubgroupCaps,
    target: ShaderTarget,
    adapter: &str,
    lanes: u32,
) -> Result<CrossLaneKernel, GpuError> {
    if !caps.supported {
        return Err(GpuError::SubgroupsMissing {
            adapter: adapter.to_string(),
            needed_by: spec.name.to_string(),
        });
    }
    if target == ShaderTarget::Naga && !spec.naga {
        return Err(GpuError::unsupported(
            "op",
            format!(
                "{} is not available in naga (wgpu natively); it runs in a browser",
                spec.name
            ),
        ));
    }
    if lanes < caps.min_size || lanes > caps.max_size {
        return Err(GpuError::unsupported(
            "lanes",
            format!(
                "a WGSL built-in runs on the device's own subgroup: {lanes} lanes asked, this device's subgroups are {}..={}; set lanes to {}",
                caps.min_size, caps.max_size, caps.min_size
            ),
        ));
    }
    let scalar = match spec.input {
        BuiltinInput::Value => {
            let t = wgsl_scalar(step.ty).ok_or_else(|| {
                GpuError::unsupported(
                    "type",
                    format!(
                        "{} on the GPU takes i32, u32 or f32, got {}",
                        spec.name, step.ty
                    ),
                )
            })?;
            if spec.integer_only && t == "f32" {
                return Err(GpuError::unsupported(
                    "type",
                    format!("{} takes integers only (WGSL spec)", spec.name),
                ));
            }
            t
        }
        BuiltinInput::Predicate | BuiltinInput::Nothing => "u32",
    };
    let mut operands = Vec::with_capacity(step.lanes * OPERAND_VEC4_PER_LANE * 4);
    let per_lane_id = match step.params.0.get("id") {
        Some(ParamValue::Ints(ids)) if spec.arg == BuiltinArg::DynamicId => Some(ids.clone()),
        _ => None,
    };
    for lane in 0..step.lanes {
        let active = step.active.contains(lane);
        let id = per_lane_id
            .as_ref()
            .and_then(|ids| ids.get(lane).copied())
            .unwrap_or(0);
        operands.extend_from_slice(&[u32::from(active), id as u32, 0, 0, 0, 0, 0, 0]);
    }
    let operand = match spec.input {
        BuiltinInput::Value if scalar == "u32" => "values[lane].x".to_string(),
        BuiltinInput::Value => format!("bitcast<{scalar}>(values[lane].x)"),
        BuiltinInput::Predicate => "values[lane].x != 0u".to_string(),
        BuiltinInput::Nothing => String::new(),
    };
    let arg = match spec.arg {
        BuiltinArg::None => None,
        BuiltinArg::DynamicId if per_lane_id.is_some() => Some("arg.y".to_string()),
        BuiltinArg::DynamicId | BuiltinArg::ConstId => Some(const_param(step, "id")?),
        BuiltinArg::Uniform(name) => Some(const_param(step, name)?),
    };
    let call = match (spec.input, arg) {
        (BuiltinInput::Nothing, _) => format!("{}()", spec.name),
        (_, None) => format!("{}({operand})", spec.name),
        (_, Some(a)) => format!("{}({operand}, {a})", spec.name),
    };
    let store = match spec.result {
        BuiltinResult::Same if scalar == "u32" => "vec4<u32>(r, 0u, 0u, 0u)".to_string(),
        BuiltinResult::Same => "vec4<u32>(bitcast<u32>(r), 0u, 0u, 0u)".to_string(),
        BuiltinResult::Bool => "vec4<u32>(select(0u, 1u, r), 0u, 0u, 0u)".to_string(),
        BuiltinResult::Ballot => "r".to_string(),
    };
    // A built-in without an operand (`subgroupElect`) would leave `values` unused, and a browser's
    // automatic bind-group layout then lacks binding 0 (WebGPU spec, "default pipeline layout"):
    // a phony read keeps it (found by the page's GPU panel in Chromium).
    let keep = if spec.input == BuiltinInput::Nothing {
        "        _ = values[lane].x;\n"
    } else {
        ""
    };
    let mut s = String::new();
    header(target, true, &mut s);
    if target == ShaderTarget::Browser {
        s.push_str("diagnostic(off, subgroup_uniformity);\n");
    }
    let _ = writeln!(
        s,
        "// crosslane: WGSL built-in {} run as itself.",
        spec.name
    );
    s.push_str(BINDINGS);
    s.push('\n');
    s.push_str(&entry(lanes, true));
    let _ = write!(
        s,
        "    let arg = operands[lane * 2u];\n    let calls = arg.x & 1u;\n    var res = vec4<u32>(0u, 0u, 0u, 0u);\n    // An inactive lane is an invocation that does not make the call.\n    if (calls != 0u) {{\n{keep}        let r = {call};\n        res = {store};\n    }}\n    results[lane * 2u] = res;\n    results[lane * 2u + 1u] = vec4<u32>(sg_size, sg_id, calls, lane);\n}}\n"
    );
    Ok(CrossLaneKernel {
        wgsl: s,
        lowering: Lowering::Builtin,
        lanes,
        values: value_words(step),
        operands,
        formula: None,
    })
}

/// A parameter as a WGSL `u32` literal (ids, deltas and masks are `u32` in WGSL). A per-lane list
/// whose lanes all hold the same value is that value (a uniform operand given per lane).
fn const_param(step: &Step, name: &str) -> Result<String, GpuError> {
    let uniform = match step.params.0.get(name) {
        Some(ParamValue::Ints(v)) if !v.is_empty() && v.iter().all(|x| *x == v[0]) => {
            Some(ParamValue::Int(v[0]))
        }
        _ => None,
    };
    match uniform.as_ref().or_else(|| step.params.0.get(name)) {
        Some(ParamValue::Int(n)) => u32::try_from(*n).map(|n| format!("{n}u")).map_err(|_| {
            GpuError::unsupported(name, format!("must be in 0..=4294967295 for WGSL, got {n}"))
        }),
        Some(ParamValue::Mask(m)) => u32::try_from(m.0)
            .map(|n| format!("{n}u"))
            .map_err(|_| GpuError::unsupported(name, "mask does not fit a u32")),
        // A per-lane parameter (WGSL's ShuffleUp/Down delta and ShuffleXor mask take per-lane
        // input since the uniformity rule is checked by the emulator) with one value for every
        // lane is that value.
        Some(ParamValue::Ints(ns)) if !ns.is_empty() && ns.iter().all(|n| *n == ns[0]) => {
            u32::try_from(ns[0]).map(|n| format!("{n}u")).map_err(|_| {
                GpuError::unsupported(
                    name,
                    format!("must be in 0..=4294967295 for WGSL, got {}", ns[0]),
                )
            })
        }
        _ => Err(GpuError::unsupported(
            name,
            format!("{} needs the parameter `{name}` as one integer", step.op),
        )),
    }
}

/// Reads the results buffer of a kernel back into lanes and the subgroup size observed.
///
/// # Errors
/// [`GpuError::Map`] when the buffer is shorter than the lanes; [`GpuError::SubgroupLayout`] when
/// invocations disagree on the subgroup size or, for the subgroup lowerings, a lane's
/// `subgroup_invocation_id` is not its lane number (the lowering assumes one subgroup, in order).
pub fn decode_results(
    kernel: &CrossLaneKernel,
    words: &[u32],
) -> Result<(Vec<GpuLane>, Option<u32>), GpuError> {
    let lanes = kernel.lanes as usize;
    let mut out = Vec::with_capacity(lanes);
    for lane in 0..lanes {
        let w = words
            .get(lane * RESULT_WORDS_PER_LANE..(lane + 1) * RESULT_WORDS_PER_LANE)
            .ok_or_else(|| GpuError::Map(format!("results buffer too short for lane {lane}")))?;
        out.push(GpuLane {
            words: [w[0], w[1], w[2], w[3]],
            subgroup_size: w[4],
            subgroup_invocation_id: w[5],
            kind: w[6],
            from: w[7],
        });
    }
    let first = out.first().map(|l| l.subgroup_size);
    if out.iter().any(|l| Some(l.subgroup_size) != first) {
        return Err(GpuError::SubgroupLayout(
            "invocations of one dispatch saw different subgroup sizes".into(),
        ));
    }
    if kernel.lowering != Lowering::WorkgroupMemory {
        if let Some(bad) = out
            .iter()
            .enumerate()
            .find(|(lane, l)| l.subgroup_invocation_id as usize != *lane)
        {
            return Err(GpuError::SubgroupLayout(format!(
                "lane {} ran as subgroup invocation {}: the workgroup is not one subgroup in order",
                bad.0, bad.1.subgroup_invocation_id
            )));
        }
    }
    Ok((out, first.filter(|&s| s != 0)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crosslane_core::OpRequest;

    fn ascend_xor(active: &str) -> Step {
        OpRequest {
            dialect: "ascend".into(),
            op: "asc_shfl_xor".into(),
            active: active.into(),
            values: "lane+10".into(),
            ty: "u64".into(),
            params: [("lane_mask".to_string(), "1".to_string())].into(),
            ..Default::default()
        }
        .run()
        .unwrap()
    }

    const LAVAPIPE: SubgroupCaps = SubgroupCaps {
        supported: true,
        min_size: 8,
        max_size: 8,
    };
    const WIDE: SubgroupCaps = SubgroupCaps {
        supported: true,
        min_size: 32,
        max_size: 64,
    };

    #[test]
    fn lowering_follows_the_device_subgroup_width() {
        let step = ascend_xor("");
        let k = lower_step(
            &step,
            &LAVAPIPE,
            LoweringChoice::Auto,
            ShaderTarget::Naga,
            "x",
        )
        .unwrap();
        assert_eq!(k.lowering, Lowering::WorkgroupMemory);
        assert!(k.wgsl.contains("workgroupBarrier()"));
        let k = lower_step(&step, &WIDE, LoweringChoice::Auto, ShaderTarget::Naga, "x").unwrap();
        assert_eq!(k.lowering, Lowering::SubgroupShuffle);
        // u64: two 32-bit shuffles.
        assert_eq!(k.wgsl.matches("subgroupShuffle(own_value.").count(), 2);
        let none = SubgroupCaps::default();
        let k = lower_step(
            &step,
            &none,
            LoweringChoice::Auto,
            ShaderTarget::Browser,
            "x",
        )
        .unwrap();
        assert_eq!(k.lowering, Lowering::WorkgroupMemory);
        assert!(
            !k.wgsl.contains("subgroup_size"),
            "no subgroup builtins without the feature"
        );
        let err = lower_step(
            &step,
            &LAVAPIPE,
            LoweringChoice::SubgroupShuffle,
            ShaderTarget::Naga,
            "x",
        )
        .unwrap_err();
        assert!(err.to_string().contains("at least 32"), "{err}");
    }

    #[test]
    fn browser_text_enables_subgroups_and_naga_text_does_not() {
        let step = ascend_xor("");
        let b = lower_step(
            &step,
            &WIDE,
            LoweringChoice::Auto,
            ShaderTarget::Browser,
            "x",
        )
        .unwrap();
        assert!(b.wgsl.starts_with("enable subgroups;\n"));
        let n = lower_step(&step, &WIDE, LoweringChoice::Auto, ShaderTarget::Naga, "x").unwrap();
        assert!(!n.wgsl.contains("enable subgroups"));
        let header = "enable subgroups;\ndiagnostic(off, subgroup_uniformity);\n";
        assert_eq!(b.wgsl.replacen(header, "", 1), n.wgsl);
    }

    #[test]
    fn operand_buffer_carries_the_lanes_operands_not_the_emulator_routes() {
        // Lanes 0..3 inactive, lane_mask 1 for every lane (broadcast), width 32 (the default).
        let step = ascend_xor("0xfffffff0");
        let k = lower_step(
            &step,
            &LAVAPIPE,
            LoweringChoice::Auto,
            ShaderTarget::Naga,
            "x",
        )
        .unwrap();
        let row = |lane: usize| &k.operands[lane * 8..lane * 8 + 8];
        assert_eq!(row(2), [0, 1, 32, 0, 0, 0, 0, 0]);
        assert_eq!(row(4), [1, 1, 32, 0, 0, 0, 0, 0]);
        // No source lane anywhere: lane 4 reads 5 and lane 5 reads 4 only on the device.
        assert_eq!(row(5), row(4));
        assert!(k.wgsl.contains("fn rule(i: u32) -> Pick"));
        assert!(k.formula.unwrap().contains("asc_shfl"));
        // Values: lane + 10 as u64, low word then high word.
        assert_eq!(k.values[4 * 2..4 * 2 + 2], [14, 0]);
    }

    #[test]
    fn the_kernel_does_not_depend_on_the_emulator_results() {
        // Whatever the emulator decided, the device gets the same text and buffers: only the
        // operands the user gave reach it.
        let step = ascend_xor("0xfffffff0");
        let mut scrambled = step.clone();
        for r in &mut scrambled.results {
            r.source = Source::Undefined;
            r.from = Some(0);
            r.value = None;
        }
        let lower = |s: &Step| {
            lower_step(s, &LAVAPIPE, LoweringChoice::Auto, ShaderTarget::Naga, "x").unwrap()
        };
        assert_eq!(lower(&step), lower(&scrambled));
    }

    #[test]
    fn per_lane_operands_give_each_lane_its_own_word() {
        let mut step = ascend_xor("");
        let masks: Vec<i64> = (0..32).map(|i| i % 4 - 1).collect();
        step.params
            .0
            .insert("lane_mask".into(), ParamValue::Ints(masks.clone()));
        let k = lower_step(&step, &WIDE, LoweringChoice::Auto, ShaderTarget::Naga, "x").unwrap();
        for (lane, m) in masks.iter().enumerate() {
            assert_eq!(k.operands[lane * 8 + 1], *m as u32, "lane {lane}");
        }
        step.params
            .0
            .insert("lane_mask".into(), ParamValue::Ints(vec![1; 31]));
        let err =
            lower_step(&step, &WIDE, LoweringChoice::Auto, ShaderTarget::Naga, "x").unwrap_err();
        assert!(err.to_string().contains("one value per lane"), "{err}");
    }

    #[test]
    fn browser_builtin_text_is_the_naga_text_plus_its_header() {
        // The naga text of every built-in is compiled and run by the native tests; the browser
        // text must be exactly that plus the two header lines browsers need.
        let mut step = ascend_xor("0xff");
        step.dialect = Dialect::Wgsl;
        step.lanes = 8;
        step.results.truncate(8);
        step.inputs.truncate(8);
        step.ty = ValueType::I32;
        step.params.0.insert("id".into(), ParamValue::Int(1));
        step.params.0.insert("delta".into(), ParamValue::Int(1));
        step.params.0.insert("mask".into(), ParamValue::Int(1));
        for spec in BUILTINS.iter().filter(|b| b.naga) {
            step.op = spec.name.to_string();
            let n = lower_step(
                &step,
                &LAVAPIPE,
                LoweringChoice::Auto,
                ShaderTarget::Naga,
                "x",
            )
            .unwrap();
            let b = lower_step(
                &step,
                &LAVAPIPE,
                LoweringChoice::Auto,
                ShaderTarget::Browser,
                "x",
            )
            .unwrap();
            assert_eq!(n.lowering, Lowering::Builtin);
            assert!(n.wgsl.contains(&format!("{}(", spec.name)), "{}", n.wgsl);
            let header = "enable subgroups;\ndiagnostic(off, subgroup_uniformity);\n";
            assert_eq!(b.wgsl, format!("{header}{}", n.wgsl));
        }
    }

    #[test]
    fn a_uniform_operand_given_per_lane_is_one_literal_and_a_varying_one_is_refused() {
        let mut step = ascend_xor("0xff");
        step.dialect = Dialect::Wgsl;
        step.op = "subgroupShuffleUp".into();
        step.lanes = 8;
        step.results.truncate(8);
        step.inputs.truncate(8);
        step.ty = ValueType::U32;
        step.params
            .0
            .insert("delta".into(), ParamValue::Ints(vec![2; 8]));
        let k = lower_step(
            &step,
            &LAVAPIPE,
            LoweringChoice::Auto,
            ShaderTarget::Naga,
            "x",
        )
        .unwrap();
        assert!(
            k.wgsl.contains("subgroupShuffleUp(values[lane].x, 2u)"),
            "{}",
            k.wgsl
        );
        step.params
            .0
            .insert("delta".into(), ParamValue::Ints((0..8).collect()));
        let err = lower_step(
            &step,
            &LAVAPIPE,
            LoweringChoice::Auto,
            ShaderTarget::Naga,
            "x",
        )
        .unwrap_err();
        assert!(err.to_string().starts_with("delta:"), "{err}");
    }

    #[test]
    fn builtin_table_and_refusals() {
        assert_eq!(
            builtin("subgroupShuffleXor").unwrap().arg,
            BuiltinArg::Uniform("mask")
        );
        assert!(!builtin("subgroupElect").unwrap().naga);
        assert!(builtin("asc_shfl").is_none());
        let mut step = ascend_xor("");
        step.results[3].source = Source::Computed;
        let err =
            lower_step(&step, &WIDE, LoweringChoice::Auto, ShaderTarget::Naga, "x").unwrap_err();
        assert!(err.to_string().starts_with("op:"), "{err}");
    }
}
