//! The executor allocates nothing: not per comparator, not per stage, not at all on the
//! sequential path (the one wasm32 always takes). A counting global allocator shows it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use crosslane_core::network::{sort_keys_with, sort_pairs_with, ExecOptions};

struct Counting;

thread_local! {
    // Per thread, so that the test harness's own threads do not count.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn allocations() -> usize {
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

#[test]
fn sequential_sort_allocates_nothing() {
    let n = 50_000;
    let mut keys: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(2_654_435_761) % 1000)
        .collect();
    let mut values: Vec<u32> = (0..n as u32).collect();
    let seq = ExecOptions {
        block: 1024,
        parallel: false,
    };
    let before = allocations();
    sort_keys_with(&mut keys, seq).unwrap();
    sort_pairs_with(&mut keys, &mut values, seq).unwrap();
    let after = allocations();
    assert_eq!(after - before, 0, "the executor allocated");
    // The counter does count: a Vec allocates once.
    let v = std::hint::black_box(vec![1u8; 10]);
    assert_eq!(allocations() - after, 1);
    drop(v);
    assert!(keys.windows(2).all(|w| w[0] <= w[1]));
}
