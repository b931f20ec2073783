//! Round six of the inference family's shapes (kernels written here, in the shapes of
//! llama.cpp's `topk-moe.cu` launcher, vLLM's `topk_softmax_kernels.cu` launchers): a struct
//! whose members host code sets one by one passed by value through a launcher template, a
//! class template's static members read by host code through a block-scope alias (in a
//! declaration, a template argument and the launch's block), the null pointer held by a
//! variable or passed through a helper, and a kernel template's type parameter deduced from a
//! pointer parameter of the launcher template around the launch. Expected values are worked
//! out in each test's comment.

use crate::support::{floats, ints, no_errors, run_default, run_finished};
use crosslane_kernel::LaunchConfig;

/// llama.cpp's `topk_moe_config` shape: `cfg` is set member by member in `main` (C++17
/// [expr.ass]) and passed by value to `launch_route<true>`, whose parameter is copy-initialized
/// from it ([dcl.init]/17.6.1), and on to the kernel. `use_sigmoid` doubles `x[t] = t`,
/// `with_norm` is false, `bias` = 7 and `N` = 1 (`B ? 1 : 2`): `y[t] = 2t + 8`. Before: every
/// member "is not a constant read here", `y` undefined.
#[test]
fn struct_members_set_by_host_code_reach_a_launcher_template() {
    let src = r#"
struct route_cfg {
    bool use_sigmoid;
    bool with_norm;
    int bias;
};
template <int N>
__global__ void route(const float* x, float* y, const route_cfg cfg) {
    int t = threadIdx.x;
    float v = x[t];
    if (cfg.use_sigmoid) v = v * 2.0f;
    if (cfg.with_norm) v = v + 100.0f;
    y[t] = v + cfg.bias + N;
}
template <bool B>
static void launch_route(const float* x, float* y, const route_cfg cfg) {
    route<B ? 1 : 2><<<1, 32>>>(x, y, cfg);
}
int main() {
    float *x, *y;
    float h[32];
    for (int i = 0; i < 32; ++i) h[i] = i;
    cudaMalloc(&x, 32 * sizeof(float));
    cudaMalloc(&y, 32 * sizeof(float));
    cudaMemcpy(x, h, sizeof(h), cudaMemcpyHostToDevice);
    route_cfg cfg;
    cfg.use_sigmoid = true;
    cfg.with_norm = false;
    cfg.bias = 7;
    launch_route<true>(x, y, cfg);
    return 0;
}
"#;
    let t = run_default(src);
    no_errors(&t);
    assert_eq!(t.launch.entry, "route<1>");
    let y = floats(&t, "y");
    assert_eq!(y.len(), 32);
    for (i, c) in y.iter().enumerate() {
        assert_eq!(*c, Some(2.0 * i as f64 + 8.0), "y[{i}]");
    }
}

