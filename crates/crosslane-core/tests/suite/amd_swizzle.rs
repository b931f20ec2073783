//! ds_swizzle_b32 (seed 003): each mode on wave32 and wave64, the inactive-source rule and the two
//! documented pseudo-code defects (rotate wrap, 5-bit reverse).

use crosslane_core::dialect::amdgcn::swizzle::SwizzleMode;
use crosslane_core::{OpRequest, Source, Step};

fn swizzle(lanes: usize, offset: u32, active: &str) -> Step {
    OpRequest {
        dialect: "amdgcn".into(),
        op: "ds_swizzle_b32".into(),
        lanes: lanes.to_string(),
        active: active.into(),
        values: "lane".into(),
        params: [("offset".to_string(), format!("{offset:#x}"))].into(),
        ..Default::default()
    }
    .run()
    .expect("valid request")
}

fn values(step: &Step) -> Vec<Option<i64>> {
    step.results
        .iter()
        .map(|r| r.value.and_then(|v| v.as_i64()))
        .collect()
}

#[test]
fn decodes_the_four_modes() {
    assert_eq!(SwizzleMode::decode(0xe010), SwizzleMode::Fft { mask: 0x10 });
    assert_eq!(
        SwizzleMode::decode(0xc420),
        SwizzleMode::Rotate {
            amount: 1,
            right: true,
            mask: 0
        }
    );
    assert_eq!(
        SwizzleMode::decode(0x801b),
        SwizzleMode::Quad { sel: [3, 2, 1, 0] }
    );
    assert_eq!(
        SwizzleMode::decode(0x7c1f),
        SwizzleMode::Bitmask {
            and_mask: 0x1f,
            or_mask: 0,
            xor_mask: 0x1f
        }
    );
}

#[test]
fn fft_reverses_the_low_five_bits() {
    // Seed 003, offset[4:0] = 0x00: lane 1 reads lane 16 (0b00001 reversed in 5 bits), lane 2 reads 8.
    let fft = SwizzleMode::decode(0xe000);
    assert_eq!(fft.source(1), 16);
    assert_eq!(fft.source(2), 8);
    assert_eq!(fft.source(31), 31);
    // In wave64 the upper group of 32 reverses within itself.
    assert_eq!(fft.source(33), 48);
    let step = swizzle(64, 0xe000, "");
    assert_eq!(values(&step)[33], Some(48));
    assert_eq!(step.results[33].from, Some(48));
}

#[test]
fn rotate_wraps_within_each_group_of_32() {
    // Seed 003: rotate left by 1 puts lane 0's value in lane 31 (the pseudo-code lacks & 0x1f).
    let left = swizzle(64, 0xc020, "");
    let got = values(&left);
    assert_eq!(got[31], Some(0));
    assert_eq!(got[0], Some(1));
    assert_eq!(
        got[63],
        Some(32),
        "wave64: lane 63 wraps to lane 32, not 64"
    );
    let right = swizzle(64, 0xc420, "");
    let got = values(&right);
    assert_eq!(got[0], Some(31));
    assert_eq!(got[32], Some(63));
    assert!(left
        .diagnostics
        .iter()
        .any(|d| d.message.contains("& 0x1f")));
}

#[test]
fn quad_and_bitmask_modes_in_wave64() {
    // Quad: every lane reads lane 2 of its group of 4 (sel = 2,2,2,2 → offset 0x80aa).
    let got = values(&swizzle(64, 0x80aa, ""));
    for (i, v) in got.iter().enumerate() {
        assert_eq!(*v, Some(((i & !3) + 2) as i64));
    }
    // BCASTX32 of lane 5 (or_mask 5, and_mask 0) broadcasts lane 5 in group 0 and lane 37 in group 1.
    let got = values(&swizzle(64, 5 << 5, ""));
    assert_eq!(got[0], Some(5));
    assert_eq!(got[40], Some(37));
}

#[test]
fn inactive_source_gives_zero() {
    // SWAPX1 with lane 1 inactive: lane 0 reads lane 1 → 0 (thread_valid[1] is false).
    let step = swizzle(32, 0x041f, "0xfffffffd");
    assert_eq!(step.results[0].source, Source::Zero);
    assert_eq!(values(&step)[0], Some(0));
    assert!(step.results[0]
        .why
        .as_deref()
        .unwrap_or("")
        .contains("thread_valid"));
    assert_eq!(step.results[1].source, Source::Inactive);
    assert_eq!(values(&step)[2], Some(3));
}

#[test]
fn offset_above_16_bits_is_an_input_error() {
    let err = OpRequest {
        dialect: "amdgcn".into(),
        op: "ds_swizzle_b32".into(),
        params: [("offset".to_string(), "0x10000".to_string())].into(),
        ..Default::default()
    }
    .run()
    .unwrap_err();
    assert_eq!(err.field, "offset");
    assert!(err.message.contains("0..=65535"), "{}", err.message);
}

proptest::proptest! {
    /// Every mode stays inside the caller's group of 32 lanes (seed 003: "the offset bits apply to
    /// each group of 32"), so wave64 never mixes its halves.
    #[test]
    fn every_offset_stays_in_its_group_of_32(offset in 0u32..=0xffff, lane in 0usize..64) {
        let j = SwizzleMode::decode(offset).source(lane);
        proptest::prop_assert_eq!(j / 32, lane / 32);
    }

    /// Bitmask mode with and_mask 0x1f, or_mask 0 is an xor: applying it twice is the identity.
    #[test]
    fn xor_swizzle_is_an_involution(xor_mask in 0u32..32, lane in 0usize..64) {
        let mode = SwizzleMode::decode((xor_mask << 10) | 0x1f);
        proptest::prop_assert_eq!(mode.source(mode.source(lane)), lane);
    }
}
