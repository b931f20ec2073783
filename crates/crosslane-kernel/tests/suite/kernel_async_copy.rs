//! Asynchronous copies staged global → shared, modelled as the copies they complete into:
//! after the wait the destination holds the source's data (CUDA C++ Programming Guide,
//! "Asynchronous Data Copies", Cooperative Groups "memcpy_async" / "wait", and "Pipeline
//! Primitives Interface"). Expected values worked by hand beside each test.

use crate::cells::cell_ints as ints;
use crosslane_core::op::Dialect;
use crosslane_kernel::{run_kernel, LaunchConfig, Outcome};

fn config(blocks: usize, lens: &[(&str, usize)]) -> LaunchConfig {
    LaunchConfig {
        dialect: Some(Dialect::Cuda),
        block_dim: Some([32, 1, 1]),
        grid_dim: Some([blocks, 1, 1]),
        buffer_len: lens.iter().map(|(n, l)| (n.to_string(), *l)).collect(),
        ..LaunchConfig::default()
    }
}

#[test]
fn cg_memcpy_async_then_wait_stages_a_tile_per_block() {
    let t = run_kernel(
        "#include <cooperative_groups.h>\n\
         #include <cooperative_groups/memcpy_async.h>\n\
         namespace cg = cooperative_groups;\n\
         __global__ void k(const int *in, int *out) {\n\
           __shared__ int tile[64];\n\
           auto block = cg::this_thread_block();\n\
           cg::memcpy_async(block, tile, in + blockIdx.x * 64, sizeof(int) * 64);\n\
           cg::wait(block);\n\
           out[blockIdx.x * 32 + threadIdx.x] = tile[63 - threadIdx.x] + tile[threadIdx.x];\n\
         }\n",
        config(2, &[("in", 128)]),
    )
    .expect("kernel runs");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    // Block b's tile holds 64b .. 64b+63: (64b + 63 - t) + (64b + t) = 128b + 63.
    let want: Vec<Option<i128>> = (0..64).map(|i| Some(128 * (i / 32) + 63)).collect();
    assert_eq!(ints(t.buffer("out").unwrap()), want);
}

#[test]
fn pipeline_primitives_leave_the_data_in_shared_memory_after_the_wait() {
    let t = run_kernel(
        "#include <cuda_pipeline.h>\n\
         __global__ void k(const int *in, int *out) {\n\
           __shared__ int tile[32];\n\
           int t = threadIdx.x;\n\
           __pipeline_memcpy_async(&tile[t], &in[t], sizeof(int));\n\
           __pipeline_commit();\n\
           __pipeline_wait_prior(0);\n\
           __syncthreads();\n\
           out[t] = tile[31 - t] * 2;\n\
         }\n",
        config(1, &[]),
    )
    .expect("kernel runs");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    // `in` holds 0..31 (one cell per thread, i): out[t] = 2 (31 - t).
    let want: Vec<Option<i128>> = (0..32).map(|t| Some(2 * (31 - t))).collect();
    assert_eq!(ints(t.buffer("out").unwrap()), want);
}

#[test]
fn cuda_memcpy_async_with_a_block_barrier_is_complete_after_arrive_and_wait() {
    let t = run_kernel(
        "#include <cuda/barrier>\n\
         __global__ void k(const int *in, int *out) {\n\
           __shared__ int tile[32];\n\
           __shared__ cuda::barrier<cuda::thread_scope_block> bar;\n\
           if (threadIdx.x == 0) init(&bar, blockDim.x);\n\
           __syncthreads();\n\
           cuda::memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(int), bar);\n\
           bar.arrive_and_wait();\n\
           out[threadIdx.x] = tile[31 - threadIdx.x] + 1;\n\
         }\n",
        config(1, &[]),
    )
    .expect("kernel runs");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    // `in` holds 0..31: out[t] = (31 - t) + 1.
    let want: Vec<Option<i128>> = (0..32).map(|t| Some(32 - t)).collect();
    assert_eq!(ints(t.buffer("out").unwrap()), want);
}
