//! CCCL's `cuda::device::warp_shuffle_idx/up/down/xor` (`<cuda/warp>`; libcu++ extended API,
//! "warp_shuffle"), the shape of the CUDA C++ Programming Guide's `warp_broadcast_kernel`; an
//! undeclared name in a default template argument; and
//! glibc's `__always_inline` on a device function. Expected values derived by hand beside each
//! test from the documented rules.

use crate::cells::cell_ints as ints;
use crosslane_kernel::{run_kernel, LaunchConfig, Outcome};

fn config(threads: usize, out: usize) -> LaunchConfig {
    let mut c = LaunchConfig {
        block_dim: Some([threads, 1, 1]),
        ..LaunchConfig::default()
    };
    c.buffer_len.insert("out".into(), out);
    c
}

/// Lane 0 alone sets `value`; `warp_shuffle_idx(value, 0)` (Width 32, full mask) gives every
/// lane lane 0's value, converted from `warp_shuffle_result<int>` to `int`: 1234 in all 32.
/// `warp_shuffle_up<16>(10 * t, 3)`: lane t reads lane t - 3 of its 16-lane segment when
/// `t % 16 >= 3` (pred true), else keeps its own (pred false; PTX shfl.sync's predicate):
/// 0 10 20 0 10 20 … 120 | 160 170 180 160 … 280. `warp_shuffle_down(0.5 * t, 2, w8)` with
/// `integral_constant<int, 8>`: source t + 2 when `t % 8 + 2 < 8`, so `2 * data` is t + 2 and
/// pred 1 (stored `10 * (2 * data) + pred`), else own (t % 8 = 6, 7: 10 t + 0).
/// `warp_shuffle_xor((long long)t << 33, 1)`: a 64-bit value (shuffled in two 32-bit pieces)
/// from lane t ^ 1, so `data >> 33` is t ^ 1.
#[test]
fn cccl_warp_shuffles_in_the_programming_guide_shape() {
    let src = r#"
#include <cuda/warp>
#include <cassert>
__global__ void warp_broadcast_kernel(int* out) {
  int input = 1234;
  int laneId = threadIdx.x % 32;
  int value;
  if (laneId == 0) value = input;
  value = cuda::device::warp_shuffle_idx(value, 0);
  assert(value == input);
  out[threadIdx.x] = value;
  auto u = cuda::device::warp_shuffle_up<16>((int)threadIdx.x * 10, 3);
  out[32 + threadIdx.x] = u.data;
  out[64 + threadIdx.x] = u.pred;
  cuda::std::integral_constant<int, 8> w8;
  auto d = cuda::device::warp_shuffle_down(threadIdx.x * 0.5, 2, w8);
  out[96 + threadIdx.x] = (int)(d.data * 2) * 10 + d.pred;
  auto x = cuda::device::warp_shuffle_xor((long long)threadIdx.x << 33, 1);
  out[128 + threadIdx.x] = (int)(x.data >> 33);
}
"#;
    let t = run_kernel(src, config(32, 160)).expect("kernel parses and launches");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    let mut want: Vec<i128> = vec![1234; 32];
    want.extend((0..32).map(|t| if t % 16 >= 3 { 10 * (t - 3) } else { 10 * t }));
    want.extend((0..32).map(|t| i128::from(t % 16 >= 3)));
    want.extend((0..32).map(|t| {
        if t % 8 + 2 < 8 {
            10 * (t + 2) + 1
        } else {
            10 * t
        }
    }));
    want.extend((0..32).map(|t| t ^ 1));
    let want: Vec<Option<i128>> = want.into_iter().map(Some).collect();
    assert_eq!(ints(t.buffer("out").unwrap()), want);
}

