//! Host code's pointer values: a launch, a copy or a memset acts on the allocation and offset
//! the pointer it is given holds (C++17 [expr.add]/4: `d + n` points n elements past `d`;
//! [expr.ass]/2: an assignment copies the pointer's value; [expr.cond]/1: a conditional
//! evaluates one operand), and keeps the allocation's other cells (CUDA Runtime API, cudaMemcpy
//! and cudaMemset write only the bytes they are given). A pointer the reading cannot follow
//! leaves the buffer undefined, said, never the index fill. Every expected value is derived by
//! hand in the comment beside it.

use crate::support::{floats, has, ints};
use crosslane_core::Level;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

fn run_entry(src: &str, entry: &str) -> KernelTrace {
    let config = LaunchConfig {
        entry: Some(entry.to_string()),
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

use crate::support::ints_at_launch as at_launch;

fn some(v: &[i128]) -> Vec<Option<i128>> {
    v.iter().map(|&x| Some(x)).collect()
}

#[test]
fn a_launch_through_an_offset_writes_back_into_the_whole_allocation() {
    let src = "\
__global__ void put(int *p, int v) { p[threadIdx.x] = v; }
__global__ void look(const int *q, int *r) { r[threadIdx.x] = q[threadIdx.x]; }
int main() {
  int *d, *r;
  cudaMalloc(&d, 8 * sizeof(int)); cudaMalloc(&r, 8 * sizeof(int));
  cudaMemset(d, 0, 8 * sizeof(int));
  put<<<1, 3>>>(d + 5, 9);
  look<<<1, 8>>>(d, r);
  return 0;
}
";
    // memset: eight zeros; put writes d[5], d[6], d[7] = 9; look reads all eight.
    let t = run_entry(src, "look");
    assert_eq!(at_launch(&t, "q"), some(&[0, 0, 0, 0, 0, 9, 9, 9]));
    assert_eq!(ints(&t, "r"), some(&[0, 0, 0, 0, 0, 9, 9, 9]));
}

#[test]
fn an_offset_view_after_a_launch_reads_from_its_offset() {
    let src = "\
__global__ void tens(int *p) { p[threadIdx.x] = 10 * threadIdx.x; }
__global__ void look(const int *q, int *r) { r[threadIdx.x] = q[threadIdx.x]; }
int main() {
  int *d, *r;
  cudaMalloc(&d, 6 * sizeof(int)); cudaMalloc(&r, 3 * sizeof(int));
  tens<<<1, 6>>>(d);
  int *mid = &d[2];
  look<<<1, 3>>>(mid, r);
  return 0;
}
";
    // d = 0 10 20 30 40 50; `mid` is d + 2, so q = 20 30 40.
    let t = run_entry(src, "look");
    assert_eq!(ints(&t, "r"), some(&[20, 30, 40]));
}

#[test]
fn a_memset_at_an_offset_lays_its_bytes_over_the_earlier_memset() {
    let src = "\
__global__ void look(const int *q, int *r) { r[threadIdx.x] = q[threadIdx.x]; }
int main() {
  int *d, *r;
  cudaMalloc(&d, 6 * sizeof(int)); cudaMalloc(&r, 6 * sizeof(int));
  cudaMemset(d, 0xff, 6 * sizeof(int));
  cudaMemset(&d[1], 0, 2 * sizeof(int));
  look<<<1, 6>>>(d, r);
  return 0;
}
";
    // Every byte 0xff is the int -1; bytes 4..12 (cells 1 and 2) are then 0.
    let t = run_entry(src, "look");
    assert_eq!(ints(&t, "r"), some(&[-1, 0, 0, -1, -1, -1]));
}

#[test]
fn a_partial_copy_and_a_partial_memset_after_a_launch_keep_its_other_cells() {
    let src = "\
__global__ void ones(int *p) { p[threadIdx.x] = threadIdx.x + 1; }
__global__ void look(const int *q, int *r) { r[threadIdx.x] = q[threadIdx.x]; }
int main() {
  int h[2] = {40, 50};
  int *d, *r;
  cudaMalloc(&d, 6 * sizeof(int)); cudaMalloc(&r, 6 * sizeof(int));
  ones<<<1, 6>>>(d);
  cudaMemcpy(d + 3, h, 2 * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d, 0, sizeof(int));
  look<<<1, 6>>>(d, r);
  return 0;
}
";
    // ones: 1 2 3 4 5 6; the copy puts 40 50 at cells 3 and 4; the memset zeroes cell 0.
    let t = run_entry(src, "look");
    assert_eq!(ints(&t, "r"), some(&[0, 2, 3, 40, 50, 6]));
}

#[test]
fn a_copy_from_a_host_array_offset_starts_at_that_element() {
    let src = "\
__global__ void look(const int *q, int *r) { r[threadIdx.x] = q[threadIdx.x]; }
int main() {
  int h[6] = {1, 2, 3, 4, 5, 6};
  int *d, *r;
  cudaMalloc(&d, 4 * sizeof(int)); cudaMalloc(&r, 4 * sizeof(int));
  cudaMemcpy(d, h + 2, 4 * sizeof(int), cudaMemcpyHostToDevice);
  look<<<1, 4>>>(d, r);
  return 0;
}
";
    // h + 2 is 3 4 5 6.
    let t = run_entry(src, "look");
    assert_eq!(ints(&t, "r"), some(&[3, 4, 5, 6]));
}

#[test]
fn aliases_reassignment_and_swap_follow_the_pointer_value() {
    let src = "\
__global__ void put(int *p, int v) { p[threadIdx.x] = v + threadIdx.x; }
__global__ void look(const int *q, int *r) { r[threadIdx.x] = q[threadIdx.x]; }
int main() {
  int *a, *b, *r;
  cudaMalloc(&a, 4 * sizeof(int)); cudaMalloc(&b, 4 * sizeof(int));
  cudaMalloc(&r, 4 * sizeof(int));
  int *x = a, *y = b;
  put<<<1, 4>>>(x, 10);
  put<<<1, 4>>>(y, 20);
  std::swap(x, y);
  put<<<1, 2>>>(x, 30);
  a = b;
  look<<<1, 4>>>(a, r);
  return 0;
}
";
    // a = 10 11 12 13, b = 20 21 22 23; after the swap x is b: b[0], b[1] = 30, 31;
    // `a = b` makes `a` point at b: 30 31 22 23.
    let t = run_entry(src, "look");
    assert_eq!(ints(&t, "r"), some(&[30, 31, 22, 23]));
}

#[test]
fn a_vector_cast_of_a_float_buffer_views_the_same_bytes() {
    let src = "\
__global__ void pairs(const float2 *v, float *o) { float2 p = v[threadIdx.x]; o[threadIdx.x] = p.x * p.y; }
int main() {
  float h[6] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f};
  float *d, *o;
  cudaMalloc(&d, sizeof(h)); cudaMalloc(&o, 3 * sizeof(float));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  pairs<<<1, 3>>>(reinterpret_cast<const float2 *>(d), o);
  return 0;
}
";
    // float2 k is floats 2k and 2k+1: 1*2, 3*4, 5*6.
    let t = run_entry(src, "pairs");
    assert_eq!(floats(&t, "o"), vec![Some(2.0), Some(12.0), Some(30.0)]);
}

#[test]
fn a_conditional_pointer_in_a_loop_alternates_the_buffers() {
    let src = "\
__global__ void next(const int *in, int *out) { out[threadIdx.x] = in[threadIdx.x] + 3; }
__global__ void look(const int *q, int *r) { r[threadIdx.x] = q[threadIdx.x]; }
int main() {
  int h[2] = {1, 2};
  int *p, *q, *r;
  cudaMalloc(&p, 2 * sizeof(int)); cudaMalloc(&q, 2 * sizeof(int)); cudaMalloc(&r, 2 * sizeof(int));
  cudaMemcpy(p, h, sizeof(h), cudaMemcpyHostToDevice);
  for (int s = 0; s < 4; ++s) next<<<1, 2>>>(s & 1 ? q : p, s & 1 ? p : q);
  look<<<1, 2>>>(p, r);
  return 0;
}
";
    // s=0: q = p + 3 = 4 5; s=1: p = q + 3 = 7 8; s=2: q = 10 11; s=3: p = 13 14.
    let t = run_entry(src, "look");
    assert_eq!(ints(&t, "r"), some(&[13, 14]));
}

#[test]
fn pointer_members_of_a_struct_and_an_array_of_pointers_hold_their_memory() {
    let src = "\
struct Pair { int *lo; int *hi; int n; };
__global__ void grow(Pair p) { int i = threadIdx.x; if (i < p.n) { p.lo[i] += 1; p.hi[i] *= 2; } }
__global__ void look(const int *q, int *r) { r[threadIdx.x] = q[threadIdx.x]; }
int main() {
  int h[3] = {5, 6, 7};
  Pair p; p.n = 3;
  int *bufs[2];
  cudaMalloc(&bufs[0], 3 * sizeof(int)); cudaMalloc(&bufs[1], 3 * sizeof(int));
  cudaMemcpy(bufs[0], h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMemcpy(bufs[1], h, sizeof(h), cudaMemcpyHostToDevice);
  p.lo = bufs[0];
  p.hi = bufs[1];
  int *r; cudaMalloc(&r, 3 * sizeof(int));
  grow<<<1, 3>>>(p);
  grow<<<1, 3>>>(p);
  look<<<1, 3>>>(bufs[1], r);
  return 0;
}
";
    // hi starts 5 6 7 and doubles twice: 20 24 28 (lo, 7 8 9, is not read).
    let t = run_entry(src, "look");
    assert_eq!(ints(&t, "r"), some(&[20, 24, 28]));
    // The first grow finds lo as copied, 5 6 7; the second runs after it: 7 8 9 at the end.
    let g = run_entry(src, "grow");
    assert_eq!(at_launch(&g, "p.lo"), some(&[5, 6, 7]));
    assert_eq!(ints(&g, "p.lo"), some(&[7, 8, 9]));
}

#[test]
fn a_pointer_host_code_does_not_follow_is_undefined_and_said() {
    let src = "\
int *make(int n);
__global__ void look(const int *q, int *r) { r[threadIdx.x] = q[threadIdx.x]; }
int main() {
  int *r; cudaMalloc(&r, 4 * sizeof(int));
  int *d = make(4);
  look<<<1, 4>>>(d, r);
  return 0;
}
";
    // `make` is not read: `d`'s memory is unknown, so every cell read is undefined.
    let t = run_entry(src, "look");
    assert_eq!(at_launch(&t, "q"), vec![None; 4]);
    assert!(has(&t, Level::Warning, "host code passes `d` at line 6"));
}

#[test]
fn arrays_initialized_in_one_declaration_are_both_copied_where_they_are_sent() {
    let src = "\
__global__ void look(const int *q, int *r) { r[threadIdx.x] = q[threadIdx.x]; }
int main() {
  int lo[2] = {1, 2}, hi[4] = {7, 8, 9, 10};
  int *d, *r;
  cudaMalloc(&d, 4 * sizeof(int)); cudaMalloc(&r, 4 * sizeof(int));
  cudaMemcpy(d, lo, 2 * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d + 2, hi + 2, 2 * sizeof(int), cudaMemcpyHostToDevice);
  look<<<1, 4>>>(d, r);
  return 0;
}
";
    // lo fills cells 0 and 1; hi + 2 (9, 10) fills cells 2 and 3.
    let t = run_entry(src, "look");
    assert_eq!(ints(&t, "r"), some(&[1, 2, 9, 10]));
}

#[test]
fn a_call_given_an_alias_may_write_the_allocation_it_points_into() {
    let src = "\
void scramble(int *p, int n);
__global__ void look(const int *q, int *r) { r[threadIdx.x] = q[threadIdx.x]; }
int main() {
  int h[4] = {1, 2, 3, 4};
  int *d, *r;
  cudaMalloc(&d, 4 * sizeof(int)); cudaMalloc(&r, 4 * sizeof(int));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  int *v = d;
  scramble(v, 4);
  look<<<1, 4>>>(d, r);
  return 0;
}
";
    // `scramble` is not read and is given `d`'s memory through `v`: what it holds is unknown.
    let t = run_entry(src, "look");
    assert_eq!(at_launch(&t, "q"), vec![None; 4]);
    assert!(has(&t, Level::Warning, "may write it"));
}

#[test]
fn each_member_of_an_array_of_structs_keeps_its_own_cells_across_launches() {
    let src = "\
struct S { float a; float b; };
__global__ void bump(S *s) { int i = threadIdx.x; s[i].b += 1.0f; }
__global__ void k(const S *s, float *o) { int i = threadIdx.x; o[i] = s[i].a * 1000 + s[i].b; }
int main() {
  S h[4]; for (int i = 0; i < 4; ++i) { h[i].a = i; h[i].b = 10 + i; }
  S *d; float *o;
  cudaMalloc(&d, sizeof(h)); cudaMalloc(&o, 4 * sizeof(float));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  bump<<<1, 4>>>(d);
  k<<<1, 4>>>(d, o);
  return 0;
}
";
    // Both members view the one allocation `d`; each takes its own member's cells from bump:
    // a = 0 1 2 3 (the host copy, untouched), b = 10+i then +1 = 11 12 13 14;
    // o = a * 1000 + b = 11, 1012, 2013, 3014.
    let t = run_entry(src, "k");
    assert_eq!(
        floats(&t, "s.a"),
        vec![Some(0.0), Some(1.0), Some(2.0), Some(3.0)]
    );
    assert_eq!(
        floats(&t, "s.b"),
        vec![Some(11.0), Some(12.0), Some(13.0), Some(14.0)]
    );
    assert_eq!(
        floats(&t, "o"),
        vec![Some(11.0), Some(1012.0), Some(2013.0), Some(3014.0)]
    );
}

#[test]
fn a_pointer_parameter_of_the_host_function_read_takes_the_kernels_own_default() {
    // `launch` is read for its launch, but nothing calls it: `d` comes from a caller not read,
    // so the run treats `twice`'s buffer as a kernel run alone does (the run's default fill,
    // cell i = i, as `--buffer d=index`), without claiming host code passed a pointer it lost;
    // twice doubles each: 0 2 4 6.
    let src = "\
__global__ void twice(int *d) { d[threadIdx.x] *= 2; }
void launch(int *d) { twice<<<1, 4>>>(d); }
";
    let t = run_entry(src, "twice");
    assert!(!has(&t, Level::Warning, "does not follow"));
    assert_eq!(at_launch(&t, "d"), some(&[0, 1, 2, 3]));
    assert_eq!(ints(&t, "d"), some(&[0, 2, 4, 6]));
}
