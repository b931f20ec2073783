//! Round five of the inference family's shapes (kernels written here, in the shapes of
//! FlashInfer's `vec_dtypes.cuh`, llama.cpp's `norm.cu` launchers and exllamav2's kernel
//! pickers): class template members defined outside the class, host functions that set their
//! caller's scalars through references, a device allocation compared with `nullptr`, launchers
//! named only in branches host code does not take, a kernel chosen by a host picker function,
//! `std::gcd` and `__host__ __device__` helpers in host code. Expected values are worked out
//! in each test's comment.

use crate::support::{floats, ints, no_errors, run_default};

/// An explicit specialization's members defined after it (C++17 [temp.expl.spec]/5): `fill`
/// and `load` of `vec_t<float, 1>` and `vec_t<float, 2>`, and a `const`/non-`const` pair of
/// `operator[]` overloads. Lane `t` fills `a` with `t`, adds `in[t]` through `operator[]`, and
/// reads it back through the `const` overload: `o[t] = t + in[t]` with `in` the index fill, so
/// `2t`; `b` loads `in[2t..2t+2]` as a pair and stores their sum `4t + 1` in `p[t]`.
#[test]
fn members_of_an_explicit_specialization_defined_outside_it() {
    let src = r#"
template <typename T, int N> struct vec_t {
    __device__ T& operator[](int i);
};
template <> struct vec_t<float, 1> {
    float data;
    __device__ float& operator[](int i);
    __device__ const float& operator[](int i) const;
    __device__ void fill(float v);
};
template <> struct vec_t<float, 2> {
    float2 data;
    __device__ void load(const float* ptr);
    __device__ float sum() const;
};
__device__ float& vec_t<float, 1>::operator[](int i) { return ((float*)(&data))[i]; }
__device__ const float& vec_t<float, 1>::operator[](int i) const { return ((const float*)(&data))[i]; }
inline __attribute__((always_inline)) __device__ void vec_t<float, 1>::fill(float v) { data = v; }
__device__ void vec_t<float, 2>::load(const float* ptr) { data = *((const float2*)ptr); }
__device__ float vec_t<float, 2>::sum() const { return data.x + data.y; }
__global__ void k(const float* in, float* o, float* p) {
    int t = threadIdx.x;
    vec_t<float, 1> a;
    a.fill(t);
    a[0] += in[t];
    const vec_t<float, 1>& c = a;
    o[t] = c[0];
    vec_t<float, 2> b;
    b.load(in + 2 * t);
    p[t] = b.sum();
}
int main() {
    float h[64];
    for (int i = 0; i < 64; i++) h[i] = i;
    float *in, *o, *p;
    cudaMalloc(&in, 64 * sizeof(float));
    cudaMalloc(&o, 32 * sizeof(float));
    cudaMalloc(&p, 32 * sizeof(float));
    cudaMemcpy(in, h, 64 * sizeof(float), cudaMemcpyHostToDevice);
    k<<<1, 32>>>(in, o, p);
    return 0;
}
"#;
    let t = run_default(src);
    no_errors(&t);
    let o = floats(&t, "o");
    let p = floats(&t, "p");
    for i in 0..32 {
        assert_eq!(o[i], Some(2.0 * i as f64), "o[{i}]");
        assert_eq!(p[i], Some(4.0 * i as f64 + 1.0), "p[{i}]");
    }
}

/// A class template's members defined after it (C++17 [temp.mem.func]/1): `fill(v)` sets
/// `d[i] = v + i` for i < 4 and `sum()` adds them: lane `t` writes `4t + 0 + 1 + 2 + 3 =
/// 4t + 6`.
#[test]
fn members_of_a_class_template_defined_outside_it() {
    let src = r#"
template <typename T, int N> struct V {
    T d[N];
    __device__ void fill(T v);
    __device__ T sum() const;
};
template <typename T, int N> __device__ void V<T, N>::fill(T v) {
    for (int i = 0; i < N; i++) d[i] = v + i;
}
template <typename T, int N> __device__ T V<T, N>::sum() const {
    T s = 0;
    for (int i = 0; i < N; i++) s += d[i];
    return s;
}
__global__ void k(float* o) { V<float, 4> a; a.fill(threadIdx.x); o[threadIdx.x] = a.sum(); }
"#;
    let t = run_default(src);
    no_errors(&t);
    let o = floats(&t, "o");
    for (i, v) in o.iter().enumerate() {
        assert_eq!(*v, Some(4.0 * i as f64 + 6.0), "o[{i}]");
    }
}