/// vLLM's `topkGatingSoftmaxLauncherHelper` shape: host code reads a class template's static
/// members through a block-scope alias (`using Consts = detail::TileConsts<…>;`,
/// [dcl.typedef]/2) and through the qualified template-id itself, in declarations, in the
/// kernel's template arguments and in the launch's grid and block ([class.static.data]/3).
/// `launch_tile<16, 8>`: BYTES = min(8, 4·16) = 8, ELTS = 8 / 4 = 2, VPT = 2·2 = 4, ROWS =
/// 32 / (16 / 4) = 8: `tile<4, 16, 8>` over 2 blocks of 8 threads writes 4·10000 + 16·100 + 8
/// = 41608 into cells 0..8 (both blocks write those). Before: "a template value argument must
/// be a constant expression", no launch read.
#[test]
fn class_static_members_through_a_host_alias_are_host_constants() {
    let src = r#"
#define MIN(a, b) ((a) < (b) ? (a) : (b))
namespace detail {
template <int EXPERTS, int BYTES, int WARP>
struct TileConsts {
    static constexpr int ELTS = BYTES / sizeof(float);
    static constexpr int VPT = ELTS * 2;
    static const int ROWS = WARP / (EXPERTS / VPT);
};
}
template <int VPT, int EXPERTS, int ROWS>
__global__ void tile(int* o) { o[threadIdx.x] = VPT * 10000 + EXPERTS * 100 + ROWS; }
template <int EXPERTS, int MAX_BYTES>
void launch_tile(int* o) {
    static constexpr int BYTES = MIN(MAX_BYTES, sizeof(float) * EXPERTS);
    using Consts = detail::TileConsts<EXPERTS, BYTES, 32>;
    static constexpr int VPT = Consts::VPT;
    static constexpr int ELTS = detail::TileConsts<EXPERTS, BYTES, 32>::ELTS;
    tile<VPT, EXPERTS, Consts::ROWS><<<ELTS, Consts::ROWS>>>(o);
}
int main() {
    int* o;
    cudaMalloc(&o, 64 * sizeof(int));
    launch_tile<16, 8>(o);
    return 0;
}
"#;
    let t = run_default(src);
    no_errors(&t);
    assert_eq!(t.launch.entry, "tile<4,16,8>");
    assert_eq!(t.launch.grid_dim, [2, 1, 1]);
    assert_eq!(t.launch.block_dim, [8, 1, 1]);
    let o = ints(&t, "o");
    for (i, v) in o.iter().enumerate() {
        let want = (i < 8).then_some(41608);
        assert_eq!(*v, want, "o[{i}]");
    }
}

/// A pointer variable initialized with `nullptr` passed to a launch holds the null pointer
/// value (C++17 [conv.ptr]/1), so `finished != nullptr` is false and `o[t] = t`. Before: "a
/// pointer the host reading does not follow", `finished` read as an undefined buffer.
#[test]
fn a_pointer_variable_holding_nullptr_is_the_null_pointer() {
    let src = r#"
__global__ void gate(float* o, const bool* finished) {
    int t = threadIdx.x;
    o[t] = (finished != nullptr && finished[t]) ? -1.0f : (float)t;
}
static void run_gate(float* o, const bool* finished) { gate<<<1, 32>>>(o, finished); }
int main() {
    float* o;
    cudaMalloc(&o, 32 * sizeof(float));
    const bool* none = nullptr;
    gate<<<1, 32>>>(o, none);
    return 0;
}
"#;
    let t = run_default(src);
    no_errors(&t);
    let o = floats(&t, "o");
    assert_eq!(o.len(), 32);
    for (i, c) in o.iter().enumerate() {
        assert_eq!(*c, Some(i as f64), "o[{i}]");
    }
}

/// `nullptr` passed to a helper's pointer parameter, which the helper passes to the launch
/// (vLLM's `LAUNCH_SOFTMAX` passing `nullptr` for `finished`): the parameter is the null
/// pointer ([dcl.init]/17.6.3), so again `o[t] = t`. Before: `finished` undefined.
#[test]
fn nullptr_passed_through_a_helper_is_the_null_pointer() {
    let src = r#"
__global__ void gate(float* o, const bool* finished) {
    int t = threadIdx.x;
    o[t] = (finished != nullptr && finished[t]) ? -1.0f : (float)t;
}
static void run_gate(float* o, const bool* finished) { gate<<<1, 32>>>(o, finished); }
int main() {
    float* o;
    cudaMalloc(&o, 32 * sizeof(float));
    run_gate(o, nullptr);
    return 0;
}
"#;
    let t = run_default(src);
    no_errors(&t);
    let o = floats(&t, "o");
    assert_eq!(o.len(), 32);
    for (i, c) in o.iter().enumerate() {
        assert_eq!(*c, Some(i as f64), "o[{i}]");
    }
}

