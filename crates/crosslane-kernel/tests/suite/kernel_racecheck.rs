//! The shared-memory race check (`kernel/machine/racecheck.rs`): accesses of one `__shared__`
//! cell by two warps of a block with no barrier between them are hazards in the sense of
//! Compute Sanitizer's "Racecheck Tool" (read-after-write, write-after-read, write-after-write).
//! Each expected warning below is reasoned by hand from the engine's documented schedule
//! (docs/kernels.md, "Scheduling": a warp runs until it ends or waits at a barrier, then the
//! next warp, in order) and the kernel's text; race-free kernels get none.

use crate::support::block as launch;
use crosslane_core::Level;
use crosslane_kernel::{Executor, KernelTrace, LaunchConfig, TraceMode};

fn run_with(src: &str, threads: usize, mode: TraceMode, typed: bool) -> KernelTrace {
    let mut ex = Executor::new(src, launch(threads))
        .unwrap_or_else(|e| panic!("{e}\n{src}"))
        .with_trace(mode)
        .with_typed_form(typed);
    while ex.run_for(1000) == 1000 {}
    ex.into_trace()
}

fn run(src: &str, threads: usize) -> KernelTrace {
    run_with(src, threads, TraceMode::Full, true)
}

/// The race check's diagnostics: (level, line, message).
fn races(t: &KernelTrace) -> Vec<(Level, u32, String)> {
    t.merged_diagnostics
        .iter()
        .filter(|d| d.message.starts_with("racecheck"))
        .map(|d| (d.level, d.line, d.message.clone()))
        .collect()
}

/// A buffer's cells as integers (`None` where undefined).
fn ints(t: &KernelTrace, name: &str) -> Vec<Option<i128>> {
    let b = t
        .memory
        .buffers
        .iter()
        .find(|b| b.name == name)
        .unwrap_or_else(|| panic!("no buffer `{name}`"));
    b.cells
        .iter()
        .map(|c| c.as_ref().and_then(|k| k.as_int()))
        .collect()
}

/// A block reduction missing the `__syncthreads()` inside its loop, 128 threads (4 warps of
/// 32), `in[t] = t`. Warp 0 runs the whole loop before warp 1 starts it: at stride 64 it sets
/// s[i] = i + (64 + i) for i < 32; at stride 32 it adds s[32 + i], which warp 1 has not updated
/// yet, so 32 + i: s[i] = 3i + 96; the strides 16..1 stay in warp 0 and sum those 32 values:
/// sum(3i + 96 for i in range(32)) = 3 * 496 + 96 * 32 = 4560 (the right sum of 0..127 is
/// 8128). Then warp 1 updates s[32..63] at stride 64: lane 0 writes s[32], which warp 0's lane 0
/// read at stride 32 on the same line 7 — one write-after-read hazard. Warps 2 and 3 never
/// pass `t < stride`; nothing else is touched by two warps between barriers.
#[test]
fn a_reduction_missing_its_loop_barrier_reports_the_write_after_read() {
    let src = "__global__ void sum(const int* in, int* out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    for (int stride = 64; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
    }
    if (t == 0) out[0] = s[0];
}";
    for (mode, typed) in [
        (TraceMode::Full, true),
        (TraceMode::None, true),
        (TraceMode::None, false),
    ] {
        let t = run_with(src, 128, mode, typed);
        assert_eq!(ints(&t, "out")[0], Some(4560), "{:?}", t.merged_diagnostics);
        let r = races(&t);
        assert_eq!(r.len(), 1, "{r:?}");
        assert_eq!((r[0].0, r[0].1), (Level::Warning, 7));
        assert!(
            r[0].1 == 7
                && r[0].2.starts_with(
                    "racecheck: write-after-read hazard on `s[32]`: warp 1 lane 0 (thread 32) writes it at line 7, warp 0 lane 0 (thread 0) read it at line 7, with no barrier between them"
                ),
            "{r:?}"
        );
        assert!(
            r[0].2.contains("on the device it may see this write"),
            "{r:?}"
        );
    }
}

/// The same reduction with the barrier in its loop: no hazard, and the sum of 0..127 = 8128.
#[test]
fn the_reduction_with_its_barriers_reports_nothing() {
    let src = "__global__ void sum(const int* in, int* out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    for (int stride = 64; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) out[0] = s[0];
}";
    let t = run(src, 128);
    assert_eq!(ints(&t, "out")[0], Some(8128));
    assert_eq!(races(&t), vec![]);
}

