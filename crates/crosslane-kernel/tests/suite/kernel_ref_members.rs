//! Reference data members and pointer members bound in a constructor's initializer list
//! (ISO C++ [dcl.ref]/1, [class.base.init]/8): the shape of a hand-written block reduction
//! class whose `TempStorage& temp_storage_` (or `TempStorage* ts_`) is the caller's
//! `__shared__` storage for the object's life. Writes through the member land in that storage,
//! so after `__syncthreads()` other warps read them. Expected values by hand: 128 threads with
//! `v = threadIdx.x + 1` sum to 128 * 129 / 2 = 8256; each warp w's partial is the sum of
//! 32w+1 … 32w+32 = 1024w + 528 (528, 1552, 2576, 3600).

use crate::support::{floats, launch, refused, run_finished};
use crosslane_core::op::Dialect;

/// A block-sum class over 32-lane warps, its storage held as `member` and bound by `bind`
/// from the constructor's parameter `param`; `Sum` is called as `call`.
fn kernel(member: &str, param: &str, bind: &str, call: &str) -> String {
    format!(
        "struct BlockSum {{
  struct TempStorage {{ float partial[32]; }};
  {member}
  __device__ BlockSum({param}) : {bind} {{}}
  __device__ float Sum(float v) {{
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    int warp = threadIdx.x / 32;
    if (threadIdx.x % 32 == 0) STORE[warp] = v;
    __syncthreads();
    float total = 0.0f;
    if (threadIdx.x == 0)
      for (int w = 0; w < blockDim.x / 32; ++w) total += STORE[w];
    return total;
  }}
}};
__global__ void k(float* out, float* parts) {{
  __shared__ typename BlockSum::TempStorage tmp;
  float s = {call};
  if (threadIdx.x == 0) out[0] = s;
  if (threadIdx.x < 4) parts[threadIdx.x] = tmp.partial[threadIdx.x];
}}"
    )
}

fn expect_block_sum(src: &str) {
    let t = run_finished(
        src,
        launch(Dialect::Cuda, 128, &[("out", 1, "0"), ("parts", 4, "0")]),
    );
    assert_eq!(floats(&t, "out"), vec![Some(8256.0)], "{src}");
    // The caller's own `tmp` holds what the member wrote.
    assert_eq!(
        floats(&t, "parts"),
        vec![Some(528.0), Some(1552.0), Some(2576.0), Some(3600.0)],
        "{src}"
    );
}

#[test]
fn a_reference_member_is_the_callers_shared_storage() {
    let src = kernel(
        "TempStorage& temp_storage_;",
        "TempStorage& t",
        "temp_storage_(t)",
        "BlockSum(tmp).Sum(threadIdx.x + 1.0f)",
    )
    .replace("STORE", "temp_storage_.partial");
    expect_block_sum(&src);
}

#[test]
fn a_named_object_with_a_reference_member() {
    let src = kernel(
        "TempStorage& temp_storage_;",
        "TempStorage& t",
        "temp_storage_{t}",
        "0.0f; BlockSum r(tmp); s = r.Sum(threadIdx.x + 1.0f)",
    )
    .replace("STORE", "this->temp_storage_.partial");
    expect_block_sum(&src);
}

#[test]
fn a_pointer_member_to_the_storage_struct() {
    let src = kernel(
        "TempStorage* ts_;",
        "TempStorage& t",
        "ts_(&t)",
        "BlockSum(tmp).Sum(threadIdx.x + 1.0f)",
    )
    .replace("STORE", "ts_->partial");
    expect_block_sum(&src);
}

