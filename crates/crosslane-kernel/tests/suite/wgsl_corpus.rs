//! WGSL in the shapes WebGPU inference runtimes use (examples_wgsl/inference), each run on the
//! emulator and compared with a reference computed here from the math alone (f64, or f32
//! step by step where rounding decides the result), never from the emulator's output.
//! Read-only inputs keep the default fill: cell c holds c.

use crate::support::{floats_or_nan as floats, ints_or_min as ints};
use crosslane_kernel::wgsl::run_wgsl;
use crosslane_kernel::{KernelTrace, LaunchConfig};

fn run(file: &str, lanes: usize) -> KernelTrace {
    let p = format!(
        "{}/examples_wgsl/inference/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let src = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"));
    let cfg = LaunchConfig {
        lanes: Some(lanes),
        grid_dim: Some([1, 1, 1]),
        ..LaunchConfig::default()
    };
    let t = run_wgsl(&src, cfg).unwrap_or_else(|e| panic!("{file}: {e}"));
    let errors: Vec<String> = t
        .all_diagnostics()
        .filter(|d| d.level == crosslane_core::result::Level::Error)
        .map(|d| d.message.clone())
        .collect();
    assert!(errors.is_empty(), "{file}: {errors:#?}");
    t
}

/// Within `rel` of the reference (f32 rounding of a few operations; the spec's bounds for
/// exp, inverseSqrt and tanh are far wider than the emulator's correctly rounded results).
fn close(got: &[f64], want: &[f64], rel: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= rel * w.abs().max(1e-3),
            "{what}[{k}] = {g}, want {w}"
        );
    }
}

#[test]
fn rmsnorm_vec4() {
    let t = run("rmsnorm_vec4.wgsl", 32);
    let v: Vec<f64> = (0..128).map(|c| c as f64 * 0.01).collect();
    let ss: f64 = v.iter().map(|x| x * x).sum();
    let r = 1.0 / (ss / 128.0 + 1e-5).sqrt();
    let want: Vec<f64> = v.iter().map(|x| x * r).collect();
    close(&floats(&t, "y"), &want, 1e-5, "y");
}

#[test]
fn softmax() {
    let t = run("softmax.wgsl", 32);
    let s: Vec<f64> = (0..32).map(|i| i as f64 * 0.1).collect();
    let m = s.iter().cloned().fold(f64::MIN, f64::max);
    let e: Vec<f64> = s.iter().map(|x| (x - m).exp()).collect();
    let z: f64 = e.iter().sum();
    let want: Vec<f64> = e.iter().map(|x| x / z).collect();
    close(&floats(&t, "probs"), &want, 1e-5, "probs");
}

#[test]
fn flash_row_vec4() {
    let t = run("flash_row_vec4.wgsl", 32);
    let v: Vec<f64> = (0..128).map(|c| c as f64 * 0.05).collect();
    let m = v.iter().cloned().fold(f64::MIN, f64::max);
    let e: Vec<f64> = v.iter().map(|x| (x - m).exp()).collect();
    let l: f64 = e.iter().sum();
    let want: Vec<f64> = e.iter().map(|x| x / l).collect();
    close(&floats(&t, "p"), &want, 1e-5, "p");
}

#[test]
fn q8_block_quant() {
    let t = run("q8_block_quant.wgsl", 32);
    // In f32 step by step: the ties at ±63.5 depend on f32 rounding.
    let v: Vec<f32> = (0..32).map(|i| (i as f32 - 16.0) * 0.37).collect();
    let amax = v.iter().fold(0f32, |a, x| a.max(x.abs()));
    let d = amax / 127.0;
    let want: Vec<i128> = v
        .iter()
        .map(|x| (x / d).round_ties_even() as i128)
        .collect();
    assert_eq!(ints(&t, "q"), want);
    assert_eq!(floats(&t, "scale"), vec![f64::from(d)]);
}

#[test]
fn dot4_i8_packed() {
    let t = run("dot4_i8_packed.wgsl", 32);
    // (k, -k, 2, -3) . (1, 2, k, 4) = k - 2k + 2k - 12.
    let want: Vec<i128> = (0..16).map(|k| k - 12).collect();
    assert_eq!(ints(&t, "out"), want);
}

#[test]
fn matvec_subgroup() {
    let t = run("matvec_subgroup.wgsl", 32);
    // y[r] = sum_i (32r + i) i = 32r * 496 + 10416 (sum of i^2 for i < 32).
    let want: Vec<f64> = (0..8).map(|r| (32 * r * 496 + 10416) as f64).collect();
    assert_eq!(floats(&t, "y"), want);
}

