//! A host program's launches on file-scope `__device__` arrays, all of them, in order,
//! whichever array each touches (CUDA C++ Programming Guide, "Variable Memory Space
//! Specifiers": a `__device__` variable lives for the whole program; "Streams": launches on one
//! stream run in order); a launch that cannot run is the run's error (the others still run); a member function body
//! sees members declared after it (C++17 [class.mem]/6); `__func__` is the function's name
//! (C++17 [dcl.fct.def.general]/8). Every expected value is worked by hand from the kernels.

use crate::support::{ints, said};
use crosslane_core::Level;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

fn run_entry(src: &str, entry: Option<&str>) -> KernelTrace {
    let config = LaunchConfig {
        entry: entry.map(str::to_string),
        ..LaunchConfig::default()
    };
    run_kernel(src, config).unwrap_or_else(|e| panic!("{e}"))
}

use crate::support::ints_at_launch as at_launch;

/// Two kernels, each writing its own device array: neither reads the other's.
const TWO_ARRAYS: &str = "\
__device__ int lo[4];
__device__ int hi[4];
__global__ void fill_lo() { lo[threadIdx.x] = 5 + threadIdx.x; }
__global__ void fill_hi() { hi[threadIdx.x] = 7 * threadIdx.x; }
int main() {
  fill_lo<<<1, 4>>>();
  fill_hi<<<1, 4>>>();
  return 0;
}
";

#[test]
fn a_later_launch_on_another_device_array_runs_and_its_array_ends_as_it_left_it() {
    // fill_lo traced: lo = 5 + i = 5 6 7 8; fill_hi runs after it: hi = 7i = 0 7 14 21.
    let t = run_entry(TWO_ARRAYS, None);
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let s = |v: &[i128]| v.iter().map(|&x| Some(x)).collect::<Vec<_>>();
    assert_eq!(ints(&t, "lo"), s(&[5, 6, 7, 8]));
    assert_eq!(ints(&t, "hi"), s(&[0, 7, 14, 21]));
}

#[test]
fn an_earlier_launch_on_another_device_array_runs_before_the_traced_one() {
    // fill_hi traced: fill_lo ran first, so lo holds 5 6 7 8 at its launch already.
    let t = run_entry(TWO_ARRAYS, Some("fill_hi"));
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let s = |v: &[i128]| v.iter().map(|&x| Some(x)).collect::<Vec<_>>();
    assert_eq!(at_launch(&t, "lo"), s(&[5, 6, 7, 8]));
    assert_eq!(ints(&t, "lo"), s(&[5, 6, 7, 8]));
    assert_eq!(ints(&t, "hi"), s(&[0, 7, 14, 21]));
}

/// The middle launch calls a function the file never declares.
const MIDDLE_FAILS: &str = "\
__device__ int v[32];
__global__ void first() { v[threadIdx.x] = 3 * threadIdx.x; }
__global__ void broken() { v[threadIdx.x] = no_such_fn(v[threadIdx.x]); }
__global__ void last() { v[threadIdx.x] = __shfl_xor_sync(0xffffffff, v[threadIdx.x], 2); }
int main() {
  first<<<1, 32>>>();
  broken<<<1, 32>>>();
  last<<<1, 32>>>();
  return 0;
}
";

#[test]
fn a_later_launch_that_cannot_run_ends_the_run_with_an_error_naming_it() {
    let t = run_entry(MIDDLE_FAILS, None);
    let Some(Outcome::Error(e)) = &t.outcome else {
        panic!("expected an error, got {:?}", t.outcome);
    };
    assert_eq!((e.line, e.col), (3, 45), "{e:?}");
    assert!(e.message.contains("`no_such_fn` is not declared"), "{e:?}");
    assert!(
        e.message
            .contains("`broken`, which host code launches at line 7"),
        "{e:?}"
    );
    assert!(said(&t, Level::Warning)
        .iter()
        .all(|m| !m.contains("cannot run here")));
}

