//! `crosslane op` and `crosslane ops` through the built binary: exit statuses, the JSON contract
//! and the table, on the seed examples (seed 000 asc_shfl_xor, seed 003 ds_swizzle_b32).

use crate::common::{crosslane, stderr, stdout};

use serde_json::Value as J;

/// Runs with `--json` expecting exit 0 and returns the one JSON object printed.
fn json_of(args: &[&str]) -> J {
    let out = crosslane(args);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    serde_json::from_str(stdout(&out).trim()).expect("--json prints one JSON object")
}

fn values(doc: &J) -> Vec<J> {
    doc["results"]
        .as_array()
        .expect("results array")
        .iter()
        .map(|r| r["value"].clone())
        .collect()
}

#[test]
fn seed_000_xor_width_16_swaps_neighbours() {
    let doc = json_of(&[
        "op",
        "ascend",
        "asc_shfl_xor",
        "--lane-mask",
        "1",
        "--width",
        "16",
        "--json",
    ]);
    assert_eq!(doc["dialect"], "ascend");
    assert_eq!(doc["op"], "asc_shfl_xor");
    assert_eq!(doc["lanes"], 32);
    assert_eq!(doc["active"], "0xffffffff");
    let expected: Vec<J> = (0..32i64).map(|i| J::from(i ^ 1)).collect();
    assert_eq!(values(&doc), expected);
    let lane2 = &doc["results"][2];
    assert_eq!(lane2["lane"], 2);
    assert_eq!(lane2["from"], 3);
    assert_eq!(lane2["source"], "lane");
    assert_eq!(lane2["bits"], "0x00000003");
    assert_eq!(lane2["why"], J::Null);
    assert_eq!(doc["diagnostics"], J::Array(vec![]));
}

#[test]
fn json_flag_may_come_first_or_last_and_params_take_equals() {
    let last = json_of(&["op", "ascend", "asc_shfl_xor", "--lane-mask", "1", "--json"]);
    let first = json_of(&["op", "ascend", "asc_shfl_xor", "--json", "--lane-mask=1"]);
    assert_eq!(last, first);
    assert_eq!(values(&last)[0], 1);
}

#[test]
fn common_flags_after_op_params_are_still_read() {
    // Seed 001 示例1 shape, with lanes 16.. inactive: lane 14 reads inactive lane 16 → undefined.
    let doc = json_of(&[
        "op",
        "ascend",
        "asc_shfl_down",
        "--delta",
        "2",
        "--active",
        "0xffff",
        "--values",
        "lane*2",
        "--json",
    ]);
    assert_eq!(doc["active"], "0x0000ffff");
    let v = values(&doc);
    assert_eq!(v[0], 4);
    assert_eq!(v[13], 30);
    assert_eq!(v[14], J::Null);
    assert_eq!(doc["results"][14]["source"], "undefined");
    assert_eq!(doc["results"][14]["from"], 16);
    assert_eq!(doc["results"][20]["source"], "inactive");
    assert_eq!(doc["diagnostics"][0]["level"], "warning");
}

#[test]
fn width_31_runs_with_a_warning_and_null_values() {
    let doc = json_of(&[
        "op",
        "ascend",
        "asc_shfl_xor",
        "--lane-mask",
        "1",
        "--width",
        "31",
        "--json",
    ]);
    assert!(values(&doc).iter().all(J::is_null), "{doc}");
    assert!(doc["results"].as_array().is_some_and(|r| r
        .iter()
        .all(|l| l["source"] == "undefined" && l["why"].is_string())));
    let diags = doc["diagnostics"].as_array().expect("diagnostics");
    assert!(
        diags
            .iter()
            .any(|d| d["level"] == "warning"
                && d["message"].as_str().is_some_and(|m| m.contains("31"))),
        "{diags:?}"
    );
}

