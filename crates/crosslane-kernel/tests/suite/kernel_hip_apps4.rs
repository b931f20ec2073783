//! Shapes of AMD's public HIP test code found in a fourth round (ROCm hip-tests' warp sync and
//! match tests, their deviceLib vote tests): host fills through overload sets of function
//! templates chosen by `std::enable_if`, a `std::vector`'s `size()` bounding a host fill loop
//! with an `if`/`else` body, and the platform macros of hip-tests' common header. Kernels and
//! host code written here in those shapes, never copied; expected values from C++17
//! ([temp.deduct]/8, [temp.over], [expr.call]/4, [vector.capacity]) and the HIP Programming
//! Guide, computed by the Python lines quoted beside each test.

use crate::support::{floats, has, ints, ints_at_launch, no_errors, run_finished};
use crosslane_core::result::Level;
use crosslane_core::Dialect;
use crosslane_kernel::LaunchConfig;

fn hip() -> LaunchConfig {
    LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes: Some(64),
        ..LaunchConfig::default()
    }
}

/// A value helper in three templates excluded from each other by `enable_if` (an integral `T`
/// keeps the value, a floating one scales it, `__half` converts the `float` one's value), called with an explicit argument inside a
/// fill helper template, itself called from a test template run for `int` and `float`.
const VALUE_OVERLOADS: &str = "\
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <type_traits>
template <typename T, std::enable_if_t<std::is_integral<T>::value, bool> = true>
inline T widen(int x) { return x; }
template <typename T, std::enable_if_t<std::is_floating_point<T>::value, bool> = true>
inline T widen(int x) { return x * 2.5; }
template <typename T, std::enable_if_t<std::is_same<T, __half>::value, bool> = true>
inline __half widen(int x) { return (__half)widen<float>(x); }
template <typename T>
inline void initialize(T* dst, int n) {
  int base[] = {0, -1, 2, 3, 4, 5, -6, 7};
  for (int i = 0; i != n; ++i) {
    dst[i] = widen<T>(base[i]);
  }
}
template <typename T> __global__ void copy(T* in, T* out) { out[threadIdx.x] = in[threadIdx.x]; }
template <typename T> static void run() {
  const int n = 8;
  T host[n];
  initialize(host, n);
  T *d, *o;
  hipMalloc(&d, sizeof(T) * n);
  hipMalloc(&o, sizeof(T) * n);
  hipMemcpy(d, &host, sizeof(T) * n, hipMemcpyDefault);
  hipLaunchKernelGGL(copy<T>, 1, n, 0, 0, d, o);
}
int main() { run<TYPE>(); return 0; }";

#[test]
fn enable_if_value_overload_fills_by_its_type() {
    // Python: [v for v in (0,-1,2,3,4,5,-6,7)] and [v * 2.5 for v in (0,-1,2,3,4,5,-6,7)]
    let t = run_finished(&VALUE_OVERLOADS.replace("TYPE", "int"), hip());
    no_errors(&t);
    let want: Vec<Option<i128>> = [0, -1, 2, 3, 4, 5, -6, 7]
        .iter()
        .map(|&v| Some(v))
        .collect();
    assert_eq!(ints(&t, "out"), want);
    let want: Vec<Option<f64>> = [0.0, -2.5, 5.0, 7.5, 10.0, 12.5, -15.0, 17.5]
        .iter()
        .map(|&v| Some(v))
        .collect();
    let t = run_finished(&VALUE_OVERLOADS.replace("TYPE", "float"), hip());
    no_errors(&t);
    assert_eq!(floats(&t, "out"), want);
    // `__half`: the nested `widen<float>` call evaluated too; each value is exact in binary16.
    let t = run_finished(&VALUE_OVERLOADS.replace("TYPE", "__half"), hip());
    no_errors(&t);
    assert_eq!(floats(&t, "out"), want);
}

/// A statement helper in two templates: the integral one only discards its parameters, the
/// floating one scales the array in place with a compound assignment; `T` is deduced from
/// the host array's element type.
const STATEMENT_OVERLOADS: &str = "\
#include <hip/hip_runtime.h>
#include <type_traits>
template <typename T, std::enable_if_t<std::is_integral<T>::value, bool> = true>
inline void scale(T* a, int n) {
  (void)a;
  (void)n;
}
template <typename T, std::enable_if_t<std::is_floating_point<T>::value, bool> = true>
inline void scale(T* a, int n) {
  for (int i = 0; i != n; ++i) {
    a[i] *= 3;
  }
}
template <typename T> __global__ void copy(T* in, T* out) { out[threadIdx.x] = in[threadIdx.x]; }
template <typename T> static void run() {
  const int n = 8;
  T host[n] = {(T)1, (T)2, (T)3, (T)4, (T)5, (T)6, (T)7, (T)-8};
  scale(host, n);
  T *d, *o;
  hipMalloc(&d, sizeof(T) * n);
  hipMalloc(&o, sizeof(T) * n);
  hipMemcpy(d, &host, sizeof(T) * n, hipMemcpyDefault);
  hipLaunchKernelGGL(copy<T>, 1, n, 0, 0, d, o);
}
int main() { run<TYPE>(); return 0; }";