/// A reversal through shared memory missing the barrier between the store and the load, 64
/// threads, `in[t] = t`, `s` zeroed before a barrier. Warp 0 stores s[0..31] = 0..31, then
/// reads s[63 - t] = s[63..32], still 0: out[0..31] = 0. Warp 1 then stores s[32..63]: lane 0
/// writes s[32], which warp 0's lane 31 (63 - 31 = 32) read at line 7 — write-after-read at
/// line 6; then it reads s[63 - t] = s[31..0] = 31..0, and lane 0 reads s[31], which warp 0's
/// lane 31 wrote at line 6 — read-after-write at line 7. The zeroing is before the barrier:
/// no hazard with it.
#[test]
fn a_reversal_missing_its_barrier_reports_both_hazards() {
    let src = "__global__ void rev(const int* in, int* out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = 0;
    __syncthreads();
    s[t] = in[t];
    out[t] = s[63 - t];
}";
    let t = run(src, 64);
    let want: Vec<Option<i128>> = (0..64)
        .map(|t| Some(if t < 32 { 0 } else { 63 - t }))
        .collect();
    assert_eq!(ints(&t, "out"), want);
    let r = races(&t);
    assert_eq!(r.len(), 2, "{r:?}");
    assert_eq!((r[0].0, r[0].1), (Level::Warning, 6), "{r:?}");
    assert!(r[0].2.starts_with("racecheck: write-after-read hazard on `s[32]`: warp 1 lane 0 (thread 32) writes it at line 6, warp 0 lane 31 (thread 31) read it at line 7"), "{r:?}");
    assert_eq!((r[1].0, r[1].1), (Level::Warning, 7), "{r:?}");
    assert!(r[1].2.starts_with("racecheck: read-after-write hazard on `s[31]`: warp 1 lane 0 (thread 32) reads it at line 7, warp 0 lane 31 (thread 31) wrote it at line 6"), "{r:?}");
    assert!(
        r[1].2
            .contains("the device may read the value from before it"),
        "{r:?}"
    );
}

/// Two warps' lane 0 write their thread index to one shared scalar: 0, then 32 — a
/// write-after-write of different values, and every thread reads the later one, 32.
#[test]
fn two_warps_writing_different_values_is_a_write_after_write_warning() {
    let src = "__global__ void last(int* out) {
    __shared__ int who;
    if (threadIdx.x % 32 == 0) who = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = who;
}";
    let t = run(src, 64);
    assert_eq!(ints(&t, "out"), vec![Some(32); 64]);
    let r = races(&t);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!((r[0].0, r[0].1), (Level::Warning, 3));
    assert!(r[0].2.starts_with("racecheck: write-after-write hazard on `who`: warp 1 lane 0 (thread 32) writes it at line 3, warp 0 lane 0 (thread 0) wrote another value at line 3"), "{r:?}");
}

/// Every warp's lane 0 sets a flag to 1: the same value, so an info, not a warning.
#[test]
fn writes_of_the_same_value_are_an_info() {
    let src = "__global__ void flag(int* out) {
    __shared__ int f;
    if (threadIdx.x % 32 == 0) f = 1;
    __syncthreads();
    out[threadIdx.x] = f;
}";
    let t = run(src, 96);
    assert_eq!(ints(&t, "out"), vec![Some(1); 96]);
    let r = races(&t);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!((r[0].0, r[0].1), (Level::Info, 3), "{r:?}");
    assert!(r[0].2.contains("of the same value"), "{r:?}");
}

/// Atomics are not hazards: every thread adds 1 to a shared counter with no barrier between
/// the warps' additions; 64 threads give 64.
#[test]
fn atomics_from_every_warp_are_not_hazards() {
    let src = "__global__ void count(int* out) {
    __shared__ int c;
    if (threadIdx.x == 0) c = 0;
    __syncthreads();
    atomicAdd(&c, 1);
    __syncthreads();
    out[threadIdx.x] = c;
}";
    let t = run(src, 64);
    assert_eq!(ints(&t, "out"), vec![Some(64); 64]);
    assert_eq!(races(&t), vec![]);
}

