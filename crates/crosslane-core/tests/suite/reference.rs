//! The reference entries (`crosslane_core::reference`): one per registry op, each with an example
//! that actually runs through the op's own code, and the seed-000 example of `asc_shfl_xor`.

use crosslane_core::reference::{command_line, entries, entry};
use crosslane_core::{all_ops, find_op, Dialect, OpRequest, Source};

#[test]
fn every_registry_op_has_one_entry_whose_example_runs() {
    let all = entries();
    assert_eq!(all.len(), all_ops().count());
    for (spec, e) in all_ops().zip(&all) {
        assert_eq!((e.dialect, e.name), (spec.dialect, spec.name));
        assert_eq!(e.signature, spec.signature());
        assert_eq!(e.signature_note, spec.proto.note);
        assert_eq!(e.source, spec.source);
        assert_eq!(e.params.len(), spec.params().count(), "{}", spec.name);
        assert!(
            e.example.error.is_none(),
            "{} {}: {:?}",
            e.dialect.name(),
            e.name,
            e.example.error
        );
        let step = e.example.step.as_ref().expect("a step when no error");
        assert_eq!(step.op, spec.name);
        assert!(!step.results.is_empty(), "{}", spec.name);
        assert!(e.example.command.starts_with(&format!(
            "crosslane op {} {}",
            e.dialect.name(),
            e.name
        )));
    }
}

/// Seed 000: `asc_shfl_xor(LaneId, 1, 16)` with 32 active lanes returns LaneId ^ 1 on every lane.
#[test]
fn asc_shfl_xor_example_is_seed_000() {
    let e = entry(find_op(Dialect::Ascend, "asc_shfl_xor").unwrap());
    assert_eq!(
        e.example.command,
        "crosslane op ascend asc_shfl_xor --lane-mask 1 --width 16"
    );
    assert!(e.example.note.unwrap().contains("seed 000"));
    let step = e.example.step.unwrap();
    assert_eq!(step.lanes, 32);
    for (lane, r) in step.results.iter().enumerate() {
        assert_eq!(r.source, Source::Lane);
        assert_eq!(r.from, Some(lane ^ 1));
        assert_eq!(r.value.unwrap().bits, (lane ^ 1) as u64);
    }
    let width = e.params.iter().find(|p| p.name == "width").unwrap();
    assert_eq!(width.flag, "--width");
    assert_eq!(width.default_text, "default the lane count");
}

/// An example without a curated row is the op's defaults: its request names only the op, and its
/// step equals running the op with nothing given.
#[test]
fn uncurated_examples_are_the_defaults() {
    let spec = find_op(Dialect::Cuda, "__shfl_down_sync").unwrap();
    let e = entry(spec);
    assert_eq!(e.example.note, None);
    assert_eq!(e.example.command, "crosslane op cuda __shfl_down_sync");
    let direct = OpRequest {
        dialect: "cuda".into(),
        op: "__shfl_down_sync".into(),
        ..OpRequest::default()
    }
    .run()
    .unwrap();
    assert_eq!(e.example.step.as_ref(), Some(&direct));
    // delta defaults to 1: lane 0 reads lane 1, lane 31 keeps its own (end of the warp).
    assert_eq!(direct.results[0].from, Some(1));
    assert_eq!(direct.results[31].source, Source::Own);
}

/// The int8 MMA examples are curated (the default A overflows int8); D = A·B + C element-wise.
#[test]
fn int8_mma_examples_compute_a_times_b_plus_c() {
    for (name, k) in [
        ("__builtin_mxc_mma_16x16x16i8", 16u64),
        ("__builtin_mxc_mma_16x16x32i8", 32),
    ] {
        let e = entry(find_op(Dialect::Maca, name).unwrap());
        assert!(e.example.note.is_some());
        let step = e.example.step.unwrap();
        assert_eq!(step.results[0].value.unwrap().bits, 2 * 3 * k + 1, "{name}");
    }
}

#[test]
fn command_lines_quote_what_a_shell_would_split() {
    let mut r = OpRequest {
        dialect: "amdgcn".into(),
        op: "v_mov_b32_dpp".into(),
        values: "lane*2".into(),
        ..OpRequest::default()
    };
    r.params.insert("dpp_ctrl".into(), "row_shl:1".into());
    r.params.insert("bound_ctrl".into(), "true".into());
    assert_eq!(
        command_line(&r),
        "crosslane op amdgcn v_mov_b32_dpp --values 'lane*2' --bound-ctrl true --dpp-ctrl row_shl:1"
    );
}

#[test]
fn entries_serialize_for_the_page() {
    let json = serde_json::to_value(entries()).unwrap();
    let first = &json[0];
    assert!(first["name"].is_string());
    assert!(first["example"]["step"]["results"].is_array());
    assert!(first["params"].is_array());
}
