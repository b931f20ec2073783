//! Writing a [`Resolved`] request as a snippet for one [`Target`]. One function per part of the
//! snippet (header, kernel frame, the call); the per-platform names live in small tables here.

use std::fmt::Write;

use super::collective::{self, Collective};
use super::{Movement, Resolved, Target};
use crate::args::Role;
use crate::dpp::DppCtrl;
use crate::op::Dialect;
use crate::params::ParamValue;
use crate::portability::ShuffleFamily;
use crate::request::OpRequest;
use crate::value::ValueType;

/// The operand type `ty` in `target`'s language, or `None` where the platform has no such type
/// (WGSL has no 64-bit or bf16 types; Ascend C and MACA vendor docs name no packed bf16 pair).
pub fn c_type(target: Target, ty: ValueType) -> Option<&'static str> {
    use ValueType::*;
    Some(match (target, ty) {
        (Target::Wgsl, I32) => "i32",
        (Target::Wgsl, U32) => "u32",
        (Target::Wgsl, F32) => "f32",
        (Target::Wgsl, F16) => "f16",
        (Target::Wgsl, F16x2) => "vec2<f16>",
        (Target::Wgsl, _) => return None,
        (Target::Ascend, I32) => "int32_t",
        (Target::Ascend, U32) => "uint32_t",
        (Target::Ascend, I64) => "int64_t",
        (Target::Ascend, U64) => "uint64_t",
        (Target::Ascend, F16) => "half",
        (Target::Ascend, Bf16) => "bfloat16_t",
        (Target::Ascend, F16x2 | Bf16x2) => return None,
        (_, I32) => "int",
        (_, U32) => "unsigned int",
        (_, F32) => "float",
        (_, I64) => "long long",
        (_, U64) => "unsigned long long",
        (_, F64) => "double",
        (Target::Cuda, F16) => "__half",
        // MACA's builtins take clang's `_Float16` (seed 002 prototypes).
        (Target::Maca, F16) => "_Float16",
        (Target::Cuda, Bf16) => "__nv_bfloat16",
        (Target::Cuda | Target::Maca, F16x2) => "__half2",
        (Target::Cuda, Bf16x2) => "__nv_bfloat162",
        (Target::Hip, F16) => "__half",
        (Target::Hip, Bf16) => "__hip_bfloat16",
        (Target::Hip, F16x2) => "__half2",
        (Target::Hip, Bf16x2) => "__hip_bfloat162",
        (Target::Maca, Bf16) => "__maca_bfloat16",
        (Target::Maca, Bf16x2) => return None,
    })
}

/// The whole snippet.
pub(super) fn snippet(r: &Resolved, req: &OpRequest, target: Target) -> String {
    let mut notes: Vec<String> = Vec::new();
    let lanes = r.input.lanes;
    if !target.lane_counts().contains(&lanes) {
        notes.push(format!(
            "NOT EXACT: the scenario has {lanes} lanes; {} runs {} lanes per {}.",
            target.title(),
            target
                .lane_counts()
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(" or "),
            if target == Target::Wgsl {
                "subgroup"
            } else {
                "warp"
            }
        ));
    }
    let ty = match c_type(target, r.input.ty) {
        Some(t) => t,
        None => {
            notes.push(format!(
                "NOT EXACT: {} has no {} type; the snippet moves 32-bit words instead.",
                target.title(),
                r.input.ty.name()
            ));
            if target == Target::Wgsl {
                "u32"
            } else {
                "unsigned int"
            }
        }
    };
    let collective = Collective::of(r.spec);
    let call = match &r.movement {
        // HIP on AMD calls an AMD instruction through its clang builtin (the op's `proto.call`),
        // except the byte-address permute, whose `offset` field the builtin lacks (below).
        _ if target == Target::Hip && amd_builtin(r).is_some() => {
            native_op(target, r, req, ty, &mut notes)
        }
        _ if collective.is_some() && target.dialect() != r.spec.dialect => {
            let c = collective.unwrap_or(Collective::First);
            let w = collective::write(target, c, r, ty);
            notes.extend(w.note);
            Call {
                setup: w.setup,
                expr: w.expr,
            }
        }
        // An op that is not its dialect's shuffle (a broadcast, a quad swap) stays itself in its
        // own dialect.
        Movement::Shuffle { family, .. }
            if target.dialect() == r.spec.dialect
                && family.op_in(target.dialect()).map(|o| o.0) != Some(r.spec.name) =>
        {
            native_op(target, r, req, ty, &mut notes)
        }
        Movement::Shuffle {
            family,
            amount,
            width,
        } => shuffle(target, *family, *amount, *width, r, &mut notes),
        // In its own dialect the op is written as itself, the expression as its argument.
        Movement::LaneShuffle { .. } if target.dialect() == r.spec.dialect => {
            native_op(target, r, req, ty, &mut notes)
        }
        Movement::LaneShuffle {
            family,
            amount,
            width,
        } => lane_shuffle(target, *family, amount, *width, r, &mut notes),
        Movement::Bpermute { addr } => bpermute(target, addr, r, &mut notes),
        Movement::Op => native_op(target, r, req, ty, &mut notes),
    };
    if !notes.iter().any(|n| n.starts_with("UNDEFINED")) {
        notes.extend(super::lanes::undefined_note(r.spec, &r.input, target));
    }
    let mut s = String::new();
    header(&mut s, r, req, target, &notes);
    body(&mut s, r, target, ty, &call);
    s
}

