//! WGSL control flow that ran wrong: a `continue` inside a `switch` inside a loop, a loop's
//! `continuing` block reading a `let` of the body, and `||` / `&&` whose left operand is
//! indeterminate where the right operand alone decides. Every expected value is worked out by
//! hand (or by the Python model quoted beside it) from the WGSL spec sections named per test,
//! never copied from the emulator's output.

use crosslane_kernel::wgsl::run_wgsl;

use crate::support::{ints_or_min, wgsl_no_errors as run_with, wgsl_out as config};

/// WGSL § continue Statement: a `continue` inside a `switch` continues the loop around it, so
/// the `for` loop's update (its continuing block) still runs. (It ran the switch's own, empty
/// continuing: `j` never grew and the run went on to the work limit.)
#[test]
fn continue_inside_a_switch_runs_the_loops_update() {
    let src = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {
  var total = 0u;
  for (var j = 0u; j < 5u; j++) {
    switch (j) {
      case 1u: { continue; }
      case 3u: { if (i >= 2u) { continue; } total += 50u; }
      default: { total += j; }
    }
    total += 100u;
  }
  o[i] = total;
}";
    // j = 0: +0 +100; j = 1: skipped; j = 2: +2 +100; j = 3: i < 2 adds 50 + 100, i >= 2
    // skips; j = 4: +4 +100. i < 2: 0+100+2+100+50+100+4+100 = 456; i >= 2: 306.
    let t = run_with(src, config(32, 4));
    assert_eq!(ints_or_min(&t, "o"), vec![456, 456, 306, 306]);

    // The same inside `loop { … continuing { … } }`, with `break if`.
    let src = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(2) fn main(@builtin(local_invocation_index) i: u32) {
  var n = 0u;
  var hits = 0u;
  loop {
    switch (n % 3u) {
      case 0u: { continue; }
      default: { hits += 1u + i; }
    }
    continuing {
      n += 1u;
      break if n >= 7u;
    }
  }
  o[i] = hits * 10u + n;
}";
    // n = 0..6: the cases n % 3 != 0 are n = 1, 2, 4, 5 (4 hits of 1 + i); n ends at 7.
    // i = 0: 4 * 10 + 7 = 47; i = 1: 8 * 10 + 7 = 87.
    let t = run_with(src, config(32, 2));
    assert_eq!(ints_or_min(&t, "o"), vec![47, 87]);
}

/// WGSL § continuing Statement: the continuing block sees the body's `let` declarations as
/// the values they took, even where the body has since changed what they were computed from.
#[test]
fn continuing_reads_a_body_let_as_its_value() {
    let src = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {
  var k = 0u;
  var s = 0u;
  loop {
    let next = k + 1u;
    if (next % 3u == 0u) { k = next; continue; }
    s += next;
    continuing {
      k = next;
      break if k >= i + 5u;
    }
  }
  o[i] = s;
}";
    // Python model of the loop (next = k + 1 once per pass; the multiples of 3 add nothing):
    //   def run(i):
    //     k = s = 0
    //     while True:
    //       nxt = k + 1
    //       if nxt % 3: s += nxt
    //       k = nxt
    //       if k >= i + 5: return s
    //   [run(i) for i in range(4)] == [12, 12, 19, 27]
    // (Re-evaluating `k + 1u` in the continuing after `k = next` skipped a value: 8, 8, 8, 16.)
    let t = run_with(src, config(32, 4));
    assert_eq!(ints_or_min(&t, "o"), vec![12, 12, 19, 27]);

    // The same with the `let`s bound to a helper's and a subgroup operation's results (naga
    // makes those calls statements): the continuing block reads their names too. (Refused
    // before: "a built-in's result used before its call".)
    let src = "enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
fn inc(x: u32) -> u32 { return x + 1u; }
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {
  var k = 0u;
  var s = 0u;
  loop {
    let next = inc(k);
    let zero = subgroupMin(next) * 0u;
    if (next % 3u == 0u) { k = next; continue; }
    s += next;
    continuing {
      k = next + zero;
      break if k >= i + 5u;
    }
  }
  o[i] = s;
}";
    // The same values as above: `zero` is 0 whatever subgroupMin gives.
    let t = run_with(src, config(32, 4));
    assert_eq!(ints_or_min(&t, "o"), vec![12, 12, 19, 27]);

    // A vector `let` of the body, read component-wise in the continuing block.
    let src = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(1) fn main() {
  var p = vec2<u32>(1u, 0u);
  var steps = 0u;
  loop {
    let q = vec2<u32>(p.y, p.x + p.y);
    p = vec2<u32>(0u, 0u);
    continuing {
      p = q;
      steps += 1u;
      break if steps >= 6u;
    }
  }
  o[0] = p.x;
  o[1] = p.y;
}";
    // q = (y, x + y) from (1, 0): (0,1), (1,1), (1,2), (2,3), (3,5), (5,8) after 6 steps.
    let t = run_with(src, config(32, 2));
    assert_eq!(ints_or_min(&t, "o"), vec![5, 8]);
}

