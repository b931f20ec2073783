//! crosslane-web's native integration tests, one program (`cargo test -p crosslane-web --test
//! suite`), one module per subject.

mod codegen_cpp;
mod codegen_wgsl;
mod golden_lanes;
mod worker_session;

use crosslane_core::OpRequest;

/// The scenarios whose export a target cannot run exactly (docs/semantics.md, "Export as code"): HIP wave64
/// shuffles across the two halves of the wavefront (xor 33, down 40, idx 40), and CUDA's
/// undefined width 64. Used by the C++ and the WGSL export checks.
pub fn inexact_shuffles() -> [OpRequest; 4] {
    let req = |dialect: &str, op: &str, lanes: &str, params: &[(&str, &str)]| OpRequest {
        dialect: dialect.into(),
        op: op.into(),
        lanes: lanes.into(),
        params: params
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        ..OpRequest::default()
    };
    [
        req(
            "cuda",
            "__shfl_xor_sync",
            "32",
            &[("laneMask", "1"), ("width", "64")],
        ),
        req(
            "hip",
            "__shfl_xor",
            "64",
            &[("lane_mask", "33"), ("width", "64")],
        ),
        req("hip", "__shfl_down", "64", &[("delta", "40")]),
        req("hip", "__shfl", "64", &[("src_lane", "40")]),
    ]
}
