//! No input may panic the kernel parser or executor (a panic in wasm kills the page): random
//! bytes, random token soups, and random well-formed kernels all end in a trace or an error.

use crosslane_kernel::{parse, run_kernel, Executor, LaunchConfig, Limits, Outcome, Resource};
use proptest::prelude::*;

fn small() -> LaunchConfig {
    LaunchConfig {
        limits: Limits {
            max_work: 3_000,
            max_memory: 20 << 20,
            ..Limits::default()
        },
        ..LaunchConfig::default()
    }
}

const VOCAB: &[&str] = &[
    "__global__",
    "__device__",
    "__simt_vf__",
    "__launch_bounds__",
    "inline",
    "__gm__",
    "__shared__",
    "extern",
    "using",
    "typedef",
    "__NATIVE_VECTOR__",
    "void",
    "int",
    "unsigned",
    "int32_t",
    "uint64_t",
    "float",
    "double",
    "half",
    "bfloat16_t",
    "bool",
    "size_t",
    "long",
    "v2f32",
    "if",
    "else",
    "for",
    "while",
    "do",
    "break",
    "continue",
    "return",
    "true",
    "false",
    "sizeof",
    "static_cast",
    "x",
    "y",
    "dst",
    "laneId",
    "threadIdx",
    "blockIdx",
    "blockDim",
    "warpSize",
    "__lane_id",
    "__syncthreads",
    "asc_shfl",
    "asc_shfl_xor",
    "asc_shfl_down",
    "asc_shfl_up",
    "__builtin_mxc_barrier_ex",
    "min",
    "abs",
    "MACA_ICMP_EQ",
    "0",
    "1",
    "31",
    "32",
    "-1",
    "0xffffffff",
    "2147483647",
    "1.5f",
    "0.1",
    "'a'",
    "\"s\"",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    ".",
    "..",
    "...",
    "?",
    ":",
    "+",
    "-",
    "*",
    "/",
    "%",
    "&",
    "|",
    "^",
    "~",
    "!",
    "=",
    "<",
    ">",
    "+=",
    "-=",
    "<<=",
    ">>=",
    "++",
    "--",
    "<<",
    ">>",
    "&&",
    "||",
    "==",
    "!=",
    "<=",
    ">=",
    "->",
    "::",
    "//",
    "/*",
    "*/",
    "#include",
    "\n",
    "\n#define A A B x\n",
    "\n#define B (A + 1)\n",
    "\n#define F(x) x\n",
    "atomicAdd",
    "&dst[0]",
    "float4",
    "printf",
    "\"%d\"",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(VOCAB), 0..80).prop_map(|t| t.join(" "))
}

fn var() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "a",
        "b",
        "laneId",
        "(int)threadIdx.x",
        "dst[laneId]",
        "warpSize",
    ])
    .prop_map(String::from)
}

fn expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        var(),
        (-40i64..40).prop_map(|n| n.to_string()),
        Just("2147483647".to_string()),
        Just("1.5f".to_string()),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (
                inner.clone(),
                prop::sample::select(vec![
                    "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "<", "==", "&&", "||"
                ]),
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| format!("({c} ? {a} : {b})")),
            inner.clone().prop_map(|a| format!("(-{a})")),
            inner.clone().prop_map(|a| format!("(unsigned)({a})")),
            (
                inner.clone(),
                0i64..40,
                prop::sample::select(vec![1i64, 2, 4, 8, 16, 31, 32, 33])
            )
                .prop_map(|(a, m, w)| format!("asc_shfl_xor({a}, {m}, {w})")),
            (inner.clone(), 0i64..40).prop_map(|(a, d)| format!("asc_shfl_down({a}, {d}, 32)")),
            inner.prop_map(|a| format!("dst[{a}]")),
        ]
    })
}

fn stmt() -> impl Strategy<Value = String> {
    let simple = prop_oneof![
        (
            prop::sample::select(vec!["a", "b", "dst[laneId]"]),
            prop::sample::select(vec!["=", "+=", "-=", "*=", "<<=", "^="]),
            expr()
        )
            .prop_map(|(v, op, e)| format!("{v} {op} {e};")),
        Just("a++;".to_string()),
        Just("break;".to_string()),
        Just("continue;".to_string()),
        Just("return;".to_string()),
        Just("__syncthreads();".to_string()),
        // Each in its own block: a second `int c` in one scope is a redefinition.
        expr().prop_map(|e| format!("{{ int c = {e}; }}")),
        expr().prop_map(|e| format!("a = helper({e}) + helper(b);")),
    ];
    simple.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            (expr(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| format!("if ({c}) {{ {a} }} else {{ {b} }}")),
            (expr(), inner.clone()).prop_map(|(c, a)| format!("while ({c}) {{ {a} }}")),
            (0i64..6, inner.clone())
                .prop_map(|(n, a)| format!("for (int i = 0; i < {n}; i++) {{ {a} }}")),
            (inner.clone(), expr()).prop_map(|(a, c)| format!("do {{ {a} }} while ({c});")),
            prop::collection::vec(inner, 1..4).prop_map(|v| v.join(" ")),
        ]
    })
}

