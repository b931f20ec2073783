//! crosslane-gpu's integration tests, one program (`cargo test -p crosslane-gpu --test suite`),
//! one module per subject; `common` opens the native device once for all of them.

mod common;
mod formula_wgsl;
mod gpu_sort;
mod per_lane_formulas;
mod vendor_lanes;
mod wgsl_builtins;
