//! Floating-point contraction (`crate::contract`): a `float` / `double` product and the sum or
//! difference it feeds, in one expression, is one fused multiply-add rounded once, as nvcc
//! (`--fmad=true`, its default) and clang for HIP (`-ffp-contract=fast-honor-pragmas`) compile
//! it; `fmad: Some(false)` (`--fmad=false`) rounds each operation. Every expected value is
//! derived with exact rationals in `models/contract.py` (kept beside this file), quoted here:
//! with a = b = 1 + 2^-12, a·b = 1 + 2^-11 + 2^-24 exactly, so fused a·b - 1 = 2^-11 + 2^-24
//! and unfused (a·b rounds to 1 + 2^-11, the 2^-24 being a tie that goes to even) 2^-11.
//! Each kernel runs with the typed form on and off (`with_typed_form`), which must agree.

use crate::support::floats_or_nan as floats;
use crosslane_core::Dialect;
use crosslane_kernel::{Executor, KVal, KernelTrace, LaunchConfig};

/// 2^-11 + 2^-24 (contract.py: "f32 fused a*b-1").
const FUSED: f64 = 8193.0 / 16_777_216.0;
/// 2^-11 (contract.py: "f32 unfused a*b-1").
const UNFUSED: f64 = 1.0 / 2048.0;
/// 1 + 2^-12, exactly.
const A: &str = "1.000244140625";

fn config(dialect: Dialect, fmad: Option<bool>, args: &[(&str, &str)]) -> LaunchConfig {
    LaunchConfig {
        dialect: Some(dialect),
        block_dim: Some([1, 1, 1]),
        fmad,
        args: args
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect(),
        ..LaunchConfig::default()
    }
}

fn run(src: &str, cfg: &LaunchConfig, typed: bool) -> KernelTrace {
    let mut ex = Executor::new(src, cfg.clone())
        .unwrap_or_else(|e| panic!("{e}"))
        .with_typed_form(typed);
    while ex.run_for(1000) == 1000 {}
    ex.into_trace()
}

/// The buffer `name` after the kernel, the same with the typed form on and off.
fn values(src: &str, cfg: &LaunchConfig, name: &str) -> Vec<f64> {
    let typed = floats(&run(src, cfg, true), name);
    let general = floats(&run(src, cfg, false), name);
    assert_eq!(
        typed.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        general.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        "typed form {typed:?} vs general evaluator {general:?}"
    );
    typed
}

const SHAPES: &str = "\
__global__ void k(float* out, double* dout, float a, float b, float one, double d) {
  out[0] = a * b - one;
  out[1] = -one + a * b;
  out[2] = one - a * b;
  float acc = -one;
  acc += a * b;
  out[3] = acc;
  float acc2 = one;
  acc2 -= a * b;
  out[4] = acc2;
  out[5] = __fmul_rn(a, b) - one;
  out[6] = __fadd_rn(a * b, -one);
  float p = a * b;
  out[7] = p - one;
  float s = a * b + (-one);
  out[8] = s;
  dout[0] = d * d - 1.0;
  dout[1] = a * b - 1.0;
}
";

fn shape_args() -> Vec<(&'static str, &'static str)> {
    vec![
        ("a", A),
        ("b", A),
        ("one", "1"),
        // 1 + 2^-30, exactly.
        ("d", "1.000000000931322574615478515625"),
        ("out", "zero"),
        ("dout", "zero"),
    ]
}

#[test]
fn every_fusion_shape_rounds_once_by_default_on_cuda() {
    let mut cfg = config(Dialect::Cuda, None, &shape_args());
    cfg.buffer_len.insert("out".into(), 9);
    cfg.buffer_len.insert("dout".into(), 2);
    let out = values(SHAPES, &cfg, "out");
    // a*b-1, -1+a*b, acc=-1; acc+=a*b, and a*b+(-1) fuse; 1-a*b and acc=1; acc-=a*b are
    // fma(-a, b, 1); __fmul_rn / __fadd_rn are never merged (CUDA C++ Programming Guide), and
    // a product stored to `p` and used in a later statement is not fused here.
    assert_eq!(
        out,
        [FUSED, FUSED, -FUSED, FUSED, -FUSED, UNFUSED, UNFUSED, UNFUSED, FUSED]
    );
    let dout = values(SHAPES, &cfg, "dout");
    // contract.py "f64 fused d*d-1": 2^-29 + 2^-60; a float product minus a double 1.0 is
    // converted before the subtraction and not fused: 2^-11.
    assert_eq!(dout, [2147483649.0 / 1152921504606846976.0, UNFUSED]);
    let t = run(SHAPES, &cfg, true);
    assert!(
        t.launch
            .fp_contract
            .starts_with("floating-point contraction on (nvcc's default --fmad=true)"),
        "{}",
        t.launch.fp_contract
    );
}

