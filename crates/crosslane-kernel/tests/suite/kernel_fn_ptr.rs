//! Function pointers and templates as template arguments, bound per instance: a function
//! pointer template parameter (`T (*ACT_FN)(const T&)`, `float (*F)(float)`, a `using fn_t =
//! float (*)(float);` type) given `silu_kernel<float>`, `twice` or `&neg`, and a template
//! template parameter given a class template; function pointer variables and parameters
//! refused at their line with what to write. Expected values by hand, beside each test.

use crate::support::floats_or_nan as floats;
use crosslane_core::Dialect;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

const SRC: &str = "\
__device__ float twice(float x) { return 2.0f * x; }
__device__ float neg(float x) { return -x; }
using fn_t = float (*)(float);
template <fn_t OP> __device__ float apply(float x) { return OP(x); }
template <float (*F)(float), float (*G)(float)>
__global__ void k(float* o) {
  const float x = (float)threadIdx.x;
  o[threadIdx.x] = F(x) + G(x) + apply<&neg>(1.0f) + apply<twice>(0.5f);
}
template <typename T> struct Neg { static __device__ T run(T x) { return -x; } };
template <typename T> struct Sq { static __device__ T run(T x) { return x * x; } };
template <template <typename> class Op, template <typename> class Op2>
__global__ void k3(float* o) {
  const float x = (float)threadIdx.x;
  o[threadIdx.x] = Op<float>::run(x) + Op2<float>::run(x);
}
";

fn run(entry: &str, dialect: Dialect) -> KernelTrace {
    let c = LaunchConfig {
        dialect: Some(dialect),
        entry: Some(entry.into()),
        ..LaunchConfig::default()
    };
    let t = run_kernel(SRC, c).unwrap_or_else(|e| panic!("{entry}: {e}"));
    assert_eq!(t.outcome, Some(Outcome::Finished), "{entry}");
    t
}

#[test]
fn function_pointer_template_arguments_call_the_function_given() {
    // Lane i: twice(i) + neg(i) - 1 + 1 = i; with F = G = twice: 4i.
    for d in [Dialect::Cuda, Dialect::Hip] {
        let o = floats(&run("k<twice, neg>", d), "o");
        assert_eq!(o[5], 5.0);
        assert_eq!(o[31], 31.0);
        let o = floats(&run("k<&twice, &twice>", d), "o");
        assert_eq!(o[5], 20.0);
    }
}

#[test]
fn template_template_arguments_name_the_class_template() {
    // Lane i: -i + i * i; lane 3: 6.
    let o = floats(&run("k3<Neg, Sq>", Dialect::Cuda), "o");
    assert_eq!(o[3], 6.0);
    assert_eq!(o[0], 0.0);
}

#[test]
fn vllm_act_and_mul_runs_from_its_host_launch() {
    // silu(x) * y with x = -4 + i/16 (input cell i) and y = input cell 32 + i:
    // lane 0: silu(-4) * -2 = -4 / (1 + e^4) * -2 = 0.143889... (e^4 = 54.59815).
    let src = "\
template <typename T> __device__ __forceinline__ T silu_kernel(const T& x) {
  return (T)(((float)x) / (1.0f + expf((float)-x)));
}
template <typename T, T (*ACT_FN)(const T&)>
__global__ void act_and_mul_kernel(T* __restrict__ out, const T* __restrict__ input, const int d) {
  const int64_t token_idx = blockIdx.x;
  for (int64_t idx = threadIdx.x; idx < d; idx += blockDim.x) {
    const T x = input[token_idx * 2 * d + idx];
    const T y = input[token_idx * 2 * d + d + idx];
    out[token_idx * d + idx] = ACT_FN(x) * y;
  }
}
int main() { act_and_mul_kernel<float, silu_kernel<float>><<<2, 32>>>(out, input, 32); }
";
    let mut c = LaunchConfig::default();
    c.buffer_len.insert("input".into(), 128);
    c.args.insert("input".into(), "i*0.0625-4".into());
    c.buffer_len.insert("out".into(), 64);
    let t = run_kernel(src, c).expect("runs");
    let o = floats(&t, "out");
    let want = -4.0 / (1.0 + 4f64.exp()) * -2.0;
    assert!((o[0] - want).abs() < 1e-6, "{} vs {want}", o[0]);
    // Block 1, lane 0: x = input[64] = 0, silu(0) = 0.
    assert_eq!(o[32], 0.0);
}

#[test]
fn a_default_function_pointer_template_argument_is_refused_at_its_line() {
    // Function pointers chosen at run time run (`kernel_fn_ptr_run.rs`); a default for a
    // function pointer template parameter is still refused.
    let src = "template <float (*F)(float) = nullptr>\n__global__ void k(float* o) {}";
    let e = run_kernel(src, LaunchConfig::default()).expect_err(src);
    assert_eq!(e.line, 1, "{}", e.message);
    assert!(
        e.message.contains("a default for the function pointer"),
        "{}",
        e.message
    );
}
