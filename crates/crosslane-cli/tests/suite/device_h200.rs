//! crosslane against real silicon, without a GPU: `tests/kernels/device/h200.json` holds the
//! final buffers an NVIDIA H200 (nvcc 13.0, `-O3 -arch=sm_90`) produced for 113 of this
//! repository's CUDA kernels (`tests/kernels/inference`, `tests/kernels/cuda`, the kernel
//! snapshot inputs, the page's written examples), each launched by a harness with crosslane's
//! own initial buffers and launch (`scripts/device-oracle`; docs/benchmarks.md, "On real
//! silicon"). This test runs each kernel again with the same file and flags (and
//! `--single-launch`: the harness launched that one kernel) and compares every
//! cell of every parameter buffer with the device's bytes:
//!
//! - an integer, or a float crosslane states as exact, must be bit-equal to the device's;
//! - a float from an inexact math function may differ by no more than the bound crosslane
//!   states on the cell (`approx.ulp`, from the CUDA Math API's table) — a device farther away
//!   means crosslane's stated bound is false;
//! - a cell crosslane calls undefined is not compared (the device's value is whatever it is).
//!
//! A kernel crosslane no longer runs to the end fails the test too: the device ran it.

use serde_json::Value;

use super::common::crosslane;

fn record() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/kernels/device/h200.json"
    );
    let text = std::fs::read_to_string(path).expect("tests/kernels/device/h200.json");
    serde_json::from_str(&text).expect("the record is JSON")
}

/// Bytes per cell of a crosslane scalar type.
fn size_of(scalar: &str) -> Option<usize> {
    Some(match scalar {
        "i8" | "u8" | "bool" | "e4m3" | "e5m2" => 1,
        "i16" | "u16" | "f16" | "bf16" => 2,
        "i32" | "u32" | "f32" => 4,
        "i64" | "u64" | "f64" => 8,
        _ => return None,
    })
}

/// A float cell's value (`x`: a number, or `"inf"`, `"-inf"`, `"NaN"`).
fn float_of(x: &Value) -> f64 {
    match x {
        Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
        Value::String(s) if s == "inf" => f64::INFINITY,
        Value::String(s) if s == "-inf" => f64::NEG_INFINITY,
        _ => f64::NAN,
    }
}

/// The value of an OCP FP8 byte (OCP 8-bit Floating Point Specification: E4M3 bias 7, its one
/// NaN pattern S.1111.111 and no infinity; E5M2 bias 15 with IEEE infinities and NaNs).
fn fp8_value(code: u8, e4m3: bool) -> f64 {
    let sign = if code & 0x80 != 0 { -1.0 } else { 1.0 };
    let (e, m, mbits, bias) = if e4m3 {
        (i32::from((code >> 3) & 0xF), f64::from(code & 7), 8.0, 7)
    } else {
        (i32::from((code >> 2) & 0x1F), f64::from(code & 3), 4.0, 15)
    };
    if e4m3 && e == 15 && m == 7.0 || !e4m3 && e == 31 && m != 0.0 {
        return f64::NAN;
    }
    if !e4m3 && e == 31 {
        return sign * f64::INFINITY;
    }
    if e == 0 {
        sign * m / mbits * 2f64.powi(1 - bias)
    } else {
        sign * (1.0 + m / mbits) * 2f64.powi(e - bias)
    }
}

/// The byte holding `x` (a crosslane FP8 cell is always representable; a NaN is 0x7F).
fn fp8_code(x: f64, e4m3: bool) -> Option<u8> {
    if x.is_nan() {
        return Some(0x7F);
    }
    (0..=255u8).find(|&c| {
        let v = fp8_value(c, e4m3);
        v == x && v.is_sign_negative() == x.is_sign_negative()
    })
}

/// The little-endian bytes of a defined cell, `None` for an undefined one.
fn cell_bytes(cell: &Value, scalar: &str, size: usize) -> Option<Vec<u8>> {
    match cell["kind"].as_str()? {
        "int" => Some(cell["bits"].as_u64()?.to_le_bytes()[..size].to_vec()),
        "bool" => Some(vec![u8::from(cell["value"].as_bool().unwrap_or(false))]),
        "float" => {
            let x = float_of(&cell["x"]);
            Some(match scalar {
                "f64" => x.to_le_bytes().to_vec(),
                "f32" => (x as f32).to_le_bytes().to_vec(),
                "f16" => half::f16::from_f64(x).to_le_bytes().to_vec(),
                "bf16" => half::bf16::from_f64(x).to_le_bytes().to_vec(),
                "e4m3" | "e5m2" => vec![fp8_code(x, scalar == "e4m3")?],
                _ => return None,
            })
        }
        _ => None,
    }
}