#[test]
fn scan_vec2() {
    let t = run("scan_vec2.wgsl", 32);
    let incl: Vec<i128> = (0..32).flat_map(|l| [l + 1, l * (l + 1) / 2]).collect();
    let excl: Vec<i128> = (0..32)
        .flat_map(|l: i128| [l, l * (l - 1).max(0) / 2])
        .collect();
    assert_eq!(ints(&t, "incl"), incl);
    assert_eq!(ints(&t, "excl"), excl);
}

#[test]
fn gelu_and_silu() {
    let v: Vec<f64> = (0..32).map(|c| (c as f64 - 16.0) * 0.25).collect();
    // In f32 step by step: 1 + tanh(…) cancels for x << 0, so f32 rounding decides the last
    // digits there (tanh itself correctly rounded from f64).
    let gelu: Vec<f64> = v
        .iter()
        .map(|&x| {
            let x = x as f32;
            let inner = (0.797_884_560_8_f64 as f32) * (x + 0.044715 * x * x * x);
            let t = (f64::from(inner)).tanh() as f32;
            f64::from(0.5 * x * (1.0 + t))
        })
        .collect();
    close(
        &floats(&run("gelu_tanh.wgsl", 32), "y"),
        &gelu,
        1e-5,
        "gelu",
    );
    let silu: Vec<f64> = v.iter().map(|x| x / (1.0 + (-x).exp())).collect();
    close(&floats(&run("silu_exp.wgsl", 32), "y"), &silu, 1e-5, "silu");
}

#[test]
fn layernorm() {
    let t = run("layernorm.wgsl", 32);
    let v: Vec<f64> = (0..32).map(|i| i as f64 * 0.5).collect();
    let mean = v.iter().sum::<f64>() / 32.0;
    let var = v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / 32.0;
    let want: Vec<f64> = v.iter().map(|x| (x - mean) / (var + 1e-5).sqrt()).collect();
    close(&floats(&t, "y"), &want, 1e-5, "y");
}

#[test]
fn rope() {
    let t = run("rope.wgsl", 32);
    let mut want = Vec::new();
    for k in 0..16 {
        let (a, b) = (0.2 * k as f64, 0.2 * k as f64 + 0.1);
        let th = 3.0 * 10000f64.powf(-2.0 * k as f64 / 32.0);
        want.push(a * th.cos() - b * th.sin());
        want.push(a * th.sin() + b * th.cos());
    }
    // Absolute 1e-6 where a rotated component is near 0.
    let got = floats(&t, "y");
    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
        assert!(
            (g - w).abs() <= 1e-5 * w.abs().max(0.1),
            "y[{k}] = {g}, want {w}"
        );
    }
}

#[test]
fn argmax_ballot() {
    // Logits (7 lane) mod 32 are a permutation of 0..32; 31 sits at lane 9 (7 * 9 = 63).
    assert_eq!(ints(&run("argmax_ballot.wgsl", 32), "best"), vec![9; 32]);
}

#[test]
fn workgroup_sum_with_subgroup_id() {
    // 0 + 1 + … + 63, two subgroups of 32.
    assert_eq!(
        ints(&run("workgroup_sum_subgroup_id.wgsl", 32), "total"),
        vec![2016]
    );
}

#[test]
fn histogram_atomic() {
    // 5 is invertible mod 8, so (5i) mod 8 for i < 64 hits each bin 8 times.
    assert_eq!(ints(&run("histogram_atomic.wgsl", 32), "hist"), vec![8; 8]);
}

#[test]
fn tint_e2e_builtins() {
    let t = run("tint_e2e_builtins.wgsl", 32);
    assert_eq!(
        ints(&t, "prevent_dce"),
        vec![
            32321,       // countOneBits(1, 3, 7, ~0) = (1, 2, 3, 32)
            0xbc00_3800, // f16(0.5) = 0x3800, f16(-1.0) = 0xbc00
            0x1122_3344, // unorm bytes survive the round trip
            2,           // all(t, t, f) = false; any(f, t) = true
            0x3f80_0000, // the bits of 1.0f
            1,           // component y: false picks the first operand
            23,          // bit 23 is the top one of 0x00ff0000
            0x3d00_0000, // 0xbc reversed
        ]
    );
}
