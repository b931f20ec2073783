//! Host code whose branch, case or trip count has no constant value: every variable it may
//! assign is unknown after it, so a launch that reads one says so (and names `--arg`), and the
//! kernel stores undefined values, never a value picked from one branch. C++17
//! [stmt.switch]/5 (the case equal to the selector runs), [stmt.if]/1, [expr.cond]/1 and
//! [expr.log.and]/1 (only the chosen operand is evaluated), [stmt.iter] (the body runs as
//! often as the condition says). Each program is written here; the expected values are the
//! C++ rules applied by hand (a known selector's fallthrough: `0 + 10 + 100 = 110`).

use crate::support::{ints, run_finished, said};
use crosslane_core::result::Level;
use crosslane_kernel::exec::LaunchConfig;

/// One kernel storing its scalar `v` into each lane's cell of `out`; a second one, `last`, to
/// trace the launch after a loop.
const KERNELS: &str = "__global__ void fill(int *out, int v) {\n  out[threadIdx.x] = v;\n}\n\
                       __global__ void last(int *out, int v) {\n  out[threadIdx.x] = v;\n}\n";

/// `main` with `body` between `int m = rand() % 7; int n = 0;` (lines 8 and 9) and a launch
/// of `entry` reading `n` (the line after `body`'s lines, plus two).
fn program(body: &str, entry: &str) -> String {
    format!(
        "{KERNELS}int main() {{\n  int m = rand() % 7;\n  int n = 0;\n{body}\n  int *d;\n  \
         cudaMalloc(&d, 4 * sizeof(int));\n  {entry}<<<1, 4>>>(d, n);\n  return 0;\n}}\n"
    )
}

fn run(src: &str, entry: &str) -> crosslane_kernel::KernelTrace {
    let c = LaunchConfig {
        entry: Some(entry.to_string()),
        ..LaunchConfig::default()
    };
    run_finished(src, c)
}

/// The launch's warning that `v` (read from `n`) is unknown for `why`.
fn unknown_v(why: &str) -> String {
    format!(
        "argument `v` of this launch (`n`) is not a constant read here (`n` is unknown: {why}); \
         set it (CLI: --arg v=VALUE)"
    )
}

const RAND: &str = "(`m` is unknown: `rand() % 7` at line 8 has no constant value in host code)";

/// Asserts the warning `want` and that every cell of `out` is undefined.
fn assert_unknown(src: &str, entry: &str, want: &str) {
    let t = run(src, entry);
    let got = said(&t, Level::Warning);
    assert!(got.iter().any(|m| m == want), "{got:#?}");
    assert_eq!(ints(&t, "out"), vec![None; 4]);
}

#[test]
fn a_switch_on_an_unknown_selector_leaves_what_its_cases_assign_unknown() {
    let src = program(
        "  switch (m % 2) {\n  case 0:\n    n = 1;\n    break;\n  default:\n    n = 2;\n  }",
        "fill",
    );
    let why = format!(
        "it is assigned in `switch (m % 2)` at line 10, whose selector has no constant value in \
         host code {RAND}"
    );
    assert_unknown(&src, "fill", &unknown_v(&why));
}

#[test]
fn a_switch_falling_through_from_an_unknown_selector_is_unknown() {
    let src = program(
        "  switch (m) { case 1: n = 1; case 2: n += 10; break; default: n = 5; }",
        "fill",
    );
    let why = format!(
        "it is assigned in `switch (m)` at line 10, whose selector has no constant value in host \
         code {RAND}"
    );
    assert_unknown(&src, "fill", &unknown_v(&why));
}

#[test]
fn a_known_switch_falls_through_to_its_break() {
    // case 2 runs on through case 3 to the `break`: 0 + 10 + 100.
    let src = program(
        "  switch (2) { case 1: n = 1; case 2: n += 10; case 3: n += 100; break; default: n = 5; }",
        "fill",
    );
    let t = run(&src, "fill");
    assert_eq!(ints(&t, "out"), vec![Some(110); 4]);
}

#[test]
fn a_break_under_an_if_in_a_known_case_leaves_the_switch_unknown() {
    // `case 2` sets 1, then leaves when `m` is nonzero, else sets 5: either.
    let src = program(
        "  switch (2) { case 2: n = 1; if (m) break; n = 5; break; default: n = 7; }",
        "fill",
    );
    let why = "it is assigned in `switch (2)` at line 10, which is 2 in host code but whose cases \
               are not followed here (a `case` value with no constant value, a `break` or \
               `continue` under another statement, or a loop or switch inside)";
    assert_unknown(&src, "fill", &unknown_v(why));
}

#[test]
fn an_else_without_braces_assigns_the_outer_variable() {
    // `else n = 3;` is no declaration of a new `n`: the outer one is assigned under the `if`.
    let src = program("  if (m == 0) n = 1; else n = 3;", "fill");
    let why = format!(
        "it is assigned under `if (m == 0)` at line 10, whose condition has no constant value \
         in host code {RAND}"
    );
    assert_unknown(&src, "fill", &unknown_v(&why));
}

#[test]
fn a_conditional_expression_statement_with_an_unknown_condition_is_unknown() {
    let src = program("  m % 2 ? n = 1 : n = 2;", "fill");
    let why = format!(
        "the host statement at line 10 is not evaluated: `m % 2 ? n = 1 : n = 2` has no constant \
         value {RAND}"
    );
    assert_unknown(&src, "fill", &unknown_v(&why));
    let src = program("  (m > 3) && (n = 4);", "fill");
    let why = format!(
        "the host statement at line 10 is not evaluated: `(m > 3) && (n = 4)` has no constant \
         value {RAND}"
    );
    assert_unknown(&src, "fill", &unknown_v(&why));
}

#[test]
fn a_conditional_expression_statement_with_a_known_condition_is_evaluated() {
    let t = run(
        &program("  int c = 1;\n  c ? n = 7 : n = 9;", "fill"),
        "fill",
    );
    assert_eq!(ints(&t, "out"), vec![Some(7); 4]);
    // `||` evaluates its right operand only when the left is false: here it is.
    let t = run(
        &program("  int c = 0;\n  (c > 3) || (n = 4);", "fill"),
        "fill",
    );
    assert_eq!(ints(&t, "out"), vec![Some(4); 4]);
}

#[test]
fn a_launch_loop_with_an_unknown_trip_count_leaves_what_it_assigns_unknown() {
    // The loop runs `m` times, doubling `n` each time: `last` reads 2^m, unknown.
    let src = program(
        "  n = 1;\n  int *e;\n  cudaMalloc(&e, 4 * sizeof(int));\n  \
         for (int i = 0; i < m; i++) { fill<<<1, 4>>>(e, n); n *= 2; }",
        "last",
    );
    let why = "it is assigned in the host loop at line 13, whose launches are read once: how \
               many times its body runs is not read here";
    assert_unknown(&src, "last", &unknown_v(why));
    let src = program(
        "  n = 1;\n  int *e;\n  cudaMalloc(&e, 4 * sizeof(int));\n  \
         while (n < m) { fill<<<1, 4>>>(e, n); n *= 2; }",
        "last",
    );
    assert_unknown(&src, "last", &unknown_v(why));
}
