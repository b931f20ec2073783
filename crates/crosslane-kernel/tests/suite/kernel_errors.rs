//! Failures are failures: an unknown name is refused before the run (every one at once, at its
//! line:column); a run that meets an error, or a branch or loop on an undefined condition, ends
//! with [`Outcome::Error`] naming the line and the reason; `keep_going` opts back in to going on.

use crate::cells::cell_ints as ints;
use crosslane_core::Level;
use crosslane_kernel::{run_kernel, LaunchConfig, Outcome};

fn keep_going() -> LaunchConfig {
    LaunchConfig {
        keep_going: true,
        ..LaunchConfig::default()
    }
}

#[test]
fn every_unknown_name_is_reported_before_the_run_at_its_position() {
    // `laneid` (a PTX register name, not a C++ variable) at 2:11, `expf2` at 3:13, `total` at
    // 4:3: three errors, one message, sorted by position; nothing runs.
    let src = "\
__global__ void k(float* out) {
  int l = laneid;
  float e = expf2(1.0f);
  total = l;
  out[threadIdx.x] = e;
}";
    let e = run_kernel(src, LaunchConfig::default()).unwrap_err();
    assert_eq!((e.line, e.col), (2, 11), "{e}");
    assert!(e.message.starts_with("`laneid` is not declared"), "{e}");
    let text = e.to_string();
    assert!(text.contains("\n3:13: `expf2` is not declared"), "{text}");
    assert!(text.contains("\n4:3: `total` is not declared"), "{text}");
    // `threadIdx.x` and `out` resolve: exactly three lines.
    assert_eq!(text.lines().count(), 3, "{text}");
    // Split again, each error with its own position (what the CLI's JSON and the page list).
    let each: Vec<_> = e.each().into_iter().map(|d| (d.line, d.col)).collect();
    assert_eq!(each, vec![(2, 11), (3, 13), (4, 3)]);
    assert!(e.each()[2].message.starts_with("`total` is not declared"));
}

/// `x + lane` overflows `int` in lanes 1..31 (2147483647 + 1 > INT_MAX: C++17 [expr]/4, the
/// result is not mathematically defined in the type), so `y > 0` is undefined there: the
/// branch on line 4 has no defined path in those lanes.
const OVERFLOW_BRANCH: &str = "\
__global__ void k(int* out) {
  int x = 2147483647;
  int y = x + (int)threadIdx.x;
  if (y > 0) out[threadIdx.x] = 7;
}";

#[test]
fn a_branch_on_an_undefined_condition_ends_the_run_with_its_reason() {
    let t = run_kernel(OVERFLOW_BRANCH, LaunchConfig::default()).unwrap();
    let Some(Outcome::Error(e)) = &t.outcome else {
        panic!("{:?}", t.outcome)
    };
    assert_eq!(e.line, 4, "{e}");
    assert!(e.message.contains("the condition is undefined"), "{e}");
    assert!(
        e.message.contains("overflow"),
        "the value's own reason: {e}"
    );
    assert!(
        e.message.contains("since line 3"),
        "where it came from: {e}"
    );
    // The run stopped at the branch: no lane wrote (the index fill is left).
    let out = ints(t.buffer("out").unwrap());
    assert_eq!(out[0], Some(0));
    assert_eq!(out[1], Some(1));
}

#[test]
fn keep_going_takes_an_undefined_condition_as_false_and_says_so() {
    let t = run_kernel(OVERFLOW_BRANCH, keep_going()).unwrap();
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let out = ints(t.buffer("out").unwrap());
    // Lane 0 (no overflow, y = INT_MAX > 0) writes 7; lanes 1..31 are taken as false and keep
    // the index fill.
    assert_eq!(out[0], Some(7));
    assert_eq!(out[1..32], (1..32).map(Some).collect::<Vec<_>>()[..]);
    let w = t
        .all_diagnostics()
        .find(|d| d.message.contains("--keep-going takes the lane as false"))
        .expect("the warning");
    assert_eq!((w.line, w.level), (4, Level::Warning));
}

#[test]
fn a_loop_on_an_undefined_condition_ends_the_run() {
    // `n` is never set: `i < n` is undefined in every lane on the first test (line 3).
    let src = "\
__global__ void k(int* out) {
  int n;
  for (int i = 0; i < n; i++) out[threadIdx.x] = i;
}";
    let t = run_kernel(src, LaunchConfig::default()).unwrap();
    let Some(Outcome::Error(e)) = &t.outcome else {
        panic!("{:?}", t.outcome)
    };
    assert_eq!(e.line, 3, "{e}");
    assert!(e.message.contains("the condition is undefined"), "{e}");
}

#[test]
fn a_ternary_on_an_undefined_condition_is_an_undefined_value_not_an_error() {
    // `?:` picks a value, it is no branch: the result carries the condition's reason.
    let src = "\
__global__ void k(int* out) {
  int x = 2147483647;
  int y = x + (int)threadIdx.x;
  out[threadIdx.x] = y > 0 ? 1 : 2;
}";
    let t = run_kernel(src, LaunchConfig::default()).unwrap();
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let out = t.buffer("out").unwrap();
    assert_eq!(ints(&out[..1]), [Some(1)]);
    assert!(out[1..32].iter().all(Option::is_none));
}

#[test]
fn a_run_time_error_ends_the_run_at_its_line_unless_keep_going() {
    // __shfl_sync takes at most 4 arguments (CUDA C++ Programming Guide, Warp Shuffle
    // Functions: mask, var, srcLane, width): the call on line 3 is an error when it runs.
    let src = "\
__global__ void k(int* out) {
  int v = threadIdx.x;
  v = __shfl_sync(0xffffffff, v, 1, 32, 7);
  out[threadIdx.x] = 5;
}";
    let t = run_kernel(src, LaunchConfig::default()).unwrap();
    let Some(Outcome::Error(e)) = &t.outcome else {
        panic!("{:?}", t.outcome)
    };
    assert_eq!(e.line, 3, "{e}");
    assert_eq!(
        ints(&t.buffer("out").unwrap()[..1]),
        [Some(0)],
        "line 4 never ran"
    );
    let json = serde_json::to_value(&t).unwrap();
    assert_eq!(json["outcome"]["kind"], "error");
    // Kept going: the error stays a diagnostic and line 4 runs.
    let t = run_kernel(src, keep_going()).unwrap();
    assert_eq!(t.outcome, Some(Outcome::Finished));
    assert_eq!(ints(&t.buffer("out").unwrap()[..1]), [Some(5)]);
    assert!(t
        .all_diagnostics()
        .any(|d| d.line == 3 && d.level == Level::Error));
}

#[test]
fn out_of_bounds_and_unset_reads_stay_diagnostics() {
    // Lane 31 reads in[32] of a 32-cell buffer: undefined with a diagnostic, the run finishes.
    let src = "\
__global__ void k(const int* in, int* out) {
  out[threadIdx.x] = in[threadIdx.x + 1];
}";
    let t = run_kernel(src, LaunchConfig::default()).unwrap();
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let out = t.buffer("out").unwrap();
    assert_eq!(ints(&out[..2]), [Some(1), Some(2)]);
    assert!(out[31].is_none());
}
