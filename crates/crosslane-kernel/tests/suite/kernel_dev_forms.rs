//! Device-code forms public CUDA, HIP and Ascend C kernels use that the vendors' compilers take:
//! the block votes `__syncthreads_count` / `_and` / `_or`, cooperative-groups shuffles of vector
//! types, `memcpy` into a local struct, `return {};`, and the Ascend C SIMT spellings
//! (`using namespace AscendC::Simt;`, `block_idx`, `LAUNCH_BOUND`). Every expected value is
//! derived by hand beside its test.

use crate::cells::cell_ints as ints;
use crate::support::run_finished as run_with;
use crosslane_core::op::Dialect;
use crosslane_core::result::Level;
use crosslane_kernel::{run_kernel, KVal, KernelTrace, LaunchConfig, Outcome};

fn launch(dialect: Dialect, lanes: Option<usize>, threads: usize) -> LaunchConfig {
    LaunchConfig {
        dialect: Some(dialect),
        lanes,
        block_dim: Some([threads, 1, 1]),
        ..LaunchConfig::default()
    }
}

/// Each cell of a vector buffer as its components.
fn comps(t: &KernelTrace, name: &str) -> Vec<Vec<f64>> {
    t.buffer(name)
        .unwrap()
        .iter()
        .map(|c| match c {
            Some(KVal::Vector { items, .. }) => items.iter().map(|v| v.as_f64().unwrap()).collect(),
            other => panic!("{name}: {other:?}"),
        })
        .collect()
}

/// No warning or error among the run's merged diagnostics.
fn quiet(t: &KernelTrace) {
    let loud: Vec<_> = t
        .merged_diagnostics
        .iter()
        .filter(|d| matches!(d.level, Level::Warning | Level::Error))
        .map(|d| d.message.clone())
        .collect();
    assert!(loud.is_empty(), "{loud:?}");
}

const VOTES: &str = r#"__global__ void votes(int *n, int *f) {
  int t = threadIdx.x;
  if (t >= 150) return;
  int c = __syncthreads_count(t % 7 == 0);
  int o1 = 0;
  if (__syncthreads_or(t == 133)) o1 = 1;
  int o2 = __syncthreads_or(t == 155);
  int a1 = __syncthreads_and(t < 150);
  int a2 = __syncthreads_and(t < 149);
  n[t] = c;
  f[t] = o1 * 1000 + o2 * 100 + a1 * 10 + a2;
}
"#;

/// CUDA C++ Programming Guide, Synchronization Functions: the votes count the block's
/// non-exited threads. 160 threads (5 warps), threads 150..159 exit first. Multiples of 7 in
/// 0..=149: 0, 7, …, 147 = 22. `t == 133` holds in one live thread (or: 1); `t == 155` in an
/// exited one only (or: 0); `t < 150` in every live thread (and: 1); `t < 149` fails in 149
/// (and: 0). So n[t] = 22 and f[t] = 1000 + 0 + 10 + 0 = 1010 for t < 150.
#[test]
fn syncthreads_votes_count_live_threads_of_several_warps() {
    let t = run_with(VOTES, launch(Dialect::Cuda, None, 160));
    let n = ints(t.buffer("n").unwrap());
    let f = ints(t.buffer("f").unwrap());
    assert_eq!(&n[..150], &vec![Some(22); 150][..]);
    assert_eq!(&f[..150], &vec![Some(1010); 150][..]);
    quiet(&t);
}

/// HIP defines the same votes (HIP Programming Guide, Synchronization functions): on wave64
/// with 160 threads (3 wavefronts, the last partial) the values are the CUDA test's.
#[test]
fn syncthreads_votes_on_hip_wave64() {
    let t = run_with(VOTES, launch(Dialect::Hip, Some(64), 160));
    let n = ints(t.buffer("n").unwrap());
    let f = ints(t.buffer("f").unwrap());
    assert_eq!(&n[..150], &vec![Some(22); 150][..]);
    assert_eq!(&f[..150], &vec![Some(1010); 150][..]);
    quiet(&t);
}

