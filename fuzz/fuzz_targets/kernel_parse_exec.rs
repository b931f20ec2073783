//! Any bytes, parsed as a kernel and run for a bounded number of steps, must end in a trace or
//! an error — never a panic (a panic in wasm kills the page).

#![no_main]

use crosslane_core::kernel::{parse, Executor, LaunchConfig, Limits};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = parse(&text);
    let config = LaunchConfig {
        limits: Limits {
            max_work: 20_000,
            max_memory: 16 << 20,
            ..Limits::default()
        },
        ..LaunchConfig::default()
    };
    if let Ok(mut ex) = Executor::new(&text, config) {
        ex.run_for(2_000);
    }
});
