//! Round six of the framework-kernel family (PyTorch's `PersistentSoftmax.cuh` dispatch,
//! Paddle's top-k `Pair`): shapes met there, each in a kernel written here, with the expected
//! values worked out in the test's comment.
//!
//! - A host function (template) that chooses a kernel for its caller through a reference
//!   parameter, `bool pick(int lg, int& ws, kfn<T>& kernel) { switch (lg) { case 2: kernel =
//!   &k<T, 3>; break; … } return true; }`, called in an `if` condition: `if (!pick<T>(lg, ws,
//!   kernel)) return false; kernel<<<1, ws>>>(…);` (C++17 [dcl.init.ref]/5, [stmt.if]/1,
//!   [expr.call]/1). Before: "no function to run" (the launch was not read), or the first
//!   kernel run with made-up buffers.
//! - A member `operator=` (C++17 [over.ass]/1): `b = a` of a struct declaring one calls it;
//!   with only a non-copy `operator=` declared, `b = a` of the same class is the implicit
//!   member-by-member copy ([class.copy.assign]/2,12). Before: "a user-declared `operator=` is
//!   not supported".

use crate::support::{floats, ints, no_errors, run_default};

/// PyTorch's `dispatch_softmax` shape: `dispatch<float, true>(d, s, 3)` computes `lg = 2`
/// (the first power of two at least 3 is 4), `pick` sets `ws = 4` and `kernel = &k<float, 3,
/// true>`, and the launch `kernel<<<1, dim3(ws, 2)>>>(d, s, 3)` runs it: thread (x, y) writes
/// `o[4y + x] = s[4y + x] + 100·N + n + L = i + 300 + 3 + 1` for the index fill of `s`, so
/// `o[i] = i + 304` for i < 8.
#[test]
fn a_kernel_chosen_through_a_reference_parameter_is_launched() {
    let src = r#"
template <typename T, int N, bool L = false>
__global__ void k(T* o, const T* s, int n) {
    int i = threadIdx.y * blockDim.x + threadIdx.x;
    o[i] = s[i] + (T)(N * 100 + n + (L ? 1 : 0));
}
template <typename A, typename B>
using kfn = void (*)(B*, const A*, int);
template <typename A, typename B, bool L>
bool pick(int lg, int& ws, int& per_warp, kfn<A, B>& kernel) {
    const int np = 1 << lg;
    ws = np < 32 ? np : 32;
    per_warp = np <= 128 ? 2 : 1;
    switch (lg) {
    case 0: kernel = &k<A, 1, L>; break;
    case 1: kernel = &k<A, 2, L>; break;
    case 2: kernel = &k<A, 3, L>; break;
    default: return false;
    }
    return true;
}
template <typename A, typename B, bool L>
bool dispatch(B* o, const A* s, int n) {
    int lg = 0;
    while ((1 << lg) < n) ++lg;
    kfn<A, B> kernel;
    int ws, per_warp;
    if (!pick<A, B, L>(lg, ws, per_warp, kernel)) return false;
    dim3 threads(ws, per_warp, 1);
    kernel<<<1, threads>>>(o, s, n);
    return true;
}
int main() {
    float h[8];
    for (int i = 0; i < 8; i++) h[i] = i;
    float *d, *s;
    cudaMalloc(&d, 8 * sizeof(float));
    cudaMalloc(&s, 8 * sizeof(float));
    cudaMemcpy(s, h, sizeof(h), cudaMemcpyHostToDevice);
    dispatch<float, float, true>(d, s, 3);
    return 0;
}
"#;
    let t = run_default(src);
    no_errors(&t);
    let o = floats(&t, "o");
    for (i, v) in o.iter().enumerate().take(8) {
        assert_eq!(*v, Some(i as f64 + 304.0), "o[{i}]");
    }
}

/// The same choice by a plain host function called as a statement: `pick(1, ws, kernel)`
/// takes `case 1`, so `k2` runs on `ws = 4` threads: `o[t] = 200 + t + 3`.
#[test]
fn a_plain_host_function_sets_a_kernel_pointer_through_a_reference() {
    let src = r#"
__global__ void k1(float* o, int n) { o[threadIdx.x] = 100 + threadIdx.x + n; }
__global__ void k2(float* o, int n) { o[threadIdx.x] = 200 + threadIdx.x + n; }
typedef void (*kfn)(float*, int);
void pick(int lg, int& ws, kfn& kernel) {
    ws = 4;
    if (lg == 0) kernel = k1;
    else kernel = &k2;
}
int main() {
    float* d;
    cudaMalloc(&d, 4 * sizeof(float));
    kfn kernel;
    int ws;
    pick(1, ws, kernel);
    kernel<<<1, ws>>>(d, 3);
    return 0;
}
"#;
    let t = run_default(src);
    no_errors(&t);
    let o = floats(&t, "o");
    assert_eq!(o.len(), 4);
    for (i, v) in o.iter().enumerate() {
        assert_eq!(*v, Some(203.0 + i as f64), "o[{i}]");
    }
}

/// Paddle's `Pair` shape: `void operator=(const Pair& in)` is what `b = a`, `sh[t] = a` and
/// `*p = a` call; this one doubles `v` and adds 1000 to `id`, so each of `b`, `sh[t]` and the
/// local reached through `p` holds `v = 2·(1.5t) = 3t`, `id = t + 1000`. `Q` declares only
/// `Q& operator=(float x)` (`v = x + 1`): `q1 = 2.0f` calls it (`q1.v = 3`), and `q2 = q1`
/// is the implicit copy (`q2.v = 3`), so `w[t] = 3t + 6`.
#[test]
fn a_member_operator_assign_is_called_for_assignments() {
    let src = r#"
struct Pair {
    __device__ Pair() {}
    __device__ Pair(float value, int i) : v(value), id(i) {}
    __device__ void operator=(const Pair& in) {
        v = in.v * 2.0f;
        id = in.id + 1000;
    }
    float v;
    int id;
};
struct Q {
    float v;
    __device__ Q& operator=(float x) {
        v = x + 1.0f;
        return *this;
    }
};
__device__ void put(Pair* p, const Pair& a) { *p = a; }
__global__ void k(float* bv, int* bid, float* sv, float* pv, float* w) {
    __shared__ Pair sh[32];
    int t = threadIdx.x;
    Pair a(1.5f * t, t);
    Pair b;
    b = a;
    bv[t] = b.v;
    bid[t] = b.id;
    sh[t] = a;
    __syncthreads();
    sv[t] = sh[t].v;
    Pair c;
    put(&c, a);
    pv[t] = c.v;
    Q q1, q2;
    q1 = 2.0f;
    q2 = q1;
    w[t] = 3.0f * t + q1.v + q2.v;
}
"#;
    let t = run_default(src);
    no_errors(&t);
    let (bv, bid, sv, pv, w) = (
        floats(&t, "bv"),
        ints(&t, "bid"),
        floats(&t, "sv"),
        floats(&t, "pv"),
        floats(&t, "w"),
    );
    for i in 0..32 {
        let x = 3.0 * i as f64;
        assert_eq!(bv[i], Some(x), "bv[{i}]");
        assert_eq!(bid[i], Some(i as i128 + 1000), "bid[{i}]");
        assert_eq!(sv[i], Some(x), "sv[{i}]");
        assert_eq!(pv[i], Some(x), "pv[{i}]");
        assert_eq!(w[i], Some(x + 6.0), "w[{i}]");
    }
}
