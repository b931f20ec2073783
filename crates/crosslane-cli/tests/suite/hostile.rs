//! Hostile inputs of the second round, each ending with a message naming its limit and the
//! flag that raises it: postfix and declaration chains in WGSL (`--max-depth`), printf's field
//! cap and output budget, budgets above the CLI's ceiling, a WGSL budget stop's exit status,
//! huge dispatches, and bidirectional control characters (Trojan Source).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::common::{crosslane, stderr, stdout};

/// Writes `text` to a fresh file named `name` and returns its path.
fn file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crosslane-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p
}

fn run(path: &Path, extra: &[&str]) -> (Option<i32>, String, String, Duration) {
    let mut args = vec!["run", path.to_str().expect("utf-8 path")];
    args.extend_from_slice(extra);
    let t = Instant::now();
    let out = crosslane(&args);
    (out.status.code(), stdout(&out), stderr(&out), t.elapsed())
}

#[test]
fn wgsl_postfix_chains_are_refused_before_naga_naming_max_depth() {
    for (name, chain) in [
        ("swizzle", format!("v{}", ".wzyx".repeat(300_000))),
        ("index", format!("a{}", "[0]".repeat(300_000))),
    ] {
        let src = format!(
            "@group(0) @binding(0) var<storage, read_write> a: array<u32>;\n\
             @compute @workgroup_size(1) fn main() {{\n  let v = vec4<u32>(1u);\n  let y = {chain};\n}}\n"
        );
        let p = file(&format!("{name}.wgsl"), &src);
        let (code, _, err, _) = run(&p, &["--trace", "none"]);
        assert_eq!(code, Some(2), "{name}: {err}");
        // Line 4, where the chain is; the limit and its flag named.
        assert!(err.contains(":4:"), "{name}: {err}");
        assert!(err.contains("nesting limit of 256"), "{name}: {err}");
        assert!(err.contains("--max-depth"), "{name}: {err}");
    }
}

