//! The typed form of a statement (`kernel/machine/typed.rs`) computes exactly what the general
//! evaluator computes: random integer and float kernels — overflow-prone constants, shifts by up to 40,
//! divisions by values that may be zero, reads of uninitialized variables, loads outside the
//! buffer, shuffles whose source lanes may be inactive, floats that do not fit an integer, -0.0
//! and NaN conditions — give the same whole trace (every step,
//! its changes, diagnostics, memory, final variables, outcome) with the typed form on and off,
//! recorded in full and with `TraceMode::None` (where cross-lane calls replay kept plans).

use crosslane_kernel::{Executor, KernelTrace, LaunchConfig, TraceMode};
use proptest::prelude::*;

fn launch() -> LaunchConfig {
    LaunchConfig {
        block_dim: Some([64, 1, 1]),
        ..LaunchConfig::default()
    }
}

/// Whether two traces are the same (NaN equals NaN here: `KVal`'s `==` is IEEE's; the Debug
/// text shows every value, -0.0 and NaN included). Failing both, their JSON, which gives every
/// recorded value with its reason as text: the trace's table of interned reasons may list the
/// same reasons in another order (the typed form gives a statement up to the general evaluator
/// after it met an undefined operand, so reasons can be met in another order).
fn same(a: &KernelTrace, b: &KernelTrace) -> bool {
    a == b
        || format!("{a:?}") == format!("{b:?}")
        || serde_json::to_string(a).expect("a trace is JSON")
            == serde_json::to_string(b).expect("a trace is JSON")
}

fn run(src: &str, mode: TraceMode, typed: bool) -> Result<KernelTrace, String> {
    let mut ex = Executor::new(src, launch())
        .map_err(|e| format!("{e}\n{src}"))?
        .with_trace(mode)
        .with_typed_form(typed);
    while ex.run_for(1000) == 1000 {}
    Ok(ex.into_trace())
}

fn leaf() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "a",
            "b",
            "u",
            "lane",
            "c",
            "threadIdx.x",
            "blockDim.x",
            "2147483647",
            "0x80000000u",
            "4294967295u",
            "-1",
            "0",
            "31",
            "33",
        ])
        .prop_map(String::from),
        (-40i64..40).prop_map(|n| n.to_string()),
    ]
}

fn expr() -> impl Strategy<Value = String> {
    leaf().prop_recursive(3, 16, 3, |inner| {
        prop_oneof![
            4 => (
                inner.clone(),
                prop::sample::select(vec![
                    "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "<", "<=", ">", ">=",
                    "==", "!="
                ]),
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            1 => inner.clone().prop_map(|a| format!("(unsigned)({a})")),
            1 => inner.clone().prop_map(|a| format!("(long long)({a})")),
            1 => inner.clone().prop_map(|a| format!("(char)({a})")),
            1 => inner.clone().prop_map(|a| format!("dst[({a}) & 127]")),
            1 => inner.clone().prop_map(|a| format!("dst[{a}]")),
            1 => (inner.clone(), 0i64..40)
                .prop_map(|(a, m)| format!("__shfl_xor_sync(0xffffffff, {a}, {m})")),
            1 => (inner.clone(), 0i64..40)
                .prop_map(|(a, d)| format!("__shfl_down_sync(0xffffffff, {a}, {d})")),
            1 => (inner.clone(), inner)
                .prop_map(|(a, s)| format!("__shfl_sync(0xffffffff, {a}, {s})")),
        ]
    })
}

fn stmt() -> impl Strategy<Value = String> {
    let simple = prop_oneof![
        (
            prop::sample::select(vec!["a", "b", "u", "c"]),
            prop::sample::select(vec!["=", "+=", "-=", "*=", "<<=", ">>=", "^=", "/=", "%="]),
            expr()
        )
            .prop_map(|(v, op, e)| format!("{v} {op} {e};")),
        prop::sample::select(vec!["a++;", "u--;", "++b;", "c = a;"]).prop_map(String::from),
        // Each in its own block: a second `int d` in one scope is a redefinition.
        expr().prop_map(|e| format!("{{ int d = {e}; }}")),
        expr().prop_map(|e| format!("dst[lane] = {e};")),
    ];
    simple.prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            (expr(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| format!("if ({c}) {{ {a} }} else {{ {b} }}")),
            (0i64..5, inner.clone())
                .prop_map(|(n, a)| format!("for (int i = 0; i < {n}; i++) {{ {a} }}")),
            prop::collection::vec(inner, 1..4).prop_map(|v| v.join(" ")),
        ]
    })
}

