//! A CUB collective's `TempStorage` declared as a thread's own variable (no `__shared__`), as
//! sample and test files write it. CUB API reference, each collective's `TempStorage`: "This
//! opaque storage can be allocated directly using the `__shared__` keyword. Alternatively, it
//! can be aliased to externally allocated memory (shared or global)". The warp reductions and
//! scans over a power-of-two logical warp are CUB's shuffle variants, whose storage is empty:
//! they run, with a warning; a block collective, whose threads exchange partials through the
//! storage, is refused at the declaration.
//!
//! Expected values (Python):
//! ```text
//! x = [2*t + 1 for t in range(16)]                      # 8-lane logical warps
//! incl = [sum(x[(t//8)*8 : t+1]) for t in range(16)]    # 1 4 9 … 64, 17 36 57 … 192
//! tot = [sum(incl[0:8]), sum(incl[8:16])]               # 204, 780
//! ```

use crate::support::{block, has, ints, refused, run_finished};
use crosslane_core::Level;
use crosslane_kernel::{run_kernel, LaunchConfig, Outcome};

/// A scan then a reduction of the scan, each on a thread-local storage, one in a local union.
const WARP_LOCAL: &str = "\
#include <cub/cub.cuh>
__global__ void scan_then_total(int* out) {
  typedef cub::WarpScan<int, 8> Scan8;
  typedef cub::WarpReduce<int, 8> Red8;
  union { typename Scan8::TempStorage s; typename Red8::TempStorage r; } scratch;
  int v = 2 * threadIdx.x + 1;
  int running;
  Scan8(scratch.s).InclusiveSum(v, running);
  int total = Red8(scratch.r).Sum(running);
  out[threadIdx.x] = running;
  if (threadIdx.x % 8 == 0) out[16 + threadIdx.x / 8] = total;
}
";

fn cfg16() -> LaunchConfig {
    let mut c = block(16);
    c.args.insert("out".into(), "zero".into());
    c.buffer_len.insert("out".into(), 18);
    c
}

#[test]
fn warp_collectives_on_a_thread_local_storage_run_as_the_shuffle_variants_do() {
    let t = run_finished(WARP_LOCAL, cfg16());
    let want: Vec<Option<i128>> = [
        1, 4, 9, 16, 25, 36, 49, 64, 17, 36, 57, 80, 105, 132, 161, 192, 204, 780,
    ]
    .iter()
    .map(|&v| Some(v))
    .collect();
    assert_eq!(ints(&t, "out"), want);
    assert!(has(
        &t,
        Level::Warning,
        "TempStorage `scratch.s` is each thread's own variable"
    ));
}

/// A named object on a storage declared through an alias of the storage type.
const ALIASED_OBJECT: &str = "\
__global__ void lane_sum(int* out) {
  using Warp = cub::WarpReduce<int>;
  using Scratch = typename Warp::TempStorage;
  Scratch mine;
  Warp w(mine);
  int s = w.Sum(threadIdx.x);
  if (threadIdx.x == 0) out[0] = s;
}
";

#[test]
fn a_thread_local_storage_through_an_alias_and_a_named_object_runs() {
    // sum(range(32)) = 496.
    let mut c = block(32);
    c.args.insert("out".into(), "zero".into());
    c.buffer_len.insert("out".into(), 1);
    let t = run_finished(ALIASED_OBJECT, c);
    assert_eq!(ints(&t, "out"), vec![Some(496)]);
}

const BLOCK_LOCAL: &str = "\
__global__ void block_total(int* out) {
  typedef cub::BlockReduce<int, 64> Block64;
  typename Block64::TempStorage scratch;
  int s = Block64(scratch).Sum(1);
  if (threadIdx.x == 0) out[0] = s;
}
";

#[test]
fn a_block_collective_on_a_thread_local_storage_is_refused_at_the_declaration() {
    let m = refused(BLOCK_LOCAL, block(64));
    assert!(m.contains("3:"), "{m}");
    assert!(
        m.contains("TempStorage `scratch` is each thread's own variable")
            && m.contains("BlockReduce")
            && m.contains("__shared__ typename R::TempStorage scratch;"),
        "{m}"
    );
}

