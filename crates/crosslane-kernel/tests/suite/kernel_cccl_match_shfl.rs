//! CCCL's `cuda::device::warp_match_any` / `warp_match_all` (libcu++ extended API, "Warp Match
//! Any" / "Warp Match All") and the library shuffles of struct values: CCCL's
//! `cuda::device::warp_shuffle_*` ("warp_shuffle": "exchange data of any data size, including
//! … structs", `shfl.sync` ceil(sizeof/4) times), CUB's `cub::ShuffleIndex` / `ShuffleUp` /
//! `ShuffleDown` (`util_ptx.cuh`, over `T`'s 32-bit words) and hipCUB's `ShuffleIndex`.
//! Kernels written here in the shapes of the libcu++ documentation's examples and CUB-using
//! code; the expected values follow the documented rules, modelled beside each test.

use crate::support::{ints, launch_lanes, refused, run_finished};
use crosslane_core::op::Dialect;
use crosslane_kernel::LaunchConfig;

fn cuda(out: usize) -> LaunchConfig {
    launch_lanes(Dialect::Cuda, 32, &[("out", out, "zero")])
}

/// `warp_match_any(threadIdx.x / 4)`: the lanes with the same quotient, `0b1111 << 4 (t / 4)`
/// (the documentation's own expectation); `warp_match_all(2)` true; `warp_match_all(t)` false;
/// a struct `{int a; short b; short c;}` of `(t % 2, t % 3, 7)` matches the lanes with the
/// same `t % 6`, compared bitwise member by member; a `float` of `+0.0` (even lanes) and
/// `-0.0` (odd) is bitwise different ("the same bitwise value"), so each lane matches the
/// lanes of its own parity: 0x55555555 or 0xAAAAAAAA.
#[test]
fn cccl_warp_match_any_and_all_compare_bitwise() {
    let src = "\
#include <cuda/warp>
struct S { int a; short b; short c; };
__global__ void k(unsigned* out) {
  unsigned m = cuda::device::warp_match_any(threadIdx.x / 4);
  out[threadIdx.x] = m;
  out[32 + threadIdx.x] = cuda::device::warp_match_all(2);
  out[64 + threadIdx.x] = cuda::device::warp_match_all(threadIdx.x);
  S s{(int)(threadIdx.x % 2), (short)(threadIdx.x % 3), (short)7};
  out[96 + threadIdx.x] = cuda::device::warp_match_any(s);
  float f = (threadIdx.x & 1) ? -0.0f : 0.0f;
  out[128 + threadIdx.x] = cuda::device::warp_match_any(f);
}
";
    let t = run_finished(src, cuda(160));
    let mut want: Vec<i128> = (0..32).map(|t| 0b1111i128 << (4 * (t / 4))).collect();
    want.extend([1; 32]);
    want.extend([0; 32]);
    want.extend((0..32).map(|t| {
        (0..32)
            .filter(|u| u % 6 == t % 6)
            .map(|u| 1i128 << u)
            .sum::<i128>()
    }));
    want.extend((0..32).map(|t| if t % 2 == 0 { 0x5555_5555 } else { 0xAAAA_AAAA }));
    assert_eq!(
        ints(&t, "out"),
        want.into_iter().map(Some).collect::<Vec<_>>()
    );
}

/// libcu++: "The functionality is only supported on SM >= 70"; below it the refusal names the
/// user's call of `warp_match_any` (line 3, column 36), not a position inside crosslane's
/// declarations, and the library function it was raised in.
#[test]
fn cccl_warp_match_below_sm70_is_refused_at_the_users_call() {
    let src = "\
#include <cuda/warp>
__global__ void k(unsigned* out) {
  out[threadIdx.x] = cuda::device::warp_match_any(threadIdx.x / 4);
}
";
    let mut c = cuda(32);
    c.preprocess.arch = Some("sm_60".into());
    let e = refused(src, c);
    assert!(
        e.starts_with("3:36: `__match_any_sync` needs compute capability 7.0"),
        "{e}"
    );
    assert!(
        e.contains("inside the library function `warp_match_any<"),
        "{e}"
    );
}

