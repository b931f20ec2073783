//! A CUB algorithm as a template parameter of the user's kernel (`template <int
//! BLOCK_THREADS, cub::BlockReduceAlgorithm ALGORITHM> __global__ void k(…)`, CUB API,
//! `cub::BlockReduceAlgorithm` / `cub::BlockScanAlgorithm`), chosen by `--entry 'k<128,
//! cub::BLOCK_REDUCE_RAKING>'` or by host code's launch, in the shape of CUB's block-reduce
//! and block-scan examples (kernels written here). An integer sum does not depend on the
//! algorithm; a float's order of combination is the implementation's, which the CUB
//! documentation does not state, and the run says so.

use crate::cells::cell_ints;
use crate::support::{has, launch, run_finished};
use crosslane_core::op::Dialect;
use crosslane_core::result::Level;
use crosslane_kernel::run_kernel;

const SRC: &str = "#include <cub/cub.cuh>
template <int BLOCK_THREADS, cub::BlockReduceAlgorithm ALGORITHM>
__global__ void blockSum(const int *in, int *out) {
  typedef cub::BlockReduce<int, BLOCK_THREADS, ALGORITHM> BlockReduceT;
  __shared__ typename BlockReduceT::TempStorage temp;
  int agg = BlockReduceT(temp).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0) *out = agg;
}
template <int BLOCK_THREADS, cub::BlockScanAlgorithm ALGORITHM>
__global__ void blockScan(const int *in, int *out) {
  typedef cub::BlockScan<int, BLOCK_THREADS, ALGORITHM> BlockScanT;
  __shared__ typename BlockScanT::TempStorage temp;
  int v;
  BlockScanT(temp).ExclusiveSum(in[threadIdx.x], v);
  out[threadIdx.x] = v;
}
template <int BLOCK_THREADS, cub::BlockReduceAlgorithm ALGORITHM>
__global__ void floatSum(const float *in, float *out) {
  typedef cub::BlockReduce<float, BLOCK_THREADS, ALGORITHM> BlockReduceT;
  __shared__ typename BlockReduceT::TempStorage temp;
  float agg = BlockReduceT(temp).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0) *out = agg;
}
";

fn run(entry: &str, threads: usize, outs: usize) -> crosslane_kernel::KernelTrace {
    let mut c = launch(
        Dialect::Cuda,
        threads,
        &[("in", threads, "index"), ("out", outs, "zero")],
    );
    c.entry = Some(entry.into());
    run_finished(SRC, c)
}

#[test]
fn every_reduce_algorithm_as_a_template_argument_sums_the_block() {
    // sum(range(128)) = 8128 whatever the algorithm (integer addition is associative).
    for alg in [
        "cub::BLOCK_REDUCE_RAKING",
        "cub::BLOCK_REDUCE_WARP_REDUCTIONS",
        "cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY",
        "BLOCK_REDUCE_RAKING",
    ] {
        let t = run(&format!("blockSum<128, {alg}>"), 128, 1);
        assert_eq!(cell_ints(t.buffer("out").unwrap()), [Some(8128)], "{alg}");
    }
}

#[test]
fn every_scan_algorithm_as_a_template_argument_scans_the_block() {
    // Exclusive sum of 0..64: rank r gets r(r-1)/2.
    let want: Vec<Option<i128>> = (0..64i128).map(|r| Some(r * (r - 1) / 2)).collect();
    for alg in [
        "cub::BLOCK_SCAN_RAKING",
        "cub::BLOCK_SCAN_RAKING_MEMOIZE",
        "cub::BLOCK_SCAN_WARP_SCANS",
    ] {
        let t = run(&format!("blockScan<64, {alg}>"), 64, 64);
        assert_eq!(cell_ints(t.buffer("out").unwrap()), want, "{alg}");
    }
}

#[test]
fn a_float_reduction_says_its_order_is_the_implementations() {
    for alg in ["BLOCK_REDUCE_RAKING", "BLOCK_REDUCE_WARP_REDUCTIONS"] {
        let t = run(&format!("floatSum<128, cub::{alg}>"), 128, 1);
        assert!(
            has(
                &t,
                Level::Info,
                &format!("cub::BlockReduce with {alg}: the order of combination")
            ),
            "{alg}"
        );
        // 0 + 1 + … + 127 = 8128: every partial sum an integer below 2^24, exact in any order.
        assert_eq!(crate::support::floats(&t, "out"), [Some(8128.0)]);
    }
}

#[test]
fn host_code_launches_each_instance_with_its_algorithm() {
    let src = format!(
        "{SRC}
int main() {{
  int *in, *out;
  cudaMalloc(&in, 96 * sizeof(int));
  cudaMalloc(&out, sizeof(int));
  blockSum<96, cub::BLOCK_REDUCE_WARP_REDUCTIONS><<<1, 96>>>(in, out);
  return 0;
}}"
    );
    // sum(range(96)) = 4560.
    let mut c = launch(Dialect::Cuda, 96, &[("in", 96, "index")]);
    c.entry = Some("blockSum<96, cub::BLOCK_REDUCE_WARP_REDUCTIONS>".into());
    let t = run_kernel(&src, c).unwrap();
    assert_eq!(cell_ints(t.buffer("out").unwrap()), [Some(4560)]);
}

#[test]
fn an_algorithm_the_model_lacks_is_refused_by_name() {
    let mut c = launch(
        Dialect::Cuda,
        128,
        &[("in", 128, "index"), ("out", 1, "zero")],
    );
    c.entry = Some("blockSum<128, cub::BLOCK_REDUCE_WARP_REDUCTIONS_NONDETERMINISTIC>".into());
    let e = run_kernel(SRC, c).unwrap_err();
    assert!(
        e.message
            .contains("BLOCK_REDUCE_WARP_REDUCTIONS_NONDETERMINISTIC"),
        "{}",
        e.message
    );
}