/// The distance in representable values between two floats of one type, by their bits.
fn ulps_apart(a: &[u8], b: &[u8]) -> u64 {
    let ordered = |bytes: &[u8]| -> i128 {
        let mut raw = [0u8; 8];
        raw[..bytes.len()].copy_from_slice(bytes);
        let bits = u64::from_le_bytes(raw);
        let sign = 1u64 << (bytes.len() * 8 - 1);
        let magnitude = i128::from(bits & (sign - 1));
        if bits & sign != 0 {
            -magnitude
        } else {
            magnitude
        }
    };
    (ordered(a) - ordered(b)).unsigned_abs() as u64
}

#[test]
fn every_recorded_cell_is_the_devices_or_within_the_stated_bound() {
    let rec = record();
    let kernels = rec["kernels"].as_array().expect("kernels");
    assert!(kernels.len() >= 100, "{} kernels recorded", kernels.len());
    let (mut equal, mut within, mut undefined) = (0usize, 0usize, 0usize);
    let mut wrong = Vec::new();
    for k in kernels {
        let file = k["file"].as_str().expect("file");
        let path = format!("{}/../../{file}", env!("CARGO_MANIFEST_DIR"));
        // The harness launched the one kernel crosslane traces, on crosslane's buffers.
        let mut args = vec![
            "run",
            path.as_str(),
            "--json",
            "--trace",
            "none",
            "--single-launch",
        ];
        let flags: Vec<&str> = k["flags"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        args.extend(flags);
        let out = crosslane(&args);
        let trace: Value = match serde_json::from_slice(&out.stdout) {
            Ok(t) => t,
            Err(e) => {
                wrong.push(format!("{file}: no trace ({e})"));
                continue;
            }
        };
        if trace["outcome"]["kind"] != "finished" {
            wrong.push(format!("{file}: outcome {}", trace["outcome"]));
            continue;
        }
        for (name, hex) in k["buffers"].as_object().into_iter().flatten() {
            let device: Vec<u8> = (0..hex.as_str().unwrap_or("").len() / 2)
                .filter_map(|i| u8::from_str_radix(hex.as_str()?.get(2 * i..2 * i + 2)?, 16).ok())
                .collect();
            let Some(buf) = trace["buffers"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|b| b["name"] == name.as_str())
            else {
                wrong.push(format!("{file}: no buffer `{name}`"));
                continue;
            };
            let scalar = buf["elem"]["scalar"].as_str().unwrap_or("");
            let Some(size) = size_of(scalar) else {
                wrong.push(format!("{file}: `{name}` of {scalar}"));
                continue;
            };
            for (i, cell) in buf["cells"].as_array().into_iter().flatten().enumerate() {
                let Some(got) = device.get(i * size..(i + 1) * size) else {
                    wrong.push(format!("{file}: `{name}`[{i}] is past the device's buffer"));
                    break;
                };
                let Some(want) = cell_bytes(cell, scalar, size) else {
                    undefined += 1;
                    continue;
                };
                if want == got {
                    equal += 1;
                    continue;
                }
                let bound = cell["approx"]["ulp"].as_u64();
                match bound {
                    Some(n) if cell["kind"] == "float" && ulps_apart(&want, got) <= n => {
                        within += 1
                    }
                    _ => wrong.push(format!(
                        "{file}: `{name}`[{i}]: crosslane {} (bound {bound:?} ulp), device bytes {}",
                        cell.get("x").or(cell.get("bits")).unwrap_or(&Value::Null),
                        got.iter().map(|b| format!("{b:02x}")).collect::<String>()
                    )),
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} cells or kernels differ from the H200:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    // The comparison compares: most cells are bit-equal, some within their bound.
    assert!(
        equal > 10_000 && within > 100,
        "{equal} equal, {within} within, {undefined} undefined"
    );
}
