//! Budgets on work, not only on steps: every construct repeated 10^6 times ends in a
//! clean error or a result on a 1 MiB stack (wasm's), nested empty macros and wide inlining end
//! at their limits, a diagnostic per loop iteration is counted rather than listed, memory is
//! counted in bytes, local arrays are per lane, and integer overflow never panics.

use crosslane_core::Level;
use crosslane_kernel::budget::{cell_bytes, DEPTH_CEILING};
use crosslane_kernel::{
    parse_with, run_kernel, Executor, KVal, LaunchConfig, Limits, Outcome, Resource, Scalar, ValTy,
};

const MILLION: usize = 1_000_000;

/// Runs `f` on a thread with wasm's default stack (1 MiB) in an optimized build: a recursion
/// proportional to the input overflows it. A debug build's frames are about ten times larger
/// (measured: see `DEPTH_CEILING`), so there it gets 16 MiB — still far below what a recursion
/// per repetition of 10^6 would take.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let stack = if cfg!(debug_assertions) {
        16 << 20
    } else {
        1 << 20
    };
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(f)
        .unwrap()
        .join()
        .expect("no stack overflow or panic")
}

/// Each construct, repeated `n` times, as a kernel source.
fn constructs(n: usize) -> Vec<(&'static str, String)> {
    let wrap = |body: String| format!("__global__ void k(int* a) {{\n  int x = 0;\n  {body}\n}}");
    vec![
        ("1+1+…", wrap(format!("x = {}1;", "1+".repeat(n)))),
        ("a[0][0]…", wrap(format!("x = a{};", "[0]".repeat(n)))),
        ("comma list", wrap(format!("x = ({}1);", "1,".repeat(n)))),
        (
            "call arguments",
            wrap(format!("x = min({}1);", "1,".repeat(n))),
        ),
        (
            "parentheses",
            wrap(format!("x = {}1{};", "(".repeat(n), ")".repeat(n))),
        ),
        ("unary minus", wrap(format!("x = {}1;", "- ".repeat(n)))),
        ("casts", wrap(format!("x = {}1;", "(int)".repeat(n)))),
        ("assignments", wrap(format!("{}1;", "x = ".repeat(n)))),
        ("ternaries", wrap(format!("x = {}1;", "1 ? 1 : ".repeat(n)))),
        ("members", wrap(format!("x = threadIdx{};", ".x".repeat(n)))),
        (
            "nested calls",
            wrap(format!("x = {}1{};", "abs(".repeat(n), ")".repeat(n))),
        ),
        (
            "blocks",
            wrap(format!("{}{}", "{".repeat(n), "}".repeat(n))),
        ),
        ("if chain", wrap("if (x) x++; else ".repeat(n) + "x++;")),
        ("nested ifs", wrap("if (1) ".repeat(n) + "x++;")),
        ("nested loops", wrap("while (0) ".repeat(n) + "x++;")),
        ("statements", wrap("x++; ".repeat(n))),
        (
            "declarators",
            wrap(format!(
                "int {}last = 1;",
                (0..n).map(|k| format!("y{k} = 1, ")).collect::<String>()
            )),
        ),
        (
            "prototypes",
            "__device__ int f(int v);\n".repeat(n) + "__global__ void k(int* a) { a[0] = 1; }",
        ),
        (
            "functions",
            (0..n)
                .map(|k| format!("__device__ int f{k}(int v) {{ return v; }}\n"))
                .collect::<String>()
                + "__global__ void k(int* a) { a[0] = 1; }",
        ),
        (
            "empty macros",
            format!("#define E\n{}", wrap("E ".repeat(n) + "x++;")),
        ),
    ]
}

/// Parses and runs `src` within `limits`: any outcome but a panic, a hang or a stack overflow.
fn attempt(src: &str, limits: Limits) -> Result<Option<Outcome>, String> {
    match Executor::new(
        src,
        LaunchConfig {
            limits,
            ..LaunchConfig::default()
        },
    ) {
        Ok(mut ex) => {
            ex.run_for(usize::MAX);
            Ok(ex.trace().outcome.clone())
        }
        Err(e) => Err(e.message),
    }
}

