//! Seed 002 §3.1.1–3.1.5 global memory builtins against the simulated buffer.

use crate::common;

use crosslane_core::dialect::maca::memory::{parse_memory, VIEWS};
use crosslane_core::{find_op, Dialect, Level, Source, Step};

fn run(op: &str, params: &[(&str, &str)]) -> Result<Step, crosslane_core::InputError> {
    common::maca(op, "", "", "", params).run()
}

fn bits(step: &Step, lane: usize) -> u64 {
    step.results[lane]
        .value
        .unwrap_or_else(|| panic!("lane {lane}: {:?}", step.results[lane]))
        .bits
}

/// §3.1.1 example: `ldg_b32_predicator(ptr, 0, false, false, false, false, threadIdx.x, a,
/// MACA_ICMP_ULT)` — every lane reads ptr[0]; only lanes below `a` execute.
#[test]
fn ldg_b32_predicator_example() {
    let s = run(
        "__builtin_mxc_ldg_b32_predicator",
        &[
            ("memory", "0x11223344,5,6"),
            ("global_addr", "0"),
            ("cmp_operand2", "20"),
        ],
    )
    .unwrap();
    assert_eq!(bits(&s, 0), 0x1122_3344);
    assert_eq!(bits(&s, 19), 0x1122_3344);
    assert_eq!(
        s.results[20].source,
        Source::Undefined,
        "ret0_en = false leaves the register"
    );
    let z = run(
        "__builtin_mxc_ldg_b32_predicator",
        &[
            ("global_addr", "lane*4"),
            ("cmp_operand2", "20"),
            ("ret0_en", "true"),
        ],
    )
    .unwrap();
    assert_eq!(bits(&z, 7), 7, "default memory: word w holds w");
    assert_eq!(z.results[40].source, Source::Zero);
    assert_eq!(bits(&z, 40), 0);
}

/// pred_neg negates the compare; every MACA_ICMP_* flag is accepted; others list the enum.
#[test]
fn predicate_flags() {
    let s = run(
        "__builtin_mxc_ldg_b32_predicator",
        &[
            ("cmp_operand2", "20"),
            ("pred_neg", "true"),
            ("ret0_en", "true"),
        ],
    )
    .unwrap();
    assert_eq!(s.results[3].source, Source::Zero);
    assert_eq!(bits(&s, 33), 33);
    for (flag, lane, executes) in [
        ("MACA_ICMP_EQ", 20, true),
        ("MACA_ICMP_NE", 20, false),
        ("MACA_ICMP_UGT", 21, true),
        ("MACA_ICMP_UGE", 20, true),
        ("MACA_ICMP_ULT", 20, false),
        ("MACA_ICMP_ULE", 20, true),
        ("MACA_ICMP_SGT", 20, false),
        ("MACA_ICMP_SGE", 19, false),
        ("MACA_ICMP_SLT", 19, true),
        ("MACA_ICMP_SLE", 21, false),
    ] {
        let s = run(
            "__builtin_mxc_ldg_b32_predicator",
            &[
                ("cmp_operand2", "20"),
                ("cmp_flag", flag),
                ("ret0_en", "true"),
            ],
        )
        .unwrap();
        assert_eq!(
            s.results[lane].source == Source::Computed,
            executes,
            "{flag} lane {lane}"
        );
    }
    let e = run("__builtin_mxc_ldg_b32_predicator", &[("cmp_flag", "7")]).unwrap_err();
    assert_eq!(e.field, "cmp_flag");
    assert!(e.message.contains("MACA_ICMP_UGE"), "{}", e.message);
}

/// §3.1.3 example: lanes that do not execute return ret_val.
#[test]
fn ldg_predicator_ret_example() {
    let s = run(
        "__builtin_mxc_ldg_b32_predicator_ret",
        &[("ret_val", "99"), ("cmp_operand2", "2")],
    )
    .unwrap();
    assert_eq!(bits(&s, 1), 1);
    assert_eq!(s.results[2].source, Source::Old);
    assert_eq!(bits(&s, 2), 99);
    let v = run(
        "__builtin_mxc_ldg_b64_predicator_v4h_ret",
        &[
            ("ret_val", "1.5:2.5:-1:8"),
            ("cmp_operand2", "0"),
            ("elem", "1"),
        ],
    )
    .unwrap();
    assert_eq!(v.results[0].value.unwrap().to_string(), "2.5");
}