fn kernel() -> impl Strategy<Value = String> {
    prop::collection::vec(stmt(), 1..5).prop_map(|body| {
        format!(
            "__global__ void k(int* dst) {{\n  int lane = threadIdx.x % 32;\n  int a = lane;\n  int b = 3;\n  unsigned u = threadIdx.x * 2654435761u;\n  int c;\n  {}\n  dst[lane] = a + b + (int)u + c;\n}}",
            body.join("\n  ")
        )
    })
}

fn float_expr() -> impl Strategy<Value = String> {
    let leaf = prop::sample::select(vec![
        "f",
        "g",
        "a",
        "lane",
        "0.5f",
        "-0.0f",
        "1e30f",
        "3.0e9",
        "0.1",
        "-2.5f",
        "0",
        "7",
        "fdst[lane]",
    ])
    .prop_map(String::from);
    leaf.prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            4 => (
                inner.clone(),
                prop::sample::select(vec!["+", "-", "*", "/", "<", "<=", ">", "==", "!="]),
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            1 => inner.clone().prop_map(|a| format!("(int)({a})")),
            1 => inner.clone().prop_map(|a| format!("(unsigned)({a})")),
            1 => inner.clone().prop_map(|a| format!("(float)({a})")),
            1 => inner.clone().prop_map(|a| format!("(double)({a})")),
            1 => (inner.clone(), 0i64..34)
                .prop_map(|(a, d)| format!("__shfl_down_sync(0xffffffff, {a}, {d})")),
            1 => (inner, 0i64..34)
                .prop_map(|(a, m)| format!("__shfl_xor_sync(0xffffffff, {a}, {m})")),
        ]
    })
}

fn float_stmt() -> impl Strategy<Value = String> {
    let simple = prop_oneof![
        (
            prop::sample::select(vec!["f", "g", "a"]),
            prop::sample::select(vec!["=", "+=", "-=", "*=", "/="]),
            float_expr()
        )
            .prop_map(|(v, op, e)| format!("{v} {op} {e};")),
        prop::sample::select(vec!["f++;", "g--;"]).prop_map(String::from),
        float_expr().prop_map(|e| format!("{{ float h = {e}; }}")),
        float_expr().prop_map(|e| format!("fdst[lane] = {e};")),
    ];
    simple.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            (float_expr(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| format!("if ({c}) {{ {a} }} else {{ {b} }}")),
            (0i64..4, inner).prop_map(|(n, a)| format!("for (int i = 0; i < {n}; i++) {{ {a} }}")),
        ]
    })
}

