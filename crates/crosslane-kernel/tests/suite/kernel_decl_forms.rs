//! Declarations as inference code writes them: pointer parameters given the null pointer
//! (`k<<<1, 4>>>(x, nullptr, out)`, a config's `null`), kernel default arguments
//! (`const float* mul = nullptr, int mul_stride = 0`), direct-initialization with parentheses
//! (`float m(-FLT_MAX);`), `auto` from a math-library call, and a redeclaration in one scope.
//! Every expected value is derived by hand beside it.

use crate::support::run_finished as run;
use crosslane_kernel::{run_kernel, KVal, KernelTrace, LaunchConfig};

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
fn arithmetic_on_a_null_pointer_other_than_adding_0_is_undefined() {
    let src = r#"
__global__ void k(const float * p, float * out) {
    const float * q = p + 0;
    const float * r = p + 2;
    out[0] = (q == nullptr);
    out[1] = (r == nullptr);
}
"#;
    // p + 0 is p, the null pointer (C++17 [expr.add]/4): 1. p + 2 is undefined, and so is
    // the comparison made from it: no value.
    let mut c = config(1, &[("p", "null"), ("out", "zero")]);
    c.buffer_len.insert("out".to_string(), 2);
    let t = run(src, c);
    assert_eq!(floats(&t, "out"), vec![Some(1.0), None]);
    assert!(t
        .merged_diagnostics
        .iter()
        .any(|d| d.message.contains("arithmetic on a null pointer") && d.line == 4));
}

