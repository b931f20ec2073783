//! Asynchronous copies staged global → shared: after the wait the destination holds the
//! source's data, before it a read of the destination is undefined (CUDA C++ Programming Guide,
//! "Asynchronous Data Copies", Cooperative Groups "memcpy_async" / "wait", and "Pipeline
//! Primitives Interface"). Expected values worked by hand beside each test.

use crate::cells::cell_ints as ints;
use crate::support::has;
use crosslane_core::op::Dialect;
use crosslane_core::result::Level;
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

/// A read of an asynchronous copy's destination before its wait: the copy runs "as if by
/// another thread" and completes only at the wait (CUDA C++ Programming Guide, "Asynchronous
/// Data Copies"), so the read races with it and is undefined, the reason naming the copy and
/// the wait; the read after the wait gets the copied value.
fn early_and_late(src: &str, blocks: usize, want_late: impl Fn(i128) -> i128) {
    let t = run_kernel(src, config(blocks, &[("in", 32 * blocks)])).expect("kernel runs");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    let early = ints(t.buffer("early").unwrap());
    assert!(early.iter().all(Option::is_none), "{early:?}");
    let want: Vec<Option<i128>> = (0..32 * blocks as i128)
        .map(|i| Some(want_late(i)))
        .collect();
    assert_eq!(ints(t.buffer("late").unwrap()), want);
    assert!(
        has(&t, Level::Warning, "has not completed: undefined until"),
        "{:?}",
        t.all_diagnostics()
            .map(|d| d.message.clone())
            .collect::<Vec<_>>()
    );
    assert!(t
        .all_diagnostics()
        .any(|d| d.rule.contains("Asynchronous Data Copies")));
}

#[test]
fn cuda_memcpy_async_destination_read_before_arrive_and_wait_is_undefined() {
    // `in` holds 0..63 (one cell per thread of two blocks): late[32b + t] = in[32b + 31 - t].
    early_and_late(
        "#include <cuda/barrier>\n\
         __global__ void k(const int *in, int *early, int *late) {\n\
           __shared__ int tile[32];\n\
           __shared__ cuda::barrier<cuda::thread_scope_block> bar;\n\
           int t = threadIdx.x, g = blockIdx.x * 32;\n\
           if (t == 0) init(&bar, blockDim.x);\n\
           __syncthreads();\n\
           cuda::memcpy_async(&tile[t], &in[g + t], sizeof(int), bar);\n\
           early[g + t] = tile[t];\n\
           bar.arrive_and_wait();\n\
           late[g + t] = tile[31 - t];\n\
         }\n",
        2,
        |i| 32 * (i / 32) + 31 - i % 32,
    );
}

#[test]
fn cg_memcpy_async_destination_read_before_cg_wait_is_undefined() {
    // Thread t copies elements t and t + 32 of the block's 64; late[t] = tile[63 - t] = 63 - t.
    let t = run_kernel(
        "#include <cooperative_groups.h>\n\
         #include <cooperative_groups/memcpy_async.h>\n\
         namespace cg = cooperative_groups;\n\
         __global__ void k(const int *in, int *early, int *late) {\n\
           __shared__ int tile[64];\n\
           auto block = cg::this_thread_block();\n\
           cg::memcpy_async(block, tile, in, sizeof(int) * 64);\n\
           early[threadIdx.x] = tile[threadIdx.x + 32];\n\
           cg::wait(block);\n\
           late[threadIdx.x] = tile[63 - threadIdx.x];\n\
         }\n",
        config(1, &[("in", 64)]),
    )
    .expect("kernel runs");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    assert!(ints(t.buffer("early").unwrap()).iter().all(Option::is_none));
    let want: Vec<Option<i128>> = (0..32).map(|t| Some(63 - t)).collect();
    assert_eq!(ints(t.buffer("late").unwrap()), want);
    assert!(has(
        &t,
        Level::Warning,
        "`cooperative_groups::memcpy_async` has not completed"
    ));
}

#[test]
fn pipeline_wait_prior_completes_all_but_the_newest_batches() {
    // Batch 0 copies in[t] into a[t], batch 1 in[t + 32] into b[t]. `__pipeline_wait_prior(1)`
    // leaves at most one batch pending: a[t] = t is complete, b[t] not (undefined); after
    // `__pipeline_wait_prior(0)` b[t] = t + 32.
    let t = run_kernel(
        "#include <cuda_pipeline.h>\n\
         __global__ void k(const int *in, int *x, int *y, int *z) {\n\
           __shared__ int a[32], b[32];\n\
           int t = threadIdx.x;\n\
           __pipeline_memcpy_async(&a[t], &in[t], sizeof(int));\n\
           __pipeline_commit();\n\
           __pipeline_memcpy_async(&b[t], &in[t + 32], sizeof(int));\n\
           __pipeline_commit();\n\
           __pipeline_wait_prior(1);\n\
           x[t] = a[t];\n\
           y[t] = b[t];\n\
           __pipeline_wait_prior(0);\n\
           z[t] = b[t];\n\
         }\n",
        config(1, &[("in", 64)]),
    )
    .expect("kernel runs");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    let want: Vec<Option<i128>> = (0..32).map(Some).collect();
    assert_eq!(ints(t.buffer("x").unwrap()), want);
    assert!(ints(t.buffer("y").unwrap()).iter().all(Option::is_none));
    let want: Vec<Option<i128>> = (0..32).map(|t| Some(t + 32)).collect();
    assert_eq!(ints(t.buffer("z").unwrap()), want);
    assert!(has(
        &t,
        Level::Warning,
        "`__pipeline_memcpy_async` has not completed"
    ));
}

#[test]
fn inline_ptx_cp_async_is_refused_naming_the_pipeline_primitives() {
    let e = run_kernel(
        "__global__ void k(const int *in, int *out) {\n\
           __shared__ int s[32];\n\
           unsigned sa = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x]);\n\
           asm volatile(\"cp.async.ca.shared.global [%0], [%1], 4;\" :: \"r\"(sa), \"l\"(in + threadIdx.x));\n\
           asm volatile(\"cp.async.wait_all;\");\n\
           out[threadIdx.x] = s[threadIdx.x];\n\
         }\n",
        config(1, &[]),
    )
    .expect_err("cp.async is refused before the run");
    assert_eq!(e.line, 4);
    assert!(
        e.message.contains("__pipeline_memcpy_async"),
        "{}",
        e.message
    );
}
