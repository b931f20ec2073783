//! Laws of the WGSL scans, reductions and quad swaps (WGSL spec, Subgroup / Quad Built-in
//! Functions): inclusive = exclusive op x on every active invocation, a reduction equals the last
//! inclusive scan value, and a quad swap applied twice is the identity.

use std::collections::BTreeMap;

use crosslane_core::arith::{binary, BinOp};
use crosslane_core::{OpRequest, Step, Value};
use proptest::prelude::*;

fn run(op: &str, lanes: usize, active: u128, bits: &[u64], ty: &str) -> Step {
    let values: Vec<String> = bits.iter().map(|b| format!("0x{b:x}")).collect();
    OpRequest {
        dialect: "wgsl".into(),
        op: op.into(),
        lanes: lanes.to_string(),
        active: format!("0x{active:x}"),
        exited: String::new(),
        values: values.join(","),
        ty: ty.into(),
        params: BTreeMap::new(),
    }
    .run()
    .expect("request is valid")
}

/// Subgroup size, a non-empty active mask, and 32-bit operands.
fn subgroup() -> impl Strategy<Value = (usize, u128, Vec<u64>)> {
    (2u32..=7).prop_flat_map(|log| {
        let lanes = 1usize << log;
        let all = if lanes == 128 {
            u128::MAX
        } else {
            (1u128 << lanes) - 1
        };
        (
            Just(lanes),
            any::<u128>().prop_map(move |m| (m & all).max(1)),
            prop::collection::vec(any::<u32>().prop_map(u64::from), lanes),
        )
    })
}

fn same_number(a: Value, b: Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        // -0 and +0 compare equal; NaN equals NaN.
        (Some(x), Some(y)) if a.ty.is_float() => x == y || (x.is_nan() && y.is_nan()),
        _ => a == b,
    }
}

proptest! {
    #[test]
    fn inclusive_is_exclusive_op_x(
        (lanes, active, bits) in subgroup(),
        ty in prop::sample::select(vec!["i32", "u32", "f32"]),
        (op, inc, exc) in prop::sample::select(vec![
            (BinOp::Add, "subgroupInclusiveAdd", "subgroupExclusiveAdd"),
            (BinOp::Mul, "subgroupInclusiveMul", "subgroupExclusiveMul"),
        ]),
    ) {
        let i = run(inc, lanes, active, &bits, ty);
        let e = run(exc, lanes, active, &bits, ty);
        for lane in 0..lanes {
            if active >> lane & 1 == 0 {
                prop_assert!(i.results[lane].value.is_none());
                continue;
            }
            let x = i.inputs[lane].unwrap();
            let ex = e.results[lane].value.unwrap();
            let want = binary(op, ex, x).unwrap();
            let got = i.results[lane].value.unwrap();
            prop_assert!(same_number(got, want), "lane {}: {} vs {}", lane, got, want);
        }
    }

    #[test]
    fn reduction_is_the_last_inclusive(
        (lanes, active, bits) in subgroup(),
        ty in prop::sample::select(vec!["i32", "u32", "f32"]),
        (red, inc) in prop::sample::select(vec![
            ("subgroupAdd", "subgroupInclusiveAdd"),
            ("subgroupMul", "subgroupInclusiveMul"),
        ]),
    ) {
        let r = run(red, lanes, active, &bits, ty);
        let i = run(inc, lanes, active, &bits, ty);
        let last = 127 - active.leading_zeros() as usize;
        let total = i.results[last].value.unwrap();
        for lane in 0..lanes {
            if active >> lane & 1 == 1 {
                prop_assert_eq!(r.results[lane].value.map(|v| v.bits), Some(total.bits));
            }
        }
    }

    #[test]
    fn quad_swap_twice_is_identity(
        (lanes, _active, bits) in subgroup(),
        op in prop::sample::select(vec!["quadSwapX", "quadSwapY", "quadSwapDiagonal"]),
        ty in prop::sample::select(vec!["i32", "f32", "f16x2"]),
    ) {
        let all = if lanes == 128 { u128::MAX } else { (1u128 << lanes) - 1 };
        let once = run(op, lanes, all, &bits, ty);
        let moved: Vec<u64> = once.results.iter().map(|r| r.value.unwrap().bits).collect();
        let twice = run(op, lanes, all, &moved, ty);
        let back: Vec<u64> = twice.results.iter().map(|r| r.value.unwrap().bits).collect();
        prop_assert_eq!(back, bits);
    }
}
