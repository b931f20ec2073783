//! Any bytes as a scenario JSON (and, behind the first byte, as kernel launch fields), applied the
//! way the page and `crosslane run` apply it: an op view runs its request, a kernel view parses,
//! launches and runs its kernel within small budgets (the launch taken from the input), a sort
//! view builds its report. Each must end in a result or an error — never a panic, a hang (run
//! with `-timeout`) or a blow-up (`-rss_limit_mb`).

#![no_main]

use crosslane_kernel::{Executor, LaunchConfig, Limits};
use crosslane_core::network::report;
use crosslane_core::scenario::{Scenario, View};
use crosslane_core::{compare_lanes, LaneParam, ShuffleFamily};
use libfuzzer_sys::fuzz_target;

fn budgets() -> Limits {
    Limits {
        max_work: 20_000,
        max_memory: 16 << 20,
        // As kernel_parse_exec: nested macros spending the default 2,000,000 units take seconds
        // in the instrumented build; the budget's path is the same at 200,000.
        max_tokens: 200_000,
        ..Limits::default()
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(scenario) = Scenario::from_json(data) {
        match &scenario.view {
            View::Op(request) => {
                let _ = request.run();
            }
            View::Kernel {
                source,
                blocks,
                threads_per_block,
                lanes,
                step,
            } => {
                let some = |n: u32| (n > 0).then_some(n as usize);
                let config = LaunchConfig {
                    grid_dim: some(*blocks).map(|b| [b, 1, 1]),
                    block_dim: some(*threads_per_block).map(|t| [t, 1, 1]),
                    lanes: some(*lanes),
                    limits: budgets(),
                    ..LaunchConfig::default()
                };
                if let Ok(mut ex) = Executor::new(source, config) {
                    ex.run_for((*step as usize).min(5_000));
                }
            }
            View::Sort {
                len, seed, values, ..
            } => {
                // The page caps a sort at 2^20 keys; keep a fuzz iteration small.
                if *len <= 4096 {
                    let _ = report(Some(*len as usize), *seed, values.as_deref());
                }
            }
            View::Compare {
                family,
                param,
                width,
                values,
                active,
            } => {
                // As the portability view reads its fields.
                if let (Ok(f), Ok(p)) = (ShuffleFamily::parse(family), LaneParam::parse(param)) {
                    let w = crosslane_core::params::parse_int(width);
                    let _ = compare_lanes(f, &p, w, values, active);
                }
            }
        }
        return;
    }
    // Otherwise: the first bytes are a launch (blocks, threads, lanes), the rest a kernel.
    if data.len() < 3 {
        return;
    }
    let config = LaunchConfig {
        grid_dim: Some([usize::from(data[0] % 8) + 1, 1, 1]),
        block_dim: Some([usize::from(data[1]) * 4 + 1, 1, 1]),
        lanes: Some(usize::from(data[2] % 65)),
        limits: budgets(),
        ..LaunchConfig::default()
    };
    let text = String::from_utf8_lossy(&data[3..]);
    if let Ok(mut ex) = Executor::new(&text, config) {
        ex.run_for(5_000);
    }
});
