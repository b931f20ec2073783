//! Round six of the inference family's shapes (kernels written here, in the shapes of
//! llama.cpp's `topk-moe.cu` launcher, vLLM's `topk_softmax_kernels.cu` launchers): a struct
//! whose members host code sets one by one passed by value through a launcher template, a
//! class template's static members read by host code through a block-scope alias (in a
//! declaration, a template argument and the launch's block), the null pointer held by a
//! variable or passed through a helper, and a kernel template's type parameter deduced from a
//! pointer parameter of the launcher template around the launch. Expected values are worked
//! out in each test's comment.

use crate::support::{floats, ints, no_errors, run_default};

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
    for i in 0..32 {
        assert_eq!(y[i], Some(2.0 * i as f64 + 8.0), "y[{i}]");
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
    for i in 0..32 {
        assert_eq!(o[i], Some(i as f64), "o[{i}]");
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
    for i in 0..32 {
        assert_eq!(o[i], Some(i as f64), "o[{i}]");
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
    for i in 0..32 {
        assert_eq!(idx[i], Some(2 * i as i128 + 8), "idx[{i}]");
    }
}