/// WGSL § Logical Expressions and § Indeterminate Values: `e1 || e2` is true when `e2` is,
/// whatever value an indeterminate `e1` has (and `e1 && e2` false when `e2` is false), so an
/// out-of-range `subgroupShuffleDown` on the left leaves a defined result there; where the
/// right operand does not decide, the result stays undefined. (The run ended in an error:
/// naga lowers `||` to an `if` on the left operand, a branch on an undefined value.)
#[test]
fn logical_operators_with_an_indeterminate_left_operand() {
    let src = "enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(8) fn main(@builtin(subgroup_invocation_id) l: u32,
                                    @builtin(subgroup_size) n: u32) {
  let down = subgroupShuffleDown(l * 10u, 1u);
  o[l] = u32(down == l * 10u + 10u || l == n - 1u);
  o[8u + l] = u32(down > 1000u && l != n - 1u);
  o[16u + l] = u32(down == 70u || l == 0u);
}";
    // 8 lanes: lanes 0..6 read lane l + 1 (10 l + 10); lane 7 reads lane 8, outside the
    // subgroup: indeterminate (WGSL § subgroupShuffleDown).
    // Row 1: lanes 0..6 true by the left; lane 7 true by the right.
    // Row 2: lanes 0..6 false by the left (at most 70); lane 7 false by the right.
    // Row 3: lane 6 (reads 70) and lane 0 (l == 0) true, lanes 1..5 false; lane 7: the left
    // is indeterminate and the right false, so undefined.
    let t = run_with(src, config(8, 24));
    let u = i128::MIN;
    let mut want = vec![1; 8];
    want.extend([0; 8]);
    want.extend([1, 0, 0, 0, 0, 0, 1, u]);
    assert_eq!(ints_or_min(&t, "o"), want);
}

/// A right operand holding a subgroup operation (a statement in naga's IR) runs only in the
/// invocations the left operand lets through, as `&&` short-circuits (WGSL § Logical
/// Expressions; § subgroupAdd counts the active invocations).
#[test]
fn a_subgroup_call_on_the_right_of_and_runs_where_the_left_is_true() {
    let src = "enable subgroups;
diagnostic(off, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(8) fn main(@builtin(subgroup_invocation_id) l: u32) {
  o[l] = u32(l % 2u == 0u && subgroupAdd(1u) == 4u);
}";
    // 8 lanes: the 4 even ones call subgroupAdd together (4 active: true); odd lanes are
    // false by the left. Had every lane called it, the sum would be 8 and all false.
    let t = run_with(src, config(8, 8));
    assert_eq!(ints_or_min(&t, "o"), vec![1, 0, 1, 0, 1, 0, 1, 0]);
}

/// WGSL § Expressions: `a && b || c` is not in the grammar (a short-circuit expression chains
/// one operator); Tint refuses it ("mixing '&&' and '||' requires parenthesis", recorded from
/// `tint --format wgsl`), naga 30 parsed it with C's precedence. Parenthesised, it runs.
#[test]
fn mixing_and_and_or_without_parentheses_is_refused() {
    let src = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {
  o[i] = u32(i == 0u && i < 2u || i == 3u);
}";
    let e = run_wgsl(src, config(32, 4))
        .expect_err("refused")
        .to_string();
    assert!(
        e.contains("mixing `&&` and `||` requires parentheses"),
        "{e}"
    );
    assert!(e.contains("3:"), "{e}");

    let src = "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {
  o[i] = u32((i == 0u && i < 2u) || i == 3u);
}";
    // i = 0: true by the left group; 1, 2: false; 3: true.
    let t = run_with(src, config(32, 4));
    assert_eq!(ints_or_min(&t, "o"), vec![1, 0, 0, 1]);
}
