//! A full trace keeps each changed variable as raw bits per lane (`LaneRow`), not as a
//! `LaneVal` per lane, and gives the same values back: through the JSON the CLI prints and the
//! trace's accessors. The figures printed here are docs/benchmarks.md's "bytes per recorded step"
//! (`cargo test -p crosslane-kernel --test suite kernel_trace_bytes -- --nocapture`).

use crosslane_kernel::bench::{arith_loop, shuffle_loop};
use crosslane_kernel::budget::size;
use crosslane_kernel::trace::step_bytes;
use crosslane_kernel::{run_kernel, KVal, KernelTrace, LaunchConfig, Scalar};

fn warp_of_32(source: &str) -> KernelTrace {
    let config = LaunchConfig {
        block_dim: Some([32, 1, 1]),
        ..LaunchConfig::default()
    };
    run_kernel(source, config).expect("runs")
}

fn bytes_per_step(t: &KernelTrace) -> u64 {
    t.steps.iter().map(step_bytes).sum::<u64>() / t.steps.len() as u64
}

/// What a step's changed variables cost as a row of `LaneVal`s (the trace before rows of raw bits):
/// the row's header and 40 bytes a lane, plus the name and a change's header.
fn lane_val_rows(t: &KernelTrace) -> u64 {
    t.steps
        .iter()
        .flat_map(|s| &s.changes)
        .map(|c| t.var_name(c.slot).len() as u64 + 24 + size::VEC + 32 * size::LANE_VAL)
        .sum()
}

#[test]
fn a_changed_variable_costs_8_bytes_a_lane() {
    let t = warp_of_32(&arith_loop(300));
    let changes: Vec<_> = t.steps.iter().flat_map(|s| &s.changes).collect();
    assert!(changes.len() >= 600, "{} changes", changes.len());
    for c in &changes {
        // Every lane defined, all of one 32-bit type: nothing kept whole.
        assert_eq!(c.row.bytes(), size::LANE_ROW + 32 * 8);
    }
    let rows: u64 = changes.iter().map(|c| c.row.bytes() + 8).sum();
    let before = lane_val_rows(&t);
    assert!(
        rows * 3 < before,
        "{rows} bytes of rows, {before} as LaneVals"
    );
    for (name, src) in [
        ("arithmetic", arith_loop(3000)),
        ("shuffle", shuffle_loop(3000)),
    ] {
        let t = warp_of_32(&src);
        let now = bytes_per_step(&t);
        let was = now + (lane_val_rows(&t) - rows_bytes(&t)) / t.steps.len() as u64;
        println!(
            "{name} loop, 32 x 3000, full trace: {} steps, {now} bytes per recorded step ({was} with LaneVal rows)",
            t.steps.len()
        );
    }
}

fn rows_bytes(t: &KernelTrace) -> u64 {
    t.steps
        .iter()
        .flat_map(|s| &s.changes)
        .map(|c| c.row.bytes() + 8)
        .sum()
}

/// The LCG of the arithmetic loop, by hand: after k iterations lane t holds
/// `a_k = a_{k-1} * 1664525 + 1013904223 (mod 2^32)`, `a_0 = t`.
fn lcg(t: u64, k: usize) -> u64 {
    (0..k).fold(t, |a, _| (a * 1_664_525 + 1_013_904_223) % (1 << 32))
}

#[test]
fn the_json_and_the_accessors_give_the_recorded_values() {
    let t = warp_of_32(&arith_loop(5));
    let json = serde_json::to_value(&t).expect("serializes");
    let steps = json["steps"].as_array().expect("steps");
    assert_eq!(steps.len(), t.steps.len());
    let mut k = 0;
    for (s, js) in t.steps.iter().zip(steps) {
        for (c, jc) in s
            .changes
            .iter()
            .zip(js["changes"].as_array().expect("changes"))
        {
            if t.var_name(c.slot) != "a" {
                continue;
            }
            assert_eq!(jc["name"], "a");
            let values = t.change(c).values;
            for lane in 0..32 {
                let want = lcg(lane as u64, k);
                assert_eq!(
                    values[lane],
                    Ok(KVal::Int {
                        ty: Scalar::U32,
                        bits: want
                    })
                );
                assert_eq!(
                    jc["values"][lane]["text"],
                    want.to_string(),
                    "lane {lane} after {k}"
                );
            }
            k += 1;
        }
    }
    assert_eq!(k, 6, "the declaration and five iterations");
}
