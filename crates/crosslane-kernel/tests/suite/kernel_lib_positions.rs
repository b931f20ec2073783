//! Run-time diagnostics raised inside crosslane's library declarations (rocPRIM's warp
//! reduction, CCCL's `cuda::device::warp_shuffle_*`) are shown at the user's call, naming the
//! library function, and no position a user sees has a column past its line (the
//! declarations' tokens take columns of their own far past any line, `ast::ROCPRIM_PRELUDE_COL`).
//! Kernels written here in the shapes of rocPRIM's warp-reduce tests and the CUDA C++
//! Programming Guide's `warp_broadcast_kernel`.

use crate::support::{ints, launch_lanes};
use crosslane_core::op::Dialect;
use crosslane_core::result::Level;
use crosslane_kernel::{run_kernel, KernelTrace, Outcome};

/// Every position in `t` (steps, their diagnostics, the run's diagnostics, the merged ones
/// and the error) lies within `src`: a line of it and a column at most one past its end.
fn positions_within(src: &str, t: &KernelTrace) {
    let lines: Vec<usize> = src.lines().map(|l| l.chars().count()).collect();
    let ok = |line: u32, col: u32, what: &str| {
        let len = lines
            .get((line as usize).wrapping_sub(1))
            .unwrap_or_else(|| panic!("{what}: line {line} is not in the source"));
        assert!(
            col >= 1 && col as usize <= len + 1,
            "{what}: {line}:{col} is past the line ({len} characters)"
        );
    };
    for s in &t.steps {
        ok(s.line, s.col, &format!("step {} `{}`", s.index, s.text));
        for d in &s.diagnostics {
            ok(d.line, d.col, &d.message);
        }
    }
    for d in &t.diagnostics {
        ok(d.line, d.col, &d.message);
    }
    for d in &t.merged_diagnostics {
        ok(d.line, d.col, &d.message);
    }
    if let Some(Outcome::Error(e)) = &t.outcome {
        ok(e.line, e.col, &e.message);
    }
}

/// libcu++ "warp_shuffle", Preconditions: `delta` less than `Width`; violated (16 with Width
/// 16), the run stops at the user's call (line 5, column 25: the name `warp_shuffle_down`), the message
/// naming the library function `warp_shuffle_down<16,int>` it was raised in; the steps inside
/// the library show the calling statement.
#[test]
fn a_cccl_precondition_stops_at_the_users_call() {
    let src = "\
#include <cuda/warp>
__global__ void k(int* out) {
  int lane = threadIdx.x % 32;
  int v = lane * 3;
  int r = cuda::device::warp_shuffle_down<16>(v, 16);
  out[threadIdx.x] = r;
}
";
    let t = run_kernel(src, launch_lanes(Dialect::Cuda, 32, &[("out", 32, "zero")])).unwrap();
    let Some(Outcome::Error(e)) = &t.outcome else {
        panic!("{:?}", t.outcome)
    };
    assert_eq!((e.line, e.col), (5, 25), "{}", e.message);
    assert!(
        e.message.contains("delta must be less than Width"),
        "{}",
        e.message
    );
    assert!(
        e.message.contains("`warp_shuffle_down<16,int>`"),
        "{}",
        e.message
    );
    let inside: Vec<&str> = t
        .steps
        .iter()
        .filter(|s| s.line == 5 && s.col == 1)
        .map(|s| s.text.as_str())
        .collect();
    assert!(
        inside.contains(&"int r = cuda::device::warp_shuffle_down<16>(v, 16);"),
        "{inside:?}"
    );
    positions_within(src, &t);
}

/// The Programming Guide's broadcast shape with a source lane that never set its value: the
/// shuffle inside `warp_shuffle_idx` reads lane 3's uninitialized `value` (undefined, a
/// warning), reported at the call (line 6, column 25), naming the library function.
#[test]
fn an_uninitialized_read_inside_a_cccl_shuffle_is_at_the_call() {
    let src = "\
#include <cuda/warp>
__global__ void k(int* out) {
  int laneId = threadIdx.x % 32;
  int value;
  if (laneId == 0) value = 5;
  int r = cuda::device::warp_shuffle_idx(value, 3);
  out[threadIdx.x] = r;
}
";
    let t = run_kernel(src, launch_lanes(Dialect::Cuda, 32, &[("out", 32, "zero")])).unwrap();
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    let d = t
        .all_diagnostics()
        .find(|d| d.message.contains("reads `data` where it is uninitialized"))
        .expect("the uninitialized read is reported");
    assert_eq!(
        (d.line, d.col, d.level),
        (6, 25, Level::Warning),
        "{}",
        d.message
    );
    assert!(
        d.message.contains("`warp_shuffle_idx<32,int>`"),
        "{}",
        d.message
    );
    positions_within(src, &t);
}

/// rocPRIM's `warp_reduce<int, 64>::reduce` where lanes 60–63 never set their input: the
/// reduction's shuffles read undefined values (warnings), each shown at the `reduce` call
/// (line 8, column 3) naming `warp_reduce<int,64,0>::reduce<plus<int>>`, never at a column
/// of the library's own; lane 0's sum is undefined (it folds lanes 60–63 in).
#[test]
fn rocprim_warp_reduce_diagnostics_are_at_the_call() {
    let src = "\
#include <rocprim/rocprim.hpp>
__global__ void k(int* out) {
  using wr = rocprim::warp_reduce<int, 64>;
  __shared__ typename wr::storage_type st;
  int v;
  if (threadIdx.x < 60) v = threadIdx.x;
  int r;
  wr().reduce(v, r, st);
  out[threadIdx.x] = r;
}
";
    let t = run_kernel(src, launch_lanes(Dialect::Hip, 64, &[("out", 64, "zero")])).unwrap();
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    let inside: Vec<_> = t
        .all_diagnostics()
        .filter(|d| d.message.contains("inside the library function"))
        .collect();
    assert!(!inside.is_empty());
    for d in inside {
        assert_eq!((d.line, d.col), (8, 3), "{}", d.message);
        assert!(
            d.message
                .contains("`warp_reduce<int,64,0>::reduce<plus<int>>`"),
            "{}",
            d.message
        );
    }
    assert_eq!(ints(&t, "out")[0], None);
    positions_within(src, &t);
}