#[test]
fn enable_if_statement_overload_is_chosen_by_the_deduced_type() {
    // Python: [1,2,3,4,5,6,7,-8] and [3 * v for v in (1,2,3,4,5,6,7,-8)]
    let t = run_finished(&STATEMENT_OVERLOADS.replace("TYPE", "long"), hip());
    no_errors(&t);
    let want: Vec<Option<i128>> = [1, 2, 3, 4, 5, 6, 7, -8].iter().map(|&v| Some(v)).collect();
    assert_eq!(ints(&t, "out"), want);
    let t = run_finished(&STATEMENT_OVERLOADS.replace("TYPE", "double"), hip());
    no_errors(&t);
    let want: Vec<Option<f64>> = [3.0, 6.0, 9.0, 12.0, 15.0, 18.0, 21.0, -24.0]
        .iter()
        .map(|&v| Some(v))
        .collect();
    assert_eq!(floats(&t, "out"), want);
}

/// Two templates whose constraints both hold: the call is ambiguous ([over.match.best]), so
/// neither is picked and the fill stays unknown, said.
#[test]
fn ambiguous_overloads_leave_the_fill_unknown() {
    let src = VALUE_OVERLOADS
        .replace("std::is_floating_point<T>::value", "sizeof(T) == 4")
        .replace("TYPE", "int");
    let t = run_finished(&src, hip());
    assert!(
        has(&t, Level::Warning, "is filled cannot be read"),
        "{:?}",
        t.all_diagnostics().map(|d| &d.message).collect::<Vec<_>>()
    );
    assert!(ints_at_launch(&t, "in").iter().all(Option::is_none));
}

/// hip-tests' divergent match test's host fill: a `std::vector` sized by a variable, filled
/// by a loop bounded by `size()` whose body is an `if`/`else`.
const VECTOR_IF_FILL: &str = "\
#include <hip/hip_runtime.h>
#include <vector>
__global__ void copy(int* in, int* out) { out[threadIdx.x] = in[threadIdx.x]; }
int main() {
  size_t lanes = 16;
  auto input = std::vector<int>(lanes);
  for (size_t i = 0; i < input.size(); i++) {
    if (i % 4 == 0 || i % 6 == 0) {
      input[i] = 0x33;
    } else {
      input[i] = i;
    }
  }
  int *d, *o;
  hipMalloc(&d, input.size() * sizeof(input[0]));
  hipMalloc(&o, input.size() * sizeof(input[0]));
  hipMemcpy(d, input.data(), input.size() * sizeof(input[0]), hipMemcpyHostToDevice);
  hipLaunchKernelGGL(copy, 1, lanes, 0, 0, d, o);
  return 0;
}";

#[test]
fn vector_size_bounds_an_if_else_fill_loop() {
    // Python: [0x33 if i % 4 == 0 or i % 6 == 0 else i for i in range(16)]
    let t = run_finished(VECTOR_IF_FILL, hip());
    no_errors(&t);
    let want: Vec<Option<i128>> = (0..16)
        .map(|i| Some(if i % 4 == 0 || i % 6 == 0 { 0x33 } else { i }))
        .collect();
    assert_eq!(ints(&t, "out"), want);
}

/// hip-tests' `#if HT_AMD` around the platform's vote builtins: `hip_test_common.hh` defines
/// `HT_AMD 1` on an AMD target, so the `__any` / `__all` branch is the one compiled.
const HT_AMD_VOTE: &str = "\
#include <hip_test_common.hh>
__global__ void vote(int* any, int* all) {
  int t = threadIdx.x;
#if HT_AMD
  any[t] = __any(t - 5);
  all[t] = __all(t - 5);
#else
  any[t] = -1;
  all[t] = -1;
#endif
}
int main() {
  int *a, *b;
  hipMalloc(&a, 64 * sizeof(int));
  hipMalloc(&b, 64 * sizeof(int));
  hipLaunchKernelGGL(vote, 1, 64, 0, 0, a, b);
  return 0;
}";