/// 10^6 repetitions in an optimized build (`cargo test --release`); 5·10^4 in a debug build, where
/// scanning a few million tokens takes seconds. Either is far beyond any stack: a recursion per
/// repetition would need 5·10^4 frames of a KiB or more, beyond the 16 MiB stack. `scripts/hostile` runs the 10^6
/// sources through both builds of the CLI.
#[test]
fn every_construct_a_million_times_ends_cleanly_on_a_wasm_sized_stack() {
    let n = if cfg!(debug_assertions) {
        MILLION / 20
    } else {
        MILLION
    };
    // The default budgets, then every structural budget open (the parser meets the whole input
    // and only the depth ceiling stands); work and memory kept small so a debug build finishes.
    let small = Limits {
        max_work: 200_000,
        max_memory: 64 << 20,
        ..Limits::default()
    };
    let open = Limits {
        max_tokens: u64::MAX,
        max_code: u64::MAX,
        max_depth: u32::MAX,
        ..small
    };
    for (name, src) in constructs(n) {
        for limits in [small, open] {
            let src = src.clone();
            let started = std::time::Instant::now();
            let r = on_small_stack(move || attempt(&src, limits));
            match &r {
                Err(m) => assert!(
                    m.contains("limit")
                        || m.contains("nest")
                        || m.contains("expected")
                        || m.contains("not supported"),
                    "{name}: {m}"
                ),
                Ok(outcome) => assert!(outcome.is_some(), "{name}: still running"),
            }
            assert!(
                started.elapsed().as_secs() < 60,
                "{name}: {:?}",
                started.elapsed()
            );
        }
    }
}

#[test]
fn a_chain_is_one_level_per_operator_and_the_message_says_how_to_raise_it() {
    let src = |n: usize| format!("int x = {}1;", "1+".repeat(n));
    let limits = Limits {
        max_depth: 50,
        ..Limits::default()
    };
    // 49 operators make a tree of height 50 (49 `+` nodes over a leaf): accepted.
    assert!(parse_with(&src(49), &limits).is_ok());
    let e = parse_with(&src(50), &limits).unwrap_err();
    assert!(e.message.contains("--max-depth"), "{}", e.message);
    // The ceiling holds whatever is asked for.
    let huge = Limits {
        max_depth: u32::MAX,
        ..Limits::default()
    };
    assert_eq!(huge.depth(), DEPTH_CEILING);
}

#[test]
fn a_tree_at_the_depth_ceiling_runs_on_a_wasm_sized_stack() {
    // The deepest trees accepted, of each recursive shape, are parsed, compiled, evaluated and
    // dropped on a 1 MiB stack: 1+1 chains (binary), a[0] chains, nested parentheses.
    let limits = Limits {
        max_depth: DEPTH_CEILING,
        ..Limits::default()
    };
    let n = DEPTH_CEILING as usize - 1;
    let cases = [
        format!("int x = {}1;\nint y = x;", "1+".repeat(n)),
        format!("int y = 0;\nint x = y{};", "+y".repeat(n)),
        format!("int x = {}1{};", "(".repeat(160), ")".repeat(160)),
    ];
    for src in cases {
        let r = on_small_stack(move || {
            let t = run_kernel(
                &src,
                LaunchConfig {
                    limits,
                    ..LaunchConfig::default()
                },
            );
            t.map(|t| t.outcome)
        });
        assert_eq!(r, Ok(Some(Outcome::Finished)));
    }
    // The sum 1+1+…+1 of 512 ones is 512 in every lane.
    let src = format!("int x = {}1;", "1+".repeat(n));
    let t = on_small_stack(move || {
        run_kernel(
            &src,
            LaunchConfig {
                limits,
                ..LaunchConfig::default()
            },
        )
        .unwrap()
    });
    assert_eq!(
        t.value_of("x", 0, 5),
        Some(&Ok(KVal::int(Scalar::I32, DEPTH_CEILING as i128)))
    );
}

#[test]
fn nested_empty_macros_end_at_the_token_limit() {
    // Each level expands to ten of the level below; level 0 is empty. `E9` costs 10^9
    // expansion calls and produces no token at all.
    let mut src = String::from("#define E0\n");
    for k in 1..10 {
        src.push_str(&format!(
            "#define E{k} {}\n",
            format!("E{} ", k - 1).repeat(10)
        ));
    }
    src.push_str("int x = 1; E9\n");
    let started = std::time::Instant::now();
    let e = parse_with(&src, &Limits::default()).unwrap_err();
    assert!(e.message.contains("token limit"), "{}", e.message);
    assert!(e.message.contains("--max-tokens"), "{}", e.message);
    // A guard against a hang (the budget must end the work), not a speed check: generous
    // enough for a loaded debug build (the work takes about 3 s of CPU).
    assert!(started.elapsed().as_secs() < 180, "{:?}", started.elapsed());
}

