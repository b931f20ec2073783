//! `crosslane run FILE.wgsl`: JSON buffers with hand-derived values, `--buffer` fills, refusals
//! with exit 2, and `--gpu` on the machine's Vulkan device (lavapipe in CI, subgroup size 8):
//! every example shader's every buffer matches the emulator.

use std::process::Command;

fn crosslane(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_crosslane"))
        .args(args)
        .output()
        .expect("the crosslane binary runs")
}

fn example(name: &str) -> String {
    format!(
        "{}/../crosslane-kernel/examples_wgsl/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn json(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}\nstdout:\n{}\nstderr:\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn values(j: &serde_json::Value, name: &str) -> Vec<serde_json::Value> {
    j["buffers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == name)
        .unwrap_or_else(|| panic!("no buffer {name}"))["values"]
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn json_buffers_with_fills_at_subgroup_size_8() {
    let f = example("reduce_scan.wgsl");
    let out = crosslane(&[
        "run",
        &f,
        "--subgroup-size",
        "8",
        "--buffer",
        "input=i*2+1",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let j = json(&out);
    assert_eq!(j["subgroup_size"], 8);
    assert_eq!(j["workgroup_size"], serde_json::json!([16, 1, 1]));
    // 1+3+…+15 = 64; 17+19+…+31 = 192.
    let sums: Vec<i64> = values(&j, "sums")
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert_eq!(sums, [vec![64; 8], vec![192; 8]].concat());
    // By binding number, one value everywhere: 8 * 5 = 40 in every invocation.
    let out = crosslane(&[
        "run",
        &f,
        "--subgroup-size",
        "8",
        "--buffer",
        "0=5",
        "--json",
    ]);
    let j = json(&out);
    assert_eq!(values(&j, "sums"), vec![serde_json::json!(40); 16]);
    // A list gives the length; two workgroups of 16 need 32 cells of the other buffers.
    let list: Vec<String> = (0..32).map(|i| (i % 2).to_string()).collect();
    let spec = format!("input={}", list.join(","));
    let out = crosslane(&[
        "run",
        &f,
        "--subgroup-size",
        "8",
        "--workgroups",
        "2",
        "--buffer",
        &spec,
        "--json",
    ]);
    let j = json(&out);
    assert_eq!(values(&j, "sums"), vec![serde_json::json!(4); 32]);
}

#[test]
fn indeterminate_cells_are_null_with_a_diagnostic() {
    let out = crosslane(&[
        "run",
        &example("ballot_broadcast_shuffle.wgsl"),
        "--subgroup-size",
        "8",
        "--json",
    ]);
    let j = json(&out);
    let down = values(&j, "down");
    assert!(down[7].is_null() && down[15].is_null(), "{down:?}");
    assert_eq!(down[0], 10);
    let diags = j["diagnostics"].as_array().unwrap();
    assert!(diags.iter().any(|d| d["message"]
        .as_str()
        .unwrap_or("")
        .contains("subgroupShuffleDown")));
}

#[test]
fn refusals_exit_2_with_line_and_column() {
    let dir = std::env::temp_dir().join(format!("crosslane-wgsl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.wgsl");
    std::fs::write(
        &bad,
        "enable subgroups;\n@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(8)\nfn main(@builtin(subgroup_invocation_id) lane: u32) {\n  if (lane < 4u) { out[lane] = subgroupAdd(lane); }\n}\n",
    )
    .unwrap();
    let out = crosslane(&["run", bad.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(":5:"), "{err}");
    assert!(err.contains("subgroup_uniformity"), "{err}");
    let out = crosslane(&["run", &example("reduce_scan.wgsl"), "--buffer", "nope=1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("input, sums, incl, excl"));
    let out = crosslane(&["run", &example("reduce_scan.wgsl"), "--subgroup-size", "6"]);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_example_matches_on_the_gpu() {
    let skip = std::env::var("CROSSLANE_GPU_TESTS").as_deref() == Ok("skip");
    let dir = format!(
        "{}/../crosslane-kernel/examples_wgsl",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .filter(|p| p.ends_with(".wgsl"))
        .collect();
    names.sort();
    assert!(names.len() >= 9);
    for f in &names {
        let out = crosslane(&["run", f, "--workgroups", "2", "--gpu", "--json"]);
        if out.status.code() == Some(3) && skip {
            eprintln!(
                "CROSSLANE_GPU_TESTS=skip: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            return;
        }
        assert_eq!(
            out.status.code(),
            Some(0),
            "{f}\nstdout:\n{}\nstderr:\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let j = json(&out);
        let gpu = &j["gpu"];
        // The emulator ran at the device's subgroup size (lavapipe: 8).
        assert_eq!(j["subgroup_size"], gpu["subgroup_size"], "{f}");
        let bufs = gpu["buffers"].as_array().unwrap();
        assert_eq!(bufs.len(), j["buffers"].as_array().unwrap().len(), "{f}");
        for b in bufs {
            assert_eq!(b["mismatch"], 0, "{f}: {b}");
            assert!(b["match"].as_u64().unwrap() > 0, "{f}: {b}");
        }
    }
}

#[test]
fn a_kernel_scenario_and_its_permalink_carry_a_wgsl_shader() {
    use crosslane_core::scenario::{Scenario, View};
    let source = std::fs::read_to_string(example("partial_subgroup.wgsl")).unwrap();
    let scenario = Scenario {
        view: View::Kernel {
            source,
            blocks: 1,
            threads_per_block: 0,
            lanes: 8,
            step: 0,
        },
        ..serde_json::from_str::<Scenario>(r#"{"version": 1, "view": {"kernel": {"source": "", "blocks": 1, "threads_per_block": 0, "lanes": 0, "step": 0}}}"#).unwrap()
    };
    let link = crosslane_core::permalink::encode(&scenario);
    let out = crosslane(&["run", &link, "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j = json(&out);
    // The scenario's lanes (8) are the subgroup size: 0+…+7 and 8+…+11.
    assert_eq!(j["subgroup_size"], 8);
    let sums: Vec<i64> = values(&j, "sums")
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert_eq!(sums, [vec![28; 8], vec![38; 4]].concat());
}

#[test]
fn vector_buffers_are_flattened_in_component_order_in_json() {
    let f = example("vectors.wgsl");
    let out = crosslane(&["run", &f, "--subgroup-size", "8", "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j = json(&out);
    // points[i] = (2i, 2i + 1) from the index fill; out[i] = (i/2, 2i, 4i + 1, 4i + 3) - 0.5.
    let o: Vec<f64> = values(&j, "out")
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(o.len(), 32);
    assert_eq!(o[..8], [-0.5, -0.5, 0.5, 2.5, 0.0, 1.5, 4.5, 6.5]);
    // ids[i] = (gid.x, gid.y, lane, subgroupAdd(1) = 8 in one subgroup of 8).
    let ids: Vec<i64> = values(&j, "ids")
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert_eq!(ids[4..12], [1, 0, 1, 8, 2, 0, 2, 8]);
    let b = j["buffers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == "out")
        .unwrap();
    assert_eq!(b["type"], "vec4<f32>");
}

#[test]
fn struct_buffers_are_flattened_in_declaration_order_in_json() {
    let f = example("structs.wgsl");
    let out = crosslane(&["run", &f, "--subgroup-size", "8", "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j = json(&out);
    // Particle i: pos, vel, mass, charge = cells 6i..6i+6 (index fill); pos += vel / 2,
    // vel.y -= mass, charge negated. Particle 0: (0 + 1, 1 + 1.5, 2, 3 - 4, 4, -5).
    let p: Vec<f64> = values(&j, "particles")
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(p.len(), 48);
    assert_eq!(p[..6], [1.0, 2.5, 2.0, -1.0, 4.0, -5.0]);
    // One subgroup of 8: total 80, lanes 8.
    assert_eq!(
        values(&j, "stats"),
        [serde_json::json!(80), serde_json::json!(8)]
    );
    let b = j["buffers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == "particles")
        .unwrap();
    assert_eq!(b["type"], "Particle");
}

#[test]
fn overrides_set_by_flag_and_inexact_builtins_listed_with_their_bounds() {
    // out[i] = exp(f32(i) * scale) with scale overridden to 0 (exp(0) = 1 in every cell) and
    // offset left at its initializer 2: 1 + 2 = 3.
    let dir = std::env::temp_dir().join(format!("crosslane-override-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("o.wgsl");
    std::fs::write(
        &f,
        "override scale: f32 = 1.0;\noverride offset: f32 = 2.0;\n@group(0) @binding(0) var<storage, read_write> out: array<f32>;\n@compute @workgroup_size(4)\nfn main(@builtin(local_invocation_index) i: u32) {\n  out[i] = exp(f32(i) * scale) + offset;\n}\n",
    )
    .unwrap();
    let path = f.display().to_string();
    let out = crosslane(&["run", &path, "--override", "scale=0", "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j = json(&out);
    assert_eq!(values(&j, "out"), vec![serde_json::json!(3.0); 4]);
    // WGSL spec § 15.7.4: exp's bound is 3 + 2 |x| ULP.
    let acc = j["accuracy"].as_array().unwrap();
    assert_eq!(acc.len(), 1, "{acc:?}");
    assert_eq!(acc[0]["builtin"], "exp");
    assert_eq!(acc[0]["ulp"], "3 + 2 * |x| ULP");
    let bad = crosslane(&["run", &path, "--override", "scal=0"]);
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("no override `scal`") && err.contains("scale, offset"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_gpu_value_within_the_builtins_ulp_bound_is_a_match_within_n_ulp() {
    // softmax.wgsl divides exp(x - max) by the row sum: lavapipe's exp differs from the
    // correctly rounded one in the last bits, within the spec's 3 + 2|x| ULP (WGSL § 15.7.4).
    let f = format!(
        "{}/../crosslane-kernel/examples_wgsl/inference/softmax.wgsl",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = crosslane(&["run", &f, "--gpu", "--json"]);
    if out.status.code() == Some(3) && std::env::var("CROSSLANE_GPU_TESTS").as_deref() == Ok("skip")
    {
        return;
    }
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j = json(&out);
    for b in j["gpu"]["buffers"].as_array().unwrap() {
        assert_eq!(b["mismatch"], 0, "{b}");
        for c in b["within"].as_array().unwrap() {
            let (ulp, bound) = (c["ulp"].as_u64().unwrap(), c["bound_ulp"].as_u64().unwrap());
            assert!(ulp >= 1 && ulp <= bound, "{c}");
            assert_eq!(c["verdict"], format!("match (within {bound} ulp)"), "{c}");
        }
    }
    let text = crosslane(&["run", &f, "--gpu"]);
    let text = String::from_utf8_lossy(&text.stdout);
    let within: u64 = j["gpu"]["buffers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["within_ulp"].as_u64().unwrap())
        .sum();
    assert_eq!(within > 0, text.contains(" ulp), 0 mismatch"), "{text}");
}

#[test]
fn padding_cells_are_padding_in_the_json() {
    // Xf { m: mat4x3<f32>, s: f32 }: cell 3 of each 16-byte column and the 3 cells after s
    // (68 bytes rounded to 80) are padding (WGSL spec, Alignment and Size).
    let out = crosslane(&["run", &example("matrices.wgsl"), "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let xf = values(&json(&out), "xf");
    let pads: Vec<usize> = (0..xf.len()).filter(|&c| xf[c] == "padding").collect();
    assert_eq!(pads, [3, 7, 11, 15, 17, 18, 19]);
    assert_eq!(xf[16], 16.0);
}

#[test]
fn a_scenario_carries_override_values() {
    use crosslane_core::scenario::{Scenario, View};
    let source = std::fs::read_to_string(example("overrides.wgsl")).unwrap();
    let mut scenario = serde_json::from_str::<Scenario>(r#"{"version": 1, "view": {"kernel": {"source": "", "blocks": 1, "threads_per_block": 0, "lanes": 0, "step": 0}}}"#).unwrap();
    scenario.view = View::Kernel {
        source,
        blocks: 1,
        threads_per_block: 0,
        lanes: 8,
        step: 0,
    };
    scenario
        .kernel_inputs
        .overrides
        .insert("WG".into(), "4".into());
    scenario
        .kernel_inputs
        .overrides
        .insert("SCALE".into(), "2".into());
    let link = crosslane_core::permalink::encode(&scenario);
    let out = crosslane(&["run", &link, "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // WG = 4, HALF = WG / 2 = 2, SCALE = 2: out[i] = 2 ((i + 2) % 4).
    let want: Vec<serde_json::Value> = [4.0, 6.0, 0.0, 2.0]
        .iter()
        .map(|v| serde_json::json!(v))
        .collect();
    assert_eq!(values(&json(&out), "out"), want);
}

#[test]
fn the_gpu_run_binds_only_the_buffers_the_entry_point_uses() {
    let skip = std::env::var("CROSSLANE_GPU_TESTS").as_deref() == Ok("skip");
    let dir = std::env::temp_dir().join(format!("crosslane-unused-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("unused.wgsl");
    std::fs::write(
        &f,
        "@group(0) @binding(0) var<storage, read_write> used: array<u32, 4>;\n@group(0) @binding(1) var<storage, read_write> spare: array<u32, 4>;\n@compute @workgroup_size(4)\nfn main(@builtin(local_invocation_index) i: u32) { used[i] = i * 3u; }\n",
    )
    .unwrap();
    let out = crosslane(&["run", f.to_str().unwrap(), "--gpu", "--json"]);
    let _ = std::fs::remove_dir_all(&dir);
    if out.status.code() == Some(3) && skip {
        return;
    }
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j = json(&out);
    let bufs = j["gpu"]["buffers"].as_array().unwrap();
    assert_eq!(bufs.len(), 1, "{bufs:?}");
    assert_eq!(bufs[0]["mismatch"], 0);
}

#[test]
fn members_of_a_mixed_struct_show_as_their_own_type() {
    // Grid { count: u32, scale: f32, cells: array<Cell> } is held as u32 bits; the JSON shows
    // `scale` (cell 1: 4 * 0.25) and each Cell's `inner.w` (cells 4..7 of the element: i, 1, 2)
    // as f32, the u32 members as integers.
    let out = crosslane(&["run", &example("nested_structs.wgsl"), "--json"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let g = values(&json(&out), "grid");
    assert_eq!(g[0], 4);
    assert_eq!(g[1], 1.0);
    assert_eq!(g[2], "padding");
    assert_eq!(g[4], 5, "cells[0].id = fill 4 + 1");
    // inner.w = (0, 1, 2) as f32, inner.k = arrayLength = 4 as u32.
    assert_eq!(
        g[8..12],
        [
            serde_json::json!(0.0),
            serde_json::json!(1.0),
            serde_json::json!(2.0),
            serde_json::json!(4)
        ]
    );
}

/// `--buffer` on a struct mixing u32, f32 and i32 fills each member with its own type
/// (`3.0` accepted in the f32 member, `-4` in the i32 one), and the typed fills `--help`
/// documents (`f32:…`, `u32:…`) lay their values' bytes over a WGSL buffer's cells as over a
/// C kernel's.
#[test]
fn mixed_struct_fills_by_member_and_typed_fills() {
    let dir = std::env::temp_dir().join(format!("crosslane-wgsl-fills-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mixed = dir.join("mixed.wgsl");
    std::fs::write(
        &mixed,
        "struct M { a: u32, b: f32, c: i32 }
@group(0) @binding(0) var<storage, read_write> m: array<M>;
@compute @workgroup_size(2) fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  m[g.x].c = m[g.x].c * 2;
  m[g.x].b = m[g.x].b + 0.5;
}",
    )
    .unwrap();
    let out = crosslane(&[
        "run",
        mixed.to_str().unwrap(),
        "--buffer",
        "m=3,3.0,7,4,-2,-4",
        "--json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Element 0: a = 3, b = 3.0 + 0.5, c = 7 · 2; element 1: a = 4, b = -2 + 0.5, c = -4 · 2.
    assert_eq!(
        values(&json(&out), "m"),
        serde_json::json!([3, 3.5, 14, 4, -1.5, -8])
            .as_array()
            .unwrap()
            .clone()
    );

    let plain = dir.join("plain.wgsl");
    std::fs::write(
        &plain,
        "@group(0) @binding(0) var<storage, read_write> x: array<f32>;
@compute @workgroup_size(4) fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  x[g.x] = x[g.x] * 2.0;
}",
    )
    .unwrap();
    let out = crosslane(&[
        "run",
        plain.to_str().unwrap(),
        "--buffer",
        "x=f32:1.5,2.5,-3,4",
        "--json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        values(&json(&out), "x"),
        serde_json::json!([3.0, 5.0, -6.0, 8.0])
            .as_array()
            .unwrap()
            .clone()
    );
    // 0x3FC00000 = 1069547520 is the binary32 encoding of 1.5 (sign 0, exponent 127, mantissa
    // 0x400000 = .5); one number fills every value, each doubled: 3.0.
    let out = crosslane(&[
        "run",
        plain.to_str().unwrap(),
        "--buffer",
        "x:4=u32:1069547520",
        "--json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        values(&json(&out), "x"),
        serde_json::json!([3.0, 3.0, 3.0, 3.0])
            .as_array()
            .unwrap()
            .clone()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--trace none` keeps no steps for a shader, as for a C kernel: a run whose full trace
/// passes the memory budget finishes under the same budget with `--trace none`.
#[test]
fn trace_none_keeps_no_steps_for_a_shader() {
    let dir = std::env::temp_dir().join(format!("crosslane-wgsl-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let long = dir.join("long.wgsl");
    std::fs::write(
        &long,
        "@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) i: u32) {
  var s = 0u;
  for (var k = 0u; k < 5000u; k++) { s += k ^ i; }
  o[i] = s;
}",
    )
    .unwrap();
    let f = long.to_str().unwrap();
    // About 10,000 steps of one warp: past 4 MB of trace.
    let full = crosslane(&["run", f, "--max-memory", "4000000", "--json"]);
    assert_eq!(full.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&full.stderr).contains("of trace"));
    let none = crosslane(&[
        "run",
        f,
        "--max-memory",
        "4000000",
        "--trace",
        "none",
        "--json",
    ]);
    assert_eq!(
        none.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&none.stderr)
    );
    // Invocation 0: s = 0 + 1 + … + 4999 = 4999 · 5000 / 2 = 12497500.
    assert_eq!(values(&json(&none), "o")[0], serde_json::json!(12_497_500));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A buffer of structs mixing `f16` with 4-byte scalars (`P { h: f16, n: u32, f: f32 }`):
/// WGSL § Alignment and Size puts h at 0, n at 4, f at 8 (size 12): six 2-byte cells, cell 1
/// padding, n in cells 2–3 and f in 4–5 (low half first). `--buffer` gives each member a value
/// of its type (one value per cell; a high half's is ignored), and the JSON shows each member
/// at its first cell, `"high half"` at its second.
#[test]
fn f16_and_u32_struct_buffers_fill_and_print_by_member() {
    let dir = std::env::temp_dir().join(format!("crosslane-wgsl-f16s-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("halves.wgsl");
    std::fs::write(
        &path,
        "enable f16;
struct P { h: f16, n: u32, f: f32 }
@group(0) @binding(0) var<storage, read_write> p: array<P>;
@compute @workgroup_size(2) fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  p[g.x].n = p[g.x].n * 2u + u32(p[g.x].h);
  p[g.x].f = f32(p[g.x].h) * 0.5 + p[g.x].f;
}",
    )
    .unwrap();
    let out = crosslane(&[
        "run",
        path.to_str().unwrap(),
        "--buffer",
        "p=3,0,70000,0,1.25,0,-0.5,0,5,0,-2,0",
        "--json",
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Element 0: h = 3, n = 70000 · 2 + 3 = 140003, f = 1.5 + 1.25 = 2.75.
    // Element 1: h = -0.5, n = 5 · 2 + u32(-0.5) = 10 + 0 (WGSL: a float converted to u32
    // rounds toward zero), f = -0.25 - 2 = -2.25.
    assert_eq!(
        values(&json(&out), "p"),
        serde_json::json!([
            3.0,
            "padding",
            140003,
            "high half",
            2.75,
            "high half",
            -0.5,
            "padding",
            10,
            "high half",
            -2.25,
            "high half"
        ])
        .as_array()
        .unwrap()
        .clone()
    );
}

/// A `var<workgroup>` array larger than `--max-memory` ends the run with outcome `error`:
/// the buffers are partial, so the command exits 1 (as `run` of a C++ kernel stopped by an
/// error does), with the outcome still printed in the JSON.
#[test]
fn a_run_ended_by_an_error_exits_1() {
    let dir = std::env::temp_dir().join(format!("crosslane-wgsl-err-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("big.wgsl");
    // 2^28 f32 cells: 1 GiB on a device, over the default memory limit.
    std::fs::write(
        &big,
        "@group(0) @binding(0) var<storage, read_write> o: array<f32>;\nvar<workgroup> big: array<f32, 268435456>;\n@compute @workgroup_size(4)\nfn main(@builtin(local_invocation_index) i: u32) { o[i] = 1.0; }\n",
    )
    .unwrap();
    let out = crosslane(&["run", big.to_str().unwrap(), "--json"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("memory limit"), "{err}");
    assert_eq!(json(&out)["outcome"]["kind"], "error");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An f32 quotient by zero is ±inf (0/0 NaN), as the engine holds it and as a GPU stores it
/// (IEEE 754 § 6.1, § 7.2; WGSL § 15.7.2 lets an implementation assume none occur, so a
/// shader that relies on them is not portable). The buffers print them as `inf` / `-inf` /
/// `NaN` (JSON: strings, as the kernel trace writes them); they printed `?`, "undefined or
/// indeterminate", with no diagnostic saying why (serde_json turns a non-finite number into
/// null).
#[test]
fn non_finite_floats_print_as_themselves() {
    let dir = std::env::temp_dir().join(format!("crosslane-wgsl-inf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("inf.wgsl");
    std::fs::write(
        &f,
        "@group(0) @binding(0) var<storage, read_write> o: array<f32>;\n@group(0) @binding(1) var<storage, read_write> z: array<f32>;\n@compute @workgroup_size(3)\nfn main(@builtin(local_invocation_index) t: u32) { o[t] = (f32(t) - 1.0) / z[0]; }\n",
    )
    .unwrap();
    let args = [
        "run",
        f.to_str().unwrap(),
        "--buffer",
        "z:1=0",
        "--buffer",
        "o:3=zero",
    ];
    let out = crosslane(&[&args[..], &["--json"]].concat());
    assert_eq!(out.status.code(), Some(0));
    // -1/0 = -inf, 0/0 = NaN, 1/0 = inf.
    assert_eq!(values(&json(&out), "o"), vec!["-inf", "NaN", "inf"]);
    let out = crosslane(&[&args[..], &["--trace", "none"]].concat());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("f32 [3] = -inf NaN inf"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
