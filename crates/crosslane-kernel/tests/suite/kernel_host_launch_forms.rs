//! Host launches written through the runtime's launch call and through a kernel pointer a
//! conditional chooses. CUDA Runtime API, `cudaLaunchKernel(func, gridDim, blockDim, args,
//! sharedMem, stream)`: `args` is an array of pointers to the kernel's arguments, one per
//! parameter, in order (HIP Runtime API, `hipLaunchKernel`: the same); C++17 [expr.cond]/1:
//! `c ? kA : kB` is the second operand when `c` is true, else the third. Each kernel writes a
//! value that tells the kernels apart: kA `t + n`, kB `t * n`, with n = 10 (by hand: kA gives
//! 10, 11, …; kB 0, 10, 20, …).

use crate::support::{has, ints, run_default};
use crosslane_core::result::Level;

const KERNELS: &str = "__global__ void kA(int* out, int n) { out[threadIdx.x] = threadIdx.x + n; }
__global__ void kB(int* out, int n) { out[threadIdx.x] = threadIdx.x * n; }
";

fn program(body: &str) -> String {
    format!(
        "{KERNELS}int main() {{\n  int *d; int n = 10;\n  cudaMalloc(&d, 32 * sizeof(int));\n{body}\n  return 0;\n}}\n"
    )
}

fn a_values() -> Vec<Option<i128>> {
    (0..32).map(|t| Some(t + 10)).collect()
}

fn b_values() -> Vec<Option<i128>> {
    (0..32).map(|t| Some(t * 10)).collect()
}

#[test]
fn cuda_launch_kernel_with_an_argument_array_of_addresses() {
    for body in [
        "  void *args[] = {&d, &n};\n  cudaLaunchKernel((void*)kB, dim3(1), dim3(32), args, 0, 0);",
        // Through a function pointer variable, the array's addresses cast to `void*`.
        "  void (*fp)(int*, int) = kB;\n  void *args[] = {(void*)&d, (void*)&n};\n  \
         cudaLaunchKernel((const void*)fp, 1, 32, args);",
    ] {
        let t = run_default(&program(body));
        assert_eq!(t.launch.entry, "kB", "{body}");
        assert_eq!(ints(&t, "out"), b_values(), "{body}");
    }
    // HIP's runtime call, the kernel cast with `reinterpret_cast`.
    let hip = program(
        "  void *args[] = {&d, &n};\n  \
         hipLaunchKernel(reinterpret_cast<const void*>(kA), dim3(1), dim3(32), args, 0, 0);",
    )
    .replace("cudaMalloc", "hipMalloc");
    let t = run_default(&format!("#include <hip/hip_runtime.h>\n{hip}"));
    assert_eq!(t.launch.entry, "kA");
    assert_eq!(ints(&t, "out")[..32], a_values()[..]);
}

#[test]
fn a_kernel_pointer_chosen_by_a_constant_condition() {
    for (body, a) in [
        (
            "  const bool useA = false;\n  auto k = useA ? kA : kB;\n  k<<<1, 32>>>(d, n);",
            false,
        ),
        (
            "  bool useA = true;\n  auto k = useA ? &kA : &kB;\n  k<<<1, 32>>>(d, n);",
            true,
        ),
        (
            "  int mode = 2;\n  void (*k)(int*, int) = (mode > 1) ? kA : kB;\n  \
             void *args[] = {&d, &n};\n  cudaLaunchKernel((void*)k, 1, 32, args, 0, 0);",
            true,
        ),
    ] {
        let t = run_default(&program(body));
        assert_eq!(t.launch.entry, if a { "kA" } else { "kB" }, "{body}");
        let want = if a { a_values() } else { b_values() };
        assert_eq!(ints(&t, "out"), want, "{body}");
    }
}

#[test]
fn a_kernel_pointer_chosen_at_run_time_is_said_not_guessed() {
    let body = "  bool useA = rand() > 5;\n  auto k = useA ? kA : kB;\n  k<<<1, 32>>>(d, n);";
    let t = run_default(&program(body));
    assert!(
        has(&t, Level::Warning, "has no constant value in host code"),
        "{:?}",
        t.all_diagnostics().collect::<Vec<_>>()
    );
    assert!(has(&t, Level::Warning, "--entry kA or --entry kB"));
}

/// A launcher whose return type the device reading does not take (`std::vector<int>`, the
/// shape of asc-devkit's `launch_kernel`), called in a declaration's initializer with a
/// qualified template-id type (`std::vector<int> r = launch(…);`): read with its parameters
/// bound, so `which = 2` chooses kB and `n = 10` is the launch's argument (kB: `t * n`).
#[test]
fn a_launcher_returning_a_vector_called_in_a_declaration_is_read_bound() {
    let src = format!(
        "#include <vector>\n{KERNELS}std::vector<int> launch(int n, int which) {{\n  \
         int *d; cudaMalloc(&d, 32 * sizeof(int));\n  \
         if (which == 1) kA<<<1, 32>>>(d, n); else kB<<<1, 32>>>(d, n);\n  \
         std::vector<int> out(32);\n  \
         cudaMemcpy(out.data(), d, 32 * sizeof(int), cudaMemcpyDeviceToHost);\n  \
         return out;\n}}\n\
         int main() {{\n  std::vector<int> r = launch(10, 2);\n  return r[0];\n}}\n"
    );
    let t = run_default(&src);
    assert_eq!(t.launch.entry, "kB");
    assert_eq!(ints(&t, "out"), b_values());
    assert!(
        has(&t, Level::Info, "read with its parameters bound"),
        "{:?}",
        t.merged_diagnostics
    );
}