#[test]
fn wide_inlining_ends_at_the_code_limit() {
    // f0 calls f1 ten times, f1 calls f2 ten times, …: depth 6 but 10^6 inlined bodies.
    let mut src = String::new();
    src.push_str("__device__ int f6(int v) { return v + 1; }\n");
    for k in (0..6).rev() {
        let calls = (0..10)
            .map(|_| format!("f{}(v)", k + 1))
            .collect::<Vec<_>>()
            .join(" + ");
        src.push_str(&format!(
            "__device__ int f{k}(int v) {{ return {calls}; }}\n"
        ));
    }
    src.push_str("__global__ void k(int* a) { a[threadIdx.x] = f0(1); }\n");
    let started = std::time::Instant::now();
    let e = Executor::new(&src, LaunchConfig::default()).err().unwrap();
    assert!(e.message.contains("code limit"), "{}", e.message);
    assert!(e.message.contains("--max-code"), "{}", e.message);
    // A guard against a hang (the budget must end the work), not a speed check: generous
    // enough for a loaded debug build (the work takes about 3 s of CPU).
    assert!(started.elapsed().as_secs() < 180, "{:?}", started.elapsed());
}

#[test]
fn a_diagnostic_every_iteration_is_counted_not_listed() {
    // Reading an uninitialized variable warns in every iteration of an endless loop.
    let src =
        "__global__ void k(int* a) {\n  int x = 0;\n  while (1) {\n    int u;\n    x = u;\n  }\n}";
    let t = run_kernel(
        src,
        LaunchConfig {
            limits: Limits {
                max_work: 200_000,
                ..Limits::default()
            },
            ..LaunchConfig::default()
        },
    )
    .unwrap();
    assert!(matches!(&t.outcome, Some(Outcome::Limit(h)) if h.resource == Resource::Work));
    let listed_on_steps = t.steps.iter().map(|s| s.diagnostics.len()).sum::<usize>();
    assert_eq!(listed_on_steps, 3, "the first 3 occurrences are listed");
    let summary = t
        .diagnostics
        .iter()
        .find(|d| d.line == 5 && d.message.contains("times in all"))
        .expect("a summary line for line 5");
    assert_eq!(summary.level, Level::Warning);
    // Each iteration costs its few statements and expression nodes plus its diagnostic: 32
    // notes (one per lane) of `budget::DIAGNOSTIC_WORK` = 32 units each, 1 024 units; so the
    // 200 000 units run 200 000 / (1 024 + a few) ≈ 190 iterations. The count says how many
    // warned.
    let iterations = t.steps.iter().filter(|s| s.line == 5).count();
    assert!((150..=196).contains(&iterations), "{iterations}");
    // Every iteration warned but possibly the last, cut short by the budget mid-statement.
    let counted = (iterations - 1..=iterations)
        .any(|n| summary.message.contains(&format!(" {n} times in all")));
    assert!(counted, "{} vs {iterations}", summary.message);
}

#[test]
fn a_shuffle_cut_short_by_the_work_limit_reports_only_the_limit() {
    // The budget runs out while a shuffle's arguments are being evaluated: their values were
    // never computed, so the run ends with the limit and no note that an argument (the literal
    // lane mask `1`) is undefined.
    let src = "__global__ void spin(int* out) {\n  int t = threadIdx.x;\n  \
               while (true) { t = __shfl_xor_sync(0xffffffffu, t, 1); }\n  \
               out[threadIdx.x] = t;\n}\n";
    // One loop iteration costs a handful of units: forty budgets in a row end it at every
    // point of the iteration, the argument evaluation among them.
    for max_work in 10_000..10_040 {
        let config = LaunchConfig {
            limits: Limits {
                max_work,
                ..Limits::default()
            },
            ..LaunchConfig::default()
        };
        // Without a trace the loop runs on the typed path, whose calls go through the same op.
        let t = crosslane_kernel::run_kernel_traced(src, config, crosslane_kernel::TraceMode::None)
            .unwrap();
        assert!(matches!(&t.outcome, Some(Outcome::Limit(h)) if h.resource == Resource::Work));
        let undefined: Vec<_> = t
            .diagnostics
            .iter()
            .filter(|d| d.message.contains("is undefined"))
            .map(|d| d.message.clone())
            .collect();
        assert!(undefined.is_empty(), "max_work {max_work}: {undefined:?}");
    }
}

#[test]
fn too_many_distinct_diagnostics_end_in_and_n_more() {
    // 300 lines each reading an uninitialized variable: 300 distinct diagnostics, 100 kept.
    let body: String = (0..300)
        .map(|k| format!("  int u{k};\n  x = u{k};\n"))
        .collect();
    let src = format!("__global__ void k(int* a) {{\n  int x = 0;\n{body}}}");
    let t = run_kernel(
        &src,
        LaunchConfig {
            limits: Limits {
                max_diagnostics: 100,
                ..Limits::default()
            },
            ..LaunchConfig::default()
        },
    )
    .unwrap();
    let listed = t.all_diagnostics().count();
    // 100 kept (the snippet note counts among them), then one "and N more" line.
    assert!(listed <= 102, "{listed}");
    assert!(t
        .diagnostics
        .iter()
        .any(|d| d.message.starts_with("and ") && d.message.contains("--max-diagnostics")));
}