/// The AMD builtin through which HIP calls `r`'s op (`__builtin_amdgcn_ds_swizzle`), when `r`
/// is an AMD GCN op other than `ds_bpermute_b32` (written from its byte addresses, `offset`
/// included, by [`bpermute`]).
fn amd_builtin(r: &Resolved) -> Option<&'static str> {
    (r.spec.dialect == Dialect::Amdgcn && !matches!(r.movement, Movement::Bpermute { .. }))
        .then(|| r.spec.callee())
        .filter(|c| c.starts_with("__builtin_amdgcn_"))
}

/// Parameters as the user typed them, for the header comment.
fn described(req: &OpRequest) -> String {
    let params: Vec<String> = req
        .params
        .iter()
        .filter(|(_, v)| !v.trim().is_empty())
        .map(|(k, v)| format!("{k} = {}", one_line(v)))
        .collect();
    params.join(", ")
}

/// Text safe inside a line comment (no line breaks, no `*/`).
fn one_line(text: &str) -> String {
    text.replace(['\n', '\r'], " ").replace("*/", "* /")
}

fn header(s: &mut String, r: &Resolved, req: &OpRequest, target: Target, notes: &[String]) {
    let _ = writeln!(
        s,
        "// crosslane export for {}: {} {}({}), {} lanes, active {}, type {}.",
        target.title(),
        r.spec.dialect.name(),
        r.spec.name,
        described(req),
        r.input.lanes,
        r.input.active.to_hex(r.input.lanes),
        r.input.ty.name()
    );
    let values = if req.values.trim().is_empty() {
        "lane"
    } else {
        req.values.trim()
    };
    let _ = writeln!(
        s,
        "// Operand: in[] holds the scenario's values ({}); out[] receives each lane's result.",
        one_line(values)
    );
    let _ = writeln!(
        s,
        "// Edge cases (inactive or out-of-segment source lanes) follow {}'s own rule.",
        target.title()
    );
    for n in notes {
        let _ = writeln!(s, "// crosslane: {}", one_line(n));
    }
    match target {
        // __half / __half2 are declared in cuda_fp16.h, __nv_bfloat16(2) in cuda_bf16.h (CUDA
        // Math API, "Half Precision Intrinsics" / "Bfloat16 Precision Intrinsics"); HIP mirrors
        // them in hip_fp16.h / hip_bf16.h.
        Target::Cuda => {
            s.push_str("#include <cuda_runtime.h>\n");
            match r.input.ty {
                ValueType::F16 | ValueType::F16x2 => s.push_str("#include <cuda_fp16.h>\n"),
                ValueType::Bf16 | ValueType::Bf16x2 => s.push_str("#include <cuda_bf16.h>\n"),
                _ => {}
            }
        }
        Target::Hip => {
            s.push_str("#include <hip/hip_runtime.h>\n");
            match r.input.ty {
                ValueType::F16 | ValueType::F16x2 => s.push_str("#include <hip/hip_fp16.h>\n"),
                ValueType::Bf16 | ValueType::Bf16x2 => s.push_str("#include <hip/hip_bf16.h>\n"),
                _ => {}
            }
        }
        // Seed 000 / 001 ("需要包含的头文件"): the warp functions, plus the fp16 / bf16 headers
        // for those types.
        Target::Ascend => {
            s.push_str("#include \"simt_api/device_warp_functions.h\"\n");
            match r.input.ty {
                ValueType::F16 | ValueType::F16x2 => {
                    s.push_str("#include \"simt_api/asc_fp16.h\"\n")
                }
                ValueType::Bf16 | ValueType::Bf16x2 => {
                    s.push_str("#include \"simt_api/asc_bf16.h\"\n")
                }
                _ => {}
            }
        }
        Target::Maca => s.push_str("#include <mc_runtime.h>\n"),
        Target::Wgsl => {
            s.push_str("enable subgroups;\n");
            if !all_active(r) {
                // The active mask becomes an `if` on the invocation id: non-uniform control flow,
                // which WGSL's uniformity analysis rejects for subgroup built-ins by default.
                s.push_str("diagnostic(off, subgroup_uniformity);\n");
            }
            if matches!(r.input.ty, ValueType::F16 | ValueType::F16x2) {
                s.push_str("enable f16;\n");
            }
        }
    }
    s.push('\n');
}

/// Active-mask literal for C targets: 64-bit (`ull`) where `lane` may reach 32 or more (a
/// wider scenario, HIP's `threadIdx.x % warpSize` on wave64, MACA's 64-lane warps), since a
/// shift of a 32-bit value by 32 or more is undefined in C++ ([expr.shift]).
fn mask_literal(r: &Resolved, target: Target) -> String {
    let hex = r.input.active.to_hex(r.input.lanes);
    if r.input.lanes > 32 || matches!(target, Target::Hip | Target::Maca) {
        format!("{hex}ull")
    } else {
        format!("{hex}u")
    }
}