/// §3.1.2 example: `stg_b32_predicator(ptr, 0, val, …, threadIdx.x, a, MACA_ICMP_ULT)`.
#[test]
fn stg_b32_predicator_example() {
    let s = run(
        "__builtin_mxc_stg_b32_predicator",
        &[
            ("memory", "zero:4"),
            ("global_addr", "0"),
            ("data", "42"),
            ("cmp_operand2", "8"),
        ],
    )
    .unwrap();
    assert_eq!(bits(&s, 7), 42);
    assert_eq!(s.results[8].source, Source::Inactive);
    let note = s
        .diagnostics
        .iter()
        .find(|d| d.level == Level::Info)
        .unwrap();
    assert!(
        note.message.contains("[0] 0x00000000 → 0x0000002a"),
        "{}",
        note.message
    );
}

/// Vector views: bytes are little-endian; i8/i16 views sign-extend; stores write whole vectors.
#[test]
fn vector_views() {
    let mem = "0x8001ff7f,0x00020003,0x3c003800,0xc0004000";
    let c = run(
        "__builtin_mxc_ldg_b128_predicator_v16c",
        &[
            ("memory", mem),
            ("global_addr", "0"),
            ("cmp_operand2", "64"),
            ("elem", "1"),
        ],
    )
    .unwrap();
    assert_eq!(c.results[0].value.unwrap().to_string(), "-1");
    let s = run(
        "__builtin_mxc_ldg_b32_predicator_v2s",
        &[
            ("memory", mem),
            ("global_addr", "0"),
            ("cmp_operand2", "64"),
            ("elem", "1"),
        ],
    )
    .unwrap();
    assert_eq!(s.results[0].value.unwrap().to_string(), "-32767");
    let h = run(
        "__builtin_mxc_ldg_b64_predicator_v4h",
        &[
            ("memory", mem),
            ("global_addr", "8"),
            ("cmp_operand2", "64"),
            ("elem", "3"),
        ],
    )
    .unwrap();
    assert_eq!(h.results[0].value.unwrap().to_string(), "-2");
    let b8 = run(
        "__builtin_mxc_ldg_b8_predicator",
        &[
            ("memory", mem),
            ("global_addr", "lane"),
            ("cmp_operand2", "64"),
        ],
    )
    .unwrap();
    assert_eq!(bits(&b8, 3), 0x80);
    let st = run(
        "__builtin_mxc_stg_b128_predicator",
        &[
            ("memory", "zero:8"),
            ("global_addr", "16"),
            ("data", "1:2:3:4"),
            ("cmp_operand2", "1"),
        ],
    )
    .unwrap();
    let note = &st
        .diagnostics
        .iter()
        .find(|d| d.level == Level::Info)
        .unwrap()
        .message;
    assert!(
        note.contains("[4] 0x00000000 → 0x00000001")
            && note.contains("[7] 0x00000000 → 0x00000004"),
        "{note}"
    );
    let e = run("__builtin_mxc_stg_b64_predicator_v4s", &[("data", "1:2:3")]).unwrap_err();
    assert!(e.message.contains("needs 4 components"), "{}", e.message);
    let e = run("__builtin_mxc_stg_b32_predicator_v4c", &[("data", "300")]).unwrap_err();
    assert!(e.message.contains("-128..=255"), "{}", e.message);
}

