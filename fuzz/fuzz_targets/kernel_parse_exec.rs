//! Any bytes, parsed as a kernel and run for a bounded number of steps, must end in a trace or
//! an error — never a panic (a panic in wasm kills the page).

#![no_main]

use crosslane_kernel::{parse_with, Executor, LaunchConfig, Limits};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // Small budgets keep an iteration well under `-timeout`: a 2,000,000-unit token budget
    // (the default) spent on nested macros takes seconds in the instrumented build, and the
    // budget's path is the same at 200,000.
    let limits = Limits {
        max_work: 20_000,
        max_memory: 16 << 20,
        max_tokens: 200_000,
        ..Limits::default()
    };
    let _ = parse_with(&text, &limits);
    let config = LaunchConfig {
        limits,
        ..LaunchConfig::default()
    };
    if let Ok(mut ex) = Executor::new(&text, config) {
        ex.run_for(2_000);
    }
});