/// vLLM's `moeTopK<TPB><<<…>>>(…, topk_indices, …)` inside `topkGatingSoftmaxKernelLauncher<
/// IndType>`: the kernel's `IndType` is deduced from the launcher's parameter `IndType*
/// topk_ids` ([temp.deduct.call]/4.2), `IndType` being `long long` from `main`'s `out`. Each
/// lane writes `2t + sizeof(long long)` = `2t + 8`. Before: "template parameter `IndType` of
/// `pick` cannot be deduced from this call".
#[test]
fn a_kernel_deduces_from_a_pointer_parameter_of_its_launcher_template() {
    let src = r#"
template <int TPB, typename IndType>
__global__ void pick(const float* w, IndType* idx, int n) {
    int t = threadIdx.x;
    if (t < n) idx[t] = (IndType)(w[t] * 2.0f) + (IndType)sizeof(IndType);
}
template <typename IndType>
void pick_launcher(const float* weights, IndType* topk_ids, int n) {
    static constexpr int TPB = 32;
    pick<TPB><<<1, TPB>>>(weights, topk_ids, n);
}
int main() {
    float h[32];
    for (int i = 0; i < 32; ++i) h[i] = i;
    float* w;
    long long* out;
    cudaMalloc(&w, sizeof(h));
    cudaMalloc(&out, 32 * sizeof(long long));
    cudaMemcpy(w, h, sizeof(h), cudaMemcpyHostToDevice);
    pick_launcher(w, out, 32);
    return 0;
}
"#;
    let t = run_default(src);
    no_errors(&t);
    assert_eq!(t.launch.entry, "pick<32,int64_t>");
    let idx = ints(&t, "idx");
    assert_eq!(idx.len(), 32);
    for (i, c) in idx.iter().enumerate() {
        assert_eq!(*c, Some(2 * i as i128 + 8), "idx[{i}]");
    }
}

/// CTranslate2's `Y[index] = T((float(X[index]) - s_mean) * s_variance …)`: `(float(x) - m)` is
/// a parenthesized expression whose first operand is a functional cast ([expr.type.conv]),
/// not a C-style cast to `float` (a type-id's declarator after `float` would open with `(*`,
/// [dcl.fct]). `y[t] = (2t − 4)·0.5 + t = 2t − 2`. Before: "expected `)`, found `(`".
#[test]
fn a_functional_cast_may_open_a_parenthesized_expression() {
    let src = r#"
template <typename T>
__global__ void centre(const T* x, T* y, float m, float s) {
    int t = threadIdx.x;
    y[t] = T((float(x[t]) - m) * s + float(t));
}
int main() {
    float h[32];
    for (int i = 0; i < 32; ++i) h[i] = 2.0f * i;
    float *x, *y;
    cudaMalloc(&x, sizeof(h));
    cudaMalloc(&y, sizeof(h));
    cudaMemcpy(x, h, sizeof(h), cudaMemcpyHostToDevice);
    centre<float><<<1, 32>>>(x, y, 4.0f, 0.5f);
    return 0;
}
"#;
    let t = run_default(src);
    no_errors(&t);
    let y = floats(&t, "y");
    assert_eq!(y.len(), 32);
    for (i, c) in y.iter().enumerate() {
        assert_eq!(*c, Some(2.0 * i as f64 - 2.0), "y[{i}]");
    }
}

/// sglang's `Pack16B pack = {ldg_cg(reinterpret_cast<const uint4*>(x + offset))};` read back
/// through `pack.u16[i]`: a braced list initializes a union's first member ([dcl.init.aggr]/16),
/// here a byte view of the member that holds the union (`h[8]`), whose halves are then read.
/// Each lane loads the halves 0..7 and sums `i·(i + 1)`: 0 + 2 + 6 + 12 + 20 + 30 + 42 + 56 =
/// 168. Before: "a braced initializer sets a union's first member `v`, which is read from the
/// bytes of another member here".
#[test]
fn a_braced_list_initializes_a_unions_first_member_through_its_bytes() {
    let src = r#"
#include <cuda_fp16.h>
union Pack8 {
    uint4 v;
    __half h[8];
};
__global__ void widen(const __half* x, float* y) {
    int t = threadIdx.x;
    Pack8 p = {*reinterpret_cast<const uint4*>(x + 8 * t)};
    float s = 0.0f;
    for (int i = 0; i < 8; ++i) s += __half2float(p.h[i]) * (float)(i + 1);
    y[t] = s;
}
int main() {
    __half h[256];
    for (int i = 0; i < 256; ++i) h[i] = __float2half((float)(i % 8));
    __half* x;
    float* y;
    cudaMalloc(&x, sizeof(h));
    cudaMalloc(&y, 32 * sizeof(float));
    cudaMemcpy(x, h, sizeof(h), cudaMemcpyHostToDevice);
    widen<<<1, 32>>>(x, y);
    return 0;
}
"#;
    let t = run_default(src);
    no_errors(&t);
    let y = floats(&t, "y");
    assert_eq!(y.len(), 32);
    for (i, c) in y.iter().enumerate() {
        assert_eq!(*c, Some(168.0), "y[{i}]");
    }
}