/// Every width and view of §3.1.1–3.1.3 is registered, in all three families.
#[test]
fn every_width_is_registered() {
    let mut n = 0;
    for (key, _) in VIEWS {
        let (w, v) = key
            .split_once('_')
            .map_or((*key, String::new()), |(w, v)| (w, format!("_{v}")));
        for name in [
            format!("__builtin_mxc_ldg_{w}_predicator{v}"),
            format!("__builtin_mxc_ldg_{w}_predicator{v}_ret"),
            format!("__builtin_mxc_stg_{w}_predicator{v}"),
        ] {
            find_op(Dialect::Maca, &name).unwrap_or_else(|e| panic!("{name}: {e}"));
            run(&name, &[]).unwrap_or_else(|e| panic!("{name}: {e}"));
            n += 1;
        }
    }
    assert_eq!(n, 42);
}

/// An address past the buffer is an out-of-bounds fault: undefined lane plus a warning.
#[test]
fn out_of_bounds_is_reported() {
    let s = run(
        "__builtin_mxc_ldg_b32_predicator",
        &[
            ("memory", "index:4"),
            ("global_addr", "lane*4"),
            ("cmp_operand2", "64"),
        ],
    )
    .unwrap();
    assert_eq!(bits(&s, 3), 3);
    assert_eq!(s.results[4].source, Source::Undefined);
    assert!(s
        .diagnostics
        .iter()
        .any(|d| d.level == Level::Warning && d.message.contains("outside the 16-byte buffer")));
}

/// §3.1.4 example: `ldg_b32_bsm(shared_ptr, ptr, 0, -1, false, …)` copies into shared memory;
/// mask must be -1.
#[test]
fn ldg_bsm_example() {
    let s = run(
        "__builtin_mxc_ldg_b32_bsm",
        &[("memory", "index:64"), ("shared", "zero:64")],
    )
    .unwrap();
    assert_eq!(bits(&s, 9), 9);
    let note = &s
        .diagnostics
        .iter()
        .find(|d| d.level == Level::Info && d.message.contains("shared"))
        .unwrap()
        .message;
    assert!(note.contains("63 word(s) changed"), "{note}");
    let e = run("__builtin_mxc_ldg_b32_bsm", &[("mask", "5")]).unwrap_err();
    assert_eq!(e.field, "mask");
    assert!(e.message.contains("must be -1"), "{}", e.message);
    let w = run("__builtin_mxc_ldg_b128_bsm", &[("elem", "3")]).unwrap();
    assert_eq!(bits(&w, 2), 11);
}

/// §3.1.5: xcore1500+ only; the element order is not given, so the value is unspecified.
#[test]
fn load_shared_trans_is_arch_limited_and_unspecified() {
    let e = run(
        "__builtin_mxc_load_shared_trans_4x16",
        &[("arch", "xcore1000")],
    )
    .unwrap_err();
    assert!(e.message.contains("3.1.5"), "{}", e.message);
    let s = run("__builtin_mxc_load_shared_trans_8x16_v8i8", &[]).unwrap();
    assert_eq!(s.results[0].source, Source::Undefined);
    assert!(s.has_warnings());
}

#[test]
fn memory_text_forms() {
    assert_eq!(parse_memory("index:3", "memory").unwrap(), vec![0, 1, 2]);
    assert_eq!(
        parse_memory("0x10, -1", "memory").unwrap(),
        vec![16, u32::MAX]
    );
    assert_eq!(
        parse_memory("1,x", "memory").unwrap_err().field,
        "memory[1]"
    );
}

/// Addresses at the ends of the i64 range never panic: they are out-of-bounds faults.
#[test]
fn extreme_addresses_are_faults() {
    for addr in ["0x7fffffffffffffff", "-1"] {
        let s = run(
            "__builtin_mxc_ldg_b128_predicator",
            &[
                ("global_addr", addr),
                ("offset", "2147483647"),
                ("cmp_operand2", "64"),
            ],
        )
        .unwrap();
        assert_eq!(s.results[0].source, Source::Undefined, "{addr}");
        let st = run(
            "__builtin_mxc_stg_b64_predicator",
            &[("global_addr", addr), ("cmp_operand2", "64")],
        )
        .unwrap();
        assert_eq!(st.results[0].source, Source::Undefined, "{addr}");
    }
}
