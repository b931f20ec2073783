//! The kernel engine's hot path allocates nothing per lane: a run of a wave64 warp makes as many
//! heap allocations as the same run on 32 lanes, and a loop's statements cost a small, fixed
//! number of allocations each (the per-expression value rows), whatever the lane count. Counted
//! with a counting global allocator, as `tests/network_alloc.rs` does, so this program links
//! separately.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use crosslane_core::kernel::bench::{arith_loop, shuffle_loop};
use crosslane_core::kernel::{run_kernel_traced, LaunchConfig, Outcome, TraceMode};
use crosslane_core::Dialect;

struct Counting;

thread_local! {
    // Per thread, so that the test harness's own threads do not count.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations and steps of one warp of `lanes` HIP lanes running `source`, untraced.
fn count(source: &str, lanes: usize) -> (u64, u64) {
    let config = LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes: Some(lanes),
        block_dim: Some([lanes, 1, 1]),
        ..LaunchConfig::default()
    };
    let before = allocations();
    let t = run_kernel_traced(source, config, TraceMode::None).expect("runs");
    let n = allocations() - before;
    assert_eq!(t.outcome, Some(Outcome::Finished));
    (n, t.stats.steps)
}

#[test]
fn a_loop_allocates_per_statement_never_per_lane() {
    // HIP's own `__shfl_xor` (no member mask), so that a wave64 runs every lane: a 32-bit
    // `_sync` mask would leave lanes 32..63 undefined, each with its reason (the op's result,
    // not the engine's).
    let shuffle =
        shuffle_loop(200).replace("__shfl_xor_sync(0xffffffff, v, 1)", "__shfl_xor(v, 1)");
    assert!(shuffle.contains("__shfl_xor(v, 1)"));
    for (name, source, limit) in [("arith", arith_loop(200), 8.0), ("shuffle", shuffle, 24.0)] {
        let (n32, steps32) = count(&source, 32);
        let (n64, steps64) = count(&source, 64);
        assert_eq!(steps32, steps64, "{name}: the same statements");
        // 2 declarations, 201 tests, 200 bodies, 200 increments, the store.
        assert_eq!(steps32, 604, "{name}");
        // Twice the lanes, and not one allocation more per statement: the only per-lane ones
        // are the final store's (one recorded write per lane).
        assert!(
            n64 <= n32 + 2 * 64,
            "{name}: {n64} allocations on 64 lanes, {n32} on 32"
        );
        // What remains per statement: the per-expression value rows (and, for the shuffle, the
        // operation's own record). See the README's engine figures.
        let per_step = n32 as f64 / steps32 as f64;
        eprintln!(
            "{name}: {n32} allocations on 32 lanes, {n64} on 64, {per_step:.1} per statement"
        );
        assert!(
            per_step < limit,
            "{name}: {per_step:.1} allocations per statement"
        );
    }
    // The counter does count: a Vec allocates once.
    let before = allocations();
    let v = std::hint::black_box(vec![1u8; 10]);
    assert_eq!(allocations() - before, 1);
    drop(v);
}