/// Host code launches three kernels; the middle one is refused (its block storage is a
/// thread's own), the others still run, and the run's outcome is that refusal.
const MIDDLE_REFUSED: &str = "\
__global__ void seed(int* d) { d[threadIdx.x] = threadIdx.x; }
__global__ void bad(int* d) {
  typedef cub::BlockReduce<int, 32> B;
  typename B::TempStorage t;
  int s = B(t).Sum(d[threadIdx.x]);
  if (threadIdx.x == 0) d[0] = s;
}
__global__ void twice(int* d) { d[threadIdx.x] *= 2; }
int main() {
  int* d;
  cudaMalloc(&d, 32 * sizeof(int));
  seed<<<1, 32>>>(d);
  bad<<<1, 32>>>(d);
  twice<<<1, 32>>>(d);
  return 0;
}
";

#[test]
fn a_refused_kernel_among_host_launches_does_not_stop_the_others() {
    // seed writes t, bad does not run, twice doubles: 2t.
    let t = run_kernel(MIDDLE_REFUSED, LaunchConfig::default()).unwrap_or_else(|e| panic!("{e}"));
    let Some(Outcome::Error(e)) = &t.outcome else {
        panic!("expected the refusal as the outcome, got {:?}", t.outcome);
    };
    assert_eq!(e.line, 4, "{e:?}");
    assert!(
        e.message
            .contains("`bad`, which host code launches at line 13"),
        "{e:?}"
    );
    let want: Vec<Option<i128>> = (0..32).map(|v| Some(2 * v)).collect();
    assert_eq!(ints(&t, "d"), want);
    assert!(has(&t, Level::Error, "that launch does not run"));
}

#[test]
fn a_refused_kernel_before_the_traced_launch_lets_the_traced_one_run() {
    let config = LaunchConfig {
        entry: Some("twice".into()),
        ..LaunchConfig::default()
    };
    let t = run_kernel(MIDDLE_REFUSED, config).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        matches!(&t.outcome, Some(Outcome::Error(e)) if e.line == 4),
        "{:?}",
        t.outcome
    );
    let want: Vec<Option<i128>> = (0..32).map(|v| Some(2 * v)).collect();
    assert_eq!(ints(&t, "d"), want);
}

/// Named warp collectives given to function templates: deduced (the object last) and named
/// explicitly (the object first). Python:
/// ```text
/// v = [t % 7 for t in range(64)]
/// [sum(v[(t//32)*32:t]) for t in range(64)]      # the exclusive sums per 32-lane warp
/// [sum(v[g*16:(g+1)*16]) for g in range(4)]      # 43 47 51 48
/// ```
const OBJECT_TO_TEMPLATE: &str = "\
template <typename T, typename Coll>
__device__ T total(T v, Coll& c) { return c.Sum(v); }
template <typename Coll, typename T>
__device__ T before_me(Coll& c, T v) { T out; c.ExclusiveSum(v, out); return out; }
__global__ void k(int* out) {
  typedef cub::WarpReduce<int, 16> R16;
  typedef cub::WarpScan<int> S32;
  typename R16::TempStorage rt;
  __shared__ typename S32::TempStorage st;
  R16 r(rt);
  S32 s(st);
  int v = threadIdx.x % 7;
  int t = total(v, r);
  int p = before_me<S32, int>(s, v);
  out[threadIdx.x] = p;
  if (threadIdx.x % 16 == 0) out[64 + threadIdx.x / 16] = t;
}
";

#[test]
fn a_warp_collective_object_given_to_a_function_template_runs_there() {
    let mut c = block(64);
    c.args.insert("out".into(), "zero".into());
    c.buffer_len.insert("out".into(), 68);
    let t = run_finished(OBJECT_TO_TEMPLATE, c);
    let v: Vec<i128> = (0..64).map(|t| t % 7).collect();
    let mut want: Vec<Option<i128>> = (0..64usize)
        .map(|t| Some(v[(t / 32) * 32..t].iter().sum()))
        .collect();
    want.extend([43, 47, 51, 48].map(Some));
    assert_eq!(ints(&t, "out"), want);
}

#[test]
fn a_block_collective_object_given_to_a_function_template_is_refused() {
    let src = "\
template <typename B> __device__ int bsum(B& b, int v) { return b.Sum(v); }
__global__ void k(int* out) {
  typedef cub::BlockReduce<int, 64> BR;
  __shared__ typename BR::TempStorage st;
  BR b(st);
  int s = bsum(b, 1);
  if (threadIdx.x == 0) out[0] = s;
}
";
    let m = refused(src, block(64));
    assert!(
        m.contains("a `BR` object given to a function template is not modelled here"),
        "{m}"
    );
}
