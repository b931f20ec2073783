//! MetaX shuffles (seed 002 §3.4.1–3.4.4): every mode range, the masks, `bc`, inactive lanes and
//! the seed's documented defects.

use crosslane_core::{OpRequest, Source, Step};

fn run(
    op: &str,
    active: &str,
    values: &str,
    params: &[(&str, &str)],
) -> Result<Step, crosslane_core::InputError> {
    OpRequest {
        dialect: "maca".into(),
        op: op.into(),
        active: active.into(),
        values: values.into(),
        params: params
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        ..Default::default()
    }
    .run()
}

fn shfl(mode: u32, bc: &str) -> Step {
    run(
        "__builtin_mxc_mov_shfl",
        "",
        "lane",
        &[
            ("mode", &format!("{mode:#x}")),
            ("rmsk", "15"),
            ("bmsk", "15"),
            ("bc", bc),
        ],
    )
    .expect("valid request")
}

fn vals(step: &Step) -> Vec<Option<i64>> {
    step.results
        .iter()
        .map(|r| r.value.and_then(|v| v.as_i64()))
        .collect()
}

#[test]
fn quad_permutation_reads_mode_bit_pairs() {
    // mode 0x1b = [3,2,1,0]: each group of 4 reversed; lane 0 is shuffled too (the seed's
    // `for n in (1..64)` means lanes 0..63).
    let got = vals(&shfl(0x1b, "0"));
    assert_eq!(&got[..8], &[3, 2, 1, 0, 7, 6, 5, 4].map(Some));
    assert_eq!(got[63], Some(60));
    // mode 0x00: every lane reads lane 0 of its quad.
    let got = vals(&shfl(0x00, "0"));
    assert_eq!(got[6], Some(4));
}

#[test]
fn row_shift_left_and_right_with_bc() {
    // Row shift left by 1 (0x101): lane 15 of each row has no source; bc = 0 writes 0.
    let step = shfl(0x101, "0");
    let got = vals(&step);
    assert_eq!(got[0], Some(1));
    assert_eq!(got[15], Some(0));
    assert_eq!(step.results[15].source, Source::Zero);
    assert_eq!(got[47], Some(0));
    // bc = 1 leaves the lane unchanged: mov_shfl has no old operand → undefined.
    let step = shfl(0x101, "1");
    assert_eq!(step.results[15].source, Source::Undefined);
    assert!(step.results[15]
        .why
        .as_deref()
        .unwrap_or("")
        .contains("not written"));
    assert_eq!(vals(&step)[14], Some(15));
    // Row shift right by 15 (0x11f): only lane 15 of each row has a source (lane 0 of the row).
    let got = vals(&shfl(0x11f, "0"));
    assert_eq!(got[31], Some(16));
    assert_eq!(got[30], Some(0));
}

#[test]
fn rotate_mirror_and_broadcast() {
    // Row rotate right by 1 (0x121): lane 16 reads lane 31.
    let got = vals(&shfl(0x121, "0"));
    assert_eq!(got[16], Some(31));
    assert_eq!(got[17], Some(16));
    // Row mirror (0x140): the seed's example reverses every 16 lanes.
    let got = vals(&shfl(0x140, "0"));
    assert_eq!(got[0], Some(15));
    assert_eq!(got[48], Some(63));
    // Row broadcast of lane 15 (0x15f): src.thread[(n & 0x30) + 15].
    let got = vals(&shfl(0x15f, "0"));
    assert_eq!(got[0], Some(15));
    assert_eq!(got[32], Some(47));
    assert_eq!(got[63], Some(63));
}

#[test]
fn undocumented_modes_are_input_errors_listing_the_ranges() {
    for mode in [
        "0x100", "0x110", "0x120", "0x130", "0x141", "0x142", "0x14f", "0x160", "0x200", "-1",
    ] {
        let err = run("mov_shfl", "", "lane", &[("mode", mode)]).unwrap_err();
        assert_eq!(err.field, "mode", "{mode}");
        assert!(
            err.message.contains("0x150-0x15F"),
            "{mode}: {}",
            err.message
        );
        assert!(
            err.message.contains("0x000-0x0FF"),
            "{mode}: {}",
            err.message
        );
    }
    let err = run("mov_shfl", "", "lane", &[("rmsk", "16")]).unwrap_err();
    assert_eq!(err.field, "rmsk");
    assert!(err.message.contains("0..=15"));
    let err = run("mov_shfl", "", "lane", &[("bmsk", "-1")]).unwrap_err();
    assert_eq!(err.field, "bmsk");
}

