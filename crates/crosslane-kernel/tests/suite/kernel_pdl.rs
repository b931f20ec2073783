//! Programmatic Dependent Launch on the device side (CUDA C++ Programming Guide, "Programmatic
//! Dependent Launch and Synchronization", compute capability 9.0; PTX ISA, griddepcontrol):
//! `cudaGridDependencySynchronize()` waits for the grids a launch depends on programmatically
//! and `cudaTriggerProgrammaticLaunchCompletion()` lets a dependent launch start early. No
//! launch here is programmatic, so the wait returns at once and neither changes a value: the
//! kernel's values are those of the same kernel without them. Below sm_90 nvcc refuses them;
//! HIP has none. Expected values are worked out by hand beside each test.

use crate::support::{has, ints};
use crosslane_core::{Dialect, Level};
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

fn run(src: &str, arch: Option<&str>) -> Result<KernelTrace, String> {
    let mut config = LaunchConfig::default();
    config.preprocess.arch = arch.map(str::to_string);
    run_kernel(src, config).map_err(|e| e.to_string())
}

/// A warp sum between the wait and the trigger, as ggml's reductions write it.
const SUM: &str = "\
__global__ void k(int *o) {
    cudaGridDependencySynchronize();
    int v = 3 * (int)threadIdx.x + 1;
    for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffff, v, m);
    o[threadIdx.x] = v;
    cudaTriggerProgrammaticLaunchCompletion();
}
int main() { int *o; cudaMalloc(&o, 32 * sizeof(int)); k<<<1, 32>>>(o); return 0; }
";

#[test]
fn the_wait_and_the_trigger_change_no_value_at_sm_90() {
    // Sum over lanes 0..31 of 3 * lane + 1 = 3 * 496 + 32 = 1520 in every lane.
    let t = run(SUM, None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    assert_eq!(ints(&t, "o"), vec![Some(1520); 32]);
    assert!(has(&t, Level::Info, "returns at once"));
    assert!(has(&t, Level::Info, "only lets a later launch"));
}

#[test]
fn the_ptx_forms_run_as_the_calls() {
    // o[i] = (i ^ 5)^2: lanes 0..7 give 25 16 49 36 1 0 9 4.
    let src = "\
__global__ void k(int *o) {
    asm volatile(\"griddepcontrol.wait;\" ::: \"memory\");
    int l = (int)threadIdx.x;
    o[l] = __shfl_xor_sync(0xffffffff, l * l, 5);
    asm volatile(\"griddepcontrol.launch_dependents;\");
}
int main() { int *o; cudaMalloc(&o, 8 * sizeof(int)); k<<<1, 32>>>(o); return 0; }
";
    let t = run(src, Some("sm_90")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    let want: Vec<Option<i128>> = [25, 16, 49, 36, 1, 0, 9, 4]
        .iter()
        .map(|&v| Some(v))
        .collect();
    assert_eq!(ints(&t, "o"), want);
}

#[test]
fn below_sm_90_they_are_refused_at_their_line() {
    let e = run(SUM, Some("sm_80")).map(|_| ()).unwrap_err();
    assert!(
        e.contains("`cudaGridDependencySynchronize` needs compute capability 9.0"),
        "{e}"
    );
    assert!(e.contains("Programmatic Dependent Launch"), "{e}");
}

#[test]
fn below_sm_90_a_guarded_call_is_not_compiled() {
    // ggml's shape: the calls under `__CUDA_ARCH__ >= 900`; at sm_70 they are not there.
    let src = SUM
        .replace(
            "    cudaGridDependencySynchronize();\n",
            "#if __CUDA_ARCH__ >= 900\n    cudaGridDependencySynchronize();\n#endif\n",
        )
        .replace(
            "    cudaTriggerProgrammaticLaunchCompletion();\n",
            "#if __CUDA_ARCH__ >= 900\n    cudaTriggerProgrammaticLaunchCompletion();\n#endif\n",
        );
    let t = run(&src, Some("sm_70")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ints(&t, "o"), vec![Some(1520); 32]);
}

#[test]
fn hip_declares_none_of_them() {
    let src = "\
__global__ void k(int *o) {
    cudaGridDependencySynchronize();
    o[threadIdx.x] = __shfl_xor(threadIdx.x, 1);
}
";
    let config = LaunchConfig {
        dialect: Some(Dialect::Hip),
        ..LaunchConfig::default()
    };
    let e = run_kernel(src, config).map(|_| ()).unwrap_err().to_string();
    assert!(e.contains("CUDA's Programmatic Dependent Launch"), "{e}");
}
