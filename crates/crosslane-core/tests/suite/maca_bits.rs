//! MetaX scalar bit builtins (seed 002 §3.4.5, §3.7.4–3.7.6): every byte_perm selector, field
//! edges of ubfe/sbfe and alignbit's shift, through the request path.

use crosslane_core::{OpRequest, Step};

fn scalar(op: &str, params: &[(&str, String)]) -> Step {
    let step = OpRequest {
        dialect: "maca".into(),
        op: op.into(),
        params: params
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
        ..Default::default()
    }
    .run()
    .expect("valid request");
    assert!(step.scalar);
    assert_eq!(step.results.len(), 1);
    step
}

fn bits(step: &Step) -> u64 {
    step.results[0].value.expect("a value").bits
}

#[test]
fn byte_perm_every_selector() {
    // in[0..3] = s1's bytes, in[4..7] = s0's bytes (s0 is the high word).
    let s0 = 0xf150_a307u32;
    let s1 = 0x0f8e_2dccu32;
    let table: [u8; 13] = [
        0xcc, 0x2d, 0x8e, 0x0f, 0x07, 0xa3, 0x50, 0xf1, // 0..7: in[sel]
        0x00, 0x00, 0xff, 0xff, // 8..11: sign of in[1], in[3], in[5], in[7]
        0x00, // 12
    ];
    for sel in 0u32..=255 {
        let want = table.get(sel as usize).copied().unwrap_or(0xff); // 13..255 → 0xff
                                                                     // The selector under test in byte 2; bytes 0, 1, 3 pick in[0], in[4], in[7].
        let perm = (7 << 24) | (sel << 16) | (4 << 8);
        let step = scalar(
            "__builtin_mxc_byte_perm",
            &[
                ("s0", s0.to_string()),
                ("s1", s1.to_string()),
                ("perm", perm.to_string()),
            ],
        );
        let got = bits(&step) as u32;
        assert_eq!((got >> 16) as u8, want, "selector {sel}");
        assert_eq!(
            got & 0xffff,
            0x07cc | (u32::from(0x07u8) << 8) & 0xff00,
            "selector {sel} low bytes"
        );
        assert_eq!((got >> 24) as u8, 0xf1);
    }
}

#[test]
fn ubfe_and_sbfe_edges() {
    let run = |op: &str, data: u32, off: u32, width: u32| {
        scalar(
            op,
            &[
                ("data", data.to_string()),
                ("field_offset", off.to_string()),
                ("field_width", width.to_string()),
            ],
        )
    };
    assert_eq!(bits(&run("ubfe", 0xdead_beef, 0, 0)), 0);
    assert_eq!(bits(&run("ubfe", 0xdead_beef, 28, 4)), 0xd);
    assert_eq!(bits(&run("ubfe", 0xdead_beef, 1, 31)), 0x6f56_df77);
    // field_width[4:0]: 32 reads as 0, with a note.
    let step = run("ubfe", 0xdead_beef, 0, 32);
    assert_eq!(bits(&step), 0);
    assert!(step
        .diagnostics
        .iter()
        .any(|d| d.message.contains("field_width[4:0] = 0")));
    // sbfe: 0xdeadbeef bits 4..11 = 0xee → −18; bits 0..3 = 0xf → −1; bits 8..11 = 0xe → −2;
    // bits 12..15 = 0xb → −5; bits 0..6 = 0x6f → −17 (bit 6 set); bits 16..22 = 0x2d → 45
    // (bit 22 clear: positive).
    let signed = |off, width| {
        run("sbfe", 0xdead_beef, off, width).results[0]
            .value
            .unwrap()
            .as_i64()
            .unwrap()
    };
    assert_eq!(signed(4, 8), -18);
    assert_eq!(signed(0, 4), -1);
    assert_eq!(signed(12, 4), -5);
    assert_eq!(signed(0, 7), -17);
    assert_eq!(signed(16, 7), 45);
    assert_eq!(signed(0, 0), 0);
    assert_eq!(signed(0, 31), -0x2152_4111);
}

#[test]
fn alignbit_funnel_shift() {
    let run = |a: u32, b: u32, shift: u32| {
        bits(&scalar(
            "alignbit",
            &[
                ("a", a.to_string()),
                ("b", b.to_string()),
                ("shift", shift.to_string()),
            ],
        ))
    };
    assert_eq!(run(2, 1, 8), 0x0200_0000);
    assert_eq!(run(0x1234_5678, 0x9abc_def0, 0), 0x9abc_def0);
    assert_eq!(run(0x1234_5678, 0x9abc_def0, 16), 0x5678_9abc);
    assert_eq!(run(0xffff_ffff, 0, 31), 0xffff_fffe);
    assert_eq!(
        run(0x1234_5678, 0x9abc_def0, 36),
        0x89ab_cdef,
        "shift[4:0] = 4"
    );
    // A negative operand is its 32-bit pattern (C's conversion to unsigned int).
    assert_eq!(
        bits(&scalar(
            "alignbit",
            &[("a", "0".into()), ("b", "-1".into()), ("shift", "4".into())]
        )),
        0x0fff_ffff
    );
}
