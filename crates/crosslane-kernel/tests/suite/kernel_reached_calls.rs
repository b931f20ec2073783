//! What a program's `main` reaches: a launch inside a host helper that binds nothing
//! (`run4();`) still runs when `main` first calls a host function template (`run1<int>();`,
//! read with its parameters bound), and a device function template whose inline GCN `asm` is
//! refused stops each run that calls its instance. Kernels written here in those shapes (ROCm
//! hip-tests' `runTestShfl_1<int>(); runTestShfl_3();`, aiter's DPP reductions in assembly);
//! each expected value is derived in the comment beside it.

use crate::support::{floats, has, ints, ints_at_launch, refused, run_finished};
use crosslane_core::result::Level;
use crosslane_kernel::LaunchConfig;

/// Two launchers and a `main` calling the template one first, then `{second}`.
fn two_launchers(second: &str, extra: &str) -> String {
    format!(
        "\
#include <hip/hip_runtime.h>
#include <vector>
__global__ void k1(int *in, int *out) {{ out[threadIdx.x] = in[threadIdx.x] + 1; }}
__global__ void k4(int *in, int *out) {{ out[threadIdx.x] = in[threadIdx.x] * 2; }}
template <typename T> static void run1() {{
  std::vector<int> h(64);
  for (size_t i = 0; i < h.size(); i++) h[i] = 7;
  int *d_in, *d_out;
  hipMalloc(&d_in, 64 * sizeof(int)); hipMalloc(&d_out, 64 * sizeof(int));
  hipMemcpy(d_in, h.data(), 64 * sizeof(int), hipMemcpyDefault);
  hipLaunchKernelGGL(k1, 1, 64, 0, 0, d_in, d_out);
}}
static void run4() {{
  std::vector<int> h(64);
  for (size_t i = 0; i < h.size(); i++) h[i] = 100 + i;
  int *d_in, *d_out;
  hipMalloc(&d_in, 64 * sizeof(int)); hipMalloc(&d_out, 64 * sizeof(int));
  hipMemcpy(d_in, h.data(), 64 * sizeof(int), hipMemcpyDefault);
  hipLaunchKernelGGL(k4, 1, 64, 0, 0, d_in, d_out);
}}
{extra}
int main() {{ run1<int>(); {second}; return 0; }}
"
    )
}

/// `k4` run from `src` by its name: its launch read from host code, so `in` holds host
/// code's fill 100 + i and `out` = 2 in = 200 + 2i for the 64 lanes of the one block.
fn assert_k4_from_host(src: &str) {
    let t = run_finished(
        src,
        LaunchConfig {
            entry: Some("k4".into()),
            ..LaunchConfig::default()
        },
    );
    let fill: Vec<Option<i128>> = (0..64).map(|i| Some(100 + i)).collect();
    assert_eq!(ints_at_launch(&t, "in"), fill);
    let want: Vec<Option<i128>> = (0..64).map(|i| Some(200 + 2 * i)).collect();
    assert_eq!(ints(&t, "out"), want);
    assert!(has(&t, Level::Info, "launch of `k4` read from host code"));
}

#[test]
fn a_helper_call_binding_nothing_after_a_template_call_keeps_its_launch() {
    // C++17 [basic.start.main]/1, [expr.call]: `main` calls `run4()`, so its launch of k4 is
    // made; the template call before it is read with `T` bound and does not hide it.
    assert_k4_from_host(&two_launchers("run4()", ""));
}

#[test]
fn a_helper_reached_through_another_or_by_pointer_keeps_its_launch() {
    // `all()` binds nothing and calls `run4()`: run4 is reached through it.
    assert_k4_from_host(&two_launchers("all()", "static void all() { run4(); }"));
    // `run4` called through a function pointer `main` holds ([basic.def.odr]/3: naming it
    // odr-uses it).
    assert_k4_from_host(&two_launchers("void (*f)() = run4; f()", ""));
}

/// A HIP kernel calling `f<16>(v)`, a device function template whose body is `{body}`, and
/// `{more}` beside it.
fn asm_template(body: &str, more: &str) -> String {
    format!(
        "\
#include <hip/hip_runtime.h>
template <int N>
__device__ float f(float v)
{{
{body}
}}
{more}
__global__ void k(const float* x, float* out)
{{
    float v = x[threadIdx.x];
    v = f<16>(v);
    out[threadIdx.x] = v;
}}
"
    )
}

const GCN_ASM: &str = "    float r;
    asm volatile(\"v_max_f32 %0, %1, %1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\" : \"=&v\"(r) : \"v\"(v));
    return r;";

#[test]
fn gcn_asm_in_a_device_function_template_stops_the_run_calling_its_instance() {
    // The instance `f<16>` holds GCN assembly, which is not emulated: the run that calls it
    // stops with the refusal at the `asm` (line 6, col 5) naming the instance, never a run
    // that finishes with its result read as unset.
    let src = asm_template(GCN_ASM, "");
    let e = refused(&src, LaunchConfig::default());
    assert!(e.contains("6:5"), "{e}");
    assert!(e.contains("in `f<16>`: inline `asm` `v_max_f32`"), "{e}");
    assert!(e.contains("__hip_move_dpp"), "{e}");
}

#[test]
fn a_kernel_not_calling_the_refused_instance_still_runs() {
    // `k2` never calls `f<16>`: it runs, out[l] = 2 x[l] = 2l (x index-filled), and the
    // refusal is a warning naming the device function; `k`, which calls it, is still refused.
    let src = asm_template(
        GCN_ASM,
        "__global__ void k2(const float* x, float* out) { out[threadIdx.x] = 2 * x[threadIdx.x]; }
__global__ void k3(const float* x, float* out) { out[threadIdx.x] = f<16>(x[threadIdx.x]); }",
    );
    let t = run_finished(
        &src,
        LaunchConfig {
            entry: Some("k2".into()),
            ..LaunchConfig::default()
        },
    );
    let want: Vec<Option<f64>> = (0..64).map(|l| Some(2.0 * f64::from(l))).collect();
    assert_eq!(floats(&t, "out"), want);
    assert!(has(
        &t,
        Level::Warning,
        "device function `f<16>` does not run here"
    ));
    for entry in ["k", "k3"] {
        let e = refused(
            &src,
            LaunchConfig {
                entry: Some(entry.into()),
                ..LaunchConfig::default()
            },
        );
        assert!(
            e.contains("in `f<16>`: inline `asm` `v_max_f32`"),
            "{entry}: {e}"
        );
    }
}