/// The libcu++ example's struct shuffle: `warp_shuffle_down<16>(my_structs, 2)` of
/// `{double x; int y;}` = `(t, t + 1)` gives lanes with `t % 16 + 2 < 16` lane t + 2's struct
/// and `pred` 1, the others their own and `pred` 0 (stored `100 x + 10 y + pred`); a `P`
/// initialized from `warp_shuffle_idx(p, 3)` converts through `operator T()` (lane 3's
/// struct: `100 * 3 + 4`), and assigned from `warp_shuffle_xor(p, 1)` takes lane t ^ 1's.
#[test]
fn cccl_shuffles_of_a_struct_move_the_source_lanes_struct() {
    let src = "\
#include <cuda/warp>
struct P { double x; int y; };
__global__ void k(int* out) {
  P p{(double)threadIdx.x, (int)threadIdx.x + 1};
  auto r = cuda::device::warp_shuffle_down<16>(p, 2);
  out[threadIdx.x] = (int)r.data.x * 100 + r.data.y * 10 + r.pred;
  P q = cuda::device::warp_shuffle_idx(p, 3);
  out[32 + threadIdx.x] = (int)q.x * 100 + q.y;
  q = cuda::device::warp_shuffle_xor(p, 1);
  out[64 + threadIdx.x] = (int)q.x * 100 + q.y;
}
";
    let t = run_finished(src, cuda(96));
    let mut want: Vec<i128> = (0..32)
        .map(|t| {
            let (s, pred) = if t % 16 + 2 < 16 { (t + 2, 1) } else { (t, 0) };
            100 * s + 10 * (s + 1) + pred
        })
        .collect();
    want.extend([304; 32]);
    want.extend((0..32).map(|t| 100 * (t ^ 1) + (t ^ 1) + 1));
    assert_eq!(
        ints(&t, "out"),
        want.into_iter().map(Some).collect::<Vec<_>>()
    );
}

/// CUB's shuffles of a struct `{float x; short y; short z;}` / `{float x; int y;}`:
/// `ShuffleIndex<32>(p, 5, mask)` is lane 5's struct (`500 + 60 + 3`); `ShuffleDown<32>(p, 2,
/// 29, mask)` reads lane t + 2 while `t + 2 <= 29`, else keeps its own; `ShuffleUp<8>(p, 1, 0,
/// mask)` reads lane t - 1 within the 8-lane segment (`t - 1 >= t & ~7`), else its own (PTX
/// `shfl.sync` with CUB's clamp, as in `cub_ptx.rs`). Each stored `100 x + y`.
#[test]
fn cub_shuffles_of_a_struct_move_the_source_lanes_struct() {
    let src = "\
#include <cub/cub.cuh>
struct Q { float x; short y; short z; };
struct P { float x; int y; };
__global__ void k(int* out) {
  Q a{(float)threadIdx.x, (short)(threadIdx.x + 1), (short)3};
  Q b = cub::ShuffleIndex<32>(a, 5, 0xffffffff);
  out[threadIdx.x] = (int)b.x * 100 + b.y * 10 + b.z;
  P p{(float)threadIdx.x, (int)threadIdx.x * 2};
  P d = cub::ShuffleDown<32>(p, 2, 29, 0xffffffff);
  P u = cub::ShuffleUp<8>(p, 1, 0, 0xffffffff);
  out[32 + threadIdx.x] = (int)d.x * 100 + d.y;
  out[64 + threadIdx.x] = (int)u.x * 100 + u.y;
}
";
    let t = run_finished(src, cuda(96));
    let mut want: Vec<i128> = vec![563; 32];
    let p = |s: i128| 100 * s + 2 * s;
    want.extend((0..32).map(|t| p(if t + 2 <= 29 { t + 2 } else { t })));
    want.extend((0..32).map(|t| p(if t > (t & !7) { t - 1 } else { t })));
    assert_eq!(
        ints(&t, "out"),
        want.into_iter().map(Some).collect::<Vec<_>>()
    );
}

/// hipCUB's `ShuffleIndex<64>` (rocPRIM's `warp_shuffle` at width 64) of a struct on a
/// wave64: every lane gets lane 40's `{40.0, 80}`.
#[test]
fn hipcub_shuffle_index_of_a_struct_on_wave64() {
    let src = "\
#include <hipcub/hipcub.hpp>
struct P { float x; int y; };
__global__ void k(int* out) {
  P p{(float)threadIdx.x, (int)threadIdx.x * 2};
  P q = hipcub::ShuffleIndex<64>(p, 40, 0xffffffff);
  out[threadIdx.x] = (int)q.x * 1000 + q.y;
}
";
    let t = run_finished(src, launch_lanes(Dialect::Hip, 64, &[("out", 64, "zero")]));
    assert_eq!(ints(&t, "out"), vec![Some(40_080); 64]);
}