fn all_active(r: &Resolved) -> bool {
    r.input.active.count() as usize == r.input.lanes
}

fn body(s: &mut String, r: &Resolved, target: Target, ty: &str, call: &Call) {
    if target == Target::Wgsl {
        let _ = writeln!(
            s,
            "@group(0) @binding(0) var<storage, read> input: array<{ty}>;\n@group(0) @binding(1) var<storage, read_write> output: array<{ty}>;\n\n@compute @workgroup_size({lanes})\nfn main(@builtin(global_invocation_id) gid: vec3<u32>,\n        @builtin(subgroup_invocation_id) lane: u32) {{\n    let v = input[gid.x];",
            lanes = r.input.lanes.clamp(4, 128)
        );
        for line in &call.setup {
            let _ = writeln!(s, "    {line}");
        }
        if all_active(r) {
            let _ = writeln!(s, "    output[gid.x] = {};", call.expr);
        } else {
            // WGSL has no exec mask: lanes leave the call by control flow, as in the scenario.
            // The mask is taken one 32-bit word at a time (WGSL has no 64-bit integers).
            let words: Vec<String> = (0..r.input.lanes.div_ceil(32))
                .map(|w| format!("{:#x}u", (r.input.active.0 >> (32 * w)) as u32))
                .collect();
            let _ = writeln!(
                s,
                "    let active_mask = array<u32, {}>({});\n    if (((active_mask[lane / 32u] >> (lane % 32u)) & 1u) != 0u) {{\n        output[gid.x] = {};\n    }}",
                words.len(),
                words.join(", "),
                call.expr
            );
        }
        s.push_str("}\n");
        return;
    }
    // Ascend C SIMT kernels are written as the seed's examples are (seed 000, Examples):
    // `__simt_vf__ __launch_bounds__(1024) inline void …(__gm__ T* …)`.
    let (qualifier, gm) = match target {
        Target::Ascend => ("__simt_vf__ __launch_bounds__(1024) inline", "__gm__ "),
        _ => ("__global__", ""),
    };
    let lane_expr = match target {
        Target::Cuda | Target::Ascend => "threadIdx.x % 32",
        Target::Maca => "threadIdx.x % 64",
        _ => "threadIdx.x % warpSize",
    };
    let _ = writeln!(
        s,
        "{qualifier} void crosslane_kernel({gm}const {ty}* in, {gm}{ty}* out)\n{{\n    const unsigned int lane = {lane_expr};\n    (void)lane;\n    {ty} var = in[threadIdx.x];"
    );
    for line in &call.setup {
        let _ = writeln!(s, "    {line}");
    }
    if all_active(r) || target == Target::Cuda && r.input.lanes <= 32 {
        if all_active(r) {
            let _ = writeln!(s, "    out[threadIdx.x] = {};", call.expr);
        } else {
            // The sync mask names the active lanes; only they may call (CUDA "Warp Shuffle
            // Functions": every thread named in mask must execute the same intrinsic).
            let _ = writeln!(
                s,
                "    if (({} >> lane) & 1u) {{\n        out[threadIdx.x] = {};\n    }}",
                mask_literal(r, target),
                call.expr
            );
        }
    } else {
        let _ = writeln!(
            s,
            "    if (({} >> lane) & 1u) {{  // the scenario's active mask\n        out[threadIdx.x] = {};\n    }}",
            mask_literal(r, target),
            call.expr
        );
    }
    s.push_str("}\n");
}

/// The call: statements before it and the expression of the result.
struct Call {
    setup: Vec<String>,
    expr: String,
}

fn expr(e: String) -> Call {
    Call {
        setup: Vec::new(),
        expr: e,
    }
}

/// The CUDA / HIP / Ascend shuffle of `family` by `amount` (a number or a per-lane expression)
/// within `width` lanes, as that target's own intrinsic (CUDA's with its sync mask).
fn c_family_shuffle(
    target: Target,
    family: ShuffleFamily,
    amount: impl std::fmt::Display,
    width: i64,
    r: &Resolved,
) -> Call {
    let Some((name, _)) = family.op_in(target.dialect()) else {
        return expr("var".into());
    };
    // CUDA and Ascend C warps have 32 lanes and their width must be at most 32 (CUDA
    // Programming Guide, "Warp Shuffle Functions": a power of two in 1..=warpSize): a wider
    // segment (HIP wave64) is the whole 32-lane warp there; the header's lane-count note says
    // the scenario's 64 lanes are two warps.
    let width = c_width(target, width);
    if target == Target::Cuda {
        let mask = if all_active(r) || r.input.lanes > 32 {
            "0xffffffff".to_string()
        } else {
            format!("{:#x}", r.input.active.0 as u32)
        };
        expr(format!("{name}({mask}, var, {amount}, {width})"))
    } else {
        expr(format!("{name}(var, {amount}, {width})"))
    }
}

/// The width a CUDA / HIP / Ascend snippet passes: CUDA and Ascend C warps have 32 lanes and
/// their width must be at most 32 (CUDA Programming Guide, "Warp Shuffle Functions": a power of
/// two in 1..=warpSize), so a wider segment (HIP wave64, or a width the source dialect calls
/// undefined) is written as the whole 32-lane warp; [`width_notes`] says so.
fn c_width(target: Target, width: i64) -> i64 {
    if matches!(target, Target::Cuda | Target::Ascend) {
        width.min(32)
    } else {
        width
    }
}

