//! Value arithmetic (src/mechanics/arith.rs): wrapping integers, IEEE floats, half precision, packed pairs,
//! and undefined propagation.

use crosslane_core::arith::{binary, binary_opt, fold, identity, ArithError, BinOp};
use crosslane_core::{Value, ValueType};
use proptest::prelude::*;

fn v(ty: ValueType, text: &str) -> Value {
    Value::parse(ty, text, "test").unwrap()
}

#[test]
fn integers_wrap_and_compare_by_signedness() {
    let t = ValueType::I32;
    assert_eq!(
        binary(BinOp::Add, v(t, "2147483647"), v(t, "1")).unwrap(),
        v(t, "-2147483648")
    );
    assert_eq!(
        binary(BinOp::Mul, v(t, "65536"), v(t, "65536")).unwrap(),
        v(t, "0")
    );
    assert_eq!(
        binary(BinOp::Min, v(t, "-1"), v(t, "3")).unwrap(),
        v(t, "-1")
    );
    let u = ValueType::U32;
    assert_eq!(
        binary(BinOp::Min, v(u, "0xffffffff"), v(u, "3")).unwrap(),
        v(u, "3")
    );
    assert_eq!(
        binary(BinOp::Add, v(u, "0xffffffff"), v(u, "2")).unwrap(),
        v(u, "1")
    );
    let l = ValueType::I64;
    assert_eq!(
        binary(BinOp::Add, v(l, "9223372036854775807"), v(l, "1")).unwrap(),
        v(l, "-9223372036854775808")
    );
    let ul = ValueType::U64;
    assert_eq!(
        binary(BinOp::Max, v(ul, "0xffffffffffffffff"), v(ul, "1"))
            .unwrap()
            .bits,
        u64::MAX
    );
    assert_eq!(
        binary(BinOp::Xor, v(u, "0xf0"), v(u, "0xff")).unwrap(),
        v(u, "0x0f")
    );
    assert_eq!(
        binary(BinOp::And, v(t, "-1"), v(t, "6")).unwrap(),
        v(t, "6")
    );
    assert_eq!(binary(BinOp::Or, v(t, "8"), v(t, "6")).unwrap(), v(t, "14"));
}

#[test]
fn floats_follow_ieee_and_nan_loses_min_max() {
    let f = ValueType::F32;
    assert_eq!(
        binary(BinOp::Add, v(f, "0.1"), v(f, "0.2")).unwrap().bits,
        (0.1f32 + 0.2f32).to_bits() as u64
    );
    assert_eq!(
        binary(BinOp::Min, v(f, "nan"), v(f, "2")).unwrap(),
        v(f, "2")
    );
    assert_eq!(
        binary(BinOp::Max, v(f, "3"), v(f, "nan")).unwrap(),
        v(f, "3")
    );
    // Ties keep the first operand: min(-0, +0) = -0.
    assert_eq!(
        binary(BinOp::Min, v(f, "-0"), v(f, "0")).unwrap().bits,
        0x8000_0000
    );
    let d = ValueType::F64;
    assert_eq!(
        binary(BinOp::Mul, v(d, "1.5"), v(d, "-2")).unwrap(),
        v(d, "-3")
    );
}

#[test]
fn half_precision_rounds_once_to_nearest_even() {
    let h = ValueType::F16;
    // 2048 + 1 is not representable in f16 (spacing 2): ties to even gives 2048.
    assert_eq!(
        binary(BinOp::Add, v(h, "2048"), v(h, "1")).unwrap(),
        v(h, "2048")
    );
    assert_eq!(
        binary(BinOp::Add, v(h, "2048"), v(h, "3")).unwrap(),
        v(h, "2052")
    );
    assert_eq!(
        binary(BinOp::Mul, v(h, "65504"), v(h, "2"))
            .unwrap()
            .to_string(),
        "inf"
    );
    let b = ValueType::Bf16;
    assert_eq!(
        binary(BinOp::Add, v(b, "256"), v(b, "1")).unwrap(),
        v(b, "256")
    );
    let p = ValueType::F16x2;
    let s = binary(BinOp::Add, v(p, "1.5:-2"), v(p, "0.5:4")).unwrap();
    assert_eq!(s.to_string(), "2:2");
    let m = binary(BinOp::Max, v(p, "1:nan"), v(p, "3:-7")).unwrap();
    assert_eq!(m.to_string(), "3:-7");
}