fn float_kernel() -> impl Strategy<Value = String> {
    prop::collection::vec(float_stmt(), 1..5).prop_map(|body| {
        format!(
            "__global__ void k(float* fdst) {{\n  int lane = threadIdx.x % 32;\n  int a = lane;\n  float f = lane * 0.25f;\n  double g = 1.0 / (lane + 1);\n  {}\n  fdst[lane] = f + (float)g + a;\n}}",
            body.join("\n  ")
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn the_typed_form_of_float_code_gives_the_general_evaluators_trace(src in float_kernel()) {
        for mode in [TraceMode::Full, TraceMode::None] {
            let typed = run(&src, mode, true).map_err(TestCaseError::fail)?;
            let general = run(&src, mode, false).map_err(TestCaseError::fail)?;
            prop_assert!(typed.outcome.is_some());
            prop_assert!(same(&typed, &general), "{mode:?}:\n{src}");
        }
    }

    #[test]
    fn the_typed_form_gives_the_general_evaluators_trace(src in kernel()) {
        for mode in [TraceMode::Full, TraceMode::None] {
            let typed = run(&src, mode, true).map_err(TestCaseError::fail)?;
            let general = run(&src, mode, false).map_err(TestCaseError::fail)?;
            prop_assert!(typed.outcome.is_some());
            prop_assert!(same(&typed, &general), "{mode:?}:\n{src}");
        }
    }
}

#[test]
fn an_overflow_inside_a_typed_loop_is_reported_as_the_general_evaluator_reports_it() {
    // `a` doubles each iteration: at i = 31 - lane-independent 2^31 overflows int (C11 6.5p5).
    let src = "__global__ void k(int* dst) {\n  int a = 1;\n  for (int i = 0; i < 40; i++) {\n    a = a * 2;\n  }\n  dst[threadIdx.x] = a;\n}";
    for mode in [TraceMode::Full, TraceMode::None] {
        let t = run(src, mode, true).expect("runs");
        assert_eq!(t, run(src, mode, false).expect("runs"), "{mode:?}");
        assert!(
            t.diagnostics
                .iter()
                .chain(t.steps.iter().flat_map(|s| &s.diagnostics))
                .any(|d| d
                    .message
                    .contains("1073741824 * 2 = 2147483648 overflows int")),
            "{:?}",
            t.diagnostics
        );
        // The stored value is undefined in every lane, not a wrapped number.
        let out = &t.memory.buffers[0];
        assert!(
            out.cells[..64].iter().all(Option::is_none),
            "{:?}",
            &out.cells[..4]
        );
    }
}

#[test]
fn a_float_condition_is_true_when_unequal_to_zero() {
    // C11 6.8.4.1p2: the branch runs when the condition compares unequal to 0; -0.0 == 0, and
    // NaN compares unequal to everything (IEEE 754). Lane 0: -0.0; lane 1: NaN (0/0); others 1.
    let src = "__global__ void k(int* dst) {\n  int lane = threadIdx.x;\n  float z = 0.0f;\n  float one = 1.0f;\n  float x = one;\n  if (lane == 0) { x = z * (z - one); }\n  if (lane == 1) { x = z / z; }\n  if (x) { dst[lane] = 1; } else { dst[lane] = 2; }\n}";
    for mode in [TraceMode::Full, TraceMode::None] {
        let t = run(src, mode, true).expect("runs");
        assert!(same(&t, &run(src, mode, false).expect("runs")), "{mode:?}");
        let cells: Vec<Option<i128>> = t.memory.buffers[0].cells[..3]
            .iter()
            .map(|c| c.as_ref().and_then(|k| k.as_int()))
            .collect();
        assert_eq!(cells, vec![Some(2), Some(1), Some(1)], "{mode:?}");
    }
}

/// A loop whose cross-lane call takes a new operand each iteration: the offset, width, mask,
/// a per-lane source and which lanes take part all vary, so that kept plans are made, replayed
/// when a key comes back, and given up where the rule is not pure data movement (an inactive
/// source lane, a mask that names lanes not converged, a width that is not a power of two).
fn varying_shuffle_kernel() -> impl Strategy<Value = String> {
    let offset = prop::sample::select(vec![
        "i & 31",
        "(i * 7 + 3) & 63",
        "lane ^ i",
        "(lane + i) & 31",
        "40 - i",
        "16 >> (i % 5)",
    ]);
    let call = prop::sample::select(vec![
        "__shfl_xor_sync(0xffffffff, v, K)",
        "__shfl_xor_sync(0xffffffff, v, K, W)",
        "__shfl_down_sync(0xffffffff, v, K, W)",
        "__shfl_up_sync(0xffffffff, v, K, W)",
        "__shfl_sync(0xffffffff, v, K, W)",
        "__shfl_sync(0x0000ffff, v, K, W)",
    ]);
    let width = prop::sample::select(vec!["32", "16", "8", "4", "12"]);
    let cond = prop::sample::select(vec![
        "1",
        "lane < 16",
        "(lane & 1) == 0",
        "i < 30 || lane > 3",
    ]);
    (offset, call, width, cond, 20u32..45).prop_map(|(k, c, w, cond, n)| {
        let c = c.replace('W', w);
        format!(
            "__global__ void k(unsigned* dst) {{\n  unsigned lane = threadIdx.x & 31;\n  unsigned v = threadIdx.x * 2654435761u;\n  for (int i = 0; i < {n}; i++) {{\n    int K = {k};\n    if ({cond}) {{ v = v * 3u + ({c} ^ lane) + i; }}\n  }}\n  dst[threadIdx.x] = v;\n}}"
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]

    /// Kept plans of a call whose operand changes every iteration give, lane by lane, the
    /// general evaluator's values, reasons and diagnostics (`TraceMode::None` is where plans
    /// are kept; `Full` checks the typed form without them).
    #[test]
    fn a_shuffle_with_a_new_operand_each_iteration_gives_the_general_evaluators_trace(
        src in varying_shuffle_kernel(),
    ) {
        for mode in [TraceMode::None, TraceMode::Full] {
            let typed = run(&src, mode, true).map_err(TestCaseError::fail)?;
            let general = run(&src, mode, false).map_err(TestCaseError::fail)?;
            prop_assert!(typed.outcome.is_some());
            prop_assert!(same(&typed, &general), "{mode:?}:\n{src}");
        }
    }
}

/// Each lane's stored value as an integer.
fn stored(t: &KernelTrace, n: usize) -> Vec<Option<i128>> {
    t.memory.buffers[0].cells[..n]
        .iter()
        .map(|c| c.as_ref().and_then(|k| k.as_int()))
        .collect()
}

#[test]
fn a_butterfly_whose_offset_halves_each_step_sums_the_warp() {
    // CUDA Programming Guide, "Warp Shuffle Functions": with every lane active,
    // `__shfl_xor_sync(0xffffffff, v, o)` gives lane i the value of lane i ^ o, so the five
    // steps o = 16, 8, 4, 2, 1 leave the warp's sum in every lane. Hand derivation: warp 0 holds
    // 0..31, sum 496; warp 1 holds 32..63, sum 496 + 32 * 32 = 1520. The second round starts from
    // 32 equal values and multiplies each by 32: 15872 and 48640.
    let src = "__global__ void k(unsigned* dst) {\n  unsigned v = threadIdx.x;\n  for (int r = 0; r < 2; r++) {\n    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);\n  }\n  dst[threadIdx.x] = v;\n}";
    for mode in [TraceMode::None, TraceMode::Full] {
        let t = run(src, mode, true).expect("runs");
        assert!(same(&t, &run(src, mode, false).expect("runs")), "{mode:?}");
        let want: Vec<Option<i128>> = (0..64)
            .map(|l| Some(if l < 32 { 15872 } else { 48640 }))
            .collect();
        assert_eq!(stored(&t, 64), want, "{mode:?}");
    }
}

#[test]
fn an_xor_shuffle_by_i_and_31_matches_a_hand_written_warp() {
    // The same rule, written out independently: lane l of a warp reads lane l ^ K of its warp
    // (K < 32, every lane active), and the loop's arithmetic wraps modulo 2^32 (C11 6.2.5p9).
    // 70 iterations visit each offset twice or more, so kept plans are replayed.
    let n = 70u32;
    let src = format!("__global__ void k(unsigned* dst) {{\n  unsigned lane = threadIdx.x & 31;\n  unsigned acc = threadIdx.x;\n  for (int i = 0; i < {n}; i++) {{\n    int K = i & 31;\n    acc = acc * 2654435761u + (__shfl_xor_sync(0xffffffff, acc, K) ^ lane) + i;\n  }}\n  dst[threadIdx.x] = acc;\n}}");
    let mut acc: Vec<u32> = (0..64).collect();
    for i in 0..n {
        let k = (i & 31) as usize;
        let prev = acc.clone();
        for (l, a) in acc.iter_mut().enumerate() {
            let src_lane = (l & !31) | ((l & 31) ^ k);
            *a = a
                .wrapping_mul(2654435761)
                .wrapping_add(prev[src_lane] ^ (l as u32 & 31))
                .wrapping_add(i);
        }
    }
    let want: Vec<Option<i128>> = acc.iter().map(|&a| Some(a as i128)).collect();
    for mode in [TraceMode::None, TraceMode::Full] {
        let t = run(&src, mode, true).expect("runs");
        assert_eq!(stored(&t, 64), want, "{mode:?}");
    }
}
