//! Laws every cross-lane op of the CUDA, HIP, WGSL and Ascend dialects obeys, whatever the
//! parameters: `from` never names a lane outside the warp, and values move bit-exact (NaN
//! payloads, -0.0, subnormals) through every type.

use std::collections::BTreeMap;

use crosslane_core::{all_ops, Dialect, OpRequest, OpSpec, ParamKind, Source, ValueType};
use proptest::prelude::*;

const DIALECTS: [Dialect; 4] = [Dialect::Cuda, Dialect::Hip, Dialect::Wgsl, Dialect::Ascend];

fn ops() -> Vec<&'static OpSpec> {
    all_ops()
        .filter(|o| DIALECTS.contains(&o.dialect))
        .collect()
}

fn lanes_for(d: Dialect, pick: u32) -> usize {
    match d {
        Dialect::Hip => [32, 64][pick as usize % 2],
        Dialect::Wgsl => 4 << (pick % 6),
        _ => 32,
    }
}

/// An integer in `min..=max`: mostly small (where the interesting edges are), sometimes extreme.
fn int_in(min: i64, max: i64, raw: i64, which: u8) -> i64 {
    let v = match which % 4 {
        0 => min,
        1 => max,
        _ => raw.rem_euclid(200) - 70,
    };
    v.clamp(min, max)
}

struct Case {
    request: OpRequest,
    lanes: usize,
}

fn case(op: &OpSpec, pick: u32, active: u128, raws: &[i64], ty_pick: usize, bits: &[u64]) -> Case {
    let lanes = lanes_for(op.dialect, pick);
    let all = if lanes == 128 {
        u128::MAX
    } else {
        (1u128 << lanes) - 1
    };
    let active = (active & all).max(1);
    let ty = op.types[ty_pick % op.types.len()];
    let mut params = BTreeMap::new();
    for (k, p) in op.params().enumerate() {
        let raw = raws.get(k).copied().unwrap_or(0);
        let text = match p.kind {
            ParamKind::Int { min, max } => int_in(min, max, raw, (raw >> 8) as u8).to_string(),
            ParamKind::Mask => {
                // Mostly the active mask (the well-formed call), sometimes anything.
                let m = if raw % 3 == 0 {
                    raw as u128 & all
                } else {
                    active
                };
                format!("0x{m:x}")
            }
            _ => continue,
        };
        params.insert(p.name.to_string(), text);
    }
    let values: Vec<String> = bits[..lanes]
        .iter()
        .map(|b| {
            let w = ty.bit_width();
            let b = if w == 64 { *b } else { b & ((1u64 << w) - 1) };
            format!("0x{b:x}")
        })
        .collect();
    Case {
        request: OpRequest {
            dialect: op.dialect.name().into(),
            op: op.name.into(),
            lanes: lanes.to_string(),
            active: format!("0x{active:x}"),
            exited: String::new(),
            values: values.join(","),
            ty: ty.name().into(),
            params,
        },
        lanes,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn from_is_always_inside_the_warp_and_values_move_bit_exact(
        op_pick in any::<prop::sample::Index>(),
        pick in any::<u32>(),
        active in any::<u128>(),
        raws in prop::collection::vec(any::<i64>(), 4),
        ty_pick in any::<usize>(),
        bits in prop::collection::vec(any::<u64>(), 128),
    ) {
        let all = ops();
        let op = all[op_pick.index(all.len())];
        let c = case(op, pick, active, &raws, ty_pick, &bits);
        let step = c.request.run().expect("generated request is valid");
        prop_assert_eq!(step.results.len(), c.lanes);
        for (i, r) in step.results.iter().enumerate() {
            if let Some(from) = r.from {
                prop_assert!(from < c.lanes, "{} lane {}: from {} ≥ {}", op.name, i, from, c.lanes);
            }
            if matches!(r.source, Source::Lane | Source::Own) {
                let from = r.from.expect("a moved value names its lane");
                let input = step.inputs[from].expect("input row is defined");
                prop_assert_eq!(r.value.map(|v| v.bits), Some(input.bits),
                    "{} lane {} changed the bits read from lane {}", op.name, i, from);
            }
        }
    }
}

/// NaN payloads, -0.0 and subnormals of f32, f16 and f64 through a shuffle of every dialect.
#[test]
fn special_float_bits_survive_every_shuffle() {
    let cases: [(&str, &str, &str, &str); 4] = [
        ("cuda", "__shfl_xor_sync", "lane_mask", "1"),
        ("hip", "__shfl_xor", "lane_mask", "1"),
        ("wgsl", "subgroupShuffleXor", "mask", "1"),
        ("ascend", "asc_shfl_xor", "lane_mask", "1"),
    ];
    let patterns: [(ValueType, [u64; 4]); 3] = [
        (
            ValueType::F32,
            [0x7fc0_0123, 0x8000_0000, 0x0000_0001, 0xff80_0001],
        ),
        (ValueType::F16, [0x7e01, 0x8000, 0x0001, 0xfc01]),
        (
            ValueType::F64,
            [
                0x7ff8_0000_0000_0abc,
                0x8000_0000_0000_0000,
                1,
                0xfff0_0000_0000_0001,
            ],
        ),
    ];
    for (dialect, op, param, value) in cases {
        for (ty, pattern) in patterns {
            let spec = crosslane_core::find_op(Dialect::parse(dialect).unwrap(), op).unwrap();
            if !spec.types.contains(&ty) {
                continue;
            }
            let lanes = if dialect == "hip" { 64 } else { 32 };
            let values: Vec<String> = (0..lanes)
                .map(|i| format!("0x{:x}", pattern[i % 4]))
                .collect();
            let step = OpRequest {
                dialect: dialect.into(),
                op: op.into(),
                lanes: lanes.to_string(),
                values: values.join(","),
                ty: ty.name().into(),
                params: [(param.to_string(), value.to_string())]
                    .into_iter()
                    .collect(),
                ..OpRequest::default()
            }
            .run()
            .unwrap();
            for (i, r) in step.results.iter().enumerate() {
                assert_eq!(
                    r.value.map(|v| v.bits),
                    Some(pattern[(i ^ 1) % 4]),
                    "{op} {ty} lane {i}"
                );
            }
        }
    }
}

proptest! {
    /// `compare` takes any parameter and width a user can type without panicking (wasm must not
    /// abort), and every verdict that disagrees names at least one rule.
    #[test]
    fn compare_never_panics(
        family in prop::sample::select(vec![
            crosslane_core::ShuffleFamily::Idx,
            crosslane_core::ShuffleFamily::Up,
            crosslane_core::ShuffleFamily::Down,
            crosslane_core::ShuffleFamily::Xor,
        ]),
        param in prop_oneof![any::<i64>(), -70i64..200],
        width in prop::option::of(prop_oneof![any::<i64>(), 0i64..70]),
        active in any::<u32>(),
    ) {
        if let Ok(c) = crosslane_core::compare(family, param, width, "lane", &format!("0x{active:x}")) {
            for v in c.disagreeing() {
                prop_assert!(v.explanation.as_deref().is_some_and(|e| !e.is_empty()));
            }
        }
    }
}
