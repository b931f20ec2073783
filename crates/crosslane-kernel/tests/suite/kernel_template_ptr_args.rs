//! A template type parameter bound to a pointer type: `template <typename PtrT> int
//! reduce_sum(const thread_group& g, PtrT workspace, int val)` called with a global pointer, a
//! `volatile` pointer, a shared array or `array + offset` (C++17 [temp.deduct.call]/2: an array
//! argument decays to a pointer, and the parameter's type is the argument's; /4 drops its
//! top-level cv-qualifiers), or given explicitly (`f<int*>`, [temp.arg.type]/1). Before, the
//! parameter could not be deduced and the whole source was refused. Also a `thread_group`
//! parameter given the grid (`this_grid()`, written without its namespace): its `sync()` is the
//! grid barrier (CUDA C++ Programming Guide, Cooperative Groups, "Grid Synchronization").
//! Expected values are worked out by hand in the comments.

use crate::support::{ints, launch_grid, run_finished};

#[test]
fn a_type_parameter_deduced_from_pointers_and_arrays_reads_through_them() {
    let src = "\
template <typename P>
__device__ int at(P w, int v) { return w[threadIdx.x] + v; }
__global__ void k(int *a, int *o) {
  __shared__ int s[8];
  s[threadIdx.x] = 10;
  __syncthreads();
  volatile int *vs = s;
  o[threadIdx.x] = at(a, 1) + at(s, 0) + at(vs, 100) + at<int *>(a, 0);
}
";
    // a = 0..7 (the index fill); lane i: (i + 1) + 10 + (10 + 100) + i = 2i + 121.
    let t = run_finished(src, launch_grid(8, 1, &[("a", 8, "index")]));
    let want: Vec<Option<i128>> = (0..8).map(|i| Some(2 * i + 121)).collect();
    assert_eq!(ints(&t, "o"), want);
}

#[test]
fn a_pointer_type_parameter_declares_locals_and_offsets() {
    let src = "\
template <typename PtrT>
__device__ void put(PtrT base, int off, int v) {
  PtrT p = base + off;
  p[threadIdx.x] = v;
}
__global__ void k(int *o) {
  __shared__ int s[16];
  put(s, 8, 3);
  put(s, 0, 4);
  __syncthreads();
  o[threadIdx.x] = s[threadIdx.x] + s[threadIdx.x + 8];
}
";
    // put writes s[8..16) = 3 and s[0..8) = 4: each lane reads 4 + 3 = 7.
    let t = run_finished(src, launch_grid(8, 1, &[("o", 8, "zero")]));
    assert_eq!(ints(&t, "o"), vec![Some(7); 8]);
}

#[test]
fn a_thread_group_parameter_given_the_grid_synchronizes_the_grid() {
    let src = "\
#include <cooperative_groups.h>
using namespace cooperative_groups;
template <typename PtrT>
__device__ int tree_sum(const thread_group &g, PtrT w, int v) {
  int lane = g.thread_rank();
  for (int i = g.size() / 2; i > 0; i /= 2) {
    w[lane] = v;
    g.sync();
    if (lane < i) v += w[lane + i];
    g.sync();
  }
  return v;
}
__global__ void k(const int *in, int *ws, int *out) {
  grid_group grid = this_grid();
  int v = tree_sum(grid, ws, in[grid.thread_rank()]);
  if (grid.thread_rank() == 0) out[0] = v;
}
";
    // 4 blocks of 32 threads, in = 1..128: the sum 128 * 129 / 2 = 8256. With a block barrier
    // in place of the grid's, block 0 would read the zeros of ws the other blocks had not
    // written yet: 1 + … + 32 = 528.
    let t = run_finished(
        src,
        launch_grid(
            32,
            4,
            &[("in", 128, "i+1"), ("ws", 128, "zero"), ("out", 1, "zero")],
        ),
    );
    assert_eq!(ints(&t, "out"), vec![Some(8256)]);
}
