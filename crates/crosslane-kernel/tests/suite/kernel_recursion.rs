//! A device function calling itself more than once (`fib`): crosslane inlines every call, so a
//! recursion is expanded to `--max-call-depth` levels whatever its arguments, and a binary one
//! grows as 2^depth. The refusal says so exactly; with the call depth set to what the run
//! needs, it runs.

use crate::support::{block, refused, run_finished};

const FIB: &str = "__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__global__ void k(int* out) {
  out[threadIdx.x] = fib(15);
}
";

/// Under the default call depth (64) the two self-calls would make about 2^64 copies: refused
/// naming the count of self-calls (two, by reading the body), the depth in force and what to
/// set instead.
#[test]
fn a_binary_recursion_is_refused_saying_why_and_what_to_set() {
    let m = refused(FIB, block(1));
    assert!(
        m.contains("`fib` calls itself 2 times")
            && m.contains("--max-call-depth (64)")
            && m.contains("Set --max-call-depth to the deepest chain of nested calls"),
        "{m}"
    );
}

/// fib(15) nests 15 calls (fib(15) → fib(14) → … → fib(1)); with --max-call-depth 15 it runs
/// and gives F(15) = 610 (0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610).
#[test]
fn with_the_depth_the_run_needs_fib_runs() {
    let mut c = block(1);
    c.limits.max_call_depth = 15;
    let t = run_finished(FIB, c);
    assert_eq!(crate::support::ints(&t, "out"), [Some(610)]);
}
