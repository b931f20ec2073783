//! The kernel engine's hot path allocates nothing per lane or per statement: a run of a wave64
//! warp makes as many heap allocations as the same run on 32 lanes, and a loop run twice as long
//! makes not one allocation more (steady state: scratch rows and kept plans are reused). Counted
//! with a counting global allocator, as `tests/network_alloc.rs` does, so this program links
//! separately.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use crosslane_core::Dialect;
use crosslane_kernel::bench::{arith_loop, shuffle_loop};
use crosslane_kernel::{run_kernel_traced, LaunchConfig, Outcome, TraceMode};

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
fn a_loop_allocates_nothing_per_statement_or_lane() {
    // HIP's own `__shfl_xor` (no member mask), so that a wave64 runs every lane: a 32-bit
    // `_sync` mask would leave lanes 32..63 undefined, each with its reason (the op's result,
    // not the engine's).
    let hip = |s: String| s.replace("__shfl_xor_sync(0xffffffff, v, 1)", "__shfl_xor(v, 1)");
    assert!(hip(shuffle_loop(1)).contains("__shfl_xor(v, 1)"));
    for (name, source) in [
        ("arith", arith_loop as fn(u32) -> String),
        ("shuffle", shuffle_loop),
    ] {
        let (n32, steps32) = count(&hip(source(200)), 32);
        let (n64, steps64) = count(&hip(source(200)), 64);
        assert_eq!(steps32, steps64, "{name}: the same statements");
        // 2 declarations, 201 tests, 200 bodies, 200 increments, the store.
        assert_eq!(steps32, 604, "{name}");
        // Twice the lanes, and not one allocation more per statement: the only per-lane ones
        // are the final store's (one recorded write per lane).
        assert!(
            n64 <= n32 + 2 * 64,
            "{name}: {n64} allocations on 64 lanes, {n32} on 32"
        );
        // Twice the iterations (600 more statements), not one allocation more: the loop's
        // statements run in their typed form on scratch rows, and a shuffle replays its plan.
        let (n32_long, steps_long) = count(&hip(source(400)), 32);
        assert_eq!(steps_long, steps32 + 600, "{name}");
        eprintln!(
            "{name}: {n32} allocations for 200 iterations on 32 lanes, {n32_long} for 400, {n64} on 64 lanes"
        );
        assert_eq!(
            n32_long,
            n32,
            "{name}: {} allocations in 600 more statements",
            n32_long as i64 - n32 as i64
        );
    }
    // The CUDA form with its full member mask on 32 lanes allocates nothing per iteration either.
    let cuda = |n| {
        let config = LaunchConfig {
            dialect: Some(Dialect::Cuda),
            block_dim: Some([32, 1, 1]),
            ..LaunchConfig::default()
        };
        let before = allocations();
        let t = run_kernel_traced(&shuffle_loop(n), config, TraceMode::None).expect("runs");
        assert_eq!(t.outcome, Some(Outcome::Finished));
        allocations() - before
    };
    assert_eq!(
        cuda(400),
        cuda(200),
        "__shfl_xor_sync: allocations per iteration"
    );
    // The counter does count: a Vec allocates once.
    let before = allocations();
    let v = std::hint::black_box(vec![1u8; 10]);
    assert_eq!(allocations() - before, 1);
    drop(v);
}
