//! AMD DPP (`update_dpp`, `mov_dpp`; semantics.md "AMD DPP"): controls, masks, bound_ctrl, and
//! the laws row_ror:n ∘ row_ror:16−n = id, row_mask 0 → old, quad_perm:[0,1,2,3] = id.

use crosslane_core::{InputError, OpRequest, Source, Step};
use proptest::prelude::*;

fn dpp(
    op: &str,
    lanes: usize,
    active: &str,
    values: &str,
    params: &[(&str, &str)],
) -> Result<Step, InputError> {
    OpRequest {
        dialect: "amdgcn".into(),
        op: op.into(),
        lanes: lanes.to_string(),
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

fn vals(step: &Step) -> Vec<Option<i64>> {
    step.results
        .iter()
        .map(|r| r.value.and_then(|v| v.as_i64()))
        .collect()
}

fn list(values: &[i64]) -> String {
    values
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

#[test]
fn bad_controls_are_input_errors_listing_the_forms() {
    for bad in [
        "row_shl:16",
        "row_shr:0",
        "quad_perm:[0,1,2]",
        "row_bcast:7",
        "wave_rol:2",
        "mirror",
        "dpp8:[0,1,2,3,4,5,6,9]",
    ] {
        let err = dpp("update_dpp", 64, "", "lane", &[("dpp_ctrl", bad)]).unwrap_err();
        assert_eq!(err.field, "dpp_ctrl", "{bad}");
        assert!(
            err.message.contains("quad_perm:[a,b,c,d]") && err.message.contains("dpp8"),
            "{}",
            err.message
        );
    }
    let err = dpp("update_dpp", 64, "", "lane", &[("row_mask", "16")]).unwrap_err();
    assert_eq!(err.field, "row_mask");
}

#[test]
fn bound_ctrl_has_llvm_sense() {
    // row_shl:1: lane 15 has no source. bound_ctrl true → 0; false → old.
    let zero = dpp(
        "update_dpp",
        64,
        "",
        "lane",
        &[
            ("old", "-7"),
            ("dpp_ctrl", "row_shl:1"),
            ("bound_ctrl", "true"),
        ],
    )
    .unwrap();
    assert_eq!(vals(&zero)[15], Some(0));
    assert_eq!(zero.results[15].source, Source::Zero);
    let keep = dpp(
        "update_dpp",
        64,
        "",
        "lane",
        &[
            ("old", "-7"),
            ("dpp_ctrl", "row_shl:1"),
            ("bound_ctrl", "false"),
        ],
    )
    .unwrap();
    assert_eq!(vals(&keep)[15], Some(-7));
    assert_eq!(keep.results[15].source, Source::Old);
    assert_eq!(vals(&keep)[14], Some(15));
    // mov_dpp has no old: the unwritten lane is undefined.
    let mov = dpp("mov_dpp", 64, "", "lane", &[("dpp_ctrl", "row_shl:1")]).unwrap();
    assert_eq!(mov.results[15].source, Source::Undefined);
}

#[test]
fn inactive_source_is_an_invalid_source() {
    // Lane 3 inactive; row_shr:1: lane 4 reads lane 3.
    let step = dpp(
        "update_dpp",
        64,
        "0xfffffffffffffff7",
        "lane",
        &[
            ("old", "99"),
            ("dpp_ctrl", "row_shr:1"),
            ("bound_ctrl", "1"),
        ],
    )
    .unwrap();
    assert_eq!(vals(&step)[4], Some(0));
    assert_eq!(step.results[3].source, Source::Inactive);
    let step = dpp(
        "update_dpp",
        64,
        "0xfffffffffffffff7",
        "lane",
        &[("old", "99"), ("dpp_ctrl", "row_shr:1")],
    )
    .unwrap();
    assert_eq!(vals(&step)[4], Some(99));
}

#[test]
fn broadcasts_shares_and_wave_shifts() {
    let got = vals(
        &dpp(
            "update_dpp",
            64,
            "",
            "lane",
            &[
                ("old", "-1"),
                ("dpp_ctrl", "row_bcast:15"),
                ("arch", "gfx900"),
            ],
        )
        .unwrap(),
    );
    assert_eq!(got[5], Some(-1), "row 0 has no source: old");
    assert_eq!(got[20], Some(15));
    assert_eq!(got[63], Some(47));
    let got = vals(
        &dpp(
            "update_dpp",
            64,
            "",
            "lane",
            &[
                ("old", "-1"),
                ("dpp_ctrl", "row_bcast:31"),
                ("arch", "gfx942"),
            ],
        )
        .unwrap(),
    );
    assert_eq!(got[31], Some(-1));
    assert_eq!(got[40], Some(31));
    let got = vals(&dpp("update_dpp", 64, "", "lane", &[("dpp_ctrl", "row_share:5")]).unwrap());
    assert_eq!(got[40], Some(37));
    let got = vals(&dpp("update_dpp", 64, "", "lane", &[("dpp_ctrl", "row_xmask:1")]).unwrap());
    assert_eq!(got[16], Some(17));
    let got = vals(
        &dpp(
            "update_dpp",
            64,
            "",
            "lane",
            &[
                ("old", "-1"),
                ("dpp_ctrl", "wave_shl:1"),
                ("arch", "gfx90a"),
            ],
        )
        .unwrap(),
    );
    assert_eq!(got[15], Some(16), "wave shifts cross rows");
    assert_eq!(got[63], Some(-1));
    // Wave rotates exist on GFX9/CDNA only, which run wave64 only: the rotate wraps at 64.
    let got = vals(
        &dpp(
            "update_dpp",
            64,
            "",
            "lane",
            &[("dpp_ctrl", "wave_ror:1"), ("arch", "gfx900")],
        )
        .unwrap(),
    );
    assert_eq!(got[0], Some(63));
    let got = vals(
        &dpp(
            "update_dpp",
            64,
            "",
            "lane",
            &[("dpp_ctrl", "dpp8:[7,6,5,4,3,2,1,0]"), ("row_mask", "0")],
        )
        .unwrap(),
    );
    assert_eq!(got[8], Some(15), "dpp8 ignores the masks");
    let got = vals(
        &dpp(
            "update_dpp",
            64,
            "",
            "lane",
            &[("dpp_ctrl", "row_half_mirror")],
        )
        .unwrap(),
    );
    assert_eq!(got[8], Some(15));
}

#[test]
fn bank_mask_keeps_old() {
    let step = dpp(
        "update_dpp",
        64,
        "",
        "lane",
        &[
            ("old", "-3"),
            ("dpp_ctrl", "row_mirror"),
            ("bank_mask", "0x7"),
        ],
    )
    .unwrap();
    let got = vals(&step);
    assert_eq!(got[12], Some(-3));
    assert_eq!(got[60], Some(-3));
    assert_eq!(got[11], Some(4));
    assert!(step.results[12]
        .why
        .as_deref()
        .unwrap_or("")
        .contains("bank 3"));
}

proptest! {
    #[test]
    fn row_ror_then_inverse_is_identity(n in 1u8..16, values in proptest::collection::vec(-1000i64..1000, 64)) {
        let first = dpp("mov_dpp", 64, "", &list(&values), &[("dpp_ctrl", &format!("row_ror:{n}"))]).unwrap();
        let mid: Vec<i64> = vals(&first).into_iter().map(|v| v.unwrap()).collect();
        let back = dpp("mov_dpp", 64, "", &list(&mid), &[("dpp_ctrl", &format!("row_ror:{}", 16 - n))]).unwrap();
        prop_assert_eq!(vals(&back), values.iter().map(|v| Some(*v)).collect::<Vec<_>>());
    }

    #[test]
    fn all_rows_masked_returns_old(
        ctrl in prop_oneof![
            (1u8..16).prop_map(|n| format!("row_shl:{n}")),
            (1u8..16).prop_map(|n| format!("row_ror:{n}")),
            (0u8..16).prop_map(|n| format!("row_share:{n}")),
            Just("row_bcast:15".to_string()),
            Just("wave_rol:1".to_string()),
        ],
        old in proptest::collection::vec(-1000i64..1000, 64),
        active in any::<u64>(),
        bound_ctrl in any::<bool>(),
        bank_mask in 0u8..16,
    ) {
        // The GFX8/9 controls need a GFX9 target; row_share:0 exists on GFX10+ only.
        let arch = if ctrl.starts_with("row_bcast") || ctrl.starts_with("wave") { "gfx900" } else { "gfx1030" };
        let step = dpp("update_dpp", 64, &format!("{active:#x}"), "lane", &[
            ("old", &list(&old)), ("dpp_ctrl", &ctrl), ("row_mask", "0"), ("arch", arch),
            ("bank_mask", &bank_mask.to_string()), ("bound_ctrl", &bound_ctrl.to_string()),
        ]).unwrap();
        for (i, r) in step.results.iter().enumerate() {
            if active >> i & 1 == 1 {
                prop_assert_eq!(r.source, Source::Old);
                prop_assert_eq!(r.value.and_then(|v| v.as_i64()), Some(old[i]));
            } else {
                prop_assert_eq!(r.source, Source::Inactive);
            }
        }
    }

    #[test]
    fn quad_perm_identity(values in proptest::collection::vec(any::<i32>(), 32), wave64 in any::<bool>()) {
        let lanes = if wave64 { 64 } else { 32 };
        let values: Vec<i64> = values.iter().cycle().take(lanes).map(|v| i64::from(*v)).collect();
        let step = dpp("mov_dpp", lanes, "", &list(&values), &[("dpp_ctrl", "quad_perm:[0,1,2,3]")]).unwrap();
        prop_assert_eq!(vals(&step), values.iter().map(|v| Some(*v)).collect::<Vec<_>>());
    }
}

#[test]
fn mov_dpp_warns_about_undefined_lanes() {
    let step = dpp(
        "mov_dpp",
        64,
        "",
        "lane",
        &[("dpp_ctrl", "row_bcast:31"), ("arch", "gfx950")],
    )
    .unwrap();
    assert!(step.results[..32]
        .iter()
        .all(|r| r.source == Source::Undefined));
    assert!(step
        .diagnostics
        .iter()
        .any(|d| d.message.starts_with("32 lane(s) undefined")));
}

/// LLVM AMDGPUModifierSyntax, DPP Modifiers: `dpp_ctrl` (GFX8/9) and `dpp32_ctrl` (GFX90A+) have
/// the wave shifts and row broadcasts, `dpp16_ctrl` (GFX10+) has row_share / row_xmask and not
/// them, dpp8 is GFX10+; LLVM AMDGPUUsage: GFX9 and CDNA run wave64 only.
#[test]
fn controls_and_wave_sizes_follow_the_target() {
    let err = dpp(
        "update_dpp",
        64,
        "",
        "lane",
        &[("dpp_ctrl", "row_bcast:15"), ("arch", "gfx1100")],
    )
    .unwrap_err();
    assert_eq!(err.field, "dpp_ctrl");
    assert!(
        err.message
            .contains("row_bcast:15 does not exist on gfx1100")
            && err.message.contains("gfx900, gfx90a, gfx942, gfx950"),
        "{}",
        err.message
    );
    let err = dpp(
        "mov_dpp",
        64,
        "",
        "lane",
        &[("dpp_ctrl", "row_xmask:3"), ("arch", "gfx942")],
    )
    .unwrap_err();
    assert!(
        err.message
            .contains("exists on gfx1030, gfx1100, gfx1150, gfx1200"),
        "{}",
        err.message
    );
    // CDNA spells 0x150 + n row_newbcast:n (n in 1..15; LLVM AMDGPUModifierSyntax, DPP
    // Modifiers): lane 40 (row 2) reads lane 32 + 5. GFX10+'s spelling, row_share, is refused on
    // CDNA, and row_newbcast on GFX10+.
    let got = vals(
        &dpp(
            "update_dpp",
            64,
            "",
            "lane",
            &[("dpp_ctrl", "row_newbcast:5"), ("arch", "gfx90a")],
        )
        .unwrap(),
    );
    assert_eq!(got[40], Some(37));
    for (ctrl, arch) in [
        ("row_share:5", "gfx90a"),
        ("row_newbcast:0", "gfx942"),
        ("row_newbcast:5", "gfx1100"),
    ] {
        assert!(
            dpp(
                "update_dpp",
                64,
                "",
                "lane",
                &[("dpp_ctrl", ctrl), ("arch", arch)]
            )
            .is_err(),
            "{ctrl} on {arch}"
        );
    }
    let err = dpp(
        "mov_dpp",
        32,
        "",
        "lane",
        &[("dpp_ctrl", "row_shl:1"), ("arch", "gfx942")],
    )
    .unwrap_err();
    assert_eq!(err.field, "lanes");
    assert!(err.message.contains("wave64 only"), "{}", err.message);
    assert!(dpp(
        "mov_dpp",
        32,
        "",
        "lane",
        &[("dpp_ctrl", "row_shl:1"), ("arch", "gfx1200")]
    )
    .is_ok());
    let err = dpp("mov_dpp", 64, "", "lane", &[("arch", "gfx803")]).unwrap_err();
    assert_eq!(err.field, "arch");
}

/// LLVM AMDGPUModifierSyntax, DPP8 Modifiers: fi:0 "fetch zero when accessing data from
/// inactive lanes"; llvm.amdgcn.mov.dpp8 emits fi:0. bound_ctrl plays no part.
#[test]
fn dpp8_reads_zero_from_an_inactive_source() {
    for bound_ctrl in ["false", "true"] {
        let step = dpp(
            "update_dpp",
            64,
            "0xfffffffffffffffe",
            "lane",
            &[
                ("dpp_ctrl", "dpp8:[7,6,5,4,3,2,1,0]"),
                ("old", "1000"),
                ("bound_ctrl", bound_ctrl),
            ],
        )
        .unwrap();
        let got = vals(&step);
        assert_eq!(
            got[7],
            Some(0),
            "lane 7 reads inactive lane 0 (bound_ctrl {bound_ctrl})"
        );
        assert_eq!(step.results[7].source, Source::Zero);
        assert_eq!(got[6], Some(1));
        assert_eq!(got[0], None, "lane 0 is inactive");
    }
    let step = dpp(
        "mov_dpp",
        64,
        "0xfffffffffffffffe",
        "lane",
        &[("dpp_ctrl", "dpp8:[7,6,5,4,3,2,1,0]")],
    )
    .unwrap();
    assert_eq!(vals(&step)[7], Some(0), "not undefined: fi:0 fetches 0");
    assert!(step.diagnostics.iter().any(|d| d.rule.contains("fi:0")));
}