#[test]
fn host_code_passing_nullptr_or_0_gives_the_null_pointer() {
    for arg in ["nullptr", "NULL", "0"] {
        let src = format!(
            "{SINKS}
int main() {{
    float *x, *out;
    float h[4] = {{0.0f, 1.0f, 2.0f, 3.0f}};
    cudaMalloc(&x, 4 * sizeof(float));
    cudaMemcpy(x, h, sizeof(h), cudaMemcpyHostToDevice);
    cudaMalloc(&out, 4 * sizeof(float));
    k<<<1, 4>>>(x, {arg}, out);
    return 0;
}}
"
        );
        // x is host code's 0 1 2 3: fmaxf(-inf, x) = x.
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

#[test]
fn parenthesized_initializers_direct_initialize_scalars_pointers_and_vectors() {
    let src = r#"
__global__ void k(const float * x, float * out) {
    float threadData(-FLT_MAX);
    threadData = fmaxf(threadData, x[threadIdx.x]);
    int n(3);
    int t(2.9);
    float2 v(threadData, 0.5f);
    float * p(out);
    p[threadIdx.x] = v.x + v.y + n + t;
}
"#;
    // fmaxf(-FLT_MAX, x) = x = i; n = 3; int t(2.9) truncates to 2 (C++17 [conv.fpint]/1);
    // v = (x, 0.5): out = i + 0.5 + 3 + 2 = i + 5.5. HIP's float2 has a constructor
    // (hip_vector_types.h); CUDA's is an aggregate, so nvcc refuses `float2 v(a, b)` and takes
    // `float2 v{a, b}` or `float2 v = {a, b}` ([dcl.init.aggr]) — the same values.
    let mut hip = config(4, &[("x", "index"), ("out", "zero")]);
    hip.dialect = Some(crosslane_core::Dialect::Hip);
    let t = run(src, hip);
    assert_eq!(floats(&t, "out"), [5.5, 6.5, 7.5, 8.5].map(Some).to_vec());
    let mut cuda = config(4, &[("x", "index"), ("out", "zero")]);
    cuda.dialect = Some(crosslane_core::Dialect::Cuda);
    let e = run_kernel(src, cuda.clone()).expect_err("CUDA's float2 has no constructor");
    assert_eq!((e.line, e.col), (7, 12), "{e:?}");
    assert!(
        e.message.contains("write `make_float2(…)` or `float2{…}`"),
        "{e:?}"
    );
    for form in [
        "float2 v{threadData, 0.5f};",
        "float2 v = {threadData, 0.5f};",
    ] {
        let braced = src.replace("float2 v(threadData, 0.5f);", form);
        let t = run(&braced, cuda.clone());
        assert_eq!(
            floats(&t, "out"),
            [5.5, 6.5, 7.5, 8.5].map(Some).to_vec(),
            "{form}"
        );
    }
}

#[test]
fn empty_parentheses_or_a_type_inside_them_declare_a_function_and_are_refused() {
    for (body, word) in [
        ("float f(); out[0] = 1;", "declares a function"),
        ("float g(int); out[0] = 1;", "declares a function"),
        ("int n(1, 2); out[0] = n;", "holds one expression"),
    ] {
        let src = format!("__global__ void k(float* out) {{\n    {body}\n}}\n");
        let e = run_kernel(&src, config(1, &[])).expect_err(body);
        assert!(e.message.contains(word), "{body}: {}", e.message);
        assert_eq!(e.line, 2, "{body}");
    }
}

#[test]
fn auto_from_a_math_library_call_takes_its_declared_return_type() {
    let src = r#"
__global__ void k(const float * x, int * out, int * sizes) {
    auto const r = std::nearbyint(x[threadIdx.x]);
    out[threadIdx.x] = static_cast<int>(r);
    auto y = expf(x[threadIdx.x]);
    auto d = sqrt(2.0);
    auto i = sqrt(4);
    auto h = __fdividef(x[threadIdx.x], 2.0f);
    auto b = isnan(x[threadIdx.x]);
    auto l = lround(x[threadIdx.x]);
    if (threadIdx.x == 0) {
        sizes[0] = sizeof(r); sizes[1] = sizeof(y); sizes[2] = sizeof(d);
        sizes[3] = sizeof(i); sizes[4] = sizeof(h); sizes[5] = sizeof(b);
        sizes[6] = sizeof(l);
    }
}
"#;
    // nearbyint in the default round-to-nearest-even mode (C11 7.12.9.3): 2.4 → 2, -2.5 → -2,
    // 3.5 → 4, 0.4 → 0. Return types (CUDA Math API; C++ [c.math] overloads): nearbyint(float)
    // and expf float (4 bytes), sqrt(double) and sqrt(int) double (8: an integer argument
    // converts to double), __fdividef float (4), isnan bool (1), lround long (8, LP64).
    let mut c = config(
        4,
        &[
            ("x", "2.4,-2.5,3.5,0.4"),
            ("out", "zero"),
            ("sizes", "zero"),
        ],
    );
    c.buffer_len.insert("sizes".to_string(), 7);
    let t = run(src, c);
    let ints = |name: &str| -> Vec<Option<i128>> {
        t.buffer(name)
            .expect("buffer")
            .iter()
            .map(|c| c.as_ref().and_then(KVal::as_int))
            .collect()
    };
    assert_eq!(ints("out"), [2, -2, 4, 0].map(Some).to_vec());
    assert_eq!(ints("sizes"), [4, 4, 8, 8, 4, 1, 8].map(Some).to_vec());
}

#[test]
fn auto_pointers_from_casts_point_at_vectors_and_structs() {
    let src = r#"
struct Pair { float a; float b; };
__global__ void k(const float * in, const Pair * s, float * out) {
    auto const* p = reinterpret_cast<float4 const*>(in);
    auto const* q = reinterpret_cast<const Pair*>(s);
    out[threadIdx.x] = p[threadIdx.x].y + q[1].b;
}
"#;
    // p[t].y = in[4t + 1] = 4t + 1 (index fill); q[1].b = s.b[1] = 10: out = 4t + 11.
    let mut c = config(
        4,
        &[
            ("in", "index"),
            ("s.a", "index"),
            ("s.b", "i*10"),
            ("out", "zero"),
        ],
    );
    c.buffer_len.insert("in".to_string(), 16);
    let t = run(src, c);
    assert_eq!(
        floats(&t, "out"),
        [11.0, 15.0, 19.0, 23.0].map(Some).to_vec()
    );
}

#[test]
fn a_redeclaration_in_one_scope_is_an_error_at_its_line() {
    let src = "__global__ void k(float * out) {\n    float wt[2];\n    wt[0] = 1.0f;\n    float wt[2];\n    out[threadIdx.x] = wt[0];\n}\n";
    let e = run_kernel(src, config(1, &[])).expect_err("refused");
    assert!(e.message.contains("redefinition of `wt`"), "{}", e.message);
    assert_eq!((e.line, e.col), (4, 11));
    // An inner block hides the name, and each `for` has its own init-statement scope
    // (C++17 [basic.scope.block]/1, [stmt.for]/1): t = 2 inside, 1 outside; both loops run
    // twice: out = 1 + 2 + 2 + 2 = 7.
    let ok = r#"
__global__ void k(float * out) {
    float t = 1.0f;
    { float t = 2.0f; out[threadIdx.x] = t; }
    out[threadIdx.x] += t;
    for (int i = 0; i < 2; i++) out[threadIdx.x] += 1.0f;
    for (int i = 0; i < 2; i++) out[threadIdx.x] += 1.0f;
}
"#;
    let t = run(ok, config(2, &[("out", "zero")]));
    assert_eq!(floats(&t, "out"), [Some(7.0); 2].to_vec());
}

/// A `bool` kernel parameter takes C++'s `true` and `false` from `--arg` (as 1 and 0 do).
#[test]
fn bool_parameters_take_true_and_false() {
    let src = "__global__ void k(int* out, bool flip) { out[threadIdx.x] = flip ? 1 : 2; }\n";
    for (given, want) in [("false", 2.0), ("true", 1.0), ("0", 2.0), ("1", 1.0)] {
        let t = run(src, config(2, &[("out", "zero"), ("flip", given)]));
        let cells = crate::cells::cell_ints(t.buffer("out").unwrap());
        assert_eq!(cells, vec![Some(want as i128); 2], "{given}");
    }
}