/// sglang's launcher: `using accum_t = acc_t<scalar_t>;` in host code, `acc_t` an alias
/// template of a class template's member type (`typename Acc<__half>::type` = `float`), then
/// `const accum_t scale = static_cast<accum_t>(0.75);` ([dcl.typedef]/2, [temp.alias]/2). The
/// kernel's `scale` is 0.75: `y[t] = 0.75·t` (exact in half). Before: "`accum_t` is unknown",
/// `scale` undefined.
#[test]
fn a_host_alias_of_a_class_templates_member_type_is_a_type() {
    let src = r#"
#include <cuda_fp16.h>
template <typename T> struct Acc { using type = T; };
template <> struct Acc<__half> { using type = float; };
template <typename T> using acc_t = typename Acc<T>::type;
template <typename T>
__global__ void scale_sum(const T* x, T* y, const acc_t<T> scale) {
    int t = threadIdx.x;
    acc_t<T> a = (acc_t<T>)__half2float(x[t]) * scale;
    y[t] = __float2half(a);
}
int main() {
    __half h[32];
    for (int i = 0; i < 32; ++i) h[i] = __float2half((float)i);
    __half *x, *y;
    cudaMalloc(&x, sizeof(h));
    cudaMalloc(&y, sizeof(h));
    cudaMemcpy(x, h, sizeof(h), cudaMemcpyHostToDevice);
    using scalar_t = __half;
    using accum_t = acc_t<scalar_t>;
    const accum_t scale = static_cast<accum_t>(0.75);
    scale_sum<scalar_t><<<1, 32>>>(x, y, scale);
    return 0;
}
"#;
    let t = run_default(src);
    no_errors(&t);
    let y = floats(&t, "y");
    assert_eq!(y.len(), 32);
    for (i, c) in y.iter().enumerate() {
        assert_eq!(*c, Some(0.75 * i as f64), "y[{i}]");
    }
}

/// mistral.rs's launcher checks `reinterpret_cast<uintptr_t>(p) % 16 == 0` before choosing the
/// vectorized kernel. A `cudaMalloc`ed address is aligned to at least 256 bytes (CUDA C++
/// Programming Guide, "Device Memory Accesses"), so both checks hold (`alignof(float4)` is 16)
/// and `vec4` runs: `y[t] = 4t`; and converting the pointer to an integer reads its address
/// only ([expr.reinterpret.cast]/4), so `x` keeps the copied values. Before: the condition had
/// no value and `x`, `y` were "may write it (not read here)", undefined.
#[test]
fn cuda_allocations_are_aligned_and_an_integer_cast_writes_nothing() {
    let src = r#"
#include <cstdint>
__global__ void vec4(const float* x, float* y) { int t = threadIdx.x; y[t] = x[t] * 4.0f; }
__global__ void scalar(const float* x, float* y) { int t = threadIdx.x; y[t] = x[t] * -1.0f; }
static int launch(const float* x, float* y) {
    const bool aligned = reinterpret_cast<uintptr_t>(x) % 16 == 0 &&
                         reinterpret_cast<uintptr_t>(y) % alignof(float4) == 0;
    if (aligned) {
        vec4<<<1, 32>>>(x, y);
    } else {
        scalar<<<1, 32>>>(x, y);
    }
    return 0;
}
int main() {
    float h[32];
    for (int i = 0; i < 32; ++i) h[i] = i;
    float *x, *y;
    cudaMalloc(&x, sizeof(h));
    cudaMalloc(&y, sizeof(h));
    cudaMemcpy(x, h, sizeof(h), cudaMemcpyHostToDevice);
    return launch(x, y);
}
"#;
    let t = run_default(src);
    no_errors(&t);
    assert_eq!(t.launch.entry, "vec4");
    let y = floats(&t, "y");
    assert_eq!(y.len(), 32);
    for (i, c) in y.iter().enumerate() {
        assert_eq!(*c, Some(4.0 * i as f64), "y[{i}]");
    }
}