#[test]
fn a_pointer_member_to_a_shared_array() {
    // `float* smem_` from a `__shared__` array: a pointer member to scalars.
    let src = "struct BlockSum {
  float* smem_;
  __device__ BlockSum(float* s) : smem_(s) {}
  __device__ float Sum(float v) {
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x % 32 == 0) smem_[threadIdx.x / 32] = v;
    __syncthreads();
    float total = 0.0f;
    if (threadIdx.x == 0)
      for (int w = 0; w < blockDim.x / 32; ++w) total += smem_[w];
    return total;
  }
};
__global__ void k(float* out, float* parts) {
  __shared__ float buf[32];
  float s = BlockSum(buf).Sum(threadIdx.x + 1.0f);
  if (threadIdx.x == 0) out[0] = s;
  if (threadIdx.x < 4) parts[threadIdx.x] = buf[threadIdx.x];
}";
    expect_block_sum(src);
}

#[test]
fn a_reference_member_to_a_scalar_counts_into_the_callers_variable() {
    // Each thread adds 1..=3 to its own `n` through `Counter::c_`: n = 6 for every thread.
    let src = "struct Counter {
  int& c_;
  __device__ Counter(int& c) : c_(c) {}
  __device__ void add(int k) { c_ += k; }
};
__global__ void k(float* out) {
  int n = 0;
  Counter c(n);
  for (int i = 1; i <= 3; ++i) c.add(i);
  out[threadIdx.x] = n;
}";
    let t = run_finished(src, launch(Dialect::Cuda, 4, &[("out", 4, "0")]));
    assert_eq!(floats(&t, "out"), vec![Some(6.0); 4]);
}

#[test]
fn an_unbound_reference_member_is_refused_at_its_line() {
    let src = "struct Holder {
  float& r_;
  __device__ Holder(float& a, float& b) : r_(a + b) {}
  __device__ float get() { return r_; }
};
__global__ void k(float* out) {
  float a = 1.0f, b = 2.0f;
  out[0] = Holder(a, b).get();
}";
    let e = refused(src, launch(Dialect::Cuda, 1, &[("out", 1, "0")]));
    assert!(e.contains("reference member `r_`"), "{e}");
}

#[test]
fn a_reference_member_to_an_array_is_refused_with_what_to_write() {
    let src = "struct View {
  float (&a_)[32];
  __device__ View(float (&a)[32]) : a_(a) {}
};
__global__ void k(float* out) {
  __shared__ float buf[32];
  out[0] = 0.0f;
}";
    let e = refused(src, launch(Dialect::Cuda, 1, &[("out", 1, "0")]));
    assert!(e.contains("float* a;"), "{e}");
}

#[test]
fn an_object_passed_by_value_keeps_its_reference_member() {
    // A copy of the object refers to the same storage ([class.copy.ctor]/14 copies the
    // reference member, bound to the same object).
    let src = kernel(
        "TempStorage& temp_storage_;",
        "TempStorage& t",
        "temp_storage_(t)",
        "run(BlockSum(tmp), threadIdx.x + 1.0f)",
    )
    .replace("STORE", "temp_storage_.partial")
    .replace(
        "__global__",
        "__device__ float run(BlockSum b, float v) { return b.Sum(v); }\n__global__",
    );
    expect_block_sum(&src);
}

#[test]
fn a_pointer_member_dereferenced_or_indexed_at_zero() {
    // [expr.ref]/2: `p->m` is `(*p).m`; [expr.sub]/1: `p[0]` is `*(p + 0)`.
    for store in ["(*ts_).partial", "ts_[0].partial"] {
        let src = kernel(
            "TempStorage* ts_;",
            "TempStorage* t",
            "ts_(t)",
            "BlockSum(&tmp).Sum(threadIdx.x + 1.0f)",
        )
        .replace("STORE", store);
        expect_block_sum(&src);
    }
}

#[test]
fn a_pointer_member_to_one_struct_indexed_past_it_is_refused() {
    let src = kernel(
        "TempStorage* ts_;",
        "TempStorage& t",
        "ts_(&t)",
        "BlockSum(tmp).Sum(threadIdx.x + 1.0f)",
    )
    .replace("STORE", "ts_[1].partial");
    let e = refused(
        &src,
        launch(Dialect::Cuda, 128, &[("out", 1, "0"), ("parts", 4, "0")]),
    );
    assert!(e.contains("points to one struct"), "{e}");
}