#[test]
fn update_shfl_keeps_old_val_for_unwritten_lanes() {
    // Row shift left by 8 with bc = 1: the seed's example, out of range → 100.
    let step = run(
        "__builtin_mxc_update_shlf",
        "",
        "lane",
        &[("old_val", "100"), ("mode", "0x108"), ("bc", "1")],
    )
    .unwrap();
    assert_eq!(step.op, "__builtin_mxc_update_shfl");
    let got = vals(&step);
    assert_eq!(got[7], Some(15));
    assert_eq!(got[8], Some(100));
    assert_eq!(step.results[8].source, Source::Old);
    // Bank 1 disabled (bmsk = 0b1101): lanes 4..7 of every row keep old_val even with bc = 0.
    let step = run(
        "update_shfl",
        "",
        "lane",
        &[
            ("old_val", "-5"),
            ("mode", "0x140"),
            ("bmsk", "13"),
            ("bc", "0"),
        ],
    )
    .unwrap();
    let got = vals(&step);
    assert_eq!(got[4], Some(-5));
    assert_eq!(got[52], Some(-5));
    assert_eq!(got[3], Some(12));
    assert_eq!(step.results[4].source, Source::Old);
    // Row 3 disabled on mov_shfl: destination not written → undefined.
    let step = run("mov_shfl", "", "lane", &[("mode", "0x140"), ("rmsk", "7")]).unwrap();
    assert_eq!(step.results[50].source, Source::Undefined);
    assert_eq!(vals(&step)[47], Some(32));
}

#[test]
fn inactive_lanes() {
    // Lane 1 inactive; row mirror: lane 14 reads lane 1 → invalid source.
    let active = "0xfffffffffffffffd";
    let step = run(
        "mov_shfl",
        active,
        "lane",
        &[("mode", "0x140"), ("bc", "0")],
    )
    .unwrap();
    assert_eq!(step.results[14].source, Source::Zero);
    assert_eq!(step.results[1].source, Source::Inactive);
    assert_eq!(step.results[1].value, None);
    let step = run(
        "update_shfl",
        active,
        "lane",
        &[("old_val", "77"), ("mode", "0x140"), ("bc", "1")],
    )
    .unwrap();
    assert_eq!(vals(&step)[14], Some(77));
    assert_eq!(vals(&step)[13], Some(2));
}

fn index_list(f: impl Fn(i64) -> i64) -> String {
    (0..64)
        .map(|n| f(n).to_string())
        .collect::<Vec<_>>()
        .join(",")
}

#[test]
fn bsm_bpermute_reverse_needs_63_minus_n_times_4() {
    let step = run(
        "bsm_bpermute",
        "",
        "lane",
        &[("index", &index_list(|n| (63 - n) * 4))],
    )
    .unwrap();
    assert_eq!(vals(&step), (0..64).rev().map(Some).collect::<Vec<_>>());
    // The seed's own list {256, 252, …} starting at 256 reads lane 0 first: no reversal.
    let step = run(
        "bsm_bpermute",
        "",
        "lane",
        &[("index", &index_list(|n| (64 - n) * 4))],
    )
    .unwrap();
    assert_eq!(vals(&step)[0], Some(0));
    assert_eq!(vals(&step)[1], Some(63));
    // An inactive source reads 0 (ds_bpermute_b32 rule).
    let step = run(
        "bsm_bpermute",
        "0xfffffffffffffffe",
        "lane+1",
        &[("index", "0")],
    )
    .unwrap();
    assert_eq!(vals(&step)[5], Some(0));
    assert_eq!(step.results[5].source, Source::Zero);
}

#[test]
fn bsm_permute_highest_writer_wins() {
    // Every lane writes lane 0: the highest active lane (63) wins; other lanes read 0.
    let step = run("bsm_permute", "", "lane*2", &[("index", "0")]).unwrap();
    assert_eq!(vals(&step)[0], Some(126));
    assert_eq!(step.results[0].from, Some(63));
    assert!(step.results[0]
        .why
        .as_deref()
        .unwrap_or("")
        .contains("wins"));
    assert_eq!(vals(&step)[1], Some(0));
    assert_eq!(step.results[1].source, Source::Zero);
    // Reverse with (63 − n)·4.
    let step = run(
        "bsm_permute",
        "",
        "lane",
        &[("index", &index_list(|n| (63 - n) * 4))],
    )
    .unwrap();
    assert_eq!(vals(&step), (0..64).rev().map(Some).collect::<Vec<_>>());
}
