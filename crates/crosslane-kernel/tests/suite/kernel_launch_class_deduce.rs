//! A kernel template's type parameter given by value deduced, at a host launch, from a class
//! argument (C++17 [temp.deduct.call]/2-4: `Op op` takes the argument's type, so `Op` is
//! `Max<int>` for a temporary `Max<int>()` / `Max<int>{}` and for a variable `Max<int> m;`),
//! and the object's members carried into the kernel: value-initialization of `T()` / `T{}`
//! gives each member its default member initializer, else 0 ([dcl.init]/8,
//! [dcl.init.aggr]/8); a declared `T m;` gives each member its default member initializer
//! ([dcl.init]/12). Each expected value is the kernel's arithmetic done by hand.

use crate::support::{ints, run_finished};
use crosslane_core::op::Dialect;
use crosslane_kernel::LaunchConfig;

/// A functor class template with a default member initializer, and a kernel that combines
/// each lane's value with the next lane's (`__shfl_down(v, 1)`: the last lane gets its own,
/// HIP's rule for a source lane past the width) and adds the functor's `base`.
fn source(launch: &str) -> String {
    format!(
        "\
template <typename T> struct Max {{
  T base{{100}};
  T pad;
  __device__ T operator()(T a, T b) const {{ return (a > b ? a : b) + base + pad; }}
}};
template <typename T, typename Op>
__global__ void k(T* o, Op op) {{
  T v = (T)((threadIdx.x * 7) % 11);
  o[threadIdx.x] = op(v, __shfl_down(v, 1));
}}
int main() {{
  int* o;
  hipMalloc(&o, 64 * sizeof(int));
  {launch}
  return 0;
}}
"
    )
}

/// Lane i: max(v(i), v(i+1)) + 100 + pad, v(i) = 7i mod 11, lane 63 taking its own value.
fn want(pad: i128) -> Vec<Option<i128>> {
    let v = |i: i128| (7 * i) % 11;
    (0..64)
        .map(|i| Some(v(i).max(v((i + 1).min(63))) + 100 + pad))
        .collect()
}

fn hip() -> LaunchConfig {
    LaunchConfig {
        dialect: Some(Dialect::Hip),
        lanes: Some(64),
        ..LaunchConfig::default()
    }
}

#[test]
fn a_functional_cast_temporary_deduces_the_class_and_is_value_initialized() {
    // `Max<int>()`: value-initialized, `base` = 100 (its initializer), `pad` = 0.
    let t = run_finished(&source("k<<<1, 64>>>(o, Max<int>());"), hip());
    assert_eq!(t.launch.entry, "k<int,Max<int>>");
    assert_eq!(ints(&t, "o"), want(0));
}

#[test]
fn a_braced_temporary_gives_its_members_in_order() {
    // `Max<int>{3, 5}`: aggregate initialization, base = 3, pad = 5 (so + 8, not + 100).
    let t = run_finished(&source("k<<<1, 64>>>(o, Max<int>{3, 5});"), hip());
    let v = |i: i128| (7 * i) % 11;
    let expect: Vec<Option<i128>> = (0..64)
        .map(|i| Some(v(i).max(v((i + 1).min(63))) + 8))
        .collect();
    assert_eq!(ints(&t, "o"), expect);
    // `Max<int>{}`: every member left out of the list takes its initializer, else 0.
    let t = run_finished(&source("k<<<1, 64>>>(o, Max<int>{});"), hip());
    assert_eq!(ints(&t, "o"), want(0));
}

#[test]
fn a_host_variable_of_the_class_deduces_it_and_gives_its_members() {
    // `Max<int> m; m.pad = 2;`: `base` from its initializer, `pad` as host code set it.
    let t = run_finished(
        &source("Max<int> m;\n  m.pad = 2;\n  k<<<1, 64>>>(o, m);"),
        hip(),
    );
    assert_eq!(t.launch.entry, "k<int,Max<int>>");
    assert_eq!(ints(&t, "o"), want(2));
}

#[test]
fn an_uninitialized_member_of_a_declared_variable_stays_undefined() {
    // `Max<int> m;` with `pad` never set: default-initialization leaves it indeterminate
    // ([dcl.init]/12), so every result computed from it is undefined, not a number.
    let t = run_finished(&source("Max<int> m;\n  k<<<1, 64>>>(o, m);"), hip());
    assert_eq!(t.launch.entry, "k<int,Max<int>>");
    assert!(ints(&t, "o").iter().all(Option::is_none));
}
