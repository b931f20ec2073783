//! `crosslane run`: a scenario file, stdin or a permalink replays to the same JSON as the
//! equivalent `crosslane op … --json`.

use crate::common::crosslane_stdin as crosslane;
use std::collections::BTreeMap;
use std::process::Output;

use crosslane_core::permalink;
use crosslane_core::scenario::{Scenario, View};
use crosslane_core::OpRequest;

fn json(out: &Output) -> serde_json::Value {
    assert_eq!(
        out.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

fn xor_scenario() -> Scenario {
    Scenario::new(View::Op(OpRequest {
        dialect: "ascend".into(),
        op: "asc_shfl_xor".into(),
        active: "0x0000ffff".into(),
        params: BTreeMap::from([
            ("lane_mask".to_string(), "1".to_string()),
            ("width".to_string(), "16".to_string()),
        ]),
        ..OpRequest::default()
    }))
}

fn op_json() -> serde_json::Value {
    json(&crosslane(
        &[
            "op",
            "ascend",
            "asc_shfl_xor",
            "--active",
            "0x0000ffff",
            "--lane-mask",
            "1",
            "--width",
            "16",
            "--json",
        ],
        None,
    ))
}

#[test]
fn a_scenario_file_replays_like_the_op_command() {
    let path = std::env::temp_dir().join(format!("crosslane-run-{}.json", std::process::id()));
    std::fs::write(&path, xor_scenario().to_json()).expect("write scenario");
    let out = crosslane(&["run", path.to_str().expect("utf-8 path")], None);
    let _ = std::fs::remove_file(&path);
    let got = json(&out);
    assert_eq!(got, op_json());
    assert_eq!(got["results"][0]["value"], 1);
    assert_eq!(got["results"][16]["source"], "inactive");
}

#[test]
fn stdin_and_permalinks_replay_the_same() {
    let want = op_json();
    let s = xor_scenario();
    assert_eq!(json(&crosslane(&["run", "-"], Some(&s.to_json()))), want);
    let link = permalink::encode(&s);
    assert_eq!(json(&crosslane(&["run", &link], None)), want);
    assert_eq!(json(&crosslane(&["run", "-"], Some(&link))), want);
    let url = format!("http://127.0.0.1:8080/#s={link}");
    assert_eq!(json(&crosslane(&["run", &url, "--json"], None)), want);
}

#[test]
fn bad_scenarios_exit_2_with_one_line() {
    for (input, needle) in [
        ("v9.eNoDAAAAAAE", "v9."),
        ("v1.eNo", "truncated"),
        (r#"{"version":2,"view":{}}"#, "version 2"),
        (
            r#"{"version":1,"view":{"op":{"dialect":"ascend","op":"asc_shfl_xor","params":{"width":"0"}}}}"#,
            "width",
        ),
        // A reference view link decodes, but holds nothing to replay: said so.
        (
            r#"{"version":1,"view":{"reference":{"search":"xor"}},"tab":"reference"}"#,
            "reference view",
        ),
    ] {
        let out = crosslane(&["run", "-"], Some(input));
        assert_eq!(out.status.code(), Some(2), "{input}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{input}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
    let out = crosslane(&["run", "/nonexistent/crosslane.json"], None);
    assert_eq!(out.status.code(), Some(1));
}

/// The seed's asc_shfl_down reduce-sum kernel (seed 001, 示例2, line breaks restored).
const REDUCE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../crosslane-kernel/examples_kernels/ascend_shfl_down_reduce.cpp"
);

/// Lane `lane`'s final value of variable `var` in warp 0 of block 0 of a `run --json` trace.
fn lane_text(trace: &serde_json::Value, var: &str, lane: usize) -> serde_json::Value {
    let vars = trace["warps"][0]["vars"].as_array().expect("warp 0 vars");
    let v = vars
        .iter()
        .find(|v| v["name"] == var)
        .unwrap_or_else(|| panic!("no variable {var} in {vars:?}"));
    v["lanes"][lane]["text"].clone()
}

#[test]
fn a_kernel_file_runs_with_its_trace_as_json() {
    let trace = json(&crosslane(&["run", REDUCE, "--json"], None));
    // Seed 001: "the reduce-sum result is in the thread whose laneId is 0": 0+1+…+31 = 496.
    assert_eq!(lane_text(&trace, "value", 0), "496");
    assert_eq!(trace["outcome"]["kind"], "finished");
    assert_eq!(trace["launch"]["lanes"], 32);
    let ops: Vec<&str> = trace["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .flat_map(|s| s["ops"].as_array().into_iter().flatten())
        .map(|o| o["op"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(ops, vec!["asc_shfl_down"; 5]);
}

#[test]
fn a_kernel_file_prints_text_without_json() {
    let out = crosslane(&["run", REDUCE], None);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("asc_shfl_down (ascend, i32)"), "{text}");
    assert!(text.contains("finished after"), "{text}");
    // dst[0] holds lane 0's sum.
    assert!(text.contains("dst (32 x int): 496 512 "), "{text}");
}

#[test]
fn a_kernel_scenario_and_stdin_snippet_run_the_same_trace() {
    let source = std::fs::read_to_string(REDUCE).expect("seed kernel");
    let from_file = json(&crosslane(&["run", REDUCE, "--json"], None));
    let scenario = Scenario::new(View::Kernel {
        source: source.clone(),
        blocks: 0,
        threads_per_block: 0,
        lanes: 0,
        step: 3,
    });
    assert_eq!(
        json(&crosslane(
            &["run", "-", "--json"],
            Some(&scenario.to_json())
        )),
        from_file
    );
    assert_eq!(
        json(&crosslane(&["run", "-", "--json"], Some(&source))),
        from_file
    );
    // Two blocks of 64 threads: four warps, each lane 0 of a warp holds 496.
    let two = json(&crosslane(
        &[
            "run",
            REDUCE,
            "--json",
            "--blocks",
            "2",
            "--threads-per-block",
            "64",
        ],
        None,
    ));
    assert_eq!(two["launch"]["grid_dim"], serde_json::json!([2, 1, 1]));
    assert_eq!(two["warps"].as_array().map(Vec::len), Some(4));
}

#[test]
fn kernel_faults_name_their_line_and_column() {
    let out = crosslane(
        &["run", "-"],
        Some("__global__ void k(int* d) {\n  int x = ;\n}"),
    );
    // A front-end error is the run's outcome `error` (exit 1), not a usage error.
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("-:2:11:"), "{err}");
    let out = crosslane(
        &["run", "-", "--json", "--max-work", "100000"],
        Some("__global__ void k() {\n  while (1) {}\n}"),
    );
    // A run a budget stopped prints its partial trace and exits 1.
    assert_eq!(out.status.code(), Some(1));
    let trace: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(trace["outcome"]["kind"], "limit");
    assert_eq!(trace["outcome"]["resource"], "work");
    assert_eq!(trace["outcome"]["limit"], 100_000);
    assert_eq!(trace["outcome"]["line"], 2);
}

#[test]
fn an_undefined_branch_ends_with_outcome_error_and_exit_1_unless_keep_going() {
    // 2147483647 + lane overflows int in lanes 1..31 (C++17 [expr]/4): the branch on line 3
    // has no defined path there.
    let src = "__global__ void k(int* o) {\n  int y = 2147483647 + (int)threadIdx.x;\n  if (y > 0) o[threadIdx.x] = 7;\n}";
    let out = crosslane(&["run", "-", "--json", "--trace", "none"], Some(src));
    assert_eq!(out.status.code(), Some(1));
    let trace: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(trace["outcome"]["kind"], "error");
    assert_eq!(trace["outcome"]["line"], 3);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("-:3:"), "{err}");
    assert!(err.contains("the condition is undefined"), "{err}");
    let out = crosslane(&["run", "-", "--keep-going", "--json"], Some(src));
    assert_eq!(out.status.code(), Some(0));
    let trace: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(trace["outcome"]["kind"], "finished");
    // Unknown names: reported before the run, all of them, exit 1 (outcome `error`).
    let out = crosslane(
        &["run", "-"],
        Some("__global__ void k(int* o) {\n  o[0] = laneid;\n  o[1] = warpid;\n}"),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("-:2:10: `laneid` is not declared"), "{err}");
    assert!(err.contains("3:10: `warpid` is not declared"), "{err}");
}

#[test]
fn a_budget_that_runs_out_names_itself_and_its_flag() {
    // Text: the last line says which limit, what hit it and how to raise it.
    let out = crosslane(
        &["run", "-", "--max-work", "5000"],
        Some("__global__ void k() {\n  int x = 0;\n  while (1) { x++; }\n}"),
    );
    // Not a success: exit 1, and standard error names the limit and its flag too.
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("stopped: work limit of 5000 units of work"),
        "{text}"
    );
    assert!(text.contains("raise it with --max-work"), "{text}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("work limit of 5000 units of work"), "{err}");
    assert!(err.contains("--max-work"), "{err}");
    // Memory: a buffer the budget cannot hold is refused before it exists: the run's outcome
    // is `error` at the buffer's line (exit 1).
    let out = crosslane(
        &[
            "run",
            "-",
            "--max-memory",
            "1000",
            "--threads-per-block",
            "1024",
        ],
        Some("__global__ void k(double* d) { d[0] = 1; }"),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("memory limit of 1000 bytes"), "{err}");
    assert!(err.contains("--max-memory"), "{err}");
}

#[test]
fn control_characters_from_the_input_are_escaped() {
    // A kernel whose statement text carries ESC and BEL: the trace prints them escaped.
    let out = crosslane(
        &["run", "-"],
        Some("__global__ void k(int* d) {\n  d[0] = /* \u{1b}[31m red \u{7} */ 1;\n}"),
    );
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text:?}"
    );
    assert!(text.contains("\\u{1b}[31m"), "{text}");
    // And in an error message.
    let out = crosslane(&["run", "-"], Some("int x = \u{1b}]0;title\u{7};"));
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains('\u{1b}'), "{err:?}");
    assert!(err.contains("\\u{1b}"), "{err}");
}

#[test]
fn standard_input_past_the_cap_is_a_clear_error() {
    let big = "x".repeat(16 * 1024 * 1024 + 10);
    let out = crosslane(&["run", "-"], Some(&big));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("larger than 16777216 bytes"), "{err}");
}

