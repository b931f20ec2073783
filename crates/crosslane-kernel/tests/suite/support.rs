//! What the suite's files share: launch configurations, a run that must finish, a buffer's
//! cells as numbers, the diagnostics a run gave, a WGSL example's text. Each is written once
//! here so that a suite file says only what it tests (`crate::cells::cell_ints` is the older
//! shared reader of cells as integers; [`ints`] applies it to a named buffer).

use crosslane_core::op::Dialect;
use crosslane_core::result::Level;
use crosslane_kernel::{run_kernel, KVal, KernelTrace, LaunchConfig, Outcome};

/// One block of `threads` threads (`threads`×1×1), everything else the default.
pub fn block(threads: usize) -> LaunchConfig {
    LaunchConfig {
        block_dim: Some([threads, 1, 1]),
        ..LaunchConfig::default()
    }
}

/// `c` with each `(name, cells, fill)` buffer: its length in cells and its `--buffer` fill.
fn with_buffers(mut c: LaunchConfig, buffers: &[(&str, usize, &str)]) -> LaunchConfig {
    for (name, len, fill) in buffers {
        c.buffer_len.insert((*name).into(), *len);
        c.args.insert((*name).into(), (*fill).into());
    }
    c
}

/// One block of `threads` threads in `dialect`, with `buffers` ([`with_buffers`]); the
/// dialect's default warp width.
pub fn launch(dialect: Dialect, threads: usize, buffers: &[(&str, usize, &str)]) -> LaunchConfig {
    with_buffers(
        LaunchConfig {
            dialect: Some(dialect),
            block_dim: Some([threads, 1, 1]),
            ..LaunchConfig::default()
        },
        buffers,
    )
}

/// As [`launch`], the warp width written out: 64 lanes for HIP (AMD's wavefront on CDNA), 32
/// otherwise.
pub fn launch_lanes(
    dialect: Dialect,
    threads: usize,
    buffers: &[(&str, usize, &str)],
) -> LaunchConfig {
    LaunchConfig {
        lanes: Some(if dialect == Dialect::Hip { 64 } else { 32 }),
        ..launch(dialect, threads, buffers)
    }
}

/// A CUDA grid of `blocks` blocks of `threads` threads, with `buffers` ([`with_buffers`]).
pub fn launch_grid(threads: usize, blocks: usize, buffers: &[(&str, usize, &str)]) -> LaunchConfig {
    LaunchConfig {
        grid_dim: Some([blocks, 1, 1]),
        ..launch(Dialect::Cuda, threads, buffers)
    }
}

/// One WGSL workgroup (`grid_dim` 1×1×1) on subgroups of `lanes` invocations, with one
/// buffer `o` of `out` cells filled with zeros.
pub fn wgsl_out(lanes: usize, out: usize) -> LaunchConfig {
    let mut c = LaunchConfig {
        lanes: Some(lanes),
        grid_dim: Some([1, 1, 1]),
        ..LaunchConfig::default()
    };
    c.args.insert("o".into(), "zero".into());
    c.buffer_len.insert("o".into(), out);
    c
}

/// Runs `src` under `config`; panics unless it parses, launches and finishes.
pub fn run_finished(src: &str, config: LaunchConfig) -> KernelTrace {
    let t = run_kernel(src, config).expect("kernel parses and launches");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

/// The message of the error that refuses `src` under `config` before the run; panics if it
/// runs.
pub fn refused(src: &str, config: LaunchConfig) -> String {
    match run_kernel(src, config) {
        Err(e) => e.to_string(),
        Ok(t) => panic!("expected an error, the run gave {:?}", t.outcome),
    }
}

/// [`run_finished`] under the default launch.
pub fn run_default(src: &str) -> KernelTrace {
    run_finished(src, LaunchConfig::default())
}

/// The final cells of buffer `name`; panics when the trace has no such buffer.
fn cells<'t>(t: &'t KernelTrace, name: &str) -> &'t [Option<KVal>] {
    t.buffer(name).unwrap_or_else(|| panic!("no buffer {name}"))
}

/// Buffer `name`'s cells as floating values (`None` where never written or undefined).
pub fn floats(t: &KernelTrace, name: &str) -> Vec<Option<f64>> {
    cells(t, name)
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64))
        .collect()
}

/// Buffer `name`'s cells as floating values, NaN where never written or undefined (for
/// comparing whole buffers with `assert_eq!` where every cell is written).
pub fn floats_or_nan(t: &KernelTrace, name: &str) -> Vec<f64> {
    cells(t, name)
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64).unwrap_or(f64::NAN))
        .collect()
}

/// Buffer `name`'s cells as integers (`None` where never written or undefined).
pub fn ints(t: &KernelTrace, name: &str) -> Vec<Option<i128>> {
    crate::cells::cell_ints(cells(t, name))
}

/// Buffer `name`'s cells as integers, `i128::MIN` (no cell's value) where never written or
/// undefined.
pub fn ints_or_min(t: &KernelTrace, name: &str) -> Vec<i128> {
    cells(t, name)
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_int).unwrap_or(i128::MIN))
        .collect()
}

/// Buffer `name`'s cells as the launch received them (the trace's initial memory), `None`
/// where unset or undefined.
pub fn ints_at_launch(t: &KernelTrace, name: &str) -> Vec<Option<i128>> {
    let b = t
        .initial_memory
        .buffers
        .iter()
        .find(|b| b.name == name)
        .unwrap_or_else(|| panic!("no buffer {name}"));
    crate::cells::cell_ints(&b.cells)
}

/// Whether a diagnostic of `level` (the parse's or a step's) contains `words`.
pub fn has(t: &KernelTrace, level: Level, words: &str) -> bool {
    t.all_diagnostics()
        .any(|d| d.level == level && d.message.contains(words))
}

/// Panics, listing them, if the run gave an error diagnostic.
pub fn no_errors(t: &KernelTrace) {
    let errors: Vec<_> = t
        .all_diagnostics()
        .filter(|d| d.level == Level::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}

/// Runs the WGSL shader `src` under `c`; panics unless it is accepted and the run gives no
/// error diagnostic.
pub fn wgsl_no_errors(src: &str, c: LaunchConfig) -> KernelTrace {
    let t = crosslane_kernel::wgsl::run_wgsl(src, c).unwrap_or_else(|e| panic!("{e}"));
    no_errors(&t);
    t
}

/// The messages of the merged diagnostics of `level`.
pub fn said(t: &KernelTrace, level: Level) -> Vec<String> {
    t.merged_diagnostics
        .iter()
        .filter(|d| d.level == level)
        .map(|d| d.message.clone())
        .collect()
}

/// The text of the WGSL example `examples_wgsl/NAME` of this crate.
pub fn shader(name: &str) -> String {
    let p = format!("{}/examples_wgsl/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

/// The final integer cells of buffer `out` (`len` cells) after `src` runs to its end as
/// `dialect` on `lanes`-lane warps in one block of `threads` threads; panics if it does not finish.
pub fn out_ints(
    src: &str,
    dialect: Dialect,
    lanes: usize,
    threads: usize,
    len: usize,
) -> Vec<Option<i128>> {
    let config = LaunchConfig {
        dialect: Some(dialect),
        lanes: Some(lanes),
        block_dim: Some([threads, 1, 1]),
        buffer_len: [("out".to_string(), len)].into(),
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).expect("runs");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t.buffer("out")
        .expect("out")
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_int))
        .collect()
}