/// The notes of a CUDA / HIP / Ascend shuffle: the width the snippet writes where it is not the
/// scenario's, then (for one `amount` for the warp) what differs per lane
/// ([`super::lanes::shuffle_notes`]).
fn width_notes(
    target: Target,
    family: ShuffleFamily,
    amount: Option<&str>,
    width: i64,
    r: &Resolved,
    notes: &mut Vec<String>,
) {
    let written = c_width(target, width);
    if written != width {
        notes.push(format!(
            "NOT EXACT: width {width} is wider than a {} warp (width is a power of two in 1..=32): the snippet passes width {written}.",
            target.title()
        ));
    }
    if let Some(amount) = amount {
        notes.extend(super::lanes::shuffle_notes(
            r.spec, &r.input, target, family, amount, written,
        ));
    }
}

/// A shuffle in `target`'s words.
fn shuffle(
    target: Target,
    family: ShuffleFamily,
    amount: i64,
    width: i64,
    r: &Resolved,
    notes: &mut Vec<String>,
) -> Call {
    let lanes = r.input.lanes as i64;
    match target {
        Target::Cuda | Target::Hip | Target::Ascend => {
            width_notes(target, family, Some(&amount.to_string()), width, r, notes);
            c_family_shuffle(target, family, amount, width, r)
        }
        Target::Maca => {
            if family == ShuffleFamily::Idx && width == lanes {
                return expr(format!(
                    "__builtin_mxc_readlane(var, {})",
                    amount.rem_euclid(lanes.max(1))
                ));
            }
            notes.push(format!(
                "NOT EXACT: MACA has no width-segmented {} shuffle; closest is __builtin_mxc_bsm_bpermute with a computed byte index (lane * 4). Unlike the source rule, bsm_bpermute reads 0 from an inactive source lane, and it moves 32-bit words only.",
                family.name()
            ));
            let mut setup = segment_setup("int", width, "lane");
            setup.push(source_line("int", family, amount, "lane"));
            Call {
                setup,
                expr: "__builtin_mxc_bsm_bpermute(src * 4, var)".into(),
            }
        }
        Target::Wgsl => {
            notes.push(format!(
                "WGSL has no width parameter and the subgroup size is the device's (subgroup_size), not the shader's: this matches the scenario only where subgroup_size = {lanes}."
            ));
            let native = match family {
                ShuffleFamily::Idx => width == lanes,
                ShuffleFamily::Up | ShuffleFamily::Down => width == lanes,
                // An xor below the width never leaves its segment.
                ShuffleFamily::Xor => width == lanes || (0..width).contains(&amount),
            };
            let amount_u = if amount < 0 {
                format!("{}u", amount as u32)
            } else {
                format!("{amount}u")
            };
            if native && amount >= 0 {
                let name = family
                    .op_in(Dialect::Wgsl)
                    .map_or("subgroupShuffle", |x| x.0);
                return expr(format!("{name}(v, {amount_u})"));
            }
            notes.push(format!(
                "the width-{width} segments are computed: subgroupShuffle(v, src) with the source lane of the segmented rule."
            ));
            let mut setup = segment_setup_wgsl(width);
            setup.push(match family {
                ShuffleFamily::Idx => format!(
                    "let src = base + ({}u & {}u);",
                    amount.rem_euclid(width.max(1)),
                    width - 1
                ),
                ShuffleFamily::Up => format!(
                    "let src = select(lane, lane - {amount_u}, lane >= base + {amount_u});"
                ),
                ShuffleFamily::Down => format!(
                    "let src = select(lane, lane + {amount_u}, lane + {amount_u} < base + {width}u);"
                ),
                ShuffleFamily::Xor => format!(
                    "let src = select(lane, lane ^ {amount_u}, (lane ^ {amount_u}) < base + {width}u);"
                ),
            });
            Call {
                setup,
                expr: "subgroupShuffle(v, src)".into(),
            }
        }
    }
}

