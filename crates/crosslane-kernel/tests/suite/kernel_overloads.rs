//! Overload resolution (C++17 [over.match], [over.ics.rank], [temp.func.order]): which of
//! several functions of one name a call runs. Each kernel writes values that say which
//! overload ran; the expected ones are derived from the standard's rules beside each test.

use crate::cells::cell_ints as ints;
use crate::support::{refused as error, run_finished as run_with};
use crosslane_kernel::{KVal, KernelTrace, LaunchConfig};

fn run(src: &str, threads: usize) -> KernelTrace {
    run_cells(src, threads, 0)
}

/// A run whose `out` buffer has `cells` cells (0: one per thread).
fn run_cells(src: &str, threads: usize, cells: usize) -> KernelTrace {
    let mut c = LaunchConfig {
        block_dim: Some([threads, 1, 1]),
        ..LaunchConfig::default()
    };
    if cells > 0 {
        c.buffer_len.insert("out".into(), cells);
    }
    run_with(src, c)
}

fn floats(t: &KernelTrace, name: &str) -> Vec<f64> {
    t.buffer(name)
        .expect("the buffer")
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64).expect("a defined value"))
        .collect()
}

#[test]
fn a_double_argument_calls_the_double_overloads_not_the_first() {
    // candle's shape: `expg(float)` declared first, `expg(double)` second. A `double`
    // argument is an exact match for the second and a conversion for the first
    // ([over.ics.scs] table 13), so the second runs, in double precision. Python:
    // math.exp(1.0) = 2.718281828459045, math.exp(0.1) = 1.1051709180756477; the float
    // overload would give expf's 2.7182817459106445 and 1.1051709651947021.
    let src = r#"
__device__ float  expg(float a)  { return expf(a); }
__device__ double expg(double a) { return exp(a); }
__device__ float  maxg(float a, float b)   { return fmaxf(a, b); }
__device__ double maxg(double a, double b) { return fmax(a, b); }
__global__ void k(double * out) {
    const int i = threadIdx.x;
    double x = i == 0 ? 1.0 : 0.1;
    out[2 * i]     = expg(x);
    out[2 * i + 1] = maxg(x, 1e-9);
}
"#;
    let out = floats(&run_cells(src, 2, 4), "out");
    let want = [std::f64::consts::E, 1.0, 1.1051709180756477, 0.1];
    for (i, (g, w)) in out.iter().zip(want).enumerate() {
        // exp is within 1 ulp on the device (CUDA Math API, exp): 2.2e-16 relative.
        assert!((g - w).abs() <= w * 4.5e-16, "cell {i}: {g} vs {w}");
    }
    assert_eq!(out[3], 0.1, "fmax of double 0.1 and 1e-9 is 0.1 exactly");
}

#[test]
fn promotion_beats_conversion_and_exact_beats_both() {
    // p(int) = 1, p(double) = 2. [conv.prom]: short, char and bool promote to int (a
    // promotion, better than the conversion to double); float promotes to double
    // ([conv.fpprom]), better than float → int (a conversion). An exact match wins outright.
    // tag(float) = 10, tag(double) = 20: 1.0 is a double, 1.0f a float.
    let src = r#"
__device__ int p(int)    { return 1; }
__device__ int p(double) { return 2; }
__device__ int tag(float)  { return 10; }
__device__ int tag(double) { return 20; }
__global__ void k(int * out) {
    short s = 3; char c = 'a'; bool b = true; float f = 1.5f; unsigned u = 4u;
    out[0] = p(s);
    out[1] = p(c);
    out[2] = p(b);
    out[3] = p(f);
    out[4] = p(7);
    out[5] = p(2.5);
    out[6] = tag(1.0);
    out[7] = tag(1.0f);
    // unsigned → int and unsigned → double are both conversions (ambiguous): cast first.
    out[8] = p((int)u);
}
"#;
    let out = ints(run_cells(src, 1, 9).buffer("out").unwrap());
    assert_eq!(
        &out[..9],
        &[1, 1, 1, 2, 1, 2, 20, 10, 1].map(Some),
        "short, char, bool → int; float → double; exact int, double; tags"
    );
}

