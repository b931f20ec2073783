//! Calls through `this->` in device structs, a data member functor called as a member
//! (`this->op(a, b)`, `c.op(a, b)`: C++17 [expr.call]/1 and [over.call]/1, the member's
//! `operator()`), and references bound to a vector component (`float& r = v.x;`, `v.y` given to
//! a `T&` parameter, `std::swap(v.x, v.y)`: [dcl.init.ref]/5.1, the reference names the
//! component itself).
//!
//! Expected values (Python):
//! ```text
//! # FUNCTOR_MEMBER, lane t: o = t+1 (t < 31) else t (shfl_down past the warp keeps its own)
//! [(3*t+o)*10000 + (3*t+1)*100 + (t-o) + 50 for t in range(32)]
//! # THIS_CALLS: s = t ^ 1
//! [2*t + (t^1) + 100 + 10*t for t in range(32)]
//! # VECTOR_REFS, lane t: v = (2t, 100.5 + t), swapped on odd t; q = (4, 2, 3, 1)
//! ```

use crate::support::{block, floats, ints, run_finished};
use crosslane_kernel::LaunchConfig;

fn cfg(name: &str, len: usize) -> LaunchConfig {
    let mut c = block(32);
    c.args.insert(name.into(), "zero".into());
    c.buffer_len.insert(name.into(), len);
    c
}

const FUNCTOR_MEMBER: &str = "\
struct Affine { int k; __device__ int operator()(int a, int b) const { return k * a + b; } };
template <typename Op>
struct PairWith {
  Op op;
  __device__ int next(int v) const {
    int o = __shfl_down_sync(0xffffffffu, v, 1);
    return this->op(v, o);
  }
};
__global__ void k(int* out) {
  PairWith<Affine> c{Affine{3}};
  int a = c.next(threadIdx.x);
  int b = c.op(threadIdx.x, 1);
  auto diff = [] __device__ (int x, int y) { return x - y; };
  PairWith<decltype(diff)> d{diff};
  out[threadIdx.x] = a * 10000 + b * 100 + d.next(threadIdx.x) + 50;
}
";

#[test]
fn a_member_functor_is_called_through_this_and_through_the_object() {
    let t = run_finished(FUNCTOR_MEMBER, cfg("out", 32));
    let want: Vec<Option<i128>> = (0..32i128)
        .map(|t| {
            let o = if t < 31 { t + 1 } else { t };
            Some((3 * t + o) * 10000 + (3 * t + 1) * 100 + (t - o) + 50)
        })
        .collect();
    assert_eq!(ints(&t, "out"), want);
}

const THIS_CALLS: &str = "\
struct Twice { __device__ int operator()(int a, int b) const { return 2 * a + b; } };
template <typename F>
struct Mixer {
  F f;
  int base;
  __device__ int tens(int d) const { return d * 10; }
  __device__ int go(int d, int s) { return this->f(d, s) + this->base + this->tens(d); }
};
__global__ void k(int* out) {
  Mixer<Twice> m{Twice{}, 100};
  int s = __shfl_xor_sync(0xffffffffu, (int)threadIdx.x, 1);
  out[threadIdx.x] = m.go(threadIdx.x, s);
}
";

#[test]
fn this_arrow_calls_reach_members_functions_and_data() {
    let t = run_finished(THIS_CALLS, cfg("out", 32));
    let want: Vec<Option<i128>> = (0..32i128)
        .map(|t| Some(2 * t + (t ^ 1) + 100 + 10 * t))
        .collect();
    assert_eq!(ints(&t, "out"), want);
}

const VECTOR_REFS: &str = "\
__device__ void add_to(float& r, float by) { r += by; }
template <typename T> __device__ void exchange(T& a, T& b) { T t = a; a = b; b = t; }
__global__ void k(float* out) {
  float2 v = make_float2(threadIdx.x, 100.0f + threadIdx.x);
  float& r = v.x;
  r = r * 2.0f;
  add_to(v.y, 0.5f);
  if (threadIdx.x & 1) std::swap(v.x, v.y);
  float4 q = make_float4(1, 2, 3, 4);
  exchange(q.x, q.w);
  out[2 * threadIdx.x] = v.x + q.x;
  out[2 * threadIdx.x + 1] = v.y + q.w;
}
";

#[test]
fn references_bind_vector_components_themselves() {
    let t = run_finished(VECTOR_REFS, cfg("out", 64));
    let mut want = Vec::new();
    for t in 0..32 {
        let (mut x, mut y) = (2.0 * f64::from(t), 100.5 + f64::from(t));
        if t % 2 == 1 {
            std::mem::swap(&mut x, &mut y);
        }
        want.push(Some(x + 4.0));
        want.push(Some(y + 1.0));
    }
    assert_eq!(floats(&t, "out"), want);
}
