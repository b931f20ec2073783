//! Shapes of NVIDIA-family code (round four of the corpus) that were refused: the inline-PTX
//! warp scan step with the shuffle's validity predicate (`shfl.sync.up.b32 r0|p, …; @p add`,
//! as CUB's and hand-written warp scans write it), register ranges `.reg .s32 r<4>;`, the
//! pre-sm_70 `shfl.up.b32` without `.sync`, a special register written with one `%`
//! (`mov.u32 %0, %laneid;`, which nvcc reads), and a `const cg::grid_group &` parameter.
//! Kernels are written here; expected values come from the Python beside each test.

use crate::support::{floats, has, ints, launch_grid, run_finished};
use crosslane_core::result::Level;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig};

fn run(src: &str) -> KernelTrace {
    run_kernel(src, LaunchConfig::default()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_ptx_scan_step_adds_only_where_the_shuffle_predicate_is_set() {
    // Five steps of `shfl.sync.up.b32 r0|p, x, d, 0, 0xffffffff; @p add.u32 r0, r0, x;` give
    // each warp an inclusive scan (PTX ISA, shfl.sync: `.up` is valid when lane - d >= 0
    // with c = 0). Two warps of v = i + 1. Python:
    //   [sum(range(32 * (i // 32) + 1, i + 2)) for i in range(64)]
    let src = "\
__device__ unsigned step(unsigned x, unsigned d) {
  unsigned r;
  asm(\"{.reg .u32 r0;\"
      \".reg .pred p;\"
      \"shfl.sync.up.b32 r0|p, %1, %2, 0, 0xffffffff;\"
      \"@p add.u32 r0, r0, %3;\"
      \"mov.u32 %0, r0;}\"
      : \"=r\"(r) : \"r\"(x), \"r\"(d), \"r\"(x));
  return r;
}
__global__ void k(unsigned *o) {
  unsigned v = threadIdx.x + 1;
  for (int d = 1; d < 32; d <<= 1) v = step(v, d);
  o[threadIdx.x] = v;
}
";
    let t = run_finished(src, launch_grid(64, 1, &[("o", 64, "zero")]));
    let want: Vec<Option<i128>> = (0..64i128)
        .map(|i| Some((32 * (i / 32) + 1..=i + 1).sum()))
        .collect();
    assert_eq!(ints(&t, "o"), want);
}

#[test]
fn each_shfl_mode_reads_its_source_lane_and_sets_the_predicate_by_the_ptx_rule() {
    // Width 8 segments: c = ((32 - 8) << 8) | clamp, clamp 0 for `.up` and 0x1f for the
    // others (PTX ISA, shfl.sync). Value 100 + lane; the predicate stored with selp. Python
    // model of the ISA's pseudo-code (first 16 lanes):
    //   up 2:   [100,101,100,101,102,103,104,105,108,109,108,109,110,111,112,113]
    //           p [0,0,1,1,1,1,1,1,0,0,1,1,1,1,1,1]
    //   down 3: [103,104,105,106,107,105,106,107,111,112,113,114,115,113,114,115]
    //           p [1,1,1,1,1,0,0,0,1,1,1,1,1,0,0,0]
    //   bfly 5: [105,104,107,106,101,100,103,102,113,112,115,114,109,108,111,110] p all 1
    //   idx 3:  [103]*8 + [111]*8, p all 1
    let src = "\
__device__ void sh(int mode, int v, int *o, int *q) {
  int r, p;
  if (mode == 0)
    asm(\"{ .reg .pred p; shfl.sync.up.b32 %0|p, %2, 2, 0x1800, 0xffffffff; selp.s32 %1, 1, 0, p; }\"
        : \"=r\"(r), \"=r\"(p) : \"r\"(v));
  else if (mode == 1)
    asm(\"{ .reg .pred p; shfl.sync.down.b32 %0|p, %2, 3, 0x181f, 0xffffffff; selp.s32 %1, 1, 0, p; }\"
        : \"=r\"(r), \"=r\"(p) : \"r\"(v));
  else if (mode == 2)
    asm(\"{ .reg .pred p; shfl.sync.bfly.b32 %0|p, %2, 5, 0x181f, 0xffffffff; selp.s32 %1, 1, 0, p; }\"
        : \"=r\"(r), \"=r\"(p) : \"r\"(v));
  else
    asm(\"{ .reg .pred p; shfl.sync.idx.b32 %0|p, %2, 3, 0x181f, 0xffffffff; selp.s32 %1, 1, 0, p; }\"
        : \"=r\"(r), \"=r\"(p) : \"r\"(v));
  *o = r;
  *q = p;
}
__global__ void k(int *o, int *q) {
  for (int m = 0; m < 4; m++) sh(m, 100 + threadIdx.x, &o[m * 32 + threadIdx.x], &q[m * 32 + threadIdx.x]);
}
";
    let t = run_finished(src, launch_grid(32, 1, &[("o", 128, "zero"), ("q", 128, "zero")]));
    let o = ints(&t, "o");
    let q = ints(&t, "q");
    let first16 = |v: &[Option<i128>], m: usize| -> Vec<i128> {
        v[m * 32..m * 32 + 16].iter().map(|c| c.unwrap()).collect()
    };
    assert_eq!(
        first16(&o, 0),
        vec![100, 101, 100, 101, 102, 103, 104, 105, 108, 109, 108, 109, 110, 111, 112, 113]
    );
    assert_eq!(
        first16(&q, 0),
        vec![0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1]
    );
    assert_eq!(
        first16(&o, 1),
        vec![103, 104, 105, 106, 107, 105, 106, 107, 111, 112, 113, 114, 115, 113, 114, 115]
    );
    assert_eq!(
        first16(&q, 1),
        vec![1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0]
    );
    assert_eq!(
        first16(&o, 2),
        vec![105, 104, 107, 106, 101, 100, 103, 102, 113, 112, 115, 114, 109, 108, 111, 110]
    );
    assert_eq!(first16(&q, 2), vec![1; 16]);
    let mut idx = vec![103; 8];
    idx.extend(vec![111; 8]);
    assert_eq!(first16(&o, 3), idx);
}

#[test]
fn a_float_register_scan_step_moves_the_bits_and_a_zero_member_mask_is_undefined() {
    // `.reg .f32 r0; shfl.sync.up.b32 r0|p, %1, %2, 0, M; @p add.f32 r0, r0, %1;` with the
    // float operand `"f"(x)`. With M = 0xffffffff the five steps scan 0.5 * lane: Python
    //   [0.5 * sum(range(i + 1)) for i in range(32)]
    // With M = 0 no lane is in the member mask: undefined (PTX ISA, shfl.sync: the calling
    // thread must be in membermask).
    let src = "\
template <unsigned M>
__device__ float add(float x, int d) {
  float r = 0;
  asm volatile(\"{.reg .f32 r0;\"
      \".reg .pred p;\"
      \"shfl.sync.up.b32 r0|p, %1, %2, 0, %3;\"
      \"@p add.f32 r0, r0, %1;\"
      \"mov.f32 %0, r0;}\"
      : \"=f\"(r) : \"f\"(x), \"r\"(d), \"n\"(M));
  return r;
}
__global__ void k(float *o, float *z) {
  float v = 0.5f * threadIdx.x, w = v;
  for (int d = 1; d < 32; d <<= 1) { v = add<0xffffffffu>(v, d); w = add<0u>(w, d); }
  o[threadIdx.x] = v;
  z[threadIdx.x] = w;
}
";
    let t = run_finished(src, launch_grid(32, 1, &[("o", 32, "zero"), ("z", 32, "zero")]));
    let want: Vec<Option<f64>> = (0..32)
        .map(|i| Some(0.5 * f64::from((0..=i).sum::<i32>())))
        .collect();
    assert_eq!(floats(&t, "o"), want);
    assert!(floats(&t, "z").iter().all(Option::is_none));
    assert!(has(&t, Level::Warning, "not in mask"));
}

#[test]
fn register_ranges_declare_numbered_registers() {
    // `.reg .s32 r<3>; .reg .pred p<3>;` are r0..r2 and p0..p2 (PTX ISA, "Parameterized
    // Variable Names"): three chained scan steps over 8-lane segments (c = 0x1800).
    // v = 1 each lane: Python [min(i % 8, 7) + 1 for i in range(32)] == [1..8] * 4.
    let src = "\
__global__ void k(int *o) {
  int v = 1, r;
  asm(\"{.reg .s32 r<3>; .reg .pred p<3>;\"
      \"shfl.sync.up.b32 r0|p0, %1, 1, 0x1800, -1; @p0 add.s32 r0, r0, %1;\"
      \"shfl.sync.up.b32 r1|p1, r0, 2, 0x1800, -1; @p1 add.s32 r1, r1, r0;\"
      \"shfl.sync.up.b32 r2|p2, r1, 4, 0x1800, -1; @p2 add.s32 r2, r2, r1;\"
      \"mov.s32 %0, r2;}\" : \"=r\"(r) : \"r\"(v));
  o[threadIdx.x] = r;
}
";
    let t = run_finished(src, launch_grid(32, 1, &[("o", 32, "zero")]));
    let want: Vec<Option<i128>> = (0..32).map(|i| Some(i % 8 + 1)).collect();
    assert_eq!(ints(&t, "o"), want);
}

#[test]
fn a_shfl_without_sync_runs_over_the_executing_lanes_with_the_pre_cuda_9_warning() {
    // The one-line `shfl.up.b32 %0, %1, %2, %3;` (pre-sm_70 PTX): lane i gets lane i - 1's
    // value, lane 0 its own (c = 0). Python: [0] + list(range(31)).
    let src = "\
__global__ void k(int *o) {
  int v = threadIdx.x, r;
  asm(\"shfl.up.b32 %0, %1, %2, %3;\" : \"=r\"(r) : \"r\"(v), \"r\"(1), \"r\"(0));
  o[threadIdx.x] = r;
}
";
    let t = run_finished(src, launch_grid(32, 1, &[("o", 32, "zero")]));
    let mut want = vec![Some(0)];
    want.extend((0..31).map(Some));
    assert_eq!(ints(&t, "o"), want);
    assert!(has(&t, Level::Warning, "pre-CUDA-9"));
}

#[test]
fn a_special_register_written_with_one_percent_is_read_in_cuda() {
    // nvcc reads `mov.u32 %0, %lanemask_lt;` (a `%` before a letter is no operand there):
    // lane i gets (1 << i) - 1. Python: [(1 << i) - 1 for i in range(32)].
    let src = "\
__global__ void k(unsigned *o) {
  unsigned m;
  asm(\"mov.u32 %0, %lanemask_lt;\" : \"=r\"(m));
  o[threadIdx.x] = m;
}
";
    let t = run_finished(src, launch_grid(32, 1, &[("o", 32, "zero")]));
    let want: Vec<Option<i128>> = (0..32).map(|i| Some((1i128 << i) - 1)).collect();
    assert_eq!(ints(&t, "o"), want);
}

#[test]
fn a_grid_group_reference_parameter_is_the_launch_grid() {
    // `void f(..., const cg::grid_group &grid)` strides by `grid.size()` from
    // `grid.thread_rank()`, as the conjugate-gradient sample's helpers do; a cooperative launch
    // of 2 blocks of 32 covers 100 cells: Python [2 * i for i in range(100)].
    let src = "\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ void twice(const float *x, float *y, int n, const cg::grid_group &grid) {
  for (int i = grid.thread_rank(); i < n; i += grid.size()) y[i] = 2.0f * x[i];
}
__global__ void k(const float *x, float *y, int n) {
  cg::grid_group grid = cg::this_grid();
  twice(x, y, n, grid);
  grid.sync();
}
int main() {
  float *x, *y;
  int n = 100;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&y, n * sizeof(float));
  for (int i = 0; i < 100; i++) x[i] = i;
  void *args[] = {&x, &y, &n};
  cudaLaunchCooperativeKernel((void *)k, dim3(2), dim3(32), args, 0, 0);
  cudaDeviceSynchronize();
  return 0;
}
";
    let t = run(src);
    let want: Vec<Option<f64>> = (0..100).map(|i| Some(2.0 * f64::from(i))).collect();
    assert_eq!(floats(&t, "y"), want);
}
