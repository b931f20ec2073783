//! The math library through `crosslane run`: a value from an inexact function says its bound
//! in the JSON (full trace and `--trace none`), and `--use-fast-math` is stated and changes
//! the function run. Bounds: CUDA C++ Programming Guide, "Mathematical Functions" (`expf`: 2
//! ulp; `__expf`: 2 + floor(|1.173 x|) ulp).

use serde_json::Value;

use super::real_kernels::run;

fn out_buffer(buffers: &Value) -> Value {
    buffers
        .as_array()
        .and_then(|b| b.iter().find(|b| b["name"] == "out"))
        .cloned()
        .unwrap_or(Value::Null)
}

#[test]
fn softmax_cells_carry_the_expf_bound_in_both_trace_modes() {
    let full = run("inference/warp_softmax.cu", &["--threads-per-block", "64"]);
    let out = out_buffer(&full["memory"]["buffers"]);
    assert_eq!(out["ulp"][5], 2, "{out}");
    let quiet = run(
        "inference/warp_softmax.cu",
        &["--threads-per-block", "64", "--trace", "none"],
    );
    let out = out_buffer(&quiet["buffers"]);
    assert_eq!(out["ulp"][63], 2, "{out}");
    assert_eq!(
        out["accuracy"][0],
        "≈ cells 0-63: device may differ by ≤ 2 ulp (CUDA Math API, expf)"
    );
}

#[test]
fn use_fast_math_is_stated_and_runs_the_intrinsic() {
    let t = run(
        "inference/warp_softmax.cu",
        &[
            "--threads-per-block",
            "32",
            "--use-fast-math",
            "--trace",
            "none",
        ],
    );
    let stated = t["diagnostics"].as_array().into_iter().flatten().any(|d| {
        d["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("fast math (--use_fast_math)"))
    });
    assert!(stated, "{}", t["diagnostics"]);
    let out = out_buffer(&t["buffers"]);
    assert!(out["accuracy"][0]
        .as_str()
        .is_some_and(|s| s.ends_with("(CUDA Math API, __expf)")));
}