/// A shuffle whose amount each lane computes ([`Movement::LaneShuffle`]) in `target`'s words:
/// the target's own shuffle with the user's expression as its argument where the target takes
/// that operand per thread (CUDA, HIP, Ascend; WGSL's subgroupShuffle id), else the segmented
/// rule's source lane computed per lane and moved by a per-lane read.
fn lane_shuffle(
    target: Target,
    family: ShuffleFamily,
    amount: &crate::lane_expr::LaneExpr,
    width: i64,
    r: &Resolved,
    notes: &mut Vec<String>,
) -> Call {
    let lanes = r.input.lanes as i64;
    let c = amount.parenthesized("(int)lane");
    notes.push(format!(
        "per-lane {}: `{}` as given, evaluated in each lane; {}'s own shuffle rule applies to each lane's value (the portability view shows where the vendors' rules differ).",
        family.name(),
        amount.text(),
        target.title()
    ));
    match target {
        Target::Cuda | Target::Hip | Target::Ascend => {
            // The snippet's `lane` is the lane within the target's warp (threadIdx.x % 32 or
            // % warpSize), as the target's run below numbers it: the expression is compared
            // per lane as written.
            width_notes(target, family, Some(amount.text()), width, r, notes);
            c_family_shuffle(target, family, &c, width, r)
        }
        Target::Maca => {
            // readlane takes one lane for the warp (an SGPR): a per-lane amount needs the
            // permute.
            notes.push(format!(
                "NOT EXACT: MACA has no width-segmented {} shuffle with a per-lane amount; closest is __builtin_mxc_bsm_bpermute with a computed byte index (lane * 4). Unlike the source rule, bsm_bpermute reads 0 from an inactive source lane, and it moves 32-bit words only.",
                family.name()
            ));
            let mut setup = segment_setup("int", width, "lane");
            setup.push(source_line("int", family, &c, "lane"));
            Call {
                setup,
                expr: "__builtin_mxc_bsm_bpermute(src * 4, var)".into(),
            }
        }
        Target::Wgsl => {
            notes.push(format!(
                "WGSL has no width parameter and the subgroup size is the device's (subgroup_size), not the shader's: this matches the scenario only where subgroup_size = {lanes}."
            ));
            let w = format!("u32({})", amount.parenthesized("i32(lane)"));
            if family == ShuffleFamily::Idx && width == lanes {
                // subgroupShuffle's id may differ per invocation (WGSL spec).
                return expr(format!("subgroupShuffle(v, {w})"));
            }
            notes.push(format!(
                "subgroupShuffleUp/Down/Xor need one delta or mask for the subgroup (WGSL spec): the width-{width} rule's source lane is computed per invocation and read with subgroupShuffle(v, src)."
            ));
            let mut setup = segment_setup_wgsl(width);
            setup.push(format!("let amount = {w};"));
            setup.push(match family {
                ShuffleFamily::Idx => format!("let src = base + (amount & {}u);", width - 1),
                ShuffleFamily::Up => {
                    "let src = select(lane, lane - amount, lane >= base + amount);".to_string()
                }
                ShuffleFamily::Down => format!(
                    "let src = select(lane, lane + amount, lane + amount < base + {width}u);"
                ),
                ShuffleFamily::Xor => format!(
                    "let src = select(lane, lane ^ amount, (lane ^ amount) < base + {width}u);"
                ),
            });
            Call {
                setup,
                expr: "subgroupShuffle(v, src)".into(),
            }
        }
    }
}

/// A backward permute in `target`'s words ([`Movement::Bpermute`]).
fn bpermute(target: Target, addr: &[i64], r: &Resolved, notes: &mut Vec<String>) -> Call {
    let lanes = r.input.lanes;
    let list: Vec<String> = addr.iter().map(|a| (*a as i32).to_string()).collect();
    let mut setup = vec![if target == Target::Wgsl {
        format!(
            "let addr_per_lane = array<i32, {}>({});  // byte addresses",
            list.len(),
            list.join(", ")
        )
    } else {
        format!(
            "const int addr_per_lane[{}] = {{{}}};  // byte addresses",
            list.len(),
            list.join(", ")
        )
    }];
    let inactive_note = |what: &str| {
        format!(
            "NOT EXACT: a permute by byte address is written as {what}; an inactive source lane reads 0 in the source rule but is undefined here."
        )
    };
    let expr = match target {
        Target::Maca => format!("__builtin_mxc_bsm_bpermute(addr_per_lane[lane % {lanes}], var)"),
        Target::Hip => {
            notes.push(
                "HIP on AMD: __builtin_amdgcn_ds_bpermute is the same instruction (32-bit words)."
                    .to_string(),
            );
            format!("__builtin_amdgcn_ds_bpermute(addr_per_lane[lane % {lanes}], var)")
        }
        Target::Cuda => {
            notes.push(inactive_note("__shfl_sync with the computed source lane"));
            let mask = if all_active(r) || lanes > 32 {
                "0xffffffff".to_string()
            } else {
                format!("{:#x}", r.input.active.0 as u32)
            };
            setup.push(format!(
                "const int src = (addr_per_lane[lane % {lanes}] >> 2) & {};",
                lanes - 1
            ));
            format!("__shfl_sync({mask}, var, src)")
        }
        Target::Ascend => {
            notes.push(inactive_note("asc_shfl with the computed source lane"));
            setup.push(format!(
                "const int32_t src = (addr_per_lane[lane % {lanes}] >> 2) & {};",
                lanes - 1
            ));
            "asc_shfl(var, src)".to_string()
        }
        Target::Wgsl => {
            notes.push(inactive_note(
                "subgroupShuffle with the computed invocation id",
            ));
            setup.push(format!(
                "let src = (u32(addr_per_lane[lane % {lanes}u]) >> 2u) & {}u;",
                lanes - 1
            ));
            "subgroupShuffle(v, src)".to_string()
        }
    };
    Call { setup, expr }
}

fn segment_setup(int: &str, width: i64, lane: &str) -> Vec<String> {
    vec![
        format!("const {int} width = {width};"),
        format!(
            "const {int} base = (int){lane} & ~(width - 1);  // first lane of the width segment"
        ),
    ]
}