/// A helper read first at its definition (where `n > 16` has no value, so its `if` is
/// undecided) and again at its call `run(x, mid, y, 32)`, where `n = 32` takes the branch: the
/// call's launches run in order, so `second` finds what `first` left (`mid[t] = t + 1`) and
/// writes `y[t] = 3(t + 1)`. Before: `first` was left out as undecided ("did not run here"),
/// `mid` undefined.
#[test]
fn a_branch_a_call_decides_runs_in_order_though_the_definition_left_it_undecided() {
    let src = r#"
#include <cstdint>
__global__ void first(const float* x, float* mid) { int t = threadIdx.x; mid[t] = x[t] + 1.0f; }
__global__ void second(const float* mid, float* y) { int t = threadIdx.x; y[t] = mid[t] * 3.0f; }
static void run(const float* x, float* mid, float* y, int n) {
    if (n > 16) {
        first<<<1, 32>>>(x, mid);
    }
    second<<<1, 32>>>(mid, y);
}
int main() {
    float h[32];
    for (int i = 0; i < 32; ++i) h[i] = i;
    float *x, *mid, *y;
    cudaMalloc(&x, sizeof(h));
    cudaMalloc(&mid, sizeof(h));
    cudaMalloc(&y, sizeof(h));
    cudaMemcpy(x, h, sizeof(h), cudaMemcpyHostToDevice);
    run(x, mid, y, 32);
    return 0;
}
"#;
    let t = run_finished(
        src,
        LaunchConfig {
            entry: Some("second".into()),
            ..LaunchConfig::default()
        },
    );
    no_errors(&t);
    let y = floats(&t, "y");
    assert_eq!(y.len(), 32);
    for (i, c) in y.iter().enumerate() {
        assert_eq!(*c, Some(3.0 * (i as f64 + 1.0)), "y[{i}]");
    }
}

/// A launcher helper called twice on two allocations (`a`, then `b`): inside it both are its
/// parameter `dst`, but they are two allocations (C++17 [expr.call]/4: the parameter holds
/// each call's pointer), so the second launch is no later write of the first's buffer. The
/// traced first launch keeps its own result, `dst[t] = 2t`. Before: the second call's `-t`
/// was shown as the first launch's buffer.
#[test]
fn two_calls_of_a_launcher_on_two_allocations_keep_two_buffers() {
    let src = r#"
__global__ void put(const float* x, float* dst, float v) { int t = threadIdx.x; dst[t] = x[t] * v; }
static void launch_put(const float* x, float* dst, float v) { put<<<1, 32>>>(x, dst, v); }
int main() {
    float h[32];
    for (int i = 0; i < 32; ++i) h[i] = i;
    float *x, *a, *b;
    cudaMalloc(&x, sizeof(h));
    cudaMalloc(&a, sizeof(h));
    cudaMalloc(&b, sizeof(h));
    cudaMemcpy(x, h, sizeof(h), cudaMemcpyHostToDevice);
    launch_put(x, a, 2.0f);
    launch_put(x, b, -1.0f);
    return 0;
}
"#;
    let t = run_default(src);
    no_errors(&t);
    let dst = floats(&t, "dst");
    assert_eq!(dst.len(), 32);
    for (i, c) in dst.iter().enumerate() {
        assert_eq!(*c, Some(2.0 * i as f64), "dst[{i}]");
    }
}