/// A host helper that sets its caller's scalars through reference parameters (C++17
/// [dcl.init.ref]/5), in llama.cpp's fast-division shape: for d = 7, L = ceil(log2 7) = 3 and
/// mp = 2^32 · (2^3 − 7) / 7 + 1 = 613566757. The kernel divides `37t` by 7 with them:
/// `(umulhi(n, mp) + n) >> L`, which is `37t / 7` (Python: `[(37*t)//7 for t in range(32)]`).
#[test]
fn a_host_helper_sets_scalars_through_reference_parameters() {
    let src = r#"
static void init_fastdiv_values(uint32_t d, uint32_t & mp, uint32_t & L) {
    L = 0;
    while (L < 32 && (uint32_t{1} << L) < d) {
        L++;
    }
    mp = (uint32_t) ((uint64_t{1} << 32) * ((uint64_t{1} << L) - d) / d + 1);
}
__global__ void k(int* o, uint32_t mp, uint32_t L) {
    uint32_t n = threadIdx.x * 37;
    o[threadIdx.x] = (__umulhi(n, mp) + n) >> L;
}
int main() {
    int* o;
    cudaMalloc(&o, 32 * sizeof(int));
    uint32_t mp, L;
    init_fastdiv_values(7, mp, L);
    k<<<1, 32>>>(o, mp, L);
    return 0;
}
"#;
    let t = run_default(src);
    no_errors(&t);
    let o = ints(&t, "o");
    for (i, v) in o.iter().enumerate() {
        assert_eq!(*v, Some((37 * i as i128) / 7), "o[{i}]");
    }
}

/// llama.cpp's launcher shape: `rms_cuda` launches `ka` or, when given a `mul` buffer, calls
/// `init_fastdiv_values` and launches `kb`; `norm_cuda` (launching `kc`) is named only in a
/// branch of `main` whose constant condition is false. `mul` is a `cudaMalloc`ed pointer, so
/// `mul == nullptr` is false (CUDA Runtime API, cudaMalloc) and `kb` is the launch: each of the
/// 3 blocks' 32 threads writes `x[i] * mul[i % 5] + L` with L = 3 for d = 5, x and mul the
/// index fills: `o[i] = i · (i % 5) + 3`.
#[test]
fn the_launch_of_a_launcher_main_calls_is_the_entry() {
    let src = r#"
#define OP 1
static void init_fastdiv_values(uint32_t d, uint32_t & mp, uint32_t & L) {
    L = 0;
    while (L < 32 && (uint32_t{1} << L) < d) L++;
    mp = (uint32_t) ((uint64_t{1} << 32) * ((uint64_t{1} << L) - d) / d + 1);
}
__global__ void kc(const float* x, float* o, int n) { o[threadIdx.x] = -1; }
__global__ void ka(const float* x, float* o, int n) { o[threadIdx.x] = -2; }
__global__ void kb(const float* x, const float* mul, float* o, int n, uint32_t L) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = x[i] * mul[i % 5] + L;
}
static void norm_cuda(const float* x, float* o, int n) { kc<<<n / 32, 32>>>(x, o, n); }
static void rms_cuda(const float* x, const float* mul, float* o, int n) {
    if (mul == nullptr) {
        ka<<<n / 32, 32>>>(x, o, n);
        return;
    }
    uint32_t mp, L;
    init_fastdiv_values(5, mp, L);
    kb<<<n / 32, 32>>>(x, mul, o, n, L);
}
int main() {
    float hx[96], hm[5];
    for (int i = 0; i < 96; i++) hx[i] = i;
    for (int i = 0; i < 5; i++) hm[i] = i;
    float *x, *m, *o;
    cudaMalloc(&x, sizeof(hx));
    cudaMalloc(&m, sizeof(hm));
    cudaMalloc(&o, sizeof(hx));
    cudaMemcpy(x, hx, sizeof(hx), cudaMemcpyHostToDevice);
    cudaMemcpy(m, hm, sizeof(hm), cudaMemcpyHostToDevice);
    if (OP == 0) {
        norm_cuda(x, o, 96);
    } else {
        rms_cuda(x, m, o, 96);
    }
    return 0;
}
"#;
    let t = run_default(src);
    no_errors(&t);
    let o = floats(&t, "o");
    assert_eq!(o.len(), 96);
    for (i, v) in o.iter().enumerate() {
        assert_eq!(*v, Some((i * (i % 5) + 3) as f64), "o[{i}]");
    }
}