#[test]
fn fmad_false_rounds_every_product_and_sum() {
    let mut cfg = config(Dialect::Cuda, Some(false), &shape_args());
    cfg.buffer_len.insert("out".into(), 9);
    cfg.buffer_len.insert("dout".into(), 2);
    let out = values(SHAPES, &cfg, "out");
    assert_eq!(
        out,
        [UNFUSED, UNFUSED, -UNFUSED, UNFUSED, -UNFUSED, UNFUSED, UNFUSED, UNFUSED, UNFUSED]
    );
    // contract.py "f64 unfused d*d-1": 2^-29.
    assert_eq!(values(SHAPES, &cfg, "dout"), [1.0 / 536870912.0, UNFUSED]);
    let t = run(SHAPES, &cfg, true);
    assert!(t
        .launch
        .fp_contract
        .starts_with("floating-point contraction off (--fmad=false)"));
}

const DOT: &str = "\
__global__ void dot(const float* x, const float* y, float* out, int n) {
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) {
    acc += x[k] * y[k];
  }
  out[0] = acc;
  float acc2 = 0.0f;
  for (int k = 0; k < n; ++k) {
    acc2 = x[k] * y[k] + acc2;
  }
  out[1] = acc2;
  float acc3 = 0.0f;
  for (int k = 0; k < n; ++k) {
    float p = x[k] * y[k];
    acc3 += p;
  }
  out[2] = acc3;
}
";

#[test]
fn a_dot_product_loop_gives_the_fused_sum() {
    // x[k] = 1 + k*2^-12, y[k] = 1 + 3k*2^-12, k = 0..7 (contract.py "dot fused" / "dot unfused").
    let fused = 4208653.0 / 524288.0;
    let unfused = 8417307.0 / 1048576.0;
    let args = [
        ("x", "i*0.000244140625+1"),
        ("y", "i*0.000732421875+1"),
        ("out", "zero"),
        ("n", "8"),
    ];
    let mut cfg = config(Dialect::Cuda, None, &args);
    for (b, n) in [("x", 8), ("y", 8), ("out", 3)] {
        cfg.buffer_len.insert(b.into(), n);
    }
    assert_eq!(values(DOT, &cfg, "out"), [fused, fused, unfused]);
    cfg.fmad = Some(false);
    assert_eq!(values(DOT, &cfg, "out"), [unfused, unfused, unfused]);
}

const PRAGMA: &str = "\
__global__ void k(float* out, float a, float b, float one) {
  out[0] = a * b - one;
  {
#pragma clang fp contract(off)
    out[1] = a * b - one;
  }
  out[2] = a * b - one;
}
";

fn pragma_config(dialect: Dialect) -> LaunchConfig {
    let mut cfg = config(
        dialect,
        None,
        &[("a", A), ("b", A), ("one", "1"), ("out", "zero")],
    );
    cfg.buffer_len.insert("out".into(), 3);
    cfg
}

#[test]
fn hip_honors_the_contraction_pragma_in_its_compound_statement() {
    let cfg = pragma_config(Dialect::Hip);
    assert_eq!(values(PRAGMA, &cfg, "out"), [FUSED, UNFUSED, FUSED]);
    let t = run(PRAGMA, &cfg, true);
    assert!(t
        .launch
        .fp_contract
        .contains("clang's HIP default -ffp-contract=fast-honor-pragmas"));
    // At namespace scope it holds to the end of the source; STDC FP_CONTRACT OFF too.
    for pragma in [
        "#pragma clang fp contract(off)",
        "#pragma STDC FP_CONTRACT OFF",
    ] {
        let src = format!("{pragma}\n{PRAGMA}");
        assert_eq!(values(&src, &cfg, "out"), [UNFUSED, UNFUSED, UNFUSED]);
    }
}

#[test]
fn cuda_keeps_fusing_under_the_pragma_and_says_so() {
    let cfg = pragma_config(Dialect::Cuda);
    assert_eq!(values(PRAGMA, &cfg, "out"), [FUSED, FUSED, FUSED]);
    let t = run(PRAGMA, &cfg, true);
    assert!(t.all_diagnostics().any(|d| d
        .message
        .starts_with("a floating-point contraction pragma is applied for HIP only")));
}

