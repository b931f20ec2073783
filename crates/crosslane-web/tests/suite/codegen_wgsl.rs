//! "Export as code" must give a compilable snippet: every WGSL snippet the page can export —
//! every operation of every dialect, with its default parameters, all lanes and a partial active
//! mask — parses and validates with naga (the WGSL front end wgpu uses).
//!
//! naga rejects the `enable subgroups;` directive browsers require and does not know the
//! `diagnostic(off, subgroup_uniformity)` rule (docs/BROWSER.md, "Subgroups through wgpu"), so both lines are
//! removed before validation; everything else is validated as exported.

use crosslane_core::codegen::{generate, Target};
use crosslane_core::{all_ops, OpRequest};
use naga::valid::{Capabilities, ShaderStages, SubgroupOperationSet, ValidationFlags, Validator};

fn validate(code: &str) -> Result<(), String> {
    let source: String = code
        .lines()
        .filter(|l| *l != "enable subgroups;" && !l.starts_with("diagnostic("))
        .map(|l| format!("{l}\n"))
        .collect();
    let module = naga::front::wgsl::parse_str(&source).map_err(|e| e.emit_to_string(&source))?;
    Validator::new(ValidationFlags::all(), Capabilities::all())
        .subgroup_stages(ShaderStages::all())
        .subgroup_operations(SubgroupOperationSet::all())
        .validate(&module)
        .map(|_| ())
        .map_err(|e| format!("{e:?}"))
}

#[test]
fn every_exportable_wgsl_snippet_validates() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for spec in all_ops() {
        for active in ["", "0x5"] {
            let req = OpRequest {
                dialect: spec.dialect.name().into(),
                op: spec.name.into(),
                active: active.into(),
                ..OpRequest::default()
            };
            // Ops with a required parameter do not resolve without it: nothing to export.
            let Ok(code) = generate(&req, Target::Wgsl) else {
                continue;
            };
            // Valid WGSL that naga 30 lacks (docs/BROWSER.md, "Subgroups through wgpu"); browsers take it.
            if spec.name == "subgroupElect" {
                assert!(
                    code.contains("select(u32(0), u32(1), subgroupElect())"),
                    "{code}"
                );
                continue;
            }
            checked += 1;
            if let Err(e) = validate(&code) {
                failures.push(format!(
                    "{} {} active={active:?}: {e}\n{code}",
                    spec.dialect.name(),
                    spec.name
                ));
            }
        }
    }
    assert!(checked > 50, "only {checked} snippets checked");
    assert!(
        failures.is_empty(),
        "{} of {checked} failed:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn segmented_shuffles_validate_for_every_family_and_width() {
    for (op, param) in [
        ("__shfl_sync", "src_lane"),
        ("__shfl_up_sync", "delta"),
        ("__shfl_down_sync", "delta"),
        ("__shfl_xor_sync", "lane_mask"),
    ] {
        for width in ["1", "4", "16", "32"] {
            for ty in ["i32", "f32", "f16", "u32", "f64"] {
                let req = OpRequest {
                    dialect: "cuda".into(),
                    op: op.into(),
                    ty: ty.into(),
                    params: [
                        (param.to_string(), "3".to_string()),
                        ("width".to_string(), width.to_string()),
                    ]
                    .into(),
                    ..OpRequest::default()
                };
                let Ok(code) = generate(&req, Target::Wgsl) else {
                    continue; // a type the op does not offer
                };
                if let Err(e) = validate(&code) {
                    panic!("{op} width {width} {ty}: {e}\n{code}");
                }
            }
        }
    }
}

#[test]
fn per_lane_shuffle_amounts_export_as_valid_wgsl() {
    // A per-lane lane expression for each shuffle family, from CUDA and HIP: the WGSL export
    // (subgroupShuffle with the expression, or the segmented rule computed per invocation)
    // validates with naga.
    for (dialect, op, param, text) in [
        ("cuda", "__shfl_sync", "src_lane", "(lane + 1) % 32"),
        ("cuda", "__shfl_xor_sync", "lane_mask", "(lane & 1) + 1"),
        ("cuda", "__shfl_up_sync", "delta", "lane & 3"),
        ("hip", "__shfl_down", "delta", "lane % 5"),
    ] {
        let req = OpRequest {
            dialect: dialect.into(),
            op: op.into(),
            lanes: "32".into(),
            params: [(param.to_string(), text.to_string())].into(),
            ..OpRequest::default()
        };
        let code = generate(&req, Target::Wgsl).unwrap();
        assert!(code.contains("lane"), "{code}");
        validate(&code).unwrap_or_else(|e| panic!("{dialect} {op} {text}: {e}\n{code}"));
    }
}

#[test]
fn collectives_and_routed_lanes_validate_in_every_type() {
    // CUDA / HIP ballots, votes and reductions become WGSL's subgroup built-ins; AMD swizzles,
    // DPP moves and MACA shuffles, which WGSL lacks, their source-lane table and
    // subgroupShuffle. Every type each op takes, all lanes and a partial mask.
    let mut checked = 0;
    for spec in all_ops() {
        let collective = crosslane_core::codegen::Collective::of(spec).is_some();
        let routed = matches!(
            spec.name,
            "ds_swizzle_b32"
                | "update_dpp"
                | "mov_dpp"
                | "ds_permute_b32"
                | "__builtin_mxc_mov_shfl"
        );
        if spec.dialect == crosslane_core::Dialect::Wgsl || !(collective || routed) {
            continue;
        }
        for ty in spec.types {
            for active in ["", "0x5"] {
                let req = OpRequest {
                    dialect: spec.dialect.name().into(),
                    op: spec.name.into(),
                    ty: ty.name().into(),
                    active: active.into(),
                    ..OpRequest::default()
                };
                let Ok(code) = generate(&req, Target::Wgsl) else {
                    continue;
                };
                assert!(!code.contains("NOT EXPRESSIBLE"), "{code}");
                checked += 1;
                if let Err(e) = validate(&code) {
                    panic!("{} {} {}: {e}\n{code}", spec.name, ty.name(), active);
                }
            }
        }
    }
    assert!(checked > 30, "only {checked}");
}

/// The wave64 and undefined-width scenarios that docs/semantics.md's "Export as code" names, exported to WGSL, validate, and
/// CUDA's undefined width 64 is said to be undefined there too.
#[test]
fn wave64_and_undefined_width_exports_validate() {
    for req in crate::inexact_shuffles() {
        let code = generate(&req, Target::Wgsl).unwrap();
        validate(&code).unwrap_or_else(|e| panic!("{}: {e}\n{code}", req.op));
        if req.dialect == "cuda" {
            assert!(code.contains("// crosslane: UNDEFINED:"), "{code}");
        }
    }
}