/// Repeated votes in a loop each see their own round's predicate: round r counts the threads
/// with `t < 10 * r + 5` of 96, min(10r + 5, 96): r = 0..4 → 5, 15, 25, 35, summed 80.
#[test]
fn syncthreads_count_in_a_loop_resets_per_call() {
    let src = r#"__global__ void k(int *out) {
  int t = threadIdx.x, s = 0;
  for (int r = 0; r < 4; r++) s += __syncthreads_count(t < 10 * r + 5);
  out[t] = s;
}
"#;
    let t = run_with(src, launch(Dialect::Cuda, None, 96));
    assert_eq!(
        ints(t.buffer("out").unwrap()),
        vec![Some(5 + 15 + 25 + 35); 96]
    );
    quiet(&t);
}

/// Outside CUDA and HIP the votes name nothing: Ascend C has no `__syncthreads_count`.
#[test]
fn syncthreads_count_is_not_an_ascend_function() {
    let src = "__global__ void k(int *out) { out[threadIdx.x] = __syncthreads_count(1); }\n";
    let r = run_kernel(src, launch(Dialect::Ascend, None, 32));
    let failed = match r {
        Err(_) => true,
        Ok(t) => t.outcome != Some(Outcome::Finished),
    };
    assert!(failed);
}

/// Cooperative-groups shuffles of vector types (CUDA C++ Programming Guide, Cooperative Groups:
/// `shfl*` take any trivially copyable `T`): every component comes from the same source lane.
/// Tile of 16 over 32 threads, lane t:
/// - `shfl_xor(u, 1)` of u = (t, t+100, t+200, t+300): the components of t^1;
/// - `shfl(f, 3)` of f = (t/2, -t): the tile's rank 3, lane 3 (t < 16) or 19: (1.5, -3) or
///   (9.5, -19);
/// - `shfl_down(i, 2)` of i = (t, 2t, 3t, 4t): lane t+2 while t+2 stays in the tile (t % 16 <
///   14), else the lane's own value.
#[test]
fn cg_tile_shuffles_of_vector_types_move_every_component() {
    let src = r#"#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(uint4 *u4, float2 *f2, int4 *i4) {
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  unsigned t = threadIdx.x;
  uint4 u = make_uint4(t, t + 100, t + 200, t + 300);
  u4[t] = tile.shfl_xor(u, 1);
  float2 f = make_float2(t * 0.5f, -(float)t);
  f2[t] = tile.shfl(f, 3);
  int4 i = make_int4(t, 2 * t, 3 * t, 4 * t);
  i4[t] = tile.shfl_down(i, 2);
}
"#;
    let t = run_with(src, launch(Dialect::Cuda, None, 32));
    let (u, f, i) = (comps(&t, "u4"), comps(&t, "f2"), comps(&t, "i4"));
    for lane in 0..32usize {
        let x = (lane ^ 1) as f64;
        assert_eq!(
            u[lane],
            vec![x, x + 100.0, x + 200.0, x + 300.0],
            "lane {lane}"
        );
        let src = if lane < 16 { 3.0 } else { 19.0 };
        assert_eq!(f[lane], vec![src / 2.0, -src], "lane {lane}");
        let from = if lane % 16 < 14 { lane + 2 } else { lane } as f64;
        assert_eq!(i[lane], vec![from, 2.0 * from, 3.0 * from, 4.0 * from]);
    }
    quiet(&t);
}

/// The free `__shfl_xor_sync` of a vector stays refused (CUDA C++ Programming Guide, Warp
/// Shuffle Functions: scalar types only); only the group member functions are generic.
#[test]
fn free_shuffle_of_a_vector_stays_refused() {
    let src = r#"__global__ void k(float2 *o) {
  float2 v = make_float2(1.0f, 2.0f);
  o[threadIdx.x] = __shfl_xor_sync(0xffffffffu, v, 1);
}
"#;
    let t = run_kernel(src, launch(Dialect::Cuda, None, 32)).expect("parses");
    assert_ne!(t.outcome, Some(Outcome::Finished));
    assert!(t.merged_diagnostics.iter().any(|d| d
        .message
        .contains("CUDA defines no `__shfl_xor_sync` of float2")));
}

