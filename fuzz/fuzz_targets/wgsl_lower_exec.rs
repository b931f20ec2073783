//! Any bytes as a WGSL compute shader: naga's parse, the gap rewrites, the subgroup_uniformity
//! check, the lowering and a bounded run must end in a trace or an error — never a panic. The
//! input is prefixed with a small valid shader half the time, so the fuzzer reaches the
//! lowering and the engine, not only naga's parser.

#![no_main]

use crosslane_kernel::wgsl::{executor, prepare};
use crosslane_kernel::{LaunchConfig, Limits};
use libfuzzer_sys::fuzz_target;

const PRELUDE: &str = "enable subgroups;\n@group(0) @binding(0) var<storage, read_write> out: array<u32>;\nvar<workgroup> tile: array<u32, 8>;\n";

fuzz_target!(|data: &[u8]| {
    let body = String::from_utf8_lossy(data);
    let text = if data.first().is_some_and(|b| b & 1 == 1) {
        format!("{PRELUDE}{body}")
    } else {
        body.into_owned()
    };
    let lanes = [4, 8, 16, 32, 64, 128][usize::from(data.get(1).copied().unwrap_or(0)) % 6];
    let config = LaunchConfig {
        lanes: Some(lanes),
        grid_dim: Some([1 + usize::from(data.get(2).copied().unwrap_or(0) % 3), 1, 1]),
        limits: Limits {
            max_work: 20_000,
            max_memory: 16 << 20,
            ..Limits::default()
        },
        ..LaunchConfig::default()
    };
    let _ = prepare(&text, &config);
    if let Ok(mut ex) = executor(&text, config) {
        ex.run_for(2_000);
    }
});