#[test]
fn a_vector_argument_takes_only_its_own_vector_overload() {
    // vLLM's dtype_float32.cuh shape: sum(float), sum(float2), sum(float4). No conversion
    // between a vector type and a scalar or another vector exists (they are structs), so
    // make_float4(1, 2, 3, i) takes sum(float4): 1 + 2 + 3 + i = 6 + i; make_float2(i, 1)
    // takes sum(float2): i + 1; a float takes sum(float).
    let src = r#"
inline __device__ float sum(float v)  { return v; }
inline __device__ float sum(float2 v) { return v.x + v.y; }
inline __device__ float sum(float4 v) { return v.x + v.y + v.z + v.w; }
__global__ void k(float * out, float * two, float * one) {
    float4 v = make_float4(1.0f, 2.0f, 3.0f, threadIdx.x);
    out[threadIdx.x] = sum(v);
    two[threadIdx.x] = sum(make_float2(threadIdx.x, 1.0f));
    one[threadIdx.x] = sum(0.5f * threadIdx.x);
}
"#;
    let t = run(src, 4);
    assert_eq!(floats(&t, "out"), [6.0, 7.0, 8.0, 9.0]);
    assert_eq!(floats(&t, "two"), [1.0, 2.0, 3.0, 4.0]);
    assert_eq!(floats(&t, "one"), [0.0, 0.5, 1.0, 1.5]);
}

#[test]
fn a_half_argument_prefers_float_over_double() {
    // __half is a class (cuda_fp16.h) converting by `operator float()`: to a float parameter
    // that is the whole conversion, to a double one it is followed by a promotion; the same
    // conversion function with the better second conversion wins ([over.ics.rank]/3.3).
    let src = r#"
__device__ int h(float)  { return 1; }
__device__ int h(double) { return 2; }
__global__ void k(int * out) {
    __half x = __float2half(1.5f);
    out[threadIdx.x] = h(x);
}
"#;
    assert_eq!(ints(run(src, 1).buffer("out").unwrap())[0], Some(1));
}

#[test]
fn template_overloads_are_ranked_by_conversions() {
    // ggml's common.cuh shape: warp_reduce_sum for int and for float, each a template on its
    // width (default 32). A float argument is an exact match for the float one and a
    // conversion for the int one. x = 0.5·lane summed over 32 lanes: 0.5·496 = 248 in every
    // lane. The float2 and half2 overloads given a float2 (lane, 1): only float2 is viable;
    // the sums are (496, 32): 528.
    let src = r#"
template<int width = 32>
static __device__ __forceinline__ int warp_reduce_sum(int x) {
    for (int o = width/2; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffff, x, o, width);
    return x;
}
template<int width = 32>
static __device__ __forceinline__ float warp_reduce_sum(float x) {
    for (int o = width/2; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffff, x, o, width);
    return x;
}
template<int width = 32>
static __device__ __forceinline__ float2 warp_reduce_sum(float2 a) {
    for (int o = width/2; o > 0; o >>= 1) {
        a.x += __shfl_xor_sync(0xffffffff, a.x, o, width);
        a.y += __shfl_xor_sync(0xffffffff, a.y, o, width);
    }
    return a;
}
template<int width = 32>
static __device__ __forceinline__ half2 warp_reduce_sum(half2 a) {
    for (int o = width/2; o > 0; o >>= 1) a = __hadd2(a, __shfl_xor_sync(0xffffffff, a, o, width));
    return a;
}
__global__ void k(float * out, float * pair, int * n) {
    out[threadIdx.x] = warp_reduce_sum(threadIdx.x * 0.5f);
    float2 mv = make_float2(threadIdx.x, 1.0f);
    mv = warp_reduce_sum(mv);
    pair[threadIdx.x] = mv.x + mv.y;
    n[threadIdx.x] = warp_reduce_sum(1);
}
"#;
    let t = run(src, 32);
    assert!(floats(&t, "out").iter().all(|&v| v == 248.0));
    assert!(floats(&t, "pair").iter().all(|&v| v == 528.0));
    // The int overload: 1 summed over 32 lanes.
    assert!(ints(t.buffer("n").unwrap()).iter().all(|&v| v == Some(32)));
}

