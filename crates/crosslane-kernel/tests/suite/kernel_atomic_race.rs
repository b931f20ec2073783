//! The race check against atomics (`kernel/machine/racecheck.rs`, "Atomics against plain
//! reads"): a plain read and an atomic of one cell by two warps of a block with no barrier
//! between them, or an atomic of a global cell an earlier block read, are a data race (C++17
//! [intro.races]/21: two conflicting actions, one of them not atomic); an atomic against an
//! atomic is none. Each expected hazard is reasoned by hand from the engine's schedule
//! (docs/kernels.md, "Scheduling": a warp runs until it ends or waits at a barrier, then the
//! next; blocks one after another) and the kernel's text.

use crate::support::{launch_grid, run_finished};
use crosslane_core::Level;
use crosslane_kernel::KernelTrace;

/// The race check's diagnostics: (level, line, message).
fn races(t: &KernelTrace) -> Vec<(Level, u32, String)> {
    t.merged_diagnostics
        .iter()
        .filter(|d| d.message.starts_with("racecheck"))
        .map(|d| (d.level, d.line, d.message.clone()))
        .collect()
}

/// A shared counter every thread adds 1 to, read back with no barrier after the additions:
/// 64 threads, two warps. Warp 0 adds 32 and reads 32; warp 1's atomic at line 5 meets warp
/// 0's read at line 6 (atomic-after-read), then warp 1 reads 64 after warp 0's atomic
/// (read-after-atomic).
#[test]
fn a_read_racing_an_atomic_of_another_warp_is_a_hazard() {
    let src = "__global__ void k(int* out) {
    __shared__ int c;
    if (threadIdx.x == 0) c = 0;
    __syncthreads();
    atomicAdd(&c, 1);
    out[threadIdx.x] = c;
}";
    let t = run_finished(src, launch_grid(64, 1, &[("out", 64, "0")]));
    let out = crate::support::ints(&t, "out");
    let want: Vec<Option<i128>> = (0..64)
        .map(|i| Some(if i < 32 { 32 } else { 64 }))
        .collect();
    assert_eq!(out, want);
    let r = races(&t);
    assert_eq!(r.len(), 2, "{r:?}");
    assert_eq!((r[0].0, r[0].1), (Level::Warning, 5), "{r:?}");
    assert!(
        r[0].2.starts_with(
            "racecheck: atomic-after-read hazard on `c`: warp 1 lane 0 (thread 32) updates it \
             atomically at line 5, warp 0 lane 0 (thread 0) read it with a plain read at line 6"
        ),
        "{r:?}"
    );
    assert_eq!((r[1].0, r[1].1), (Level::Warning, 6), "{r:?}");
    assert!(
        r[1].2.starts_with(
            "racecheck: read-after-atomic hazard on `c`: warp 1 lane 0 (thread 32) reads it \
             with a plain read at line 6, warp 0 lane 0 (thread 0) updated it atomically at \
             line 5"
        ),
        "{r:?}"
    );
}

/// `atomicMax` on a global cell, read after a barrier by the same block: ordered within the
/// block (2 warps), no hazard between the warps; the barrier between the atomics and the read
/// leaves nothing. One block, so no block hazard either. max(t) over 64 threads = 63.
#[test]
fn a_read_after_a_barrier_is_ordered_with_the_atomics() {
    let src = "__global__ void k(int* m, int* out) {
    atomicMax(m, (int)threadIdx.x);
    __syncthreads();
    out[threadIdx.x] = *m;
}";
    let t = run_finished(src, launch_grid(64, 1, &[("m", 1, "0"), ("out", 64, "0")]));
    assert_eq!(crate::support::ints(&t, "out"), vec![Some(63); 64]);
    assert_eq!(races(&t), vec![]);
}

/// Every block adds its threads to a global total, then thread 0 reads the total: block 0
/// (one warp of 32) reads 32 at line 4; block 1's `atomicAdd` at line 2 updates the cell block
/// 0 read, and nothing orders two blocks (atomic-after-read between blocks); block 1 reads 64.
#[test]
fn an_atomic_of_a_cell_an_earlier_block_read_is_a_hazard() {
    let src = "__global__ void k(int* total, int* seen) {
    atomicAdd(total, 1);
    __syncthreads();
    if (threadIdx.x == 0) seen[blockIdx.x] = *total;
}";
    let t = run_finished(
        src,
        launch_grid(32, 2, &[("total", 1, "0"), ("seen", 2, "0")]),
    );
    assert_eq!(crate::support::ints(&t, "seen"), vec![Some(32), Some(64)]);
    let r = races(&t);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!((r[0].0, r[0].1), (Level::Warning, 2), "{r:?}");
    assert!(
        r[0].2.starts_with(
            "racecheck: atomic-after-read hazard on `total` between blocks: block 1 warp 0 \
             lane 0 (thread 0) updates it atomically at line 2, block 0 warp 0 lane 0 (thread \
             0) read it with a plain read at line 4"
        ),
        "{r:?}"
    );
}

/// Atomics against atomics stay no hazard, across warps and blocks: a histogram of `t % 4`
/// over 2 blocks of 64 threads, 32 in each bin.
#[test]
fn atomics_against_atomics_are_no_hazard() {
    let src = "__global__ void k(int* bins) {
    atomicAdd(&bins[threadIdx.x % 4], 1);
    int old = atomicAdd(&bins[threadIdx.x % 4], 0);
    (void)old;
}";
    let t = run_finished(src, launch_grid(64, 2, &[("bins", 4, "0")]));
    assert_eq!(crate::support::ints(&t, "bins"), vec![Some(32); 4]);
    assert_eq!(races(&t), vec![]);
}