fn segment_setup_wgsl(width: i64) -> Vec<String> {
    vec![format!(
        "let base = lane & ~({}u - 1u);  // first lane of the width segment",
        width
    )]
}

/// The C source-lane line of the segmented rule ([`Movement::Shuffle`]).
fn source_line(
    int: &str,
    family: ShuffleFamily,
    amount: impl std::fmt::Display,
    lane: &str,
) -> String {
    match family {
        ShuffleFamily::Idx => format!("const {int} src = base + ({amount} & (width - 1));"),
        ShuffleFamily::Up => {
            format!("const {int} src = ((int){lane} - {amount} >= base) ? (int){lane} - {amount} : (int){lane};")
        }
        ShuffleFamily::Down => format!(
            "const {int} src = ((int){lane} + {amount} < base + width) ? (int){lane} + {amount} : (int){lane};"
        ),
        ShuffleFamily::Xor => format!(
            "const {int} src = ((int)({lane} ^ {amount}) < base + width) ? (int)({lane} ^ {amount}) : (int){lane};"
        ),
    }
}

/// An op without a cross-vendor family: called in its own dialect with its own signature; in
/// another target, a comment and a copy of the operand.
fn native_op(
    target: Target,
    r: &Resolved,
    req: &OpRequest,
    ty: &str,
    notes: &mut Vec<String>,
) -> Call {
    let builtin = if target == Target::Hip {
        amd_builtin(r)
    } else {
        None
    };
    if target.dialect() != r.spec.dialect && builtin.is_none() {
        if let Some(call) = routed(target, r, ty, notes) {
            return call;
        }
        notes.push(format!(
            "NOT EXPRESSIBLE: {} has no equivalent of {} {} in crosslane's mapping; the kernel copies the operand so that it compiles.",
            target.title(),
            r.spec.dialect.name(),
            r.spec.name
        ));
        return expr(if target == Target::Wgsl { "v" } else { "var" }.into());
    }
    let wgsl = target == Target::Wgsl;
    // The AMD builtins move 32-bit ints: another 32-bit type travels as its bits.
    let bits = builtin.is_some() && ty != "int";
    let operand = if wgsl {
        "v"
    } else if bits {
        "__builtin_bit_cast(int, var)"
    } else {
        "var"
    };
    let mut setup = Vec::new();
    // The call's arguments from the op's typed argument list.
    let args: Vec<String> = r
        .spec
        .args
        .iter()
        .map(|a| {
            let (arg, arg_ty) = (a.name, a.ty);
            let given = a.param.and_then(|p| {
                req.params
                    .iter()
                    .find(|(k, _)| r.spec.param(k).is_some_and(|s| s.name == p.name))
                    .map(|(_, v)| v.as_str())
            });
            match a.param.and_then(|p| r.input.params.0.get(p.name)) {
                Some(v) => literal(
                    target,
                    &snake(arg),
                    v,
                    given,
                    value_type(arg_ty, ty),
                    &mut setup,
                ),
                // WGSL does not convert to bool: a predicate is "the operand is non-zero",
                // as the page's ballot / all / any read it.
                None if wgsl && arg_ty == "bool" => format!("({operand} != 0)"),
                // An out-parameter (`int *pred`): a local the call writes.
                None if !wgsl && a.role == Role::Out => {
                    let base = arg_ty.trim_end_matches('*').trim();
                    setup.push(format!("{base} {arg}_out = 0;"));
                    format!("&{arg}_out")
                }
                // A 16-bit operand under another 16-bit prototype type (seed 002 declares
                // `__builtin_mxc_fma_bf16` on `_Float16`): pass the bits, not a converted value.
                None if !wgsl && arg_ty != ty && is_16_bit(arg_ty) && is_16_bit(ty) => {
                    format!("__builtin_bit_cast({arg_ty}, {operand})")
                }
                None => operand.to_string(),
            }
        })
        .collect();
    let mut args = args;
    if let Some(name) = builtin {
        notes.push(format!(
            "HIP on AMD: {name} is the {} instruction itself (clang builtin; 32-bit words).",
            r.spec.name
        ));
        amd_fields(r, &mut args, notes);
    }
    let call = format!("{}({})", builtin.unwrap_or(r.spec.name), args.join(", "));
    let call = if bits && r.spec.proto.returns != "void" {
        format!("__builtin_bit_cast({ty}, {call})")
    } else {
        call
    };
    if !wgsl {
        if r.spec.proto.returns == "void" {
            // Nothing to store: the call is a statement and the lane keeps its operand.
            setup.push(format!("{call};"));
            return Call {
                setup,
                expr: operand.to_string(),
            };
        }
        // C++ converts the result to the operand type on the store.
        return Call { setup, expr: call };
    }
    // WGSL does not convert implicitly: bring a non-`T` result to the output type.
    let expr = match r.spec.proto.returns {
        "T" => call,
        "bool" => format!("select({ty}(0), {ty}(1), {call})"),
        "vec4<u32>" => {
            setup.push(
                "// crosslane: the ballot's lanes 0..31 (component x) as the result".to_string(),
            );
            if matches!(ty, "i32" | "u32" | "f32") {
                format!("bitcast<{ty}>({call}.x)")
            } else {
                format!("{ty}({call}.x)")
            }
        }
        _ => format!("{ty}({call})"),
    };
    Call { setup, expr }
}