/// exllamav2's kernel picker: a host function (no execution space specifier) returns the
/// template kernel's instance for its argument through a function pointer typedef, and host
/// code launches through the pointer. `bpw = (64 + 31) / 32 = 2` picks `kk<2>`; its `void*`
/// parameters are read through `float*` and `half*` views, and the `static float` host array
/// copied into `x` keeps its bytes: `y[i] = x[i] * 2 = (i - 0.5) · 2 = 2i − 1` for the 64
/// cells of the float path.
#[test]
fn a_kernel_chosen_by_a_host_picker_function_runs() {
    let src = r#"
#include <cuda_fp16.h>
typedef void (*fp_k)(const void*, void*, int, bool);
template <int B>
__global__ void kk(const void* x, void* y, int n, bool f32) {
    for (int i = threadIdx.x; i < n; i += 32) {
        if (f32) ((float*)y)[i] = ((const float*)x)[i] * B;
        else ((half*)y)[i] = ((const half*)x)[i];
    }
}
#define kernel_instance(b) if (bpw == b) return kk<b>
fp_k pick(const int bpw) {
    kernel_instance(1);
    kernel_instance(2);
    kernel_instance(3);
    return NULL;
}
int main() {
    static float hx[64];
    for (int i = 0; i < 64; i++) hx[i] = i - 0.5f;
    float *x, *y;
    cudaMalloc(&x, sizeof(hx));
    cudaMalloc(&y, sizeof(hx));
    cudaMemcpy(x, hx, sizeof(hx), cudaMemcpyHostToDevice);
    const int n = 64;
    fp_k kernel = pick((n + 31) / 32);
    kernel<<<1, 32, 0, 0>>>(x, y, n, true);
    return 0;
}
"#;
    let t = run_default(src);
    no_errors(&t);
    // The `void*` buffer holds 4-byte cells read as `int`: the float bits.
    let y = ints(&t, "y");
    assert_eq!(y.len(), 64);
    for (i, v) in y.iter().enumerate() {
        let want = (2.0 * i as f32 - 1.0).to_bits() as i32;
        assert_eq!(*v, Some(i128::from(want)), "y[{i}]");
    }
}

/// `std::gcd` (C++17 [numeric.ops.gcd]) and a `__host__ __device__` helper in host code:
/// `vec = gcd(16 / sizeof(float), 96) = 4` is the template argument, `ceil_up(96, 4 * 8) = 3`
/// the grid; `std::lcm(4, 6) = 12` an argument. Each of the 3 × 8 threads writes `vec * 100 +
/// 12 = 412`.
#[test]
fn std_gcd_and_a_host_device_helper_are_host_constants() {
    let src = r#"
#include <numeric>
__host__ __device__ inline unsigned ceil_up(unsigned a, unsigned b) { return (a + b - 1) / b; }
template <int V>
__global__ void k(float* o, int m) { o[blockIdx.x * blockDim.x + threadIdx.x] = V * 100 + m; }
int main() {
    float* o;
    cudaMalloc(&o, 24 * sizeof(float));
    const unsigned d = 96;
    const unsigned vec = std::gcd(16 / sizeof(float), d);
    const unsigned grid = ceil_up(d, vec * 8);
    switch (vec) {
        case 4: { k<4><<<grid, 8>>>(o, std::lcm(4, 6)); break; }
        case 2: { k<2><<<grid, 8>>>(o, std::lcm(4, 6)); break; }
    }
    return 0;
}
"#;
    let t = run_default(src);
    no_errors(&t);
    let o = floats(&t, "o");
    assert_eq!(o, vec![Some(412.0); 24]);
}

/// `cudaLaunchKernelEx(&config, kernel, args…)` (CUDA Runtime API) with the configuration's
/// members assigned before it, inside a `switch` whose case is a block ending in `break;`
/// (FlashInfer's `DISPATCH_ALIGNED_VEC_SIZE`). `vec = 4` takes `case 4`: `k<4>` over a grid of
/// 2 blocks of 8 threads writes `4 · 10 + i` for cell i of 16.
#[test]
fn a_launch_by_cuda_launch_kernel_ex_in_a_switch_case_block() {
    let src = r#"
template <int V>
__global__ void k(float* o, int m) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    o[i] = V * m + i;
}
int main() {
    float* o;
    cudaMalloc(&o, 16 * sizeof(float));
    const int vec = 4;
    int m = 10;
    cudaLaunchConfig_t config;
    config.gridDim = dim3(2);
    config.blockDim = dim3(8);
    config.dynamicSmemBytes = 0;
    config.stream = 0;
    config.numAttrs = 0;
    switch (vec) {
        case 8: { constexpr int V = 8; auto kernel = k<V>; cudaError_t e = (cudaLaunchKernelEx(&config, kernel, o, m)); if (e != cudaSuccess) { return 1; } break; }
        case 4: { constexpr int V = 4; auto kernel = k<V>; cudaError_t e = (cudaLaunchKernelEx(&config, kernel, o, m)); if (e != cudaSuccess) { return 1; } break; }
        default: break;
    }
    return 0;
}
"#;
    let t = run_default(src);
    no_errors(&t);
    let o = floats(&t, "o");
    let want: Vec<Option<f64>> = (0..16).map(|i| Some(40.0 + f64::from(i))).collect();
    assert_eq!(o, want);
}