#[test]
fn trace_none_prints_the_outcome_diagnostics_buffers_and_stats() {
    // 64 threads (two warps of 32) each add their lane's xor-1 partner once: out[t] = t + (t ^ 1).
    // A signed overflow in every lane of the loop at line 5 gives one merged diagnostic.
    let src = "__global__ void k(unsigned* out) {\n  unsigned t = threadIdx.x;\n  unsigned v = t + __shfl_xor_sync(0xffffffff, t, 1);\n  int big = 2147483647;\n  for (int i = 0; i < 2; i++) { big = big + 1; }\n  out[t] = v;\n}";
    let out = crosslane(
        &[
            "run",
            "-",
            "--json",
            "--trace",
            "none",
            "--threads-per-block",
            "64",
        ],
        Some(src),
    );
    let t = json(&out);
    assert_eq!(t["outcome"]["kind"], "finished");
    assert!(t.get("steps").is_none(), "no per-step trace: {t}");
    let values = t["buffers"][0]["values"].as_array().expect("values");
    assert_eq!(values.len(), 64);
    for (k, v) in values.iter().enumerate() {
        assert_eq!(v.as_u64(), Some((k + (k ^ 1)) as u64), "{k}");
    }
    // Statements per warp: 3 declarations, the loop's init + 3 tests + 2 bodies + 2 increments,
    // the store = 12; two warps; every lane active in each.
    assert_eq!(t["stats"]["steps"], 24);
    assert_eq!(t["stats"]["lane_statements"], 24 * 32);
    let overflow: Vec<&serde_json::Value> = t["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["line"] == 5 && d["message"].as_str().unwrap_or("").contains("overflow"))
        .collect();
    assert!(!overflow.is_empty(), "{t}");
    let first = overflow[0]["message"].as_str().unwrap_or("").to_string();
    assert_eq!(
        overflow
            .iter()
            .filter(|d| d["message"].as_str() == Some(first.as_str()))
            .count(),
        1,
        "each distinct diagnostic once: {t}"
    );
}

/// The first buffer's values of a `--trace none --json` run.
fn first_values(trace: &serde_json::Value) -> Vec<i64> {
    trace["buffers"][0]["values"]
        .as_array()
        .expect("values")
        .iter()
        .map(|v| v.as_i64().expect("a number"))
        .collect()
}

/// Writes `src` as `file` in a folder of its own under the temp dir (named by `tag` and the
/// process id), runs it as one block of 64 threads (`--json --trace none
/// --threads-per-block 64`), removes the folder, and returns the run's [`first_values`].
fn run_64_thread_file(tag: &str, file: &str, src: &str) -> Vec<i64> {
    let dir = std::env::temp_dir().join(format!("{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(file);
    std::fs::write(&path, src).expect("write kernel");
    let p = path.to_str().expect("utf-8 path");
    let out = crosslane(
        &[
            "run",
            p,
            "--json",
            "--trace",
            "none",
            "--threads-per-block",
            "64",
        ],
        None,
    );
    let _ = std::fs::remove_dir_all(&dir);
    first_values(&json(&out))
}

#[test]
fn defines_switch_the_branch_a_conditional_takes() {
    // `WIDE` defined: the #ifdef group (2) runs; not defined, or defined then undefined, the
    // #else group (1); the record says which branch was taken.
    let src = "__global__ void k(int *out) {\n#ifdef WIDE\n  out[threadIdx.x] = 2;\n#else\n  out[threadIdx.x] = 1;\n#endif\n}\n";
    let run = |extra: &[&str]| {
        let mut args = vec!["run", "-", "--json", "--trace", "none"];
        args.extend_from_slice(extra);
        json(&crosslane(&args, Some(src)))
    };
    let plain = run(&[]);
    assert_eq!(first_values(&plain), vec![1; 32]);
    assert_eq!(
        plain["preprocess"]["skipped"],
        serde_json::json!([{"first": 3, "last": 3}])
    );
    let wide = run(&["-D", "WIDE"]);
    assert_eq!(first_values(&wide), vec![2; 32]);
    assert_eq!(
        wide["preprocess"]["conditionals"][0]["branches"][0]["taken"],
        true
    );
    assert_eq!(
        first_values(&run(&["--define", "WIDE", "-U", "WIDE"])),
        vec![1; 32]
    );
    // A scenario keeps its defines (and so does its permalink).
    let mut scenario = Scenario::new(View::Kernel {
        source: src.to_string(),
        blocks: 0,
        threads_per_block: 0,
        lanes: 0,
        step: 0,
    });
    scenario.kernel_inputs.defines = "-DWIDE".into();
    let from_scenario = json(&crosslane(
        &["run", "-", "--json", "--trace", "none"],
        Some(&scenario.to_json()),
    ));
    assert_eq!(first_values(&from_scenario), vec![2; 32]);
}

#[test]
fn arch_and_error_directives() {
    // sm_60: __CUDA_ARCH__ is 600, below 700, so the fallback (7) runs; by default (sm_90) the
    // #if group (9).
    let src = "__global__ void k(int *out) {\n#if __CUDA_ARCH__ >= 700\n  out[threadIdx.x] = 9;\n#else\n  out[threadIdx.x] = 7;\n#endif\n}\n";
    let run = |extra: &[&str]| {
        let mut args = vec!["run", "-", "--json", "--trace", "none"];
        args.extend_from_slice(extra);
        json(&crosslane(&args, Some(src)))
    };
    assert_eq!(first_values(&run(&[])), vec![9; 32]);
    assert_eq!(first_values(&run(&["--arch", "sm_60"])), vec![7; 32]);
    // #error stops the run at its line with its text.
    let out = crosslane(
        &["run", "-"],
        Some("__global__ void k() {}\n#error unsupported target\n"),
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("2:1: #error unsupported target"), "{err}");
}

/// `--buffer x=FILL` without a length keeps host code's `cudaMalloc` length (64 floats, not
/// one per thread), takes a decimal ramp, and a bad fill names the flag and the grammar.
#[test]
fn buffer_decimal_fill_keeps_host_length_and_bad_fill_names_the_grammar() {
    let dir = std::env::temp_dir().join(format!("crosslane-fill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cu = dir.join("scale.cu");
    std::fs::write(
        &cu,
        "__global__ void scale(float* x, int n) {\n  int i = threadIdx.x;\n  if (i < n) x[i] = x[i] * 2.0f;\n}\nint main() {\n  float* x;\n  cudaMalloc(&x, 64 * sizeof(float));\n  int n = 64;\n  scale<<<1, 32>>>(x, n);\n}\n",
    )
    .unwrap();
    let cu = cu.to_string_lossy().to_string();
    let j = json(&crosslane(
        &[
            "run",
            &cu,
            "--buffer",
            "x=i*0.25+0.5",
            "--trace",
            "none",
            "--json",
        ],
        None,
    ));
    let cells = j["buffers"][0]["cells"].as_array().unwrap();
    // 64 cells from cudaMalloc(64 * sizeof(float)); cell i = i*0.25+0.5, doubled below 32.
    assert_eq!(cells.len(), 64);
    assert_eq!(cells[1]["x"], 1.5); // (1*0.25+0.5)*2
    assert_eq!(cells[40]["x"], 10.5); // 40*0.25+0.5, untouched
    let out = crosslane(&["run", &cu, "--buffer", "x=i*zz"], None);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--buffer x: `i*zz` is not a fill"), "{err}");
    assert!(err.contains(crosslane_core::fill::GRAMMAR), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A kernel scenario's memory edits apply over the buffer's fill as the page applies them
/// (`crosslane_kernel::edits::apply_edits`, which the page's worker calls too): `out` is filled
/// with its index (0, 1, 2, …) and cell 0 is edited to 100, so doubling every cell gives
/// 200, 2, 4, … (by hand: 2 × 100, 2 × 1, 2 × 2), through the scenario JSON and its permalink.
#[test]
fn a_scenarios_memory_edits_apply_as_on_the_page() {
    let mut scenario = Scenario::new(View::Kernel {
        source: "__global__ void k(int *out) {\n  out[threadIdx.x] *= 2;\n}\n".to_string(),
        blocks: 1,
        threads_per_block: 32,
        lanes: 32,
        step: 0,
    });
    scenario
        .kernel_inputs
        .edits
        .entry("out".into())
        .or_default()
        .insert(0, "100".into());
    let want: Vec<i64> = std::iter::once(200).chain((1..32).map(|i| 2 * i)).collect();
    let args = ["run", "-", "--json", "--trace", "none"];
    let from_json = json(&crosslane(&args, Some(&scenario.to_json())));
    assert_eq!(first_values(&from_json), want);
    let link = permalink::encode(&scenario);
    let from_link = json(&crosslane(
        &["run", &link, "--json", "--trace", "none"],
        None,
    ));
    assert_eq!(first_values(&from_link), want);
    // A value the buffer's type cannot hold is refused, naming the cell (exit 2).
    scenario
        .kernel_inputs
        .edits
        .entry("out".into())
        .or_default()
        .insert(1, "1.5x".into());
    let out = crosslane(&args, Some(&scenario.to_json()));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("memory edit out[1]"), "{err}");
}

#[test]
fn front_end_errors_are_an_error_outcome_in_json_with_every_diagnostic() {
    // Two unknown names (lines 2 and 3) and nothing run: one JSON object, outcome `error` at
    // the first, both errors listed with their own line:column, exit 1.
    let src = "__global__ void k(int* o) {\n  o[0] = laneid;\n  o[1] = warpid + 1;\n}\n";
    let out = crosslane(&["run", "-", "--json", "--trace", "none"], Some(src));
    assert_eq!(out.status.code(), Some(1));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(j["outcome"]["kind"], "error");
    assert_eq!(j["outcome"]["line"], 2);
    assert_eq!(j["outcome"]["col"], 10);
    let d = j["diagnostics"].as_array().expect("diagnostics");
    assert_eq!(d.len(), 2, "{d:?}");
    assert_eq!(
        (d[0]["line"].clone(), d[0]["col"].clone()),
        (2.into(), 10.into())
    );
    assert_eq!(
        (d[1]["line"].clone(), d[1]["col"].clone()),
        (3.into(), 10.into())
    );
    assert_eq!(d[1]["level"], "error");
    assert!(d[1]["message"]
        .as_str()
        .unwrap_or("")
        .contains("`warpid` is not declared"));
    // A parse error and a preprocessor #error, with the full trace too.
    for (src, line, needle) in [
        (
            "__global__ void k(int* o) {\n  o[0] = 1 @ 2;\n}\n",
            2,
            "unexpected character",
        ),
        (
            "#error not for this target\n__global__ void k() {}\n",
            1,
            "#error not for this target",
        ),
    ] {
        let out = crosslane(&["run", "-", "--json"], Some(src));
        assert_eq!(out.status.code(), Some(1), "{src}");
        let j: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
        assert_eq!(j["outcome"]["kind"], "error");
        assert_eq!(j["outcome"]["line"], line);
        assert!(j["diagnostics"][0]["message"]
            .as_str()
            .unwrap_or("")
            .contains(needle));
    }
    // A bad flag stays a usage error (exit 2), with no JSON: one that does not parse, and
    // launch flags the source cannot take (the same source runs without them).
    let out = crosslane(&["run", "-", "--json", "--arg", "n"], Some(src));
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let good = "__global__ void k(int* o) { o[threadIdx.x] = 1; }";
    for flags in [
        &["--blocks", "70000"][..],
        &["--threads-per-block", "2000"],
        &["--lanes", "48"],
        &["--entry", "nope"],
    ] {
        let mut a = vec!["run", "-", "--json", "--trace", "none"];
        a.extend_from_slice(flags);
        let out = crosslane(&a, Some(good));
        assert_eq!(out.status.code(), Some(2), "{flags:?}");
        assert!(out.stdout.is_empty(), "{flags:?}");
    }
    // The same geometry written in the source's own launch is the source's fault.
    let hosted =
        "__global__ void k(int* o) { o[0] = 1; }\nint main() { k<<<70000, 32>>>(nullptr); }\n";
    let out = crosslane(&["run", "-", "--json", "--trace", "none"], Some(hosted));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn an_entry_whose_own_code_fails_to_prepare_is_a_kernel_error_with_json() {
    // `--entry k2` names a kernel that exists; its own unknown type (found only when k2 is
    // prepared: k1, the default entry, runs) is the kernel's error, exit 1 with the JSON
    // outcome at line:column, not the flag's (exit 2, no JSON), even beside a geometry flag.
    let src = "__global__ void k1(int* out) { out[threadIdx.x] = 1; }
               __global__ void k2(int* out) {
  Mystery m;
  out[threadIdx.x] = m.v;
}
";
    for extra in [&[][..], &["--threads-per-block", "64"]] {
        let mut a = vec!["run", "-", "--json", "--trace", "none", "--entry", "k2"];
        a.extend_from_slice(extra);
        let out = crosslane(&a, Some(src));
        assert_eq!(out.status.code(), Some(1), "{extra:?}");
        let j: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        assert_eq!(j["outcome"]["kind"], "error");
        assert_eq!(
            (j["outcome"]["line"].as_u64(), j["outcome"]["col"].as_u64()),
            (Some(3), Some(3))
        );
        assert!(j["outcome"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("Mystery"));
    }
    // A flag that names nothing stays the flag's fault.
    let out = crosslane(&["run", "-", "--json", "--entry", "k3"], Some(src));
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn typed_fill_lays_float_bytes_over_a_char_buffer() {
    // 1.5 = 0x3FC00000 and 2.5 = 0x40200000, least significant byte first: as int8_t
    // 0 0 -64 63 and 0 0 32 64; the kernel reads them back through a float*.
    let src = "__global__ void k(const char *x, float *y) { y[threadIdx.x] = *(const float*)(x + 4*threadIdx.x); }\n";
    let base = [
        "run",
        "-",
        "--json",
        "--trace",
        "none",
        "--threads-per-block",
        "2",
    ];
    let run = |fill: &str| {
        let mut args = base.to_vec();
        args.extend_from_slice(&["--buffer", fill, "--buffer", "y:2=zero"]);
        crosslane(&args, Some(src))
    };
    let t = json(&run("x:8=f32:1.5,2.5"));
    assert_eq!(
        t["buffers"][0]["values"],
        serde_json::json!([0, 0, -64, 63, 0, 0, 32, 64])
    );
    assert_eq!(t["buffers"][1]["values"], serde_json::json!([1.5, 2.5]));
    // Without LEN the list sizes the buffer to its 8 bytes.
    let t = json(&run("x=f32:1.5,2.5"));
    assert_eq!(t["buffers"][1]["values"], serde_json::json!([1.5, 2.5]));
    // A decimal in the char buffer without a type points at the typed fill (exit 2).
    let out = run("x=1.5,2.5");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("f32:1.5,2.5"));
}

#[test]
fn fp8_buffers_hold_encodings_and_show_decoded_values() {
    // A `__nv_fp8_e4m3*` buffer: a decimal fill is rounded as the type's constructor rounds
    // (nearest even, saturating: CUDA Math API, struct __nv_fp8_e4m3): 0.3 → 0.3125 (quantum
    // 2^-5 in [0.25, 0.5): 9.6 → 10), 17 → 16 (tie, even mantissa), 1000 → 448 (E4M3's
    // largest), -2 exact. A `u8:` fill lays encodings: 0x38 = 0.0111.000 = 1, 0xC4 =
    // 1.1000.100 = -3. JSON shows the decoded values, as half buffers show theirs.
    let src = "#include <cuda_fp8.h>\n__global__ void k(const __nv_fp8_e4m3* q, float* y) { y[threadIdx.x] = 2.0f * float(q[threadIdx.x]); }\n";
    let run = |fill: &str| {
        crosslane(
            &[
                "run",
                "-",
                "--json",
                "--trace",
                "none",
                "--threads-per-block",
                "2",
                "--buffer",
                fill,
                "--buffer",
                "y:2=zero",
            ],
            Some(src),
        )
    };
    let t = json(&run("q:4=0.3,17,1000,-2"));
    assert_eq!(
        t["buffers"][0]["values"],
        serde_json::json!([0.3125, 16.0, 448.0, -2.0])
    );
    assert_eq!(t["buffers"][1]["values"], serde_json::json!([0.625, 32.0]));
    let t = json(&run("q:2=u8:0x38,0xc4"));
    assert_eq!(t["buffers"][0]["values"], serde_json::json!([1.0, -3.0]));
    assert_eq!(t["buffers"][1]["values"], serde_json::json!([2.0, -6.0]));
}

#[test]
fn rdna_arch_makes_hip_waves_32_lanes_unless_lanes_is_given() {
    // gfx1100 (RDNA3) has the wave32 feature: hipcc compiles wave32 by default; gfx942 (CDNA3)
    // is wave64 only. out = warpSize.
    let src = "__global__ void k(int *out) { out[threadIdx.x] = warpSize; }\n";
    let run = |extra: &[&str]| {
        let mut args = vec![
            "run",
            "-",
            "--json",
            "--trace",
            "none",
            "--dialect",
            "hip",
            "--threads-per-block",
            "1",
        ];
        args.extend_from_slice(extra);
        json(&crosslane(&args, Some(src)))
    };
    assert_eq!(first_values(&run(&["--arch", "gfx1100"])), vec![32]);
    assert_eq!(first_values(&run(&["--arch", "gfx942"])), vec![64]);
    assert_eq!(
        first_values(&run(&["--arch", "gfx1100", "--lanes", "64"])),
        vec![64]
    );
}

#[test]
fn a_maca_file_runs_as_maca_on_its_64_thread_warp() {
    // No MACA mark in the text (no __builtin_mxc): the extension decides. MACA's warp is 64
    // threads (seed 002 §3.4.1), so warpSize is 64 and a 64-bit-mask butterfly sums 0..63.
    let values = run_64_thread_file(
        "crosslane-maca",
        "sum.maca",
        "__global__ void k(int *out) {\n\
           int v = threadIdx.x;\n\
           for (int m = 32; m > 0; m >>= 1) v += __shfl_xor_sync(~0ull, v, m);\n\
           out[threadIdx.x] = v * 100 + warpSize;\n\
         }\n",
    );
    // 2016 * 100 + 64.
    assert_eq!(values, vec![201_664; 64]);
}

#[test]
fn a_cu_file_with_metax_marks_runs_as_maca() {
    // MetaX's `cucc` compiles `.cu` files; this one uses MetaX's 16-lane shuffle, so it runs as
    // MACA on the 64-thread warp: `__shfl_down_sync_16(m, v, d)` = `__shfl_down_sync(m, v, d,
    // 16)`, and the tree 8, 4, 2, 1 leaves in each group's first lane the sum of its 16 lane
    // numbers (by hand: 120, 376, 632, 888); `warpSize` is 64.
    let values = run_64_thread_file(
        "crosslane-metax-cu",
        "group_sum.cu",
        "__global__ void k(int *out) {\n\
           int v = threadIdx.x;\n\
           for (int d = 8; d > 0; d >>= 1) v += __shfl_down_sync_16(0xffffffffffffffffULL, v, d);\n\
           out[threadIdx.x] = (threadIdx.x % 16 == 0) ? v * 100 + warpSize : 0;\n\
         }\n",
    );
    let want: Vec<i64> = (0..64)
        .map(|t| {
            if t % 16 == 0 {
                [120, 376, 632, 888][t / 16] * 100 + 64
            } else {
                0
            }
        })
        .collect();
    assert_eq!(values, want);
}

#[test]
fn a_cu_file_with_a_maca_macro_or_header_runs_as_maca() {
    // A `.cu` file written for mxcc names its compiler's macro (`__MACA__`) or MetaX's headers
    // (`maca_fp16.h`): it runs as MACA on the 64-thread warp, so the xor tree 32..1 with a
    // 64-bit mask sums the lane numbers 0..63 (2016 by hand) and `warpSize` is 64.
    for (name, head) in [
        (
            "macro.cu",
            "#if defined(__MACA__)\n#define WAVE 64\n#endif\n",
        ),
        ("header.cu", "#include <maca_fp16.h>\n"),
    ] {
        let src = format!(
            "{head}__global__ void k(int *out) {{\n\
               int v = threadIdx.x;\n\
               for (int m = 32; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffffffffffffULL, v, m);\n\
               out[threadIdx.x] = v * 100 + warpSize;\n\
             }}\n"
        );
        let values = run_64_thread_file("crosslane-metax-mark", name, &src);
        assert_eq!(values, vec![201_664; 64], "{name}");
    }
}

#[test]
fn arg_null_or_0_passes_a_null_pointer_and_defaults_fill_the_rest() {
    // sinks null: `sinks ? sinks[0] : -INFINITY` is -inf and fmaxf(-inf, x) = x = i - 10;
    // `--buffer sinks=0` is a buffer of zeros: fmaxf(0, x) = 0 for x < 0.
    let src = "__global__ void k(const float *x, const float *sinks, float *out) {\n\
               float m = sinks ? sinks[0] : -INFINITY;\n\
               out[threadIdx.x] = fmaxf(m, x[threadIdx.x]);\n}\n";
    let run = |extra: &[&str]| {
        let mut args = vec![
            "run",
            "-",
            "--json",
            "--trace",
            "none",
            "--threads-per-block",
            "4",
            "--buffer",
            "x=i-10",
        ];
        args.extend_from_slice(extra);
        json(&crosslane(&args, Some(src)))
    };
    let out_of = |t: &serde_json::Value| {
        t["buffers"]
            .as_array()
            .expect("buffers")
            .iter()
            .find(|b| b["name"] == "out")
            .map(|b| b["values"].clone())
            .expect("an out buffer")
    };
    let has_sinks = |t: &serde_json::Value| {
        t["buffers"]
            .as_array()
            .expect("buffers")
            .iter()
            .any(|b| b["name"] == "sinks")
    };
    for v in ["sinks=null", "sinks=nullptr", "sinks=NULL", "sinks=0"] {
        let t = run(&["--arg", v]);
        assert_eq!(
            out_of(&t),
            serde_json::json!([-10.0, -9.0, -8.0, -7.0]),
            "{v}"
        );
        assert!(!has_sinks(&t), "{v}: a null pointer has no buffer");
    }
    let t = run(&["--buffer", "sinks=0"]);
    assert_eq!(out_of(&t), serde_json::json!([0.0, 0.0, 0.0, 0.0]));
    let t = run(&["--buffer", "sinks=null"]);
    assert_eq!(out_of(&t), serde_json::json!([-10.0, -9.0, -8.0, -7.0]));
    // Trailing parameters with default arguments and no --arg take them: mul = nullptr,
    // mul_stride = 0, so out = x * 1.
    let src = "__global__ void k(const float *x, float *out, const float *mul = nullptr, const int mul_stride = 0) {\n\
               const float m = mul ? mul[threadIdx.x * mul_stride] : 1.0f;\n\
               out[threadIdx.x] = x[threadIdx.x] * m;\n}\n";
    let t = json(&crosslane(
        &[
            "run",
            "-",
            "--json",
            "--trace",
            "none",
            "--threads-per-block",
            "4",
            "--buffer",
            "x=i+1",
        ],
        Some(src),
    ));
    assert_eq!(out_of(&t), serde_json::json!([1.0, 2.0, 3.0, 4.0]));
}

/// `--shared-bytes` with a template-id `--entry`: the bytes are counted in the instance's
/// `extern __shared__` element, so a `double` instance's 32 bytes are 4 cells (8 bytes each,
/// CUDA C++ Programming Guide, "__shared__" and "Execution Configuration": the dynamic size
/// is in bytes) and 24 bytes are 3.
#[test]
fn shared_bytes_size_a_template_entrys_extern_shared_array() {
    const SRC: &str = "template <typename T>\n\
        __global__ void rev(T *out) {\n\
          extern __shared__ T cells[];\n\
          cells[threadIdx.x] = (T)threadIdx.x * (T)1.5;\n\
          __syncthreads();\n\
          out[threadIdx.x] = cells[blockDim.x - 1 - threadIdx.x];\n\
        }\n";
    let run = |bytes: &str| {
        crosslane(
            &[
                "run",
                "-",
                "--trace",
                "none",
                "--entry",
                "rev<double>",
                "--threads-per-block",
                "4",
                "--shared-bytes",
                bytes,
                "--buffer",
                "out:4=0",
            ],
            Some(SRC),
        )
    };
    let out = run("32");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("gets its size at launch: 4 cells"), "{text}");
    // Lane i stores 1.5 * i; lane i reads lane 3 - i's cell: 1.5*3, 1.5*2, 1.5*1, 0.
    assert!(text.contains("out (4 x double): 4.5 3 1.5 0"), "{text}");
    // 24 bytes hold 3 doubles: lane 3's store falls outside, so out[0] has no value.
    let text = String::from_utf8_lossy(&run("24").stdout).into_owned();
    assert!(text.contains("gets its size at launch: 3 cells"), "{text}");
    assert!(text.contains("out (4 x double): ? 3 1.5 0"), "{text}");
}

/// `crosslane run` of a file whose kernels are all templates, without `--entry`, fails (exit 1)
/// listing the `--entry` values to type — the explicit instantiations as written (C++17
/// [temp.explicit]), then the kernel template without one — never the `__device__`
/// template; the first value, typed back, runs: out = x · 2 (`twice`) · 4 = 8, 16 over 1, 2.
/// A kernel in `namespace ops` is `ops::k` in the JSON's `launch.entry`, by `--entry ops::k`
/// or `--entry k` ([basic.namespace]). `run --help` says both.
#[test]
fn template_only_files_list_their_entries_and_namespaced_kernels_keep_their_names() {
    let dir = std::env::temp_dir();
    let templ = dir.join(format!("crosslane-templ-{}.cu", std::process::id()));
    std::fs::write(
        &templ,
        "template <typename T> __device__ T twice(T x) { return x + x; }\n\
         template <typename T, int N> __global__ void scale(T *out) {\n\
           out[threadIdx.x] = twice(out[threadIdx.x]) * N;\n}\n\
         template <typename T> __global__ void fill(T *out) { out[threadIdx.x] = T(1); }\n\
         template __global__ void scale<float, 4>(float *);\n",
    )
    .expect("write kernel");
    let path = templ.to_str().expect("utf-8 path");
    let out = crosslane(&["run", path], None);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let listed: Vec<&str> = err
        .lines()
        .filter_map(|l| l.trim().strip_prefix("--entry '"))
        .filter_map(|l| l.split('\'').next())
        .collect();
    assert_eq!(listed, ["scale<float, 4>", "fill<T>"], "{err}");
    assert!(!err.contains("twice"), "{err}");
    let args = [
        "run",
        path,
        "--entry",
        listed[0],
        "--threads-per-block",
        "2",
        "--buffer",
        "out=1,2",
        "--json",
    ];
    let t = json(&crosslane(&args, None));
    let _ = std::fs::remove_file(&templ);
    assert_eq!(t["launch"]["entry"], "scale<float,4>");
    let out = t["memory"]["buffers"]
        .as_array()
        .expect("buffers")
        .iter()
        .find(|b| b["name"] == "out")
        .expect("out")["values"]
        .clone();
    assert_eq!(out, serde_json::json!([8.0, 16.0]));
    let ns = dir.join(format!("crosslane-ns-{}.cu", std::process::id()));
    std::fs::write(
        &ns,
        "namespace ops {\n__global__ void k(int *out) { out[threadIdx.x] = 7; }\n}\n",
    )
    .expect("write kernel");
    let path = ns.to_str().expect("utf-8 path");
    for entry in [None, Some("ops::k"), Some("k")] {
        let mut args = vec!["run", path, "--json"];
        args.extend(entry.map(|e| ["--entry", e]).iter().flatten());
        let t = json(&crosslane(&args, None));
        assert_eq!(t["launch"]["entry"], "ops::k", "{entry:?}");
    }
    let _ = std::fs::remove_file(&ns);
    let help = String::from_utf8_lossy(&crosslane(&["run", "--help"], None).stdout).into_owned();
    assert!(
        help.contains("`ops::k`") && help.contains("lists the values"),
        "{help}"
    );
}
