//! Only a cooperative launch may synchronize its grid. CUDA C++ Programming Guide, Cooperative
//! Groups, "Grid Group": members other than `sync()` "are available at all times, but to be
//! able to synchronize across the grid, you need to use the cooperative launch API";
//! `is_valid()` "Returns whether the grid_group can synchronize"; "Grid Synchronization": the
//! kernel is launched with `cudaLaunchCooperativeKernel` instead of `<<<…>>>` (HIP:
//! `hipLaunchCooperativeKernel`). So a `<<<…>>>` launch's `grid.sync()` is an error of the run
//! naming its launch line, its `is_valid()` false; a cooperative launch's is true and its
//! barrier runs; a kernel no host code launches runs as a cooperative launch, said in a note.
//! Kernels written here; expected values by hand (below each).

use crate::cells::cell_ints;
use crosslane_kernel::{run_kernel, LaunchConfig, Outcome};

/// Block b's thread 0 writes b + 1 to `out[b]`; every thread writes `is_valid()` to its cell
/// of `flag`; the grid synchronizes; block 0's thread 0 writes out[0] + out[1] = 1 + 2 = 3.
const KERNEL: &str = "#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* out, int* flag) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0) out[blockIdx.x] = blockIdx.x + 1;
  flag[blockIdx.x * blockDim.x + threadIdx.x] = grid.is_valid() ? 1 : 0;
  SYNC;
  if (blockIdx.x == 0 && threadIdx.x == 0) out[2] = out[0] + out[1];
}
int main() {
  int *out, *flag;
  cudaMalloc(&out, 3 * sizeof(int));
  cudaMalloc(&flag, 64 * sizeof(int));
  LAUNCH
  return 0;
}
";

fn source(sync: &str, launch: &str) -> String {
    KERNEL.replace("SYNC", sync).replace("LAUNCH", launch)
}

#[test]
fn grid_sync_in_a_chevron_launch_is_an_error_naming_the_launch() {
    for sync in ["grid.sync()", "cg::sync(grid)"] {
        for launch in [
            "k<<<2, 32>>>(out, flag);",
            "void* args[] = {&out, &flag};\n  cudaLaunchKernel((void*)k, 2, 32, args, 0, 0);",
        ] {
            let src = source(sync, launch);
            let t = run_kernel(&src, LaunchConfig::default()).unwrap();
            let Some(Outcome::Error(e)) = &t.outcome else {
                panic!("{sync} / {launch}: {:?}", t.outcome)
            };
            // The barrier is at line 7; the launch at line 14 (15 for the array form).
            assert_eq!(e.line, 7, "{e}");
            assert!(e.message.contains("launched at line 1"), "{}", e.message);
            assert!(
                e.message.contains("cudaLaunchCooperativeKernel"),
                "{}",
                e.message
            );
            // is_valid() was false in block 0's threads, which ran up to the barrier; the run
            // ended there, so block 1 never ran and nothing after the barrier did.
            let flag = cell_ints(t.buffer("flag").unwrap());
            assert_eq!(flag[..32], vec![Some(0); 32]);
            assert_eq!(flag[32..], vec![None; 32]);
            assert_eq!(cell_ints(t.buffer("out").unwrap())[2], None);
        }
    }
}

#[test]
fn a_cooperative_launch_synchronizes_and_is_valid() {
    let src = source(
        "grid.sync()",
        "void* args[] = {&out, &flag};\n  cudaLaunchCooperativeKernel((void*)k, 2, 32, args, 0, 0);",
    );
    let t = run_kernel(&src, LaunchConfig::default()).unwrap();
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    assert_eq!(
        cell_ints(t.buffer("out").unwrap()),
        [Some(1), Some(2), Some(3)]
    );
    assert_eq!(cell_ints(t.buffer("flag").unwrap()), vec![Some(1); 64]);
}