#[test]
fn width_0_exits_2_naming_width_and_its_range() {
    let out = crosslane(&["op", "ascend", "asc_shfl_xor", "--width", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("width"), "{err}");
    assert!(err.contains("1..="), "{err}");
    assert!(stdout(&out).is_empty());
}

/// An integer too large for any field is out of range, with the range (the page's field says the
/// same); text that is no integer says so; a bad lane value names its type with the
/// article it is read with ("an i32").
#[test]
fn huge_integers_say_their_range_and_types_take_their_article() {
    let out = crosslane(&[
        "op",
        "cuda",
        "__shfl_down_sync",
        "--delta",
        "99999999999999999999",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("delta: `99999999999999999999` is out of range: allowed 0..=4294967295"),
        "{err}"
    );
    let out = crosslane(&["op", "cuda", "__shfl_down_sync", "--delta", "x"]);
    assert!(
        stderr(&out).contains("`x` is not an integer"),
        "{}",
        stderr(&out)
    );
    let values = format!("x{}", ",0".repeat(31));
    let out = crosslane(&[
        "op",
        "cuda",
        "__shfl_down_sync",
        "--delta",
        "1",
        "--values",
        &values,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("`x` is not an i32 value"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn ds_swizzle_offset_above_16_bits_exits_2_naming_offset() {
    // Seed 003: offset is a 16-bit field; 0x10000 cannot be encoded.
    let out = crosslane(&["op", "amdgcn", "ds_swizzle_b32", "--offset", "0x10000"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("offset"), "{err}");
    assert!(err.contains("65535") || err.contains("0xffff"), "{err}");
}

#[test]
fn unknown_flag_exits_2_and_lists_the_ops_flags() {
    let out = crosslane(&[
        "op",
        "ascend",
        "asc_shfl_xor",
        "--lane-mask",
        "1",
        "--bogus",
        "3",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("--bogus"), "{err}");
    assert!(
        err.contains("--lane-mask") && err.contains("--width"),
        "{err}"
    );
}

#[test]
fn unknown_dialect_op_and_bad_lane_count_exit_2() {
    let out = crosslane(&["op", "ptx", "shfl"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("dialect"));
    let out = crosslane(&["op", "ascend", "asc_shfl_sideways"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("asc_shfl_xor"),
        "lists the allowed ops"
    );
    let out = crosslane(&["op", "ascend", "asc_shfl_xor", "--lanes", "64"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("lanes"));
    let out = crosslane(&["op", "ascend", "asc_shfl_xor", "--width"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("needs a value"));
    let out = crosslane(&[
        "op",
        "ascend",
        "asc_shfl_xor",
        "--width",
        "4",
        "--width",
        "8",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("twice"));
}

#[test]
fn table_shows_lane_input_result_source_from_and_warnings() {
    let out = crosslane(&[
        "op",
        "ascend",
        "asc_shfl_xor",
        "--lane-mask",
        "1",
        "--width",
        "16",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let header = lines
        .iter()
        .position(|l| {
            l.split_whitespace().collect::<Vec<_>>()
                == ["lane", "input", "result", "source", "from", "why"]
        })
        .expect("header row");
    // Lane 0 reads lane 1: input 0, result 1, source lane, from 1.
    assert_eq!(
        lines[header + 1].split_whitespace().collect::<Vec<_>>(),
        ["0", "0", "1", "lane", "1"]
    );
    assert_eq!(lines.len(), header + 1 + 32);

    let out = crosslane(&["op", "ascend", "asc_shfl_xor", "--width", "31"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.contains("undefined"));
    assert!(text.lines().any(|l| l.starts_with("warning: ")), "{text}");
}

#[test]
fn ops_lists_every_registry_op_with_rule_source_and_params() {
    let out = crosslane(&["ops", "ascend"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    for op in crosslane_core::dialect_ops(crosslane_core::Dialect::Ascend) {
        assert!(text.contains(&op.signature()), "{} missing", op.name);
        assert!(text.contains(op.source), "{} source missing", op.name);
        for p in op.params() {
            assert!(text.contains(&p.flag()), "{} {} missing", op.name, p.flag());
        }
    }
    assert!(text.contains("integer in 1..=2147483647"));
    // The derived signature is the prototype the Ascend C page writes.
    assert!(text.contains("  T asc_shfl(T var, int32_t srcLane, int32_t width = warpSize)\n"));
    // A vendor note stands beside the prototype it annotates.
    let amd = stdout(&crosslane(&["ops", "amdgcn"]));
    assert!(amd.contains(
        "  int __builtin_amdgcn_ds_bpermute(int addr, int data)   // ds_bpermute_b32 vdst, vaddr, vdata offset:offset16\n"
    ));
    let all = stdout(&crosslane(&["ops"]));
    assert_eq!(
        all.lines().filter(|l| l.starts_with("  rule: ")).count(),
        crosslane_core::all_ops().count()
    );
    assert_eq!(crosslane(&["ops", "ptx"]).status.code(), Some(2));
}

#[test]
fn help_names_the_subcommands() {
    let out = crosslane(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.contains("op") && text.contains("ops"), "{text}");
    assert_eq!(crosslane(&["frobnicate"]).status.code(), Some(2));
}

/// CUDA C++ Programming Guide, Warp Vote Functions: the sync rule names non-exited threads, so a
/// full mask over a partial warp (lanes 8..31 exited) is defined: lanes 0..7 vote, lane 0's
/// predicate (value 0) is false, so the ballot is 0xfe = 254.
#[test]
fn ballot_full_mask_over_exited_lanes() {
    let doc = json_of(&[
        "op",
        "cuda",
        "__ballot_sync",
        "--mask",
        "0xffffffff",
        "--active",
        "0xff",
        "--exited",
        "0xffffff00",
        "--json",
    ]);
    let mut expected = vec![J::from(0xfe); 8];
    expected.extend(vec![J::Null; 24]);
    assert_eq!(values(&doc), expected);
    assert_eq!(doc["type"], "u32", "labelled as printed: an unsigned mask");
    // Without --exited the missing lanes are non-exited threads that do not call: undefined.
    let doc = json_of(&[
        "op",
        "cuda",
        "__ballot_sync",
        "--mask",
        "0xffffffff",
        "--active",
        "0xff",
        "--json",
    ]);
    assert_eq!(values(&doc), vec![J::Null; 32]);
    // --exited is a CUDA lane state only.
    let out = crosslane(&["op", "hip", "__shfl", "--exited", "0x1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("exited"), "{}", stderr(&out));
}

/// LLVM AMDGPUModifierSyntax (DPP Modifiers) and AMDGPUUsage (Processors): a control or wave
/// size the target lacks exits 2, naming the control and the targets that have it.
#[test]
fn amd_arch_refuses_what_the_target_lacks() {
    let out = crosslane(&[
        "op",
        "amdgcn",
        "update_dpp",
        "--dpp-ctrl",
        "wave_shr:1",
        "--arch",
        "gfx1200",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("wave_shr:1 does not exist on gfx1200")
            && err.contains("gfx900, gfx90a, gfx942, gfx950"),
        "{err}"
    );
    let out = crosslane(&[
        "op",
        "amdgcn",
        "ds_swizzle_b32",
        "--lanes",
        "32",
        "--arch",
        "gfx900",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("wave64 only"), "{}", stderr(&out));
    // Same request, two targets: ds_bpermute reading lane 40 on wave64.
    let full = json_of(&[
        "op",
        "amdgcn",
        "ds_bpermute_b32",
        "--addr",
        "160",
        "--arch",
        "gfx1200",
        "--json",
    ]);
    assert_eq!(values(&full)[3], J::from(40));
    let half = json_of(&[
        "op",
        "amdgcn",
        "ds_bpermute_b32",
        "--addr",
        "160",
        "--arch",
        "gfx1100",
        "--json",
    ]);
    assert_eq!(
        values(&half)[3],
        J::from(8),
        "RDNA3 wave64: lane index MOD 32"
    );
    assert_eq!(
        values(&half)[35],
        J::from(40),
        "the upper half reads its own half"
    );
    // The default target is stated in the help.
    let help = stdout(&crosslane(&["op", "--help"]));
    assert!(help.contains("default gfx1030"), "{help}");
}

#[test]
fn per_thread_parameters_take_lane_expressions_and_vendor_spellings() {
    // PTX shfl.sync.idx per thread: lane i reads lane (i + 1) mod 32, holding 100 + that lane.
    let doc = json_of(&[
        "op",
        "cuda",
        "__shfl_sync",
        "--src-lane",
        "(lane+1)%32",
        "--values",
        "lane+100",
        "--json",
    ]);
    let expected: Vec<J> = (0..32).map(|i| J::from(100 + (i + 1) % 32)).collect();
    assert_eq!(values(&doc), expected);
    // HIP spells the argument lane_delta: `--lane-delta 4` is `--delta 4` (lane i reads i + 4).
    let doc = json_of(&["op", "hip", "__shfl_down", "--lane-delta", "4", "--json"]);
    assert_eq!(values(&doc)[0], J::from(4));
    assert_eq!(values(&doc)[59], J::from(63));
    assert_eq!(values(&doc)[60], J::from(60), "past the end: own value");
    // A list of the wrong length is an input error naming the parameter.
    let out = crosslane(&["op", "cuda", "__shfl_sync", "--src-lane", "1,2,3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("src_lane"), "{}", stderr(&out));
}