/// vLLM's `atomicMaxFloat` shape: an atomic through an `int*` over a shared `float` reads and
/// writes the cell's bytes with plain loads and stores inside the model; they are still the
/// atomic's, so no hazard. Expected: the largest `0.25 * t` over 64 threads, 0.25 * 63.
#[test]
fn an_atomic_through_a_pointer_of_another_type_is_not_a_hazard() {
    let src = "__global__ void k(float* out) {
    __shared__ float m;
    if (threadIdx.x == 0) m = 0.0f;
    __syncthreads();
    atomicMax((int*)&m, __float_as_int(0.25f * threadIdx.x));
    __syncthreads();
    out[threadIdx.x] = m;
}";
    let t = run(src, 64);
    assert_eq!(races(&t), vec![]);
    let out = t
        .memory
        .buffers
        .iter()
        .find(|b| b.name == "out")
        .expect("out");
    for c in &out.cells {
        assert_eq!(
            c.as_ref().map(ToString::to_string).as_deref(),
            Some("15.75")
        );
    }
}

/// One warp: its lanes run in lock-step (no other warp to race with), nothing is reported
/// even where a 64-thread block would race.
#[test]
fn a_block_of_one_warp_is_not_checked() {
    let src = "__global__ void rev(const int* in, int* out) {
    __shared__ int s[32];
    int t = threadIdx.x;
    s[t] = in[t];
    out[t] = s[31 - t];
}";
    let t = run(src, 32);
    let want: Vec<Option<i128>> = (0..32).map(|t| Some(31 - t)).collect();
    assert_eq!(ints(&t, "out"), want);
    assert_eq!(races(&t), vec![]);
}

/// A kernel racing at more line pairs than the cap: thread 0 writes s[0], then 20 lines each
/// read it in every thread; warp 1's reads are 20 read-after-write pairs (line 3, line 5..24).
/// The first 16 are reported, then one line says the rest are not.
#[test]
fn hazards_past_the_cap_are_summarized_once() {
    let mut src = String::from(
        "__global__ void many(int* out) {\n    __shared__ int s[1];\n    if (threadIdx.x == 0) s[0] = 1;\n    int v = 0;\n",
    );
    for _ in 0..20 {
        src.push_str("    v += s[0];\n");
    }
    src.push_str("    out[threadIdx.x] = v;\n}");
    let t = run(&src, 64);
    let r = races(&t);
    assert_eq!(r.len(), 17, "{r:?}");
    for (k, (level, line, m)) in r.iter().take(16).enumerate() {
        assert_eq!((*level, *line), (Level::Warning, 5 + k as u32), "{m}");
        assert!(
            m.starts_with("racecheck: read-after-write hazard on `s`"),
            "{m}"
        );
    }
    assert_eq!(r[16].1, 21);
    assert!(r[16]
        .2
        .contains("further hazards in this run are not listed"));
    // Warp 0 saw its own write (20); warp 1 read what warp 0 wrote before it ran (20 too).
    assert_eq!(ints(&t, "out"), vec![Some(20); 64]);
}

/// The other block barriers end an interval too: `cg::this_thread_block().sync()` and
/// `__syncthreads_count` (CUDA C++ Programming Guide, Synchronization Functions: "identical to
/// `__syncthreads()`" with a count), whose model's own shared count (`__syncthreads_count_total`,
/// cleared by each warp) is no hazard of the user's. out[t] = s[63 - t] = 63 - t, plus the
/// count of the 64 threads passing 1.
#[test]
fn cooperative_group_sync_and_the_barrier_votes_order_the_warps() {
    let cg = "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void rev(const int* in, int* out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    cg::this_thread_block().sync();
    out[t] = s[63 - t];
}";
    let t = run(cg, 64);
    let want: Vec<Option<i128>> = (0..64).map(|t| Some(63 - t)).collect();
    assert_eq!(ints(&t, "out"), want);
    assert_eq!(races(&t), vec![]);
    let vote = "__global__ void rev(const int* in, int* out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    int n = __syncthreads_count(1);
    out[t] = s[63 - t] + n;
}";
    let t = run(vote, 64);
    let want: Vec<Option<i128>> = (0..64).map(|t| Some(63 - t + 64)).collect();
    assert_eq!(ints(&t, "out"), want);
    assert_eq!(races(&t), vec![]);
}