#[test]
fn memory_is_counted_in_bytes_before_allocating() {
    // A buffer of 2^40 cells is refused at launch, naming the buffer and the flag, without
    // allocating it.
    let mut config = LaunchConfig::default();
    config.buffer_len.insert("a".into(), 1 << 40);
    let e = Executor::new("__global__ void k(int* a) { a[0] = 1; }", config)
        .err()
        .unwrap();
    assert!(e.message.contains("`a`"), "{}", e.message);
    assert!(e.message.contains("--max-memory"), "{}", e.message);
    // A vector cell holds its components: 16 lanes of double cost more than one int.
    let v16 = ValTy {
        scalar: Scalar::F64,
        lanes: 16,
    };
    assert!(cell_bytes(v16) >= 16 * 8 + cell_bytes(ValTy::scalar(Scalar::I32)));
}

#[test]
fn a_large_launch_stops_at_the_memory_limit_with_what_hit_it() {
    // 65536 blocks of 1024 threads: every warp's final variables are kept, so the snapshots
    // outgrow 4 MiB long before the work runs out.
    let config = LaunchConfig {
        grid_dim: Some([65_536, 1, 1]),
        block_dim: Some([1024, 1, 1]),
        limits: Limits {
            max_memory: 4 << 20,
            max_work: u64::MAX,
            ..Limits::default()
        },
        ..LaunchConfig::default()
    };
    let t = run_kernel("int a = 1;\nint b = a + 1;", config).unwrap();
    let Some(Outcome::Limit(hit)) = &t.outcome else {
        panic!("{:?}", t.outcome)
    };
    assert_eq!(hit.resource, Resource::Memory);
    assert!(t
        .diagnostics
        .iter()
        .any(|d| d.message.contains("--max-memory")));
    assert!(t.warps.len() < 65_536 * 32);
}

#[test]
fn local_arrays_are_per_lane_and_out_of_range_is_undefined() {
    // Lane l writes a[0] = 10*l, a[1] = 10*l + 1; then reads a[2], which is past its own array
    // (with one array per warp it used to be lane l+1's a[0]).
    let src = "__global__ void k(int* d) {\n  int a[2];\n  int l = threadIdx.x;\n  a[0] = 10 * l;\n  a[1] = 10 * l + 1;\n  int in_range = a[1];\n  int past = a[2];\n  d[l] = in_range;\n}";
    let t = run_kernel(src, LaunchConfig::default()).unwrap();
    assert_eq!(t.outcome, Some(Outcome::Finished));
    assert_eq!(
        t.value_of("in_range", 0, 3),
        Some(&Ok(KVal::int(Scalar::I32, 31)))
    );
    let past = t.value_of("past", 0, 3).unwrap();
    assert!(past.is_err(), "{past:?}");
    let d = t
        .all_diagnostics()
        .find(|d| d.line == 7)
        .expect("a diagnostic at the read");
    assert!(d.message.contains("outside its 2 cells"), "{}", d.message);
}

#[test]
fn sixty_four_bit_arithmetic_wraps_or_is_undefined_never_panics() {
    let src = "unsigned long long u = 0xffffffffffffffffull * 0xffffffffffffffffull;\nlong long s = 0x7fffffffffffffffll * 2;\nunsigned long long w = 0ull - 1ull;\nlong long m = (-9223372036854775807ll - 1) / -1;";
    let t = run_kernel(src, LaunchConfig::default()).unwrap();
    // (2^64 - 1)^2 = 2^128 - 2^65 + 1 ≡ 1 (mod 2^64) (C11 6.2.5p9).
    assert_eq!(t.value_of("u", 0, 0), Some(&Ok(KVal::int(Scalar::U64, 1))));
    assert_eq!(
        t.value_of("w", 0, 0),
        Some(&Ok(KVal::int(Scalar::U64, u64::MAX as i128)))
    );
    // Signed overflow is undefined with a diagnostic (C11 6.5p5).
    assert!(t.value_of("s", 0, 0).unwrap().is_err());
    assert!(t.value_of("m", 0, 0).unwrap().is_err());
    assert!(t
        .all_diagnostics()
        .any(|d| d.line == 2 && d.message.contains("overflow")));
}

#[test]
fn integer_text_past_i128_is_an_error_not_a_panic() {
    use crosslane_core::params::parse_int;
    assert_eq!(parse_int("--170141183460469231731687303715884105728"), None);
    assert_eq!(parse_int("-170141183460469231731687303715884105728"), None);
    assert_eq!(parse_int("-9223372036854775808"), Some(i64::MIN));
    assert_eq!(
        parse_int("999999999999999999999999999999999999999999"),
        None
    );
}
