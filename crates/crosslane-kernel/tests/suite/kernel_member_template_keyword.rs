//! A member template called through `C<…>::template f<…>(…)` at the start of a statement
//! (ISO C++17 [temp.names]/4: the keyword `template` names `f` a member template of a dependent
//! class), the shape of tile-language scan and reduction helpers: never a member type. Run as
//! MACA on its 64-lane warp with 64-bit shuffle masks (seed 002 §3.4.1).

use crate::cells::cell_ints;
use crosslane_core::Dialect;
use crosslane_kernel::{run_kernel, LaunchConfig, Outcome};

#[test]
fn template_keyword_call_at_statement_start_runs_the_member_template() {
    let src = "\
template <int kSeg, bool kRev = false> struct Scan {
  template <typename T, int kWidth = kSeg>
  static __device__ void run(const T* src, T* dst) {
    T v = src[threadIdx.x];
    for (int o = 1; o < kWidth; o <<= 1) {
      T n = __shfl_up_sync(0xFFFFFFFFFFFFFFFFull, v, o);
      if ((int)(threadIdx.x % kWidth) >= o) v += n;
    }
    dst[threadIdx.x] = kRev ? -v : v;
  }
};
template <int kSeg> struct Prefix {
  template <typename T, int kWidth = kSeg>
  static __device__ void run(const T* src, T* dst) {
    Scan<kSeg, false>::template run<T, kWidth>(
        src, dst);
  }
};
__global__ void k(const int* a, int* b) { Prefix<64>::run<int>(a, b); }";
    let mut config = LaunchConfig {
        dialect: Some(Dialect::Maca),
        block_dim: Some([128, 1, 1]),
        ..LaunchConfig::default()
    };
    config.args.insert("a".into(), "index".into());
    config.args.insert("b".into(), "zero".into());
    let t = run_kernel(src, config).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        t.outcome,
        Some(Outcome::Finished),
        "{:?}",
        t.merged_diagnostics
    );
    // Inclusive prefix sums of a[i] = i within each 64-thread warp:
    // b[i] = sum(range(64 * (i // 64), i + 1)).
    let want: Vec<Option<i128>> = (0..128i128)
        .map(|i| Some((64 * (i / 64)..=i).sum()))
        .collect();
    assert_eq!(cell_ints(t.buffer("b").unwrap()), want);
}

/// A helper qualified by a library namespace the source never declares (`mctlass::fast_max`
/// from a header, as tile-language's MACA `MaxOp` calls it) is refused by its qualified name,
/// saying headers are not read, instead of a parse error at the `::`.
#[test]
fn an_undeclared_library_qualifier_is_named_in_the_refusal() {
    let src = "\
struct MaxOp {
  template <typename T> __device__ T operator()(T const &x, T const &y) {
    return mctlass::fast_max(x, y);
  }
};
__global__ void k(float* d) { d[threadIdx.x] = MaxOp()(d[threadIdx.x], 2.0f); }";
    let config = LaunchConfig {
        dialect: Some(Dialect::Maca),
        ..LaunchConfig::default()
    };
    let e = run_kernel(src, config).expect_err("an undeclared qualifier");
    assert!(
        e.message.contains("`mctlass::fast_max` is not declared")
            && e.message.contains("headers are not read"),
        "{}",
        e.message
    );
}