/// libcu++ "warp_shuffle", Preconditions: "`delta` and `xor_mask` must be less than `Width`";
/// a delta of 16 with Width 16 is a violation, which stops the run naming the rule (never the
/// intrinsic's own-value result picked for it).
#[test]
fn a_cccl_delta_not_below_width_stops_the_run() {
    let src = r#"
__global__ void k(int* out) {
  out[threadIdx.x] = cuda::device::warp_shuffle_down<16>((int)threadIdx.x, 16);
}
"#;
    let t = run_kernel(src, config(32, 32)).expect("kernel parses and launches");
    let Some(Outcome::Error(e)) = &t.outcome else {
        panic!("{:?}", t.outcome)
    };
    assert!(
        e.message.contains("delta must be less than Width"),
        "{}",
        e.message
    );
}

/// glibc's `<sys/cdefs.h>` defines `__always_inline` as `__inline __attribute__
/// ((__always_inline__))`; a `__device__ __always_inline` function is a device function. The
/// other inlining spellings are too. Each swaps neighbours: lane t gets t ^ 1.
#[test]
fn always_inline_and_the_other_inline_spellings_mark_functions() {
    for q in [
        "__always_inline",
        "__forceinline__",
        "__noinline__",
        "__inline__",
        "__inline",
        "__attribute__((always_inline))",
        "inline __attribute__((__always_inline__))",
    ] {
        let src = format!(
            "#include <stdio.h>\n__device__ {q} int swap1(int v) {{ return __shfl_xor_sync(0xffffffff, v, 1); }}\n\
             __global__ void k(int* out) {{ out[threadIdx.x] = swap1(threadIdx.x); }}\n"
        );
        let t = run_kernel(&src, config(32, 32)).unwrap_or_else(|e| panic!("{q}: {e:?}"));
        assert_eq!(t.outcome, Some(Outcome::Finished), "{q}: {:?}", t.outcome);
        let want: Vec<Option<i128>> = (0..32).map(|t| Some(t ^ 1)).collect();
        assert_eq!(ints(t.buffer("out").unwrap()), want, "{q}");
    }
}

/// A default template argument naming an identifier nothing declares (a macro never
/// `#define`d) is reported at that identifier, as a compiler's name lookup fails there
/// (C++17 [basic.lookup]/1), not as a deduction failure; called with `<>` the same.
#[test]
fn an_undeclared_name_in_a_default_template_argument_is_named() {
    for call in ["wsum(threadIdx.x)", "wsum<>(threadIdx.x)"] {
        let src = format!(
            "template <int W = WIDTH_NOT_DEFINED>\n__device__ int wsum(int v) {{\n  \
             for (int m = W >> 1; m >= 1; m >>= 1) v += __shfl_xor_sync(0xffffffff, v, m);\n  \
             return v;\n}}\n__global__ void k(int* out) {{ out[threadIdx.x] = {call}; }}\n"
        );
        let e = run_kernel(&src, config(32, 32)).expect_err("an undeclared default");
        assert_eq!((e.line, e.col), (1, 19), "{call}: {}", e.message);
        assert!(
            e.message.starts_with("`WIDTH_NOT_DEFINED` is not declared"),
            "{call}: {}",
            e.message
        );
    }
}

/// A PTX scope opened in one `asm` statement and closed in another (PTX ISA, "Statements": the
/// braces scope the registers declared inside) is refused naming what it is, at the statement
/// that opens it, and saying what to write instead.
#[test]
fn a_ptx_scope_split_across_asm_statements_is_named() {
    let src = r#"
__device__ unsigned twice(unsigned v) {
  asm("{ .reg .u32 t; ");
  asm("add.u32 t, %0, %0; mov.u32 %0, t;" : "+r"(v));
  asm("}");
  return v;
}
__global__ void k(unsigned* out) { out[threadIdx.x] = twice(threadIdx.x); }
"#;
    let e = run_kernel(src, config(32, 32)).expect_err("a split PTX scope");
    assert_eq!(e.line, 3, "{}", e.message);
    assert!(
        e.message
            .contains("a PTX scope split across `asm` statements"),
        "{}",
        e.message
    );
}