#[test]
fn a_chevron_launch_without_grid_sync_runs_with_is_valid_false() {
    // No barrier: block 0 reads out[1] before or after block 1 wrote it; blocks run in order
    // here, so only `flag` (all 0) is asserted.
    let src = source("(void)0", "k<<<2, 32>>>(out, flag);");
    let t = run_kernel(&src, LaunchConfig::default()).unwrap();
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    assert_eq!(cell_ints(t.buffer("flag").unwrap()), vec![Some(0); 64]);
}

#[test]
fn hip_launch_kernel_ggl_is_not_cooperative_and_hip_cooperative_is() {
    let hip = |launch: &str| {
        KERNEL
            .replace(
                "#include <cooperative_groups.h>",
                "#include <hip/hip_cooperative_groups.h>",
            )
            .replace("cudaMalloc", "hipMalloc")
            .replace("SYNC", "grid.sync()")
            .replace("LAUNCH", launch)
    };
    let config = || LaunchConfig {
        lanes: Some(32),
        ..LaunchConfig::default()
    };
    let t = run_kernel(
        &hip("hipLaunchKernelGGL(k, dim3(2), dim3(32), 0, 0, out, flag);"),
        config(),
    )
    .unwrap();
    let Some(Outcome::Error(e)) = &t.outcome else {
        panic!("{:?}", t.outcome)
    };
    assert!(e.message.contains("launched at line 14"), "{}", e.message);
    let t = run_kernel(
        &hip("void* args[] = {&out, &flag};\n  hipLaunchCooperativeKernel((void*)k, dim3(2), dim3(32), args, 0, 0);"),
        config(),
    )
    .unwrap();
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    assert_eq!(
        cell_ints(t.buffer("out").unwrap()),
        [Some(1), Some(2), Some(3)]
    );
}

#[test]
fn a_bare_kernel_runs_as_a_cooperative_launch_and_says_so() {
    let src = source("grid.sync()", "");
    let bare = &src[..src.find("int main").unwrap()];
    let mut c = LaunchConfig {
        block_dim: Some([32, 1, 1]),
        grid_dim: Some([2, 1, 1]),
        ..LaunchConfig::default()
    };
    c.buffer_len.insert("out".into(), 3);
    c.args.insert("out".into(), "zero".into());
    c.buffer_len.insert("flag".into(), 64);
    let t = run_kernel(bare, c).unwrap();
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    assert_eq!(
        cell_ints(t.buffer("out").unwrap()),
        [Some(1), Some(2), Some(3)]
    );
    assert_eq!(cell_ints(t.buffer("flag").unwrap()), vec![Some(1); 64]);
    assert!(
        t.all_diagnostics()
            .any(|d| d.message.contains("no host code launches this kernel")),
        "{:?}",
        t.all_diagnostics().collect::<Vec<_>>()
    );
}

/// Ascend C has no cooperative launch API: asc-devkit's SIMT samples synchronize a grid from a
/// `<<<…>>>` launch, so there the launch's `grid.sync()` synchronizes (out = 1, 2, 1 + 2 = 3)
/// and `is_valid()` is true in every thread.
#[test]
fn an_ascend_chevron_launch_synchronizes_its_grid() {
    let src = KERNEL
        .replace("SYNC", "grid.sync()")
        .replace(
            "cudaMalloc(&out, 3 * sizeof(int));",
            "aclrtMalloc((void**)&out, 3 * sizeof(int), ACL_MEM_MALLOC_HUGE_FIRST);",
        )
        .replace(
            "cudaMalloc(&flag, 64 * sizeof(int));",
            "aclrtMalloc((void**)&flag, 64 * sizeof(int), ACL_MEM_MALLOC_HUGE_FIRST);",
        )
        .replace("LAUNCH", "k<<<2, 32>>>(out, flag);");
    let config = LaunchConfig {
        dialect: Some(crosslane_core::op::Dialect::Ascend),
        ..LaunchConfig::default()
    };
    let t = run_kernel(&src, config).unwrap();
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    assert_eq!(
        cell_ints(t.buffer("out").unwrap()),
        [Some(1), Some(2), Some(3)]
    );
    assert_eq!(cell_ints(t.buffer("flag").unwrap()), vec![Some(1); 64]);
}