/// WGSL: a `var<workgroup>` reversal missing its `workgroupBarrier()`, subgroups of 32. The
/// workgroup memory starts zeroed (invocation 0 stores the zeros, then a barrier): subgroup 0
/// stores s[0..31] and reads s[63..32], still 0; subgroup 1 stores s[32..63] (write-after-read
/// on s[32] against invocation 31's read at line 6) and reads s[31..0] = 31..0
/// (read-after-write on s[31] against invocation 31's write at line 5).
#[test]
fn a_wgsl_workgroup_race_is_reported_citing_the_wgsl_memory_model() {
    let src = "var<workgroup> s: array<u32, 64>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
    s[i] = i;
    out[i] = s[63u - i];
}";
    let config = LaunchConfig {
        lanes: Some(32),
        buffer_len: [("out".to_string(), 64)].into_iter().collect(),
        ..LaunchConfig::default()
    };
    let t = crosslane_kernel::wgsl::run_wgsl(src, config).unwrap();
    let want: Vec<Option<i128>> = (0..64)
        .map(|t| Some(if t < 32 { 0 } else { 63 - t }))
        .collect();
    assert_eq!(ints(&t, "out"), want);
    let r = races(&t);
    assert_eq!(r.len(), 2, "{r:?}");
    assert_eq!(r[0].1, 5, "{r:?}");
    assert!(r[0].2.starts_with("racecheck: write-after-read hazard on `s[32]`: warp 1 lane 0 (thread 32) writes it at line 5, warp 0 lane 31 (thread 31) read it at line 6"), "{r:?}");
    assert_eq!(r[1].1, 6, "{r:?}");
    assert!(
        r[1].2
            .starts_with("racecheck: read-after-write hazard on `s[31]`"),
        "{r:?}"
    );
    let rule = &t
        .merged_diagnostics
        .iter()
        .find(|d| d.message.starts_with("racecheck"))
        .map(|d| d.rule.clone())
        .unwrap_or_default();
    assert!(rule.starts_with("WGSL spec"), "{rule}");
}

/// A shared buffer whose logs would pass the memory budget is left unchecked, with a note,
/// and the run goes on: `s` holds 4096 cells (4096 × 32 = 131 072 bytes), its logs would take
/// 4096 × 56 = 229 376 more, and the budget is 300 000 bytes. The reversal's race is then not
/// reported; out[t] is as in the reversal above: warp 0 reads the zeros of s[63..32] (stored
/// before the barrier), warp 1 reads s[31..0] = 31..0.
#[test]
fn a_shared_buffer_too_big_to_log_is_left_unchecked_with_a_note() {
    let src = "__global__ void rev(const int* in, int* out) {
    __shared__ int s[4096];
    int t = threadIdx.x;
    s[t] = 0;
    s[t + 64] = 0;
    __syncthreads();
    s[t] = in[t];
    out[t] = s[63 - t];
}";
    let mut config = launch(64);
    config.limits.max_memory = 300_000;
    let mut ex = Executor::new(src, config)
        .unwrap()
        .with_trace(TraceMode::None);
    while ex.run_for(1000) == 1000 {}
    let t = ex.into_trace();
    assert!(
        matches!(t.outcome, Some(crosslane_kernel::Outcome::Finished)),
        "{:?}",
        t.outcome
    );
    let want: Vec<Option<i128>> = (0..64)
        .map(|t| Some(if t < 32 { 0 } else { 63 - t }))
        .collect();
    assert_eq!(ints(&t, "out"), want);
    let r = races(&t);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].0, Level::Info);
    assert!(
        r[0].2
            .starts_with("racecheck: `s` is not checked for races"),
        "{r:?}"
    );
}

/// Runs `src` as `blocks` blocks of `threads` CUDA threads with `buffers`.
fn run_grid(
    src: &str,
    threads: usize,
    blocks: usize,
    buffers: &[(&str, usize, &str)],
) -> KernelTrace {
    let config = crate::support::launch_grid(threads, blocks, buffers);
    let mut ex = Executor::new(src, config).unwrap_or_else(|e| panic!("{e}\n{src}"));
    while ex.run_for(1000) == 1000 {}
    ex.into_trace()
}