#[test]
fn wgsl_rounds_each_operation() {
    // WGSL, Floating Point Accuracy: x * y and x - y are each correctly rounded.
    let src = "@group(0) @binding(0) var<storage, read_write> v: array<f32, 4>;
@compute @workgroup_size(1)
fn main() {
  v[3] = v[0] * v[1] - v[2];
}";
    let cfg = LaunchConfig {
        grid_dim: Some([1, 1, 1]),
        args: [("v".to_string(), format!("{A},{A},1,0"))].into(),
        ..LaunchConfig::default()
    };
    let t = crosslane_kernel::wgsl::run_wgsl(src, cfg).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(floats(&t, "v")[3], UNFUSED);
    assert!(t
        .launch
        .fp_contract
        .starts_with("floating-point contraction off (WGSL"));
}

const FAST: &str = "\
__global__ void k(float* out, float x, float y, float t, float big, float huge) {
  out[0] = x / y;
  out[1] = sqrtf(x);
  out[2] = t * 0.5f;
  out[3] = big / huge;
  out[4] = __fdividef(big, huge);
  out[5] = (t * 0.5f) * 4.0f;
}
";

fn fast_config(fast: bool) -> LaunchConfig {
    let mut cfg = config(
        Dialect::Cuda,
        None,
        &[
            ("x", "2"),
            ("y", "3"),
            // 2^-126 (FLT_MIN), 2^100, 2^127.
            ("t", "1.1754943508222875e-38"),
            ("big", "1.2676506002282294e30"),
            ("huge", "1.7014118346046923e38"),
            ("out", "zero"),
        ],
    );
    cfg.use_fast_math = fast;
    cfg.buffer_len.insert("out".into(), 6);
    cfg
}

#[test]
fn fast_math_divides_and_roots_with_the_prec_false_bounds_and_flushes_denormals() {
    let t = run(FAST, &fast_config(true), true);
    let out = t.buffer("out").expect("out");
    let value = |k: usize| out[k].as_ref().and_then(KVal::as_f64);
    let note = |k: usize| {
        out[k]
            .as_ref()
            .and_then(KVal::approx)
            .map(|a| (a.name(), a.ulp()))
    };
    // contract.py "f32 2/3", "f32 sqrt(2)": the correctly rounded values, each with the
    // bound of -prec-div=false (2 ulp, full range) and -prec-sqrt=false (1 ulp).
    assert_eq!(value(0), Some(11184811.0 / 16777216.0));
    assert_eq!(note(0), Some(("x/y (-prec-div=false)", Some(2))));
    assert_eq!(value(1), Some(11863283.0 / 8388608.0));
    assert_eq!(note(1), Some(("sqrtf (-prec-sqrt=false)", Some(1))));
    // 2^-126 * 0.5 = 2^-127 is denormal: flushed to +0 (-ftz=true), and a flushed result
    // stays 0 when scaled back up.
    assert_eq!(value(2), Some(0.0));
    assert_eq!(value(5), Some(0.0));
    // For 2^126 < |y| < 2^128 the `/` operator gives the quotient (2^100 / 2^127 = 2^-27)
    // where __fdividef gives 0 (CUDA C++ Programming Guide, Intrinsic Functions).
    assert_eq!(value(3), Some(1.0 / 134217728.0));
    assert_eq!(value(4), Some(0.0));
    assert!(t.all_diagnostics().any(|d| d
        .message
        .contains("float x/y may differ by ≤ 2 ulp (-prec-div=false")));
}

#[test]
fn without_fast_math_division_and_sqrtf_are_exact_and_denormals_kept() {
    let out = floats(&run(FAST, &fast_config(false), true), "out");
    // contract.py "2^-126 * 0.5 (unflushed)": 2^-127; times 4: 2^-125.
    assert_eq!(
        out,
        [
            11184811.0 / 16777216.0,
            11863283.0 / 8388608.0,
            5.877471754111438e-39,
            1.0 / 134217728.0,
            0.0,
            2.350988701644575e-38
        ]
    );
    let t = run(FAST, &fast_config(false), true);
    let cells = t.buffer("out").expect("out");
    assert!(cells[..2]
        .iter()
        .all(|c| c.as_ref().and_then(KVal::approx).is_none()));
}
