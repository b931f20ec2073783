//! Every vendor formula kernel compiles: for each op with a WGSL formula, both lowerings, a 32-bit
//! and a 64-bit type, the generated text parses and validates with naga (the WGSL front end wgpu
//! uses). Runs without a GPU, so a broken formula text fails here even where lavapipe is absent.

use crosslane_core::{all_ops, OpRequest};
use crosslane_gpu::formula::{formula, FORMULAS};
use crosslane_gpu::wgsl::{lower_step, LoweringChoice, ShaderTarget, SubgroupCaps};
use naga::valid::{Capabilities, ShaderStages, SubgroupOperationSet, ValidationFlags, Validator};

fn validate(code: &str) -> Result<(), String> {
    let module = naga::front::wgsl::parse_str(code).map_err(|e| e.emit_to_string(code))?;
    Validator::new(ValidationFlags::all(), Capabilities::all())
        .subgroup_stages(ShaderStages::all())
        .subgroup_operations(SubgroupOperationSet::all())
        .validate(&module)
        .map(|_| ())
        .map_err(|e| format!("{e:?}"))
}

#[test]
fn every_formula_kernel_validates_with_naga() {
    let wide = SubgroupCaps {
        supported: true,
        min_size: 128,
        max_size: 128,
    };
    let mut checked = 0;
    let mut failures = Vec::new();
    for spec in all_ops().filter(|s| formula(s.dialect, s.name).is_some()) {
        for ty in ["i32", "u32", "i64", "u64"] {
            let req = OpRequest {
                dialect: spec.dialect.name().into(),
                op: spec.name.into(),
                ty: ty.into(),
                active: "0x5".into(),
                ..OpRequest::default()
            };
            // A type the op does not take (or a required parameter) gives no step.
            let Ok(step) = req.run() else { continue };
            for choice in [
                LoweringChoice::SubgroupShuffle,
                LoweringChoice::WorkgroupMemory,
            ] {
                let kernel = lower_step(&step, &wide, choice, ShaderTarget::Naga, "naga")
                    .unwrap_or_else(|e| panic!("{} {}: {e}", spec.dialect.name(), spec.name));
                assert!(kernel.formula.is_some());
                checked += 1;
                if let Err(e) = validate(&kernel.wgsl) {
                    failures.push(format!(
                        "{} {ty} {choice:?}: {e}\n{}",
                        spec.name, kernel.wgsl
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // Every formula was compiled at least once.
    assert!(checked >= FORMULAS.len() * 2, "{checked}");
}