/// An op the target has no equivalent of, but whose every lane reads one lane (a swizzle, a DPP
/// move, a forward permute): the source lane each lane reads under the scenario's parameters,
/// from the op's own rule, as a table, moved by the target's per-lane read (CUDA / HIP /
/// Ascend shuffle, MACA `bsm_bpermute`, WGSL `subgroupShuffle`). A lane the rule gives zero
/// gets zero; one that keeps an old value or is undefined keeps its operand, which the note
/// says. `None` where the op computes, or where no lane is active.
fn routed(target: Target, r: &Resolved, ty: &str, notes: &mut Vec<String>) -> Option<Call> {
    use crate::result::Source;
    if r.spec.kind != crate::op::OpKind::Lanes {
        return None;
    }
    let out = (r.spec.run)(&r.input).ok()?;
    if out.results.len() != r.input.lanes
        || out.results.iter().any(|l| l.source == Source::Computed)
        || !out.results.iter().any(|l| l.source != Source::Inactive)
    {
        return None;
    }
    let mut kept = false;
    let table: Vec<String> = out
        .results
        .iter()
        .enumerate()
        .map(|(i, l)| match (l.source, l.from) {
            (Source::Lane | Source::Own, Some(j)) => j.to_string(),
            (Source::Zero, _) => "-1".to_string(),
            _ => {
                kept |= l.source != Source::Inactive;
                i.to_string()
            }
        })
        .collect();
    let n = table.len();
    let read = match target {
        Target::Cuda => "__shfl_sync(0xffffffff, var, src)".to_string(),
        Target::Hip => "__shfl(var, src)".to_string(),
        Target::Ascend => "asc_shfl(var, src)".to_string(),
        Target::Maca if ty == "int" => "__builtin_mxc_bsm_bpermute(src * 4, var)".to_string(),
        Target::Maca => format!(
            "__builtin_bit_cast({ty}, __builtin_mxc_bsm_bpermute(src * 4, __builtin_bit_cast(int, var)))"
        ),
        Target::Wgsl => "subgroupShuffle(v, u32(src))".to_string(),
    };
    notes.push(format!(
        "{} has no equivalent of {} {}: each lane reads the lane that its rule selects for these parameters (source_lane table, computed from the rule), moved with {}{}.",
        target.title(),
        r.spec.dialect.name(),
        r.spec.name,
        read.split('(').next().unwrap_or(""),
        if kept {
            "; NOT EXACT: lanes the rule leaves unwritten (old value or undefined) keep their own operand here"
        } else {
            ""
        }
    ));
    let setup = if target == Target::Wgsl {
        vec![
            format!(
                "let source_lane = array<i32, {n}>({});  // -1: the rule writes 0",
                table.join(", ")
            ),
            format!("let s = source_lane[lane % {n}u];"),
            "let src = select(i32(lane), s, s >= 0);".to_string(),
            format!("let moved = {read};"),
        ]
    } else {
        vec![
            format!(
                "const int source_lane[{n}] = {{{}}};  // -1: the rule writes 0",
                table.join(", ")
            ),
            format!("const int s = source_lane[lane % {n}];"),
            "const int src = s >= 0 ? s : (int)lane;".to_string(),
            format!("const {ty} moved = {read};"),
        ]
    };
    Some(Call {
        setup,
        expr: if target == Target::Wgsl {
            format!("select(moved, {ty}(), s == -1)")
        } else {
            format!("s == -1 ? ({ty})0 : moved")
        },
    })
}

/// The AMD instruction fields an AMD builtin's arguments carry differently from the request:
/// the DPP control as its 9-bit encoding (LLVM `SIDefines.h` `DppCtrl`, [`DppCtrl::encoding`]),
/// and `ds_permute_b32`'s `offset`, which the builtin has no argument for, added to the address
/// (the instruction adds it: AMD ISA "DS_PERMUTE_B32").
fn amd_fields(r: &Resolved, args: &mut [String], notes: &mut Vec<String>) {
    for p in r.spec.args.iter().filter_map(|a| a.param) {
        if let Some(ParamValue::Text(t)) = r.input.params.0.get(p.name) {
            // dpp8 has no 9-bit dpp_ctrl value: say which builtin takes it.
            if let Ok(DppCtrl::Dpp8(sel)) = DppCtrl::parse(t) {
                let sel = sel
                    .iter()
                    .enumerate()
                    .fold(0u32, |acc, (k, s)| acc | (u32::from(*s) << (3 * k)));
                notes.push(format!(
                    "NOT EXACT: dpp8 is its own builtin, __builtin_amdgcn_mov_dpp8(src, {sel:#x}) (selectors 3 bits each), with no row/bank masks or bound_ctrl: write that call here."
                ));
            }
        }
    }
    let offset = match r.input.params.0.get("offset") {
        Some(ParamValue::Int(o)) if *o != 0 => *o,
        _ => return,
    };
    if r.spec.settings.iter().any(|s| s.name == "offset") {
        if let Some((_, text)) = r
            .spec
            .args
            .iter()
            .zip(args.iter_mut())
            .find(|(a, _)| a.role == Role::Address)
        {
            *text = format!("{text} + {offset}");
            notes.push(format!(
                "the instruction's offset:{offset} is added to the address (the builtin has no offset argument)."
            ));
        }
    }
}