fn kernel() -> impl Strategy<Value = String> {
    prop::collection::vec(stmt(), 1..5).prop_map(|body| {
        format!(
            "__device__ int helper(int x) {{\n  if (x > 3) return asc_shfl_xor(x, 1, 32);\n  while (x < 0) {{ x += 7; if (x == 2) return x; }}\n  return x * 2;\n}}\n__global__ void k(int* dst) {{\n  int laneId = threadIdx.x % 32;\n  int a = laneId;\n  int b = 3;\n  {}\n  dst[laneId] = a + b;\n}}",
            body.join("\n  ")
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = parse(&text);
        let _ = run_kernel(&text, small());
    }

    #[test]
    fn token_soups_never_panic(body in soup(), wrap in any::<bool>()) {
        let text = if wrap {
            format!("__global__ void k(int* dst) {{ {body} }}")
        } else {
            body
        };
        let _ = parse(&text);
        let _ = run_kernel(&text, small());
    }

    #[test]
    fn random_kernels_run_to_an_outcome(src in kernel()) {
        let t = run_kernel(&src, small());
        let t = t.map_err(|e| TestCaseError::fail(format!("{e}\n{src}")))?;
        prop_assert!(t.outcome.is_some());
        // Every recorded step has a line inside the source and a mask within the warp.
        let lines = src.lines().count() as u32;
        for s in &t.steps {
            prop_assert!(s.line >= 1 && s.line <= lines);
            prop_assert_eq!(s.active.0 >> 32, 0);
        }
    }

    #[test]
    fn slices_equal_a_whole_run(src in kernel(), slice in 1usize..7) {
        let whole = run_kernel(&src, small()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut ex = Executor::new(&src, small()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        while ex.run_for(slice) == slice {}
        prop_assert_eq!(ex.into_trace(), whole);
    }
}

#[test]
fn a_kernel_that_outgrows_the_memory_limit_stops_cleanly() {
    let src = "__global__ void k(int* dst) {\n  int a = 0;\n  for (int i = 0; i < 100000; i++) { a += i; }\n}";
    let config = LaunchConfig {
        limits: Limits {
            max_work: 100_000_000,
            max_memory: 1 << 20,
            ..Limits::default()
        },
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).unwrap();
    let Some(Outcome::Limit(hit)) = &t.outcome else {
        panic!("{:?}", t.outcome)
    };
    assert_eq!(hit.resource, Resource::Memory);
    assert_eq!(hit.limit, 1 << 20);
    assert!(hit.message().contains("--max-memory"), "{}", hit.message());
    // It stopped within the budget: the trace holds far fewer steps than the loop would take.
    assert!(t.steps.len() < 20_000, "{}", t.steps.len());
}

/// Host helpers that each call the next twice (`f0` → `f1` twice → … → `f29`): read again at
/// every call without a bound, the reading would take 2^30 passes. Host calls are read again at
/// most 4 deep and 64 times per file, so the parse ends at once, and the launch main's call
/// makes is still read with its constant (`f0(3)` → `f1(3)` → … binds `n` = 3 all the way down
/// to the launch `k<<<n, 32>>>` in `f29`, which the bound does not reach: the launch read is
/// `f29`'s own, whose `n` is no constant, so no grid is taken).
#[test]
fn host_calls_that_fan_out_stay_bounded() {
    let mut src = String::from(
        "__global__ void k(int *d) { d[threadIdx.x] = threadIdx.x; }\n\
         void f29(int *d, int n) { k<<<n, 32>>>(d); cudaDeviceSynchronize(); }\n",
    );
    for i in (0..29).rev() {
        src.push_str(&format!(
            "void f{i}(int *d, int n) {{ cudaDeviceSynchronize(); f{}(d, n); f{}(d, n); }}\n",
            i + 1,
            i + 1
        ));
    }
    src.push_str("int main() { int *d; cudaMalloc(&d, 128); f0(d, 3); return 0; }\n");
    let started = std::time::Instant::now();
    let parsed = parse(&src).unwrap();
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
    let reads = parsed
        .diagnostics
        .iter()
        .filter(|d| d.message.starts_with("host call `f"))
        .count();
    assert!(reads <= 64, "{reads}");
    let launch = parsed.program.launches.first().unwrap();
    assert_eq!(launch.kernel, "k");
    assert_eq!(launch.grid, None);
}

/// Within the bound the call's constant reaches the launch: main → f0(3) → f1 → f2 → f3, the
/// launch `k<<<n, 32>>>` in `f3` read with `n` = 3 (grid 3), and `d` of 128 bytes.
#[test]
fn host_calls_bind_through_four_levels() {
    let src = "__global__ void k(int *d) { d[threadIdx.x] = threadIdx.x; }\n\
               void f3(int *d, int n) { k<<<n, 32>>>(d); cudaDeviceSynchronize(); }\n\
               void f2(int *d, int n) { cudaDeviceSynchronize(); f3(d, n); }\n\
               void f1(int *d, int n) { cudaDeviceSynchronize(); f2(d, n); }\n\
               void f0(int *d, int n) { cudaDeviceSynchronize(); f1(d, n); }\n\
               int main() { int *d; cudaMalloc(&d, 128); f0(d, 3); return 0; }\n";
    let parsed = parse(src).unwrap();
    let launch = parsed.program.launches.first().unwrap();
    assert_eq!(launch.grid, Some([3, 1, 1]));
    assert_eq!(launch.block, Some([32, 1, 1]));
    assert_eq!(launch.args[0].malloc_bytes, Some(128));
}
