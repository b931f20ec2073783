//! Declarations as inference code writes them: pointer parameters given the null pointer
//! (`k<<<1, 4>>>(x, nullptr, out)`, a config's `null`), kernel default arguments
//! (`const float* mul = nullptr, int mul_stride = 0`), direct-initialization with parentheses
//! (`float m(-FLT_MAX);`), `auto` from a math-library call, and a redeclaration in one scope.
//! Every expected value is derived by hand beside it.

use crosslane_kernel::{run_kernel, KVal, KernelTrace, LaunchConfig, Outcome};

fn config(threads: usize, args: &[(&str, &str)]) -> LaunchConfig {
    LaunchConfig {
        block_dim: Some([threads, 1, 1]),
        args: args
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        ..LaunchConfig::default()
    }
}

fn run(src: &str, config: LaunchConfig) -> KernelTrace {
    let t = run_kernel(src, config).expect("kernel parses and launches");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

fn floats(t: &KernelTrace, name: &str) -> Vec<Option<f64>> {
    t.buffer(name)
        .unwrap_or_else(|| panic!("a buffer `{name}`"))
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64))
        .collect()
}

const SINKS: &str = r#"
__global__ void k(const float * x, const float * sinks, float * out) {
    float m = sinks ? sinks[0] : -INFINITY;
    out[threadIdx.x] = fmaxf(m, x[threadIdx.x]);
}
"#;

#[test]
fn a_null_pointer_argument_is_false_and_names_no_buffer() {
    // sinks = null: `sinks ? … : -INFINITY` takes -inf, and fmaxf(-inf, x) = x (CUDA Math API,
    // fmaxf): x = i - 10 gives -10 -9 -8 -7.
    for null in ["null", "nullptr", "NULL"] {
        let t = run(
            SINKS,
            config(4, &[("x", "i-10"), ("sinks", null), ("out", "zero")]),
        );
        assert_eq!(
            floats(&t, "out"),
            [-10.0, -9.0, -8.0, -7.0].map(Some).to_vec(),
            "{null}"
        );
        assert!(t.buffer("sinks").is_none(), "a null pointer has no buffer");
    }
    // Given a buffer, sinks[0] = 2 (the fill): fmaxf(2, x) = 2 in every thread.
    let t = run(
        SINKS,
        config(4, &[("x", "i-10"), ("sinks", "2"), ("out", "zero")]),
    );
    assert_eq!(floats(&t, "out"), [Some(2.0); 4].to_vec());
}

#[test]
fn a_null_pointer_compares_equal_to_zero_and_its_dereference_is_undefined_at_its_line() {
    let src = r#"
__global__ void k(const float * p, float * out) {
    int i = threadIdx.x;
    if (i == 0) out[i] = (p == 0) ? 1.0f : 0.0f;
    if (i == 1) out[i] = (p == nullptr) + 10 * (p != NULL);
    if (i == 2) out[i] = !p ? 7.0f : 8.0f;
    if (i == 3) out[i] = p[i];
}
"#;
    let t = run_kernel(src, config(4, &[("p", "null"), ("out", "zero")])).expect("launches");
    // p == 0: 1; (p == nullptr) + 10 * (p != NULL) = 1 + 0; !p: 7; p[3]: no value.
    assert_eq!(
        floats(&t, "out"),
        vec![Some(1.0), Some(1.0), Some(7.0), None]
    );
    let read = t
        .merged_diagnostics
        .iter()
        .find(|d| d.message.contains("reads through a null pointer"))
        .expect("the read through the null pointer is reported");
    assert_eq!(read.line, 7);
}

#[test]
fn host_code_passing_nullptr_or_0_gives_the_null_pointer() {
    for arg in ["nullptr", "NULL", "0"] {
        let src = format!(
            "{SINKS}
int main() {{
    float *x, *out;
    cudaMalloc(&x, 4 * sizeof(float));
    cudaMalloc(&out, 4 * sizeof(float));
    k<<<1, 4>>>(x, {arg}, out);
    return 0;
}}
"
        );
        // x is the index fill 0 1 2 3 (nothing copied into it): fmaxf(-inf, x) = x.
        let t = run(&src, LaunchConfig::default());
        assert_eq!(t.launch.block_dim, [4, 1, 1]);
        assert_eq!(
            floats(&t, "out"),
            [0.0, 1.0, 2.0, 3.0].map(Some).to_vec(),
            "{arg}"
        );
        assert!(t.buffer("sinks").is_none(), "{arg}: no buffer");
    }
}

const RMS_MUL: &str = r#"
__global__ void k(const float * x, float * out, const float * mul = nullptr, const int mul_stride = 0) {
    const float m = mul ? mul[threadIdx.x * mul_stride] : 1.0f;
    out[threadIdx.x] = x[threadIdx.x] * m;
}
"#;

#[test]
fn kernel_default_arguments_apply_where_the_launch_gives_none() {
    // mul = nullptr, mul_stride = 0 by default: m = 1, out = x = i + 1.
    let t = run(RMS_MUL, config(4, &[("x", "i+1"), ("out", "zero")]));
    assert_eq!(floats(&t, "out"), [1.0, 2.0, 3.0, 4.0].map(Some).to_vec());
    assert!(t.buffer("mul").is_none());
    assert!(
        t.merged_diagnostics
            .iter()
            .any(|d| d.message.contains("default arguments")
                && d.message.contains("`mul_stride` = 0"))
    );
    // Given: mul = 0.5 in every cell, stride 1: out = (i + 1) / 2.
    let t = run(
        RMS_MUL,
        config(
            4,
            &[
                ("x", "i+1"),
                ("out", "zero"),
                ("mul", "0.5"),
                ("mul_stride", "1"),
            ],
        ),
    );
    assert_eq!(floats(&t, "out"), [0.5, 1.0, 1.5, 2.0].map(Some).to_vec());
    // A host launch with two arguments takes both defaults; x copied from h = 1 2 3 4.
    let src = format!(
        "{RMS_MUL}
int main() {{
    float h[4];
    for (int i = 0; i < 4; i++) h[i] = i + 1;
    float *x, *out;
    cudaMalloc(&x, 4 * sizeof(float));
    cudaMalloc(&out, 4 * sizeof(float));
    cudaMemcpy(x, h, 4 * sizeof(float), cudaMemcpyHostToDevice);
    k<<<1, 4>>>(x, out);
    return 0;
}}
"
    );
    let t = run(&src, LaunchConfig::default());
    assert_eq!(floats(&t, "out"), [1.0, 2.0, 3.0, 4.0].map(Some).to_vec());
}

#[test]
fn a_reference_parameter_cannot_be_null() {
    let src = "__global__ void k(float & r) { r = 1.0f; }";
    let e = run_kernel(src, config(1, &[("r", "null")])).expect_err("refused");
    assert!(e.message.contains("cannot be null"), "{}", e.message);
}