#[test]
fn undefined_operand_gives_undefined_result() {
    let t = ValueType::I32;
    assert_eq!(binary_opt(BinOp::Add, None, Some(v(t, "1"))).unwrap(), None);
    assert_eq!(
        binary_opt(BinOp::Add, Some(v(t, "1")), Some(v(t, "2"))).unwrap(),
        Some(v(t, "3"))
    );
    assert_eq!(
        fold(BinOp::Add, t, [Some(v(t, "1")), None, Some(v(t, "2"))]).unwrap(),
        None
    );
    assert_eq!(
        fold(
            BinOp::Add,
            t,
            [Some(v(t, "1")), Some(v(t, "5")), Some(v(t, "2"))]
        )
        .unwrap(),
        Some(v(t, "8"))
    );
    assert_eq!(fold(BinOp::Mul, t, []).unwrap(), Some(v(t, "1")));
}

#[test]
fn errors_name_the_problem() {
    let e = binary(BinOp::And, v(ValueType::F32, "1"), v(ValueType::F32, "1")).unwrap_err();
    assert!(matches!(e, ArithError::NotInteger { .. }));
    assert!(e.to_string().contains("integer"));
    let e = binary(BinOp::Add, v(ValueType::I32, "1"), v(ValueType::U32, "1")).unwrap_err();
    assert!(matches!(e, ArithError::TypeMismatch { .. }));
    assert!(identity(BinOp::Xor, ValueType::F16).is_err());
}

fn bits_for(ty: ValueType) -> impl Strategy<Value = Value> {
    any::<u64>().prop_map(move |b| Value::from_bits(ty, b))
}

proptest! {
    #[test]
    fn identity_is_neutral_for_integers(
        ty in prop::sample::select(vec![ValueType::I32, ValueType::U32, ValueType::I64, ValueType::U64]),
        op in prop::sample::select(BinOp::ALL.to_vec()),
        seed in any::<u64>(),
    ) {
        let x = Value::from_bits(ty, seed);
        let id = identity(op, ty).unwrap();
        prop_assert_eq!(binary(op, x, id).unwrap(), x);
        prop_assert_eq!(binary(op, id, x).unwrap(), x);
    }

    #[test]
    fn integer_ops_commute(a in bits_for(ValueType::I32), b in bits_for(ValueType::I32),
                           op in prop::sample::select(BinOp::ALL.to_vec())) {
        prop_assert_eq!(binary(op, a, b).unwrap(), binary(op, b, a).unwrap());
    }

    #[test]
    fn float_identity_is_neutral(x in -1.0e30f32..1.0e30f32,
                                 op in prop::sample::select(vec![BinOp::Add, BinOp::Mul, BinOp::Min, BinOp::Max])) {
        let a = Value::from_bits(ValueType::F32, x.to_bits() as u64);
        let r = binary(op, a, identity(op, ValueType::F32).unwrap()).unwrap();
        // x + 0 turns -0 into +0 by IEEE rules; compare numerically.
        prop_assert_eq!(r.as_f64(), a.as_f64());
    }
}

/// WebAssembly Core Specification (canonical NaN: payload 2^(M−1)) and IEEE 754-2019 §6.2.1 (the
/// quiet bit is the first significand bit): a NaN made by add or mul has exactly these bits, on
/// every host. x86 would give 0xffc00000 for inf − inf.
#[test]
fn nan_results_are_canonical() {
    let f32v = |x: f32| Value::from_bits(ValueType::F32, x.to_bits() as u64);
    let r = binary(BinOp::Add, f32v(f32::INFINITY), f32v(f32::NEG_INFINITY)).unwrap();
    assert_eq!(r.bits, 0x7fc0_0000);
    // A NaN operand with a payload and the sign bit set: still the canonical NaN.
    let odd = Value::from_bits(ValueType::F32, 0xffc0_1234);
    assert_eq!(
        binary(BinOp::Mul, odd, f32v(2.0)).unwrap().bits,
        0x7fc0_0000
    );
    let f64v = |x: f64| Value::from_bits(ValueType::F64, x.to_bits());
    let r = binary(BinOp::Mul, f64v(0.0), f64v(f64::INFINITY)).unwrap();
    assert_eq!(r.bits, 0x7ff8_0000_0000_0000);
    let r = binary(
        BinOp::Add,
        Value::from_bits(ValueType::Bf16, 0x7f80),
        Value::from_bits(ValueType::Bf16, 0xff80),
    )
    .unwrap();
    assert_eq!(r.bits, 0x7fc0, "bf16 +inf + -inf");
    let r = binary(
        BinOp::Add,
        Value::from_bits(ValueType::F16x2, 0x3c00_7c00),
        Value::from_bits(ValueType::F16x2, 0x3c00_fc00),
    )
    .unwrap();
    assert_eq!(
        r.bits, 0x4000_7e00,
        "f16x2: lo inf − inf = NaN, hi 1 + 1 = 2"
    );
}
