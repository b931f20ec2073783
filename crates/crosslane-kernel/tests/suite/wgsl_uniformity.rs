//! crosslane's `subgroup_uniformity` verdicts against Tint's (Dawn's WGSL compiler, the one
//! inside Chrome) on the corpus in tests/wgsl_uniformity: each shader's Tint verdict is
//! recorded in verdicts.json by scripts/tint-uniformity-verdicts, so this test runs without
//! Tint. Where the verdicts differ, crosslane is wrong (the WGSL spec's uniformity analysis is
//! what Tint implements).

use crosslane_core::result::Level;
use crosslane_kernel::wgsl::{naga, uniformity};

/// crosslane's verdict: "reject" with the first error's line, or "accept". Every compute and
/// fragment entry point is checked (the first compute one first), as a module is refused
/// whole when any of them fails.
fn verdict(src: &str) -> Result<(&'static str, Option<u32>), String> {
    let shader = naga::parse(src, 256).map_err(|e| e.to_string())?;
    let eps = &shader.module.entry_points;
    let first = eps
        .iter()
        .position(|e| e.stage == ::naga::ShaderStage::Compute)
        .ok_or("no compute entry point")?;
    let others =
        (0..eps.len()).filter(|&k| k != first && eps[k].stage != ::naga::ShaderStage::Vertex);
    let errors: Vec<_> = std::iter::once(first)
        .chain(others)
        .flat_map(|k| uniformity::check(&shader, k))
        .filter(|f| f.level == Level::Error)
        .collect();
    Ok(match errors.first() {
        Some(f) => ("reject", Some(f.line)),
        None => ("accept", None),
    })
}

#[test]
fn uniformity_verdicts_equal_tints_on_the_corpus() {
    let dir = format!("{}/tests/wgsl_uniformity", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(format!("{dir}/verdicts.json")).expect("verdicts.json");
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    let shaders = v["shaders"].as_object().expect("shaders");
    let (mut accepts, mut rejects) = (0, 0);
    let mut wrong = Vec::new();
    for (file, want) in shaders {
        let src = std::fs::read_to_string(format!("{dir}/{file}")).expect("shader");
        let tint = want["tint"].as_str().unwrap_or("?");
        if tint == "accept" {
            accepts += 1;
        } else {
            rejects += 1;
        }
        match verdict(&src) {
            Ok((got, line)) if got == tint => {
                // A rejection names the same line as Tint's first error.
                let tline = want["line"].as_u64().map(|l| l as u32);
                if got == "reject" && line != tline {
                    wrong.push(format!("{file}: line {line:?}, Tint {tline:?}"));
                }
            }
            Ok((got, _)) => wrong.push(format!("{file}: crosslane {got}, Tint {tint}")),
            Err(e) => wrong.push(format!("{file}: crosslane cannot parse it: {e}")),
        }
    }
    assert!(accepts >= 20 && rejects >= 20, "{accepts} / {rejects}");
    assert!(
        wrong.is_empty(),
        "{} disagreements:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// The check is linear in one function's size: it used to start over from the start of the
/// function's expressions for every question, and a function of 2 500 statements took some
/// 30 s of a debug build (3 000: about 45 s); answered in order it takes well under a second.
/// The bound below is far from both.
#[test]
fn the_check_of_a_long_function_is_linear() {
    let body: String = (0..3000)
        .map(|k| format!("  x = x + {}u;\n", k % 7))
        .collect();
    let src = format!(
        "@group(0) @binding(0) var<storage, read_write> a: array<u32>;\n\
         @compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i: u32) {{\n\
         \x20 var x: u32 = i;\n{body}  a[i] = subgroupAdd(x);\n}}\n"
    );
    let shader = naga::parse(&src, 256).unwrap();
    let started = std::time::Instant::now();
    let findings = uniformity::check(&shader, 0);
    let took = started.elapsed();
    assert!(
        took.as_secs() < 5,
        "uniformity check of 3 000 statements took {took:?}"
    );
    // `subgroupAdd` in uniform control flow: nothing to report (WGSL spec 15.2, uniformity
    // analysis: only a call under non-uniform control flow is an error).
    assert!(findings.is_empty(), "{findings:?}");
}

/// A barrier's rule is not a filterable diagnostic (WGSL spec, Uniformity Analysis): a
/// `diagnostic(warning, subgroup_uniformity)` directive lowers the subgroup built-in's finding
/// inside the helper but not the barrier's, whether the barrier is reached through the call
/// site's control flow or through a parameter that must be uniform.
#[test]
fn a_barrier_reached_through_a_call_stays_an_error_under_a_warning_filter() {
    let src = "enable subgroups;
diagnostic(warning, subgroup_uniformity);
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
fn gate(n: u32) {
  if (n > 1u) {
    workgroupBarrier();
  }
}
fn total(x: u32) -> u32 {
  return subgroupAdd(x);
}
fn sync() {
  storageBarrier();
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  gate(i);
  if (i < 3u) {
    out[i] = total(i);
    sync();
  }
}
";
    let shader = naga::parse(src, 256).expect("parses");
    let found = uniformity::check(&shader, 0);
    let at = |line: u32| {
        found
            .iter()
            .find(|f| f.line == line)
            .unwrap_or_else(|| panic!("no finding on line {line}: {found:?}"))
    };
    // Line 6: the barrier under `n > 1u`, `n` being `i` at the call on line 17.
    let gate = at(6);
    assert!(gate.barrier && gate.level == Level::Error, "{gate:?}");
    assert!(
        gate.message.contains("workgroupBarrier"),
        "{}",
        gate.message
    );
    assert!(
        gate.message.contains("call of `gate` at 17:"),
        "{}",
        gate.message
    );
    // Line 10: the subgroup built-in, lowered to a warning by the directive.
    let total = at(10);
    assert!(!total.barrier && total.level == Level::Warning, "{total:?}");
    // Line 13: the storage barrier, reached through the call on line 20 under `i < 3u`.
    let sync = at(13);
    assert!(sync.barrier && sync.level == Level::Error, "{sync:?}");
    assert!(
        sync.message.starts_with("storageBarrier"),
        "{}",
        sync.message
    );
    assert!(
        sync.message.contains("call of `sync` at 20:"),
        "{}",
        sync.message
    );
    assert_eq!(found.len(), 3, "{found:?}");
}