#[test]
fn an_earlier_launch_that_cannot_run_is_the_runs_error_and_the_traced_one_still_runs() {
    let t = run_entry(MIDDLE_FAILS, Some("last"));
    let Some(Outcome::Error(e)) = &t.outcome else {
        panic!("expected an error, got {:?}", t.outcome);
    };
    assert!(
        e.message
            .contains("`broken`, which host code launches at line 7"),
        "{e:?}"
    );
    // `first` ran (3i), `broken` did not, `last` swapped across lanes 2 apart: 3(i ^ 2).
    let want: Vec<_> = (0..32).map(|i: i128| Some(3 * (i ^ 2))).collect();
    assert_eq!(ints(&t, "v"), want);
}

/// `twice_swapped` calls `swapped`, declared after it in the class.
const MEMBER_ORDER: &str = "\
struct Pair {
  int base;
  __device__ int twice_swapped(int x) { return 2 * swapped(x) + base + scale; }
  __device__ int swapped(int x) { return __shfl_xor_sync(0xffffffff, x, 1) + offset(); }
  __device__ static int offset() { return 100; }
  int scale;
};
__global__ void k(int* o) {
  Pair p;
  p.base = 1;
  p.scale = 10;
  o[threadIdx.x] = p.twice_swapped(threadIdx.x);
}
";

#[test]
fn a_member_function_calls_members_declared_after_it() {
    // lane i: 2 * ((i ^ 1) + 100) + 1 + 10 = 2 * (i ^ 1) + 211.
    let t = run_entry(MEMBER_ORDER, None);
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let want: Vec<Option<i128>> = (0..32).map(|i: i128| Some(2 * (i ^ 1) + 211)).collect();
    assert_eq!(ints(&t, "o"), want);
}

/// The same in a class template.
const TEMPLATE_ORDER: &str = "\
template <int N>
struct Adder {
  __device__ int run(int x) { return later(x) + N; }
  __device__ int later(int x) { return __shfl_down_sync(0xffffffff, x, 1); }
};
__global__ void k(int* o) {
  Adder<4> a;
  o[threadIdx.x] = a.run(threadIdx.x);
}
";

#[test]
fn a_class_template_member_calls_a_member_declared_after_it() {
    // lane i < 31: (i + 1) + 4; lane 31 keeps its own value: 31 + 4.
    let t = run_entry(TEMPLATE_ORDER, None);
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let want: Vec<Option<i128>> = (0..32)
        .map(|i: i128| Some(if i < 31 { i + 5 } else { 35 }))
        .collect();
    assert_eq!(ints(&t, "o"), want);
}

#[test]
fn func_is_the_name_of_the_function_it_is_in() {
    let src = "\
__device__ void tell() { printf(\"%s\\n\", __func__); }
__global__ void probe(int* o) {
  if (threadIdx.x == 0) { printf(\"%s|\\n\", __func__); tell(); }
  o[threadIdx.x] = 1;
}
";
    let t = run_entry(src, None);
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let printed: Vec<String> = t.printf.iter().map(|p| p.text.clone()).collect();
    assert_eq!(printed, vec!["probe|\n".to_string(), "tell\n".to_string()]);
}

#[test]
fn a_launch_host_code_may_skip_is_named_where_its_device_array_is_shown() {
    // `fill_hi` runs or not as `rand()` says: `hi` is shown without it, with a warning.
    let src = TWO_ARRAYS.replace(
        "  fill_hi<<<1, 4>>>();",
        "  if (rand() > 5) { fill_hi<<<1, 4>>>(); }",
    );
    let t = run_entry(&src, None);
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let warnings = said(&t, Level::Warning);
    assert!(
        warnings
            .iter()
            .any(|m| m.contains("`fill_hi()` launched at line 7") && m.contains("`hi`")),
        "{warnings:?}"
    );
}