#[test]
fn wgsl_alias_chains_in_reverse_order_are_refused_naming_max_depth() {
    // 300 000 aliases, each using the one declared after it: a chain naga would follow
    // recursively. The first alias starts the longest chain.
    let mut src = String::new();
    for k in (1..=300_000).rev() {
        src.push_str(&format!("alias A{k} = A{};\n", k - 1));
    }
    src.push_str(
        "alias A0 = u32;\n@compute @workgroup_size(1) fn main() { var x: A300000 = 1u; }\n",
    );
    let p = file("alias.wgsl", &src);
    let (code, _, err, _) = run(&p, &["--trace", "none"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("chain of 257 declarations"), "{err}");
    assert!(err.contains("--max-depth"), "{err}");
}

#[test]
fn printf_fields_are_capped_at_512_with_a_warning() {
    let p = file(
        "printf_wide.cu",
        "__global__ void k(float* a) { if (threadIdx.x == 0) printf(\"%.999999999f|%.70000e\\n\", 0.0f, 1.0f); }\n",
    );
    let (code, out, err, _) = run(&p, &["--trace", "none"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("past the cap of 512"), "{out}");
    // "0." and 512 zeros, then "1." and 512 zeros and the exponent (C11 7.21.6.1 %f, %e).
    let want = format!("0.{}|1.{}e+00", "0".repeat(512), "0".repeat(512));
    assert!(out.contains(&want), "{out}");
}

#[test]
fn endless_printf_and_diagnostic_loops_stop_on_a_budget_in_time() {
    for (name, body) in [
        ("printf_loop.cu", "for (;;) printf(\"%.500f\\n\", a[0]);"),
        ("div0_loop.cu", "int x = 0; for (;;) x = 1 / 0;"),
        ("atomic_loop.cu", "for (;;) atomicAdd(&a[0], 1.0f);"),
        (
            "barrier_loop.cu",
            "if (threadIdx.x == 0) return; while (1) { __syncthreads(); }",
        ),
    ] {
        let p = file(name, &format!("__global__ void k(float* a) {{ {body} }}\n"));
        let (code, _, err, took) = run(&p, &["--trace", "none"]);
        assert_eq!(code, Some(1), "{name}: {err}");
        if name == "barrier_loop.cu" {
            // Each round of that barrier changes nothing: a deadlock, reported at once.
            assert!(
                err.contains("deadlock") && err.contains("barrier at line 1"),
                "{name}: {err}"
            );
        } else {
            assert!(
                err.contains("--max-work") || err.contains("--max-memory"),
                "{name}: {err}"
            );
        }
        // Generous for a debug build on a shared machine; a release build takes well under 10 s.
        assert!(took < Duration::from_secs(120), "{name} took {took:?}");
    }
}

#[test]
fn budgets_above_the_cli_ceiling_are_refused_naming_the_flag() {
    let p = file(
        "tiny.cu",
        "__global__ void k(int* a) { a[threadIdx.x] = 1; }\n",
    );
    let (code, _, err, _) = run(&p, &["--max-memory", "18446744073709551615"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--max-memory"), "{err}");
    assert!(err.contains("ceiling of 8589934592"), "{err}");
    let (code, _, err, _) = run(&p, &["--max-work", "99999999999"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--max-work"), "{err}");
}

#[test]
fn a_wgsl_budget_stop_exits_1_naming_the_budget() {
    let p = file(
        "loop.wgsl",
        "@group(0) @binding(0) var<storage, read_write> a: array<u32>;\n\
         @compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {\n\
         \x20 loop { a[i] = a[i] + 1u; }\n}\n",
    );
    let (code, out, err, _) = run(&p, &["--json", "--max-work", "100000"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("--max-work"), "{err}");
    let j: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(j["outcome"]["kind"], "limit");
    assert_eq!(j["outcome"]["resource"], "work");
    // A dispatch whose size overflows any integer is refused, not a panic.
    let (code, _, err, _) = run(&p, &["--workgroups", "4294967296,4294967296"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("blocks must be"), "{err}");
    let (code, _, err, _) = run(
        &p,
        &[
            "--workgroups",
            "4294967296,4294967296",
            "--buffer",
            "a=index",
        ],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("--max-memory"), "{err}");
}

#[test]
fn bidirectional_controls_are_warned_in_comments_refused_in_code_never_echoed() {
    let p = file(
        "bidi_comment.cu",
        "__global__ void k(int* a) {\n  // note \u{202E} } \u{2066}\n  a[0] = 1;\n}\n",
    );
    let (code, out, err, _) = run(&p, &["--trace", "none"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains(
            "2:11: warning: bidirectional control character U+202E RIGHT-TO-LEFT OVERRIDE"
        ),
        "{out}"
    );
    assert!(out.contains("U+2066 LEFT-TO-RIGHT ISOLATE"), "{out}");
    assert!(!out.contains('\u{202E}') && !out.contains('\u{2066}'));
    let (_, json, _, _) = run(&p, &["--json"]);
    assert!(!json.contains('\u{202E}'));
    serde_json::from_str::<serde_json::Value>(&json).expect("still JSON");
    let p = file(
        "bidi_code.cu",
        "__global__ void k(int* a) {\n  int x\u{202E}y = 1;\n}\n",
    );
    let (code, _, err, _) = run(&p, &[]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(":2:8: bidirectional control character U+202E RIGHT-TO-LEFT OVERRIDE in code"),
        "{err}"
    );
    assert!(!err.contains('\u{202E}'));
    let p = file(
        "bidi_code.wgsl",
        "@compute @workgroup_size(1) fn ma\u{202E}in() { }\n",
    );
    let (code, _, err, _) = run(&p, &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("U+202E RIGHT-TO-LEFT OVERRIDE in code"),
        "{err}"
    );
}

#[test]
fn an_arg_value_its_type_cannot_hold_exits_2_naming_it() {
    let p = file(
        "arg.cu",
        "__global__ void k(int* a, int n) { a[threadIdx.x] = n; }\n",
    );
    let (code, _, err, _) = run(&p, &["--arg", "n=99999999999999999999", "--trace", "none"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--arg `n=99999999999999999999`"), "{err}");
    assert!(err.contains("is not an i64 value"), "{err}");
}

#[test]
fn shaders_naga_would_prepare_in_quadratic_time_are_refused_naming_max_tokens() {
    // 100 000 functions: past 2 000 000 / 500 = 4 000, refused at the 4 001st (line 4 001).
    let mut src: String = (0..100_000)
        .map(|k| format!("fn f{k}(v: u32) -> u32 {{ return v + 1u; }}\n"))
        .collect();
    src.push_str("@compute @workgroup_size(1) fn main() { let y = f7(1u); }\n");
    let p = file("functions.wgsl", &src);
    let (code, _, err, took) = run(&p, &["--trace", "none"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("functions.wgsl:4001:1:"), "{err}");
    assert!(
        err.contains("more than 4000 functions") && err.contains("--max-tokens"),
        "{err}"
    );
    assert!(took < Duration::from_secs(30), "{took:?}");
    // 20 000 statements of 6 tokens in one function: past 2 000 000 / 40 = 50 000 tokens.
    let body: String = (0..20_000)
        .map(|k| format!("  x = x + {}u;\n", k % 7))
        .collect();
    let p = file(
        "statements.wgsl",
        &format!("@compute @workgroup_size(1) fn main() {{\n  var x: u32 = 0u;\n{body}}}\n"),
    );
    let (code, _, err, _) = run(&p, &["--trace", "none"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("longer than 50000 tokens") && err.contains("--max-tokens"),
        "{err}"
    );
}