#[test]
fn a_non_template_wins_a_tie_and_a_more_specialized_template_wins() {
    // g: a template g(T) and a non-template g(float). g(1.0f): both exact, the non-template
    // wins ([over.match.best]/2.4) → 2; g(1.0): the template with T = double is exact, the
    // non-template a conversion → 1; g(3): T = int exact → 1.
    // q(T) and q(T*): given a pointer, q(T*) is the more specialized ([temp.func.order]) → 20
    // (here q(T) cannot even take a pointer); given a float, only q(T) → 10.
    let src = r#"
template <typename T> __device__ int g(T) { return 1; }
__device__ int g(float) { return 2; }
template <typename T> __device__ int q(T) { return 10; }
template <typename T> __device__ int q(T*) { return 20; }
__global__ void k(int * out, float * data) {
    out[0] = g(1.0f);
    out[1] = g(1.0);
    out[2] = g(3);
    out[3] = q(data);
    out[4] = q(1.5f);
}
"#;
    let out = ints(run_cells(src, 1, 5).buffer("out").unwrap());
    assert_eq!(&out[..5], &[2, 1, 1, 20, 10].map(Some));
}

#[test]
fn an_ambiguous_call_is_refused_naming_both_lines() {
    // An int argument converts to float and to double with the same rank (conversion): no
    // better one, so C++ refuses the call ([over.match.best]/2), and so does the front end.
    let src = "__device__ float a(float x) { return x; }\n\
               __device__ double a(double x) { return x; }\n\
               __global__ void k(float * out) { out[threadIdx.x] = a((int)threadIdx.x); }\n";
    let e = error(src, LaunchConfig::default());
    assert!(e.contains("ambiguous") && e.contains("lines 1, 2"), "{e}");
    // No viable one: a float given to float2 and float4 overloads.
    let src = "__device__ float b(float2 v) { return v.x; }\n\
               __device__ float b(float4 v) { return v.x; }\n\
               __global__ void k(float * out) { out[threadIdx.x] = b(1.0f); }\n";
    let e = error(src, LaunchConfig::default());
    assert!(
        e.contains("no overload of `b`") && e.contains("line 1"),
        "{e}"
    );
}

#[test]
fn overloaded_kernels_are_chosen_by_parameter_types() {
    // DeepSpeed's shape: scale(__half*, int) and scale(float*, int). A bare --entry names
    // neither; `scale(float*, int)` runs the float one (×3: 1.5 → 4.5), `scale(__half*,
    // int)` the half one (×2: 1.5 → 3).
    let src = r#"
__global__ void scale(__half * vals, int n) { vals[threadIdx.x] = __hmul(vals[threadIdx.x], __float2half(2.0f)); }
__global__ void scale(float * vals, int n)  { vals[threadIdx.x] = vals[threadIdx.x] * 3.0f; }
"#;
    let config = |entry: &str| {
        let mut c = LaunchConfig {
            entry: Some(entry.to_string()),
            block_dim: Some([2, 1, 1]),
            ..LaunchConfig::default()
        };
        c.args.insert("vals".into(), "1.5".into());
        c.args.insert("n".into(), "2".into());
        c
    };
    let e = error(src, config("scale"));
    assert!(
        e.contains("`scale(half*, int)` (line 2)") && e.contains("`scale(float*, int)` (line 3)"),
        "{e}"
    );
    let t = run_with(src, config("scale(float*, int)"));
    assert_eq!(floats(&t, "vals"), [4.5, 4.5]);
    let t = run_with(src, config("scale(__half *vals, int n)"));
    assert_eq!(floats(&t, "vals"), [3.0, 3.0]);
    // The kernel list names each overload in the form --entry reads back.
    let names = crosslane_kernel::list_kernels(src).expect("parses");
    assert_eq!(names, ["scale(half*, int)", "scale(float*, int)"]);
    let t = run_with(src, config(&names[0]));
    assert_eq!(floats(&t, "vals"), [3.0, 3.0]);
    // A host launch with a float* argument runs the float kernel.
    let host = format!(
        "{src}\nint main() {{ float *d; cudaMalloc(&d, 2 * sizeof(float)); \
         scale<<<1, 2>>>(d, 2); return 0; }}\n"
    );
    let mut c = LaunchConfig::default();
    c.args.insert("vals".into(), "1.5".into());
    let t = run_with(&host, c);
    assert_eq!(floats(&t, "vals"), [4.5, 4.5]);
}
