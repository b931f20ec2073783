//! The preprocessor's bounds and faults: hostile input ends in an error naming its budget.

use super::*;

fn run(src: &str, limits: &Limits) -> Result<Preprocessed, KernelError> {
    preprocess(src, Dialect::Cuda, 32, &PpOptions::default(), limits)
}

fn text(p: &Preprocessed) -> String {
    p.tokens
        .iter()
        .map(|t| spell(&t.tok))
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn exponential_macros_stop_at_the_token_budget() {
    // Each level doubles: L20 would be 2^20 tokens; the budget of 10 000 stops it.
    let mut src = String::from("#define L0 x\n");
    for k in 1..=20 {
        src.push_str(&format!("#define L{k} L{} L{}\n", k - 1, k - 1));
    }
    src.push_str("L20\n");
    let limits = Limits {
        max_tokens: 10_000,
        ..Limits::default()
    };
    let e = run(&src, &limits).unwrap_err();
    assert!(e.message.contains("token limit of 10000"), "{e}");
    assert!(e.message.contains("--max-tokens"), "{e}");
}

#[test]
fn empty_expansions_still_cost() {
    // A macro expanding to nothing, used a million times, runs into the budget too.
    let src = format!("#define E\n{}", "E ".repeat(20_000));
    let limits = Limits {
        max_tokens: 10_000,
        ..Limits::default()
    };
    assert!(run(&src, &limits)
        .unwrap_err()
        .message
        .contains("--max-tokens"));
}

#[test]
fn arguments_nested_deeper_than_the_depth_limit_are_refused() {
    let n = 600;
    let src = format!("#define F(x) x\n{}1{}", "F(".repeat(n), ")".repeat(n));
    let e = run(&src, &Limits::default()).unwrap_err();
    assert!(e.message.contains("--max-depth"), "{e}");
    // At the depth ceiling (512, so 64 levels) the stack of a test thread holds.
    let most = Limits {
        max_depth: 10_000,
        ..Limits::default()
    };
    assert!(run(&src, &most).unwrap_err().message.contains("64 deep"));
    let src = format!("#define F(x) x\n{}1{}", "F(".repeat(64), ")".repeat(64));
    assert_eq!(text(&run(&src, &most).unwrap()), "1");
    // Within the limit it expands.
    let src = format!("#define F(x) x\n{}1{}", "F(".repeat(30), ")".repeat(30));
    assert_eq!(text(&run(&src, &Limits::default()).unwrap()), "1");
}

#[test]
fn deep_if_expressions_are_refused_not_overflowed() {
    let src = format!("#if {}1{}\n#endif\n", "(".repeat(5000), ")".repeat(5000));
    assert!(run(&src, &Limits::default())
        .unwrap_err()
        .message
        .contains("--max-depth"));
}

#[test]
fn unbalanced_conditionals_and_bad_directives() {
    let d = Limits::default();
    assert_eq!(run("#if 1\nx\n", &d).unwrap_err().line, 1);
    assert!(run("#endif\n", &d)
        .unwrap_err()
        .message
        .contains("without #if"));
    assert!(run("#if 1\n#else\n#else\n#endif\n", &d)
        .unwrap_err()
        .message
        .contains("after #else"));
    assert!(run("#frobnicate\n", &d)
        .unwrap_err()
        .message
        .contains("#frobnicate"));
    // Unknown directives in a skipped group are not looked at ([cpp.cond]/6).
    assert!(run("#if 0\n#frobnicate\n#endif\n", &d).is_ok());
    assert!(run("#define F(x) x\nF(1\n", &d)
        .unwrap_err()
        .message
        .contains("does not close"));
    assert!(run("#define F(x, y) x\nF(1)\n", &d)
        .unwrap_err()
        .message
        .contains("takes 2"));
    assert!(run("#define P(a, b) a ## b\nP(+, /)\n", &d)
        .unwrap_err()
        .message
        .contains("pasting"));
}

#[test]
fn user_defines_follow_the_predefined_ones() {
    let o = PpOptions {
        defines: vec![
            UserMacro::Define("__CUDA_ARCH__=610".into()),
            UserMacro::Define("SQ(x)=((x)*(x))".into()),
            UserMacro::Define("FLAG".into()),
            UserMacro::Undefine("__NVCC__".into()),
        ],
        ..PpOptions::default()
    };
    let p = preprocess(
        "__CUDA_ARCH__ SQ(2) FLAG __NVCC__",
        Dialect::Cuda,
        32,
        &o,
        &Limits::default(),
    )
    .unwrap();
    assert_eq!(text(&p), "610 ( ( 2 ) * ( 2 ) ) 1 __NVCC__");
    assert_eq!(
        UserMacro::parse_list("-DA=1 -UB C").unwrap(),
        vec![
            UserMacro::Define("A=1".into()),
            UserMacro::Undefine("B".into()),
            UserMacro::Define("C".into())
        ]
    );
    assert!(UserMacro::parse_list("-D1X").is_err());
}