/// Whether a C type name is one of the 16-bit float types the snippets use.
fn is_16_bit(ty: &str) -> bool {
    matches!(
        ty,
        "_Float16"
            | "__bf16"
            | "__half"
            | "half"
            | "bfloat16_t"
            | "__nv_bfloat16"
            | "__hip_bfloat16"
            | "__maca_bfloat16"
    )
}

/// `srcLane` → `src_lane`.
fn snake(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The C / WGSL type of a per-lane value argument: the prototype's own type where it names one
/// (`_Float16 c`), else the operand type.
fn value_type<'a>(arg_ty: &'a str, operand_ty: &'a str) -> &'a str {
    let generic = arg_ty.is_empty()
        || arg_ty
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|w| w == "T" || w == "I");
    if generic {
        operand_ty
    } else {
        arg_ty
    }
}

/// An argument's literal. A per-lane integer the user gave as a lane expression (`given`) is
/// written as that expression of the kernel's `lane` (signed, as the playground evaluates it);
/// other per-lane lists become a constant array indexed by `lane` (values as their raw bits,
/// reinterpreted as `elem`, so NaN payloads and signed zeros survive).
fn literal(
    target: Target,
    name: &str,
    v: &ParamValue,
    given: Option<&str>,
    elem: &str,
    setup: &mut Vec<String>,
) -> String {
    let wgsl = target == Target::Wgsl;
    let expr = given
        .filter(|t| crate::lane_expr::looks_like_expr(t))
        .and_then(|t| crate::lane_expr::LaneExpr::parse(t, name).ok())
        .filter(|e| e.uses_lane());
    if let (ParamValue::Ints(_), Some(e)) = (v, &expr) {
        return if wgsl {
            let signed = e.parenthesized("i32(lane)");
            if elem == "u32" {
                format!("u32({signed})")
            } else {
                signed
            }
        } else {
            e.with_lane("(int)lane")
        };
    }
    match v {
        ParamValue::Int(i) if wgsl => {
            if *i >= 0 {
                format!("{i}u")
            } else {
                format!("{i}i")
            }
        }
        ParamValue::Int(i) => i.to_string(),
        ParamValue::Flag(b) => {
            if wgsl {
                b.to_string()
            } else {
                u8::from(*b).to_string()
            }
        }
        ParamValue::Mask(m) => {
            if wgsl {
                format!("{:#x}u", m.0 as u32)
            } else {
                format!("{:#x}ull", m.0 as u64)
            }
        }
        ParamValue::Ints(list) => {
            let items: Vec<String> = list.iter().map(i64::to_string).collect();
            if wgsl {
                setup.push(format!(
                    "let {name}_per_lane = array<i32, {}>({});",
                    list.len(),
                    items.join(", ")
                ));
                format!("{name}_per_lane[lane % {}]", list.len())
            } else {
                setup.push(format!(
                    "const int {name}_per_lane[{}] = {{{}}};",
                    list.len(),
                    items.join(", ")
                ));
                format!("{name}_per_lane[lane % {}]", list.len())
            }
        }
        ParamValue::Values(list) => {
            let width = list.first().map_or(32, |v| v.ty.bit_width());
            let items: Vec<String> = list.iter().map(|v| format!("{:#x}", v.bits)).collect();
            if wgsl {
                if width != 32 {
                    setup.push(format!(
                        "// crosslane: NOT EXACT: per-lane {name} is {width}-bit; WGSL cannot bitcast it from u32: the operand stands in"
                    ));
                    return "v".to_string();
                }
                setup.push(format!(
                    "let {name}_bits = array<u32, {}>({});",
                    list.len(),
                    items
                        .iter()
                        .map(|i| format!("{i}u"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
                format!("bitcast<{elem}>({name}_bits[lane % {}u])", list.len())
            } else {
                let bits = match width {
                    16 => "uint16_t",
                    64 => "uint64_t",
                    _ => "uint32_t",
                };
                setup.push(format!(
                    "const {bits} {name}_bits[{}] = {{{}}};",
                    list.len(),
                    items.join(", ")
                ));
                format!(
                    "__builtin_bit_cast({elem}, {name}_bits[lane % {}])",
                    list.len()
                )
            }
        }
        // A DPP control is written as the field value the builtins take.
        ParamValue::Text(t) if !wgsl && DppCtrl::parse(t).is_ok_and(|c| c.encoding().is_some()) => {
            let code = DppCtrl::parse(t)
                .ok()
                .and_then(DppCtrl::encoding)
                .unwrap_or(0);
            format!("{code:#x} /* {} */", one_line(t).replace("*/", ""))
        }
        ParamValue::Text(t) => {
            // Text parameters (a DPP control such as `row_shl:3`) have no literal syntax in
            // every language: the snippet names the text and passes its encoding's placeholder.
            setup.push(format!(
                "// crosslane: {name} = {} (write its encoding here)",
                one_line(t)
            ));
            "0".to_string()
        }
    }
}