/// `return {};` value-initializes the return type ([stmt.return]/2, [dcl.init.list]: empty
/// braces value-initialize, zero for a vector's components); `return {a, b};` gives the
/// components. Lane 0 returns its argument (1, 2, 3, 4); others zeroes; `f` of an odd lane
/// (1.5, 2.5), of an even lane (0, 0); `g` returns `{i + 3}` (4 for odd lanes) or `{}` (0).
#[test]
fn return_braces_value_initialize_the_return_type() {
    let src = r#"__device__ uint4 pick(unsigned i, uint4 a) {
  if (i == 0) return a;
  return {};
}
__device__ float2 f(int i) { if (i == 1) return {1.5f, 2.5f}; return {}; }
__device__ int g(int i) { if (i) return {i + 3}; return {}; }
__global__ void k(uint4 *u, float2 *v, int *w) {
  unsigned t = threadIdx.x;
  u[t] = pick(t, make_uint4(1, 2, 3, 4));
  v[t] = f(t & 1);
  w[t] = g(t & 1);
}
"#;
    let t = run_with(src, launch(Dialect::Cuda, None, 32));
    let (u, v) = (comps(&t, "u"), comps(&t, "v"));
    assert_eq!(u[0], vec![1.0, 2.0, 3.0, 4.0]);
    for (lane, c) in u.iter().enumerate().skip(1) {
        assert_eq!(c, &vec![0.0; 4], "lane {lane}");
    }
    for (lane, c) in v.iter().enumerate() {
        let want = if lane % 2 == 1 {
            vec![1.5, 2.5]
        } else {
            vec![0.0, 0.0]
        };
        assert_eq!(c, &want, "lane {lane}");
    }
    let w = ints(t.buffer("w").unwrap());
    for (lane, c) in w.iter().enumerate() {
        assert_eq!(*c, Some(if lane % 2 == 1 { 4 } else { 0 }), "lane {lane}");
    }
    quiet(&t);
}

/// `using namespace AscendC::Simt;` makes the SIMT API's names visible unqualified (C++
/// [namespace.udir]); `block_idx` is Ascend C's global block index (= `GetBlockIdx()`),
/// `block_num` the block count; `LAUNCH_BOUND(n)` is CANN's `__launch_bounds__(n)`. Two blocks
/// of 64: idx = t + 64·b; `asc_reduce_add` over each warp of 32: warp w of block b holds
/// 32·(32w + 64b) + (0 + … + 31) = 1024w + 2048b + 496, plus 1000 · block_num = 2000.
#[test]
fn ascend_simt_using_namespace_block_idx_and_launch_bound() {
    let src = r#"using namespace AscendC;
using namespace AscendC::Simt;
__simt_vf__ LAUNCH_BOUND(1024) inline void k(__gm__ int* dst)
{
    int idx = GetThreadIdx<0>() + block_idx * GetThreadNum<0>();
    int q = AscendC::Simt::GetThreadIdx<0>();
    dst[idx] = asc_reduce_add(idx) + 1000 * block_num + 0 * q;
}
"#;
    let mut config = launch(Dialect::Ascend, None, 64);
    config.grid_dim = Some([2, 1, 1]);
    let t = run_with(src, config);
    let want: Vec<Option<i128>> = (0..128)
        .map(|i: i128| {
            let (b, w) = (i / 64, (i % 64) / 32);
            Some(1024 * w + 2048 * b + 496 + 2000)
        })
        .collect();
    assert_eq!(ints(t.buffer("dst").unwrap()), want);
}

/// A file whose only kernels are templates (asc-devkit's test shape: constants, a class, a
/// template kernel) is no snippet: an error lists `--entry 'fill<T>'` to fill in. With `--entry 'k<int>'` it
/// runs; an argument naming no parameter is a warning naming it.
#[test]
fn template_only_file_names_its_kernels_and_unknown_args_warn() {
    let src = r#"constexpr int DIM = 64;
template <typename T>
__simt_vf__ LAUNCH_BOUND(1024) inline void fill(int mode, __gm__ T* dst)
{
    int i = AscendC::Simt::GetThreadIdx<0>();
    if (i < DIM) dst[i] = mode * 10 + i;
}
"#;
    let err = run_kernel(src, launch(Dialect::Ascend, None, 32)).unwrap_err();
    assert!(err.message.contains("--entry 'fill<T>'"), "{}", err.message);
    let mut config = launch(Dialect::Ascend, None, 32);
    config.entry = Some("fill<int>".into());
    config.args.insert("mode".into(), "3".into());
    config.args.insert("nosuch".into(), "1".into());
    let t = run_with(src, config);
    let want: Vec<Option<i128>> = (0..32).map(|i| Some(30 + i)).collect();
    assert_eq!(ints(t.buffer("dst").unwrap()), want);
    assert!(t
        .merged_diagnostics
        .iter()
        .any(|d| d.level == Level::Warning
            && d.message.contains("`nosuch`")
            && d.message.contains("mode, dst")));
}
