//! Destructors with statements (`parser::structs::dtor`): run where each block-scope object's
//! block ends, the last constructed first (C++17 [class.dtor]/12, [stmt.jump]/2), and on a
//! `break`, `continue` or `return` that leaves the block; refused, naming what to write, where
//! that is not modelled. Expected values by hand in each test's comment.

use crate::support::{block, ints, launch, refused, run_finished};
use crosslane_core::op::Dialect;

const GUARD: &str = "struct Guard {
  int* out;
  int i;
  int acc;
  __device__ Guard() : out(0), i(0), acc(0) {}
  __device__ Guard(int* o, int k) : out(o), i(k), acc(0) {}
  __device__ ~Guard() { out[i] = acc; }
};
";

/// Each thread's guard (copy-initialized from `Guard(out, t)`: one object, [dcl.init]/17.6.1)
/// writes its `acc` where the inner block ends, before the statement after the block reads it
/// back: thread t stores 3t in out[t], then r[t] = out[t] + 1 = 3t + 1.
#[test]
fn a_guard_writes_its_result_where_its_block_ends() {
    let src = format!(
        "{GUARD}__global__ void k(int* out, int* r) {{
  int t = threadIdx.x;
  {{
    Guard g = Guard(out, t);
    g.acc = 3 * t;
    out[t] = -1;
  }}
  r[t] = out[t] + 1;
}}
"
    );
    let t = run_finished(
        &src,
        launch(Dialect::Cuda, 4, &[("out", 4, "0"), ("r", 4, "0")]),
    );
    assert_eq!(ints(&t, "out"), [Some(0), Some(3), Some(6), Some(9)]);
    assert_eq!(ints(&t, "r"), [Some(1), Some(4), Some(7), Some(10)]);
}

/// Two guards of one block, g1 (acc 1) then g2 (acc 2), both on out[0]: destroyed in reverse
/// order, g2 writes 2, then g1 writes 1, which stays. A `return` in a device function after
/// `Guard h(out, 1)` with acc = 7 returns `h.acc * 10` = 70, computed before h's destructor
/// writes 7 into out[1] ([stmt.return]/3).
#[test]
fn objects_are_destroyed_last_first_and_after_the_return_value() {
    let src = format!(
        "{GUARD}__device__ int f(int* out) {{
  Guard h(out, 1);
  h.acc = 7;
  return h.acc * 10;
}}
__global__ void k(int* out, int* r) {{
  {{
    Guard g1(out, 0);
    g1.acc = 1;
    Guard g2(out, 0);
    g2.acc = 2;
  }}
  r[0] = f(out);
}}
"
    );
    let t = run_finished(
        &src,
        launch(Dialect::Cuda, 1, &[("out", 2, "0"), ("r", 1, "0")]),
    );
    assert_eq!(ints(&t, "out"), [Some(1), Some(7)]);
    assert_eq!(ints(&t, "r"), [Some(70)]);
}

/// What is not modelled is refused before the run, each naming what to write instead.
#[test]
fn unmodelled_destructions_are_refused_with_the_alternative() {
    let cases = [
        (
            "__global__ void k(int* out) {\n  Guard gs[2];\n}\n",
            "an array of objects",
        ),
        (
            "__global__ void k(int* out) {\n  for (Guard g(out, 0); g.i < 1; g.i++) {}\n}\n",
            "init-statement",
        ),
        (
            "__global__ void k(int* out) {\n  switch (out[0]) {\n  case 0:\n    Guard g(out, 0);\n  }\n}\n",
            "put the case's statements in a block",
        ),
        (
            "__global__ void k(int* out) {\n  Guard(out, 0);\n}\n",
            "declare a named object",
        ),
        (
            "__global__ void k(int* out) {\n  if (out[0] == 0) Guard g(out, 0);\n  out[0] = 1;\n}\n",
            "whole body of an `if`, `else` or loop; put it in a block",
        ),
    ];
    for (body, words) in cases {
        let m = refused(&format!("{GUARD}{body}"), block(1));
        assert!(m.contains(words), "{m}");
    }
    let outside = "struct G {\n  int* p;\n  __device__ ~G();\n};\n__device__ G::~G() { p[0] = 1; }\n__global__ void k(int* out) {}\n";
    let m = refused(outside, block(1));
    assert!(m.contains("define it inside the class"), "{m}");
}