#[test]
fn hip_test_common_header_defines_ht_amd() {
    // One wave of 64 lanes: t - 5 is zero in lane 5 only, so __any is 1 and __all is 0.
    let t = run_finished(HT_AMD_VOTE, hip());
    no_errors(&t);
    assert_eq!(ints(&t, "any"), vec![Some(1); 64]);
    assert_eq!(ints(&t, "all"), vec![Some(0); 64]);
    // Without the header the macro is not defined: the other branch.
    let t = run_finished(
        &HT_AMD_VOTE.replace(
            "#include <hip_test_common.hh>",
            "#include <hip/hip_runtime.h>",
        ),
        hip(),
    );
    assert_eq!(ints(&t, "any"), vec![Some(-1); 64]);
}

/// A fill helper the file names `fill` (unqualified, as `std::fill` could be written after
/// `using namespace std;`) is the file's own function: C++17 [basic.lookup.unqual] finds the
/// file's declaration; `std::fill` is not declared at file scope without a using-directive.
#[test]
fn a_helper_named_fill_is_the_files_own_function() {
    let src = VALUE_OVERLOADS
        .replace("inline void initialize(", "inline void fill(")
        .replace("  initialize(host, n);", "  fill(host, n);")
        .replace("TYPE", "int");
    assert!(src.contains("  fill(host, n);"));
    let t = run_finished(&src, hip());
    no_errors(&t);
    let want: Vec<Option<i128>> = [0, -1, 2, 3, 4, 5, -6, 7]
        .iter()
        .map(|&v| Some(v))
        .collect();
    assert_eq!(ints(&t, "out"), want);
}

/// hip-tests' `T factor; getFactor(&factor);` shape: overloads by pointee type setting the
/// caller's scalar through the pointer, read at a fill helper template's reading with `T`
/// bound ([over.ics.scs]: the overload taking a pointer to `T` is the exact match).
const OUT_PARAM: &str = "\
#include <hip/hip_runtime.h>
static void seed(int* s) { *s = 7; }
static void seed(float* s) { *s = 0.25f; }
template <typename T> void init(T* a, int n) {
  T base;
  seed(&base);
  for (int i = 0; i < n; i++) a[i] = (T)i + base;
}
template <typename T> __global__ void copy(T* in, T* out) { out[threadIdx.x] = in[threadIdx.x]; }
template <typename T> static void run() {
  const int n = 4;
  T host[n];
  init(host, n);
  T *d, *o;
  hipMalloc(&d, sizeof(T) * n);
  hipMalloc(&o, sizeof(T) * n);
  hipMemcpy(d, host, sizeof(T) * n, hipMemcpyHostToDevice);
  hipLaunchKernelGGL(copy<T>, 1, n, 0, 0, d, o);
}
int main() { run<TYPE>(); return 0; }";

#[test]
fn a_scalar_set_through_the_overload_for_its_type() {
    // Python: [i + 7 for i in range(4)] and [i + 0.25 for i in range(4)]
    let t = run_finished(&OUT_PARAM.replace("TYPE", "int"), hip());
    no_errors(&t);
    assert_eq!(ints(&t, "out"), vec![Some(7), Some(8), Some(9), Some(10)]);
    let t = run_finished(&OUT_PARAM.replace("TYPE", "float"), hip());
    no_errors(&t);
    assert_eq!(
        floats(&t, "out"),
        vec![Some(0.25), Some(1.25), Some(2.25), Some(3.25)]
    );
    // No overload for `double`: the fill stays unknown, said.
    let t = run_finished(&OUT_PARAM.replace("TYPE", "double"), hip());
    assert!(ints_at_launch(&t, "in").iter().all(Option::is_none));
}

/// clang's predefined integer limits (`__LONG_LONG_MAX__`, `__INT_MAX__`), which hip-tests'
/// host code names (`static_cast<uint64_t>(__LONG_LONG_MAX__) + 1`): 2^63 and 2^31 - 1.
#[test]
fn clang_limit_macros_are_predefined() {
    let src = "\
#include <hip/hip_runtime.h>
__global__ void k(unsigned long long* o) {
  o[0] = static_cast<unsigned long long>(__LONG_LONG_MAX__) + 1;
  o[1] = __INT_MAX__;
  o[2] = __SIZEOF_LONG__ * __CHAR_BIT__;
}";
    let mut c = hip();
    c.args.insert("o".into(), "zero".into());
    c.buffer_len.insert("o".into(), 3);
    c.block_dim = Some([1, 1, 1]);
    let t = run_finished(src, c);
    no_errors(&t);
    assert_eq!(
        ints(&t, "o"),
        vec![Some(1 << 63), Some(2_147_483_647), Some(64)]
    );
}
