//! The Ascend C SIMT API as CANN's API reference and asc-devkit's headers list it: the C API's
//! barrier and fences (`asc_syncthreads`, `asc_threadfence`, `asc_threadfence_block`) and warp
//! reductions, and the C++ API of `AscendC::Simt` (thread and block indices, warp size,
//! shuffles, votes). The first two tests are the API reference's own examples with their
//! printed results; the third derives its values by hand beside each line.

use crate::cells::cell_ints;
use crosslane_core::Dialect;
use crosslane_kernel::{run_kernel, KVal, KernelTrace, LaunchConfig, Outcome};

fn run(src: &str, threads: usize, args: &[(&str, &str)]) -> KernelTrace {
    let mut config = LaunchConfig {
        dialect: Some(Dialect::Ascend),
        block_dim: Some([threads, 1, 1]),
        ..LaunchConfig::default()
    };
    for (k, v) in args {
        config.args.insert((*k).into(), (*v).into());
    }
    let t = run_kernel(src, config).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        t.outcome,
        Some(Outcome::Finished),
        "{:?}",
        t.merged_diagnostics
    );
    t
}

/// CANN API reference, asc_syncthreads, SIMT example: threads 1..1023 write 1, the barrier, then
/// thread 0 sums dst[1023..1]. "输出结果: [1023, 1, 1, 1 …]".
#[test]
fn asc_syncthreads_example_of_the_api_reference() {
    let src = "\
#include \"simt_api/device_sync_functions.h\"
__global__ __launch_bounds__(1024) void KernelSyncThreads(float* dst, int count)
{
     int idx = threadIdx.x;
     if (idx > 0 && idx < count) {
         dst[idx] = 1;
     }
     asc_syncthreads();
     if (idx == 0) {
         dst[0] = 0;
         for(int i = 1023; i > 0; i--) {
             dst[0] += dst[i];
         }
     }
}";
    let t = run(src, 1024, &[("count", "1024")]);
    let dst: Vec<f64> = t
        .buffer("dst")
        .unwrap()
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64).unwrap())
        .collect();
    assert_eq!(dst[0], 1023.0);
    assert!(dst[1..].iter().all(|&v| v == 1.0));
}

/// CANN API reference, asc_reduce_max, SIMT example: every thread of a warp passes its lane id
/// (idx % 32); "返回值为31" in every thread.
#[test]
fn asc_reduce_max_example_of_the_api_reference() {
    let src = "\
__global__ __launch_bounds__(1024) void KernelReduceMax(int32_t* dst)
{
    int idx = threadIdx.x + blockIdx.x * blockDim.x;
    int32_t laneId = idx % 32;
    int32_t result = asc_reduce_max(laneId);
    dst[idx] = result;
}";
    let t = run(src, 1024, &[]);
    assert_eq!(cell_ints(t.buffer("dst").unwrap()), vec![Some(31); 1024]);
}

#[test]
fn the_simt_cpp_api_reads_indices_and_runs_the_warp_functions() {
    let src = "\
#include \"simt_api/asc_simt.h\"
__global__ void k(int32_t* a, int32_t* b, uint32_t* c, int32_t* d) {
    int idx = threadIdx.x;
    int32_t lane = idx % AscendC::Simt::GetWarpSize();
    a[idx] = AscendC::Simt::WarpShflXorSync(lane, 1) + AscendC::Simt::GetThreadIdx<0>() * 100;
    b[idx] = AscendC::Simt::WarpAllSync(lane < 40) * 10 + AscendC::Simt::WarpAnySync(lane == 3)
           + AscendC::Simt::Uni(lane < 16) * 100;
    c[idx] = AscendC::Simt::WarpBallotSync(lane % 2 == 0) ^ AscendC::Simt::WarpActiveMask();
    d[idx] = AscendC::Simt::WarpShflDownSync(lane, 4, 8) + AscendC::Simt::GetThreadNum<0>() * 1000
           + AscendC::Simt::GetBlockIdx() * 10 + AscendC::Simt::GetBlockNum();
    asc_threadfence();
    asc_threadfence_block();
}";
    let t = run(src, 32, &[]);
    let get = |n: &str| cell_ints(t.buffer(n).unwrap());
    for l in 0..32i128 {
        let i = l as usize;
        // xor 1 swaps neighbours; thread index l.
        assert_eq!(get("a")[i], Some((l ^ 1) + l * 100));
        // all(lane < 40) = 1, any(lane == 3) = 1, uni(lane < 16) = 0 (lanes disagree).
        assert_eq!(get("b")[i], Some(11));
        // even lanes' ballot 0x55555555 xor the full active mask = 0xaaaaaaaa.
        assert_eq!(get("c")[i], Some(0xaaaa_aaaa));
        // shfl_down by 4 within segments of 8: lane l + 4 while it stays in the segment.
        let down = if l % 8 + 4 < 8 { l + 4 } else { l };
        assert_eq!(get("d")[i], Some(down + 32 * 1000 + 1));
    }
    // Uni of a predicate every lane shares: 1.
    let t = run(
        "__global__ void k(int32_t* u) { u[threadIdx.x] = AscendC::Simt::Uni(threadIdx.x < 64); }",
        32,
        &[],
    );
    assert_eq!(cell_ints(t.buffer("u").unwrap()), vec![Some(1); 32]);
}
