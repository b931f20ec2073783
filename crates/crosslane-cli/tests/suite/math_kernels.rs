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
    // Each cell is e / s, e = expf(x - m) (2 ulp) and s a sum of 32 such values: the bound is
    // expf's carried through the 6 operations after it, at least expf's own 2 ulp and, for
    // these values, at most a few dozen (the H200's values lie within it: device_h200).
    let out = out_buffer(&full["memory"]["buffers"]);
    let full_ulp = out["ulp"][5].as_u64().unwrap_or(0);
    assert!((2..=64).contains(&full_ulp), "{out}");
    let quiet = run(
        "inference/warp_softmax.cu",
        &["--threads-per-block", "64", "--trace", "none"],
    );
    let out = out_buffer(&quiet["buffers"]);
    assert_eq!(
        out["ulp"][5].as_u64(),
        Some(full_ulp),
        "both modes state one bound"
    );
    let note = out["accuracy"][0].as_str().unwrap_or("");
    assert!(note.starts_with("≈ cells "), "{note}");
    assert!(
        note.ends_with("(CUDA Math API, expf, then 6 operations)"),
        "{note}"
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
        .is_some_and(|s| s.contains("(CUDA Math API, __expf")));
}

/// nvcc's default `--fmad=true` fuses `a*b+c`; `--fmad=false` and clang's `-ffp-contract=off`
/// round each operation. Values: `tests/kernels/cuda/fma_contraction.cu`'s header (exact
/// rationals in crosslane-kernel's `models/contract.py`).
#[test]
fn fmad_decides_whether_a_product_and_sum_are_fused() {
    let base = [
        "--arg",
        "a=1.000244140625",
        "--arg",
        "b=1.000244140625",
        "--arg",
        "c=-1",
        "--threads-per-block",
        "1",
        "--trace",
        "none",
    ];
    let cell = |flags: &[&str]| {
        let t = run("cuda/fma_contraction.cu", &[&base[..], flags].concat());
        let out = out_buffer(&t["buffers"]);
        (
            out["values"][0].as_f64(),
            t["launch"]["fp_contract"].clone(),
        )
    };
    let (fused, mode) = cell(&[]);
    assert_eq!(fused, Some(8193.0 / 16_777_216.0));
    assert!(mode.as_str().is_some_and(
        |m| m.starts_with("floating-point contraction on (nvcc's default --fmad=true)")
    ));
    for off in ["--fmad=false", "-ffp-contract=off"] {
        let (unfused, mode) = cell(&[off]);
        assert_eq!(unfused, Some(1.0 / 2048.0), "{off}");
        assert!(mode
            .as_str()
            .is_some_and(|m| m.starts_with("floating-point contraction off")));
    }
}

/// A kernel scenario's (and so a link's) `fmad: false` turns contraction off; absent, the
/// dialect's default fuses. Values as in `fmad_decides_whether_a_product_and_sum_are_fused`.
#[test]
fn a_kernel_scenario_carries_fmad() {
    use crosslane_core::scenario::{Scenario, View};
    let source = std::fs::read_to_string(
        [
            env!("CARGO_MANIFEST_DIR"),
            "..",
            "..",
            "tests",
            "kernels",
            "cuda",
            "fma_contraction.cu",
        ]
        .iter()
        .collect::<std::path::PathBuf>(),
    )
    .expect("the kernel");
    let value = |fmad: Option<bool>| {
        let mut s = Scenario::new(View::Kernel {
            source: source.clone(),
            blocks: 1,
            threads_per_block: 1,
            lanes: 0,
            step: 0,
        });
        for (k, v) in [
            ("a", "1.000244140625"),
            ("b", "1.000244140625"),
            ("c", "-1"),
        ] {
            s.kernel_inputs.args.insert(k.into(), v.into());
        }
        s.kernel_inputs.fmad = fmad;
        let link = crosslane_core::permalink::encode(&s);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_crosslane"))
            .args(["run", &link, "--json", "--trace", "none"])
            .output()
            .expect("the crosslane binary runs");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let t: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        out_buffer(&t["buffers"])["values"][0].as_f64()
    };
    assert_eq!(value(None), Some(8193.0 / 16_777_216.0));
    assert_eq!(value(Some(false)), Some(1.0 / 2048.0));
}
