//! Seed 002 §3.2 compare builtins through the request path: the 64-bit lane mask.

use crate::common;

use crosslane_core::{OpRequest, Source};

fn run(
    op: &str,
    values: &str,
    ty: &str,
    params: &[(&str, &str)],
    active: &str,
) -> crosslane_core::Step {
    common::maca(op, values, ty, active, params)
        .run()
        .unwrap_or_else(|e| panic!("{op}: {e}"))
}

fn mask_of(step: &crosslane_core::Step, lane: usize) -> u64 {
    step.results[lane]
        .value
        .expect("active lane has the mask")
        .bits
}

/// §3.2.1 example: `res = __builtin_mxc_uicmp(a, b, MACA_ICMP_EQ)` with uniform a, b.
#[test]
fn uicmp_example_uniform_operands() {
    let equal = run(
        "__builtin_mxc_uicmp",
        "7",
        "u32",
        &[("src1", "7"), ("icmp_op", "MACA_ICMP_EQ")],
        "",
    );
    assert_eq!(mask_of(&equal, 0), u64::MAX);
    assert_eq!(equal.results[0].source, Source::Computed);
    let differ = run(
        "__builtin_mxc_uicmp",
        "7",
        "u32",
        &[("src1", "8"), ("icmp_op", "MACA_ICMP_EQ")],
        "",
    );
    assert_eq!(mask_of(&differ, 63), 0);
}

/// Per-lane operands: lane < 20 (unsigned) sets bits 0..19; inactive lanes contribute 0.
#[test]
fn uicmp_ult_is_a_ballot_of_lanes() {
    let s = run(
        "__builtin_mxc_uicmp",
        "lane",
        "u32",
        &[("src1", "20"), ("icmp_op", "MACA_ICMP_ULT")],
        "",
    );
    assert_eq!(mask_of(&s, 40), (1 << 20) - 1);
    let half = run(
        "__builtin_mxc_uicmp",
        "lane",
        "u32",
        &[("src1", "20"), ("icmp_op", "MACA_ICMP_ULT")],
        "0xffffffff00000000",
    );
    assert_eq!(mask_of(&half, 40), 0);
    assert_eq!(half.results[0].source, Source::Inactive);
}

/// §3.2.1 example `lres = __builtin_mxc_uicmpl(x, y, MACA_ICMP_NE)` on 64-bit operands.
#[test]
fn uicmpl_example_ne() {
    let s = run(
        "__builtin_mxc_uicmpl",
        "lane",
        "u64",
        &[("src1", "4294967296"), ("icmp_op", "MACA_ICMP_NE")],
        "",
    );
    assert_eq!(mask_of(&s, 0), u64::MAX);
    let eq = run(
        "__builtin_mxc_uicmpl",
        "lane+4294967296",
        "u64",
        &[("src1", "4294967299"), ("icmp_op", "33")],
        "",
    );
    assert_eq!(mask_of(&eq, 0), !(1u64 << 3));
}

/// §3.2.2: signed compares see -1 below 0; the unsigned predicate on the same bits does not.
#[test]
fn sicmp_signedness() {
    let s = run(
        "__builtin_mxc_sicmp",
        "lane-32",
        "i32",
        &[("src1", "0"), ("icmp_op", "MACA_ICMP_SLT")],
        "",
    );
    assert_eq!(mask_of(&s, 0), 0xffff_ffff);
    let u = run(
        "__builtin_mxc_sicmp",
        "lane-32",
        "i32",
        &[("src1", "0"), ("icmp_op", "MACA_ICMP_ULT")],
        "",
    );
    assert_eq!(mask_of(&u, 0), 0);
    let l = run(
        "__builtin_mxc_sicmpl",
        "lane-1",
        "i64",
        &[("src1", "0"), ("icmp_op", "MACA_ICMP_EQ")],
        "",
    );
    assert_eq!(mask_of(&l, 5), 0b10);
}

/// §3.2.3 example `fcmp(da, db, 1)`, `fcmpf(fa, fb, 2)`, `fcmph(ha, hb, 3)`: LLVM OEQ, OGT, OGE.
#[test]
fn fcmp_example_numeric_predicates() {
    let d = run(
        "__builtin_mxc_fcmp",
        "lane",
        "f64",
        &[("src1", "5"), ("fcmp_op", "1")],
        "",
    );
    assert_eq!(mask_of(&d, 0), 1 << 5);
    let f = run(
        "__builtin_mxc_fcmpf",
        "lane",
        "f32",
        &[("src1", "60"), ("fcmp_op", "2")],
        "",
    );
    assert_eq!(mask_of(&f, 0), 0b111 << 61);
    let h = run(
        "__builtin_mxc_fcmph",
        "lane",
        "f16",
        &[("src1", "60"), ("fcmp_op", "3")],
        "",
    );
    assert_eq!(mask_of(&h, 0), 0b1111 << 60);
}

/// NaN: ordered predicates are false, CMP_NEQ and CMP_U are true.
#[test]
fn fcmp_nan() {
    let eq = run(
        "__builtin_mxc_fcmpf",
        "nan",
        "f32",
        &[("src1", "nan"), ("fcmp_op", "CMP_EQ")],
        "",
    );
    assert_eq!(mask_of(&eq, 0), 0);
    let ne = run(
        "__builtin_mxc_fcmpf",
        "nan",
        "f32",
        &[("src1", "1"), ("fcmp_op", "CMP_NEQ")],
        "",
    );
    assert_eq!(mask_of(&ne, 0), u64::MAX);
    let u = run(
        "__builtin_mxc_fcmpf",
        "1",
        "f32",
        &[("src1", "nan"), ("fcmp_op", "CMP_U")],
        "",
    );
    assert_eq!(mask_of(&u, 0), u64::MAX);
}

/// A predicate outside the enum is an input error listing the MACA_ICMP_* names.
#[test]
fn bad_predicate_lists_the_enum() {
    let e = OpRequest {
        dialect: "maca".into(),
        op: "__builtin_mxc_uicmp".into(),
        params: [("icmp_op".to_string(), "MACA_ICMP_LT".to_string())].into(),
        ..Default::default()
    }
    .run()
    .unwrap_err();
    assert_eq!(e.field, "icmp_op");
    for name in ["MACA_ICMP_EQ", "MACA_ICMP_ULE", "MACA_ICMP_SLE"] {
        assert!(e.message.contains(name), "{}", e.message);
    }
}

proptest::proptest! {
    /// EQ and NE split the active lanes: disjoint masks whose union is the active mask.
    #[test]
    fn eq_and_ne_partition_the_active_lanes(
        a in proptest::collection::vec(0u32..4, 64),
        b in proptest::collection::vec(0u32..4, 64),
        active in proptest::prelude::any::<u64>(),
    ) {
        let list = |v: &Vec<u32>| v.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        let active_hex = format!("0x{active:x}");
        let go = |pred: &str| {
            let s = run("__builtin_mxc_uicmp", &list(&a), "u32", &[("src1", &list(&b)), ("icmp_op", pred)], &active_hex);
            s.results.iter().find_map(|r| r.value).map_or(0, |v| v.bits)
        };
        let (eq, ne) = (go("MACA_ICMP_EQ"), go("MACA_ICMP_NE"));
        proptest::prop_assert_eq!(eq & ne, 0);
        proptest::prop_assert_eq!(eq | ne, active);
    }
}