/// Global memory within a block follows the shared rule (`__syncthreads()` orders a block's
/// global accesses too). Two warps' lane 0 write w + 1 to global o[0] (1, then 2) and to the
/// shared s: two write-after-write warnings, o[0] = 2 and o[1] = s = 2 here.
#[test]
fn two_warps_writing_one_global_cell_is_a_write_after_write_warning() {
    let src = "__global__ void k(int* o) {
  int w = threadIdx.x / 32;
  if (threadIdx.x % 32 == 0) o[0] = w + 1;
  __shared__ int s;
  if (threadIdx.x % 32 == 0) s = w + 1;
  __syncthreads();
  if (threadIdx.x == 0) o[1] = s;
}";
    let t = run_grid(src, 64, 1, &[("o", 2, "0")]);
    assert_eq!(ints(&t, "o"), vec![Some(2), Some(2)]);
    let r = races(&t);
    assert_eq!(r.len(), 2, "{r:?}");
    assert_eq!((r[0].0, r[0].1), (Level::Warning, 3));
    assert!(r[0].2.starts_with("racecheck: write-after-write hazard on `o[0]`: warp 1 lane 0 (thread 32) writes it at line 3, warp 0 lane 0 (thread 0) wrote another value at line 3"), "{r:?}");
    assert_eq!((r[1].0, r[1].1), (Level::Warning, 5));
    assert!(r[1].2.contains("hazard on `s`"), "{r:?}");
}

/// Three blocks of one warp write blockIdx.x + 1 to one global cell: blocks run in order
/// here, so o = 3; block 1's write of 2 over block 0's 1 is a write-after-write between blocks
/// (block 2's, on the same line pair, is not listed again). No barrier orders blocks.
#[test]
fn two_blocks_writing_one_global_cell_is_a_write_after_write_warning() {
    let src = "__global__ void k(int* o) {
  if (threadIdx.x == 0) o[0] = blockIdx.x + 1;
}";
    let t = run_grid(src, 32, 3, &[("o", 2, "0")]);
    assert_eq!(ints(&t, "o"), vec![Some(3), Some(0)]);
    let r = races(&t);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!((r[0].0, r[0].1), (Level::Warning, 2));
    assert!(r[0].2.starts_with("racecheck: write-after-write hazard on `o[0]` between blocks: block 1 warp 0 lane 0 (thread 0) writes it at line 2, block 0 warp 0 lane 0 (thread 0) wrote another value at line 2"), "{r:?}");
}

/// Blocks writing the same value to one cell: an info, as for shared memory.
#[test]
fn blocks_writing_the_same_value_are_an_info() {
    let src = "__global__ void k(int* o) {
  if (threadIdx.x == 0) o[0] = 1;
}";
    let t = run_grid(src, 32, 2, &[("o", 1, "0")]);
    assert_eq!(ints(&t, "o"), vec![Some(1)]);
    let r = races(&t);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!((r[0].0, r[0].1), (Level::Info, 2), "{r:?}");
    assert!(r[0].2.contains("of the same value between blocks"), "{r:?}");
}

/// Race-free global use gets nothing: each thread writes its own cell; warp 0 writes g, a
/// barrier, warp 1 reads it; and the Programming Guide's "last block" shape, where every block
/// writes its own partial, fences, counts itself with an atomic, and the last block reads
/// every block's partial (a read across blocks is not checked: the fence and the atomic order
/// it). 2 blocks of 64: partial[b] = sum over its threads of t = 2016 (0..63), total 4032.
#[test]
fn ordered_global_accesses_are_not_hazards() {
    let src = "__device__ unsigned int count = 0;
__global__ void k(int* g, int* partial, int* total) {
  __shared__ int last;
  int t = threadIdx.x;
  g[blockIdx.x * 64 + t] = t;
  __syncthreads();
  int v = g[blockIdx.x * 64 + (t + 32) % 64];
  __syncthreads();
  if (t == 0) {
    int s = 0;
    for (int i = 0; i < 64; i++) s += g[blockIdx.x * 64 + i];
    partial[blockIdx.x] = s + v - 32;
    __threadfence();
    last = (atomicInc(&count, gridDim.x) == gridDim.x - 1);
  }
  __syncthreads();
  if (last && t == 0) total[0] = partial[0] + partial[1];
}";
    let t = run_grid(
        src,
        64,
        2,
        &[("g", 128, "0"), ("partial", 2, "0"), ("total", 1, "0")],
    );
    assert_eq!(ints(&t, "partial"), vec![Some(2016), Some(2016)]);
    assert_eq!(ints(&t, "total"), vec![Some(4032)]);
    assert_eq!(races(&t), vec![]);
}
