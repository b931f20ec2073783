//! Inline PTX arithmetic (`crosslane_kernel::ptx_ops`): the bound an approximate instruction
//! carries is the PTX ISA's (ex2.approx.f32: 2 ulp; rsqrt.approx.f32: 2^-22.9 relative,
//! under 3 ulp), the instruction's architecture is checked against --arch (tanh.approx.f32:
//! sm_75), and every form not emulated is refused before the run at the `asm` with what to
//! write instead. Values the snapshots `ptx_asm_*.cu` check by hand.

use crate::support::block as launch;
use crosslane_kernel::run_kernel;
use serde_json::Value;

fn buffer(t: &crosslane_kernel::KernelTrace, name: &str) -> Value {
    let json = serde_json::to_value(t).expect("serializes");
    json["memory"]["buffers"]
        .as_array()
        .and_then(|b| b.iter().find(|b| b["name"] == name))
        .cloned()
        .unwrap_or(Value::Null)
}

#[test]
fn ex2_approx_carries_the_ptx_isa_bound() {
    // 2^x for x = 0, 1, 2, 3 (the launch's fill): 1, 2, 4, 8 exactly, each noted ≤ 2 ulp.
    let src = r#"__global__ void k(float* x) {
        float y;
        asm volatile("ex2.approx.f32 %0, %1;" : "=f"(y) : "f"(x[threadIdx.x]));
        x[threadIdx.x] = y;
    }"#;
    let t = run_kernel(src, launch(4)).expect("runs");
    let x = buffer(&t, "x");
    assert_eq!(x["values"], serde_json::json!([1.0, 2.0, 4.0, 8.0]), "{x}");
    assert_eq!(x["ulp"][3], 2, "{x}");
    let text = crosslane_kernel::report::render_text(&t, 1000);
    assert!(
        text.contains(
            "device may differ by ≤ 2 ulp (PTX ISA 8.5, Floating-Point Instructions, \
             ex2.approx.f32)"
        ),
        "{text}"
    );
}

#[test]
fn rsqrt_approx_relative_bound_is_three_ulp() {
    // 1/√4 = 0.5; 2^-22.9 relative is under ⌈2^1.1⌉ = 3 ulp of the result.
    let src = r#"__global__ void k(float* x) {
        float y;
        asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(4.0f + x[threadIdx.x] * 0.0f));
        x[threadIdx.x] = y;
    }"#;
    let t = run_kernel(src, launch(1)).expect("runs");
    let x = buffer(&t, "x");
    assert_eq!(x["values"][0], 0.5, "{x}");
    assert_eq!(x["ulp"][0], 3, "{x}");
}

#[test]
fn rounded_float_instructions_are_exact_without_a_note() {
    // 1 + 2^-30 rounds to 1 under .rn and to 1 + 2^-23 = 1.00000011920928955 under .rp.
    let src = r#"__global__ void k(float* a, float* b) {
        float t = 9.313225746154785e-10f;
        asm("add.rn.f32 %0, %1, %2;" : "=f"(a[0]) : "f"(1.0f), "f"(t));
        asm("add.rp.f32 %0, %1, 0f30800000;" : "=f"(b[0]) : "f"(1.0f));
    }"#;
    let t = run_kernel(src, launch(1)).expect("runs");
    assert_eq!(buffer(&t, "a")["values"][0], 1.0);
    assert_eq!(buffer(&t, "b")["values"][0], 1.0000001192092896);
    assert!(buffer(&t, "b")["ulp"].is_null() || buffer(&t, "b")["ulp"][0].is_null());
}

#[test]
fn tanh_approx_needs_sm75() {
    let src = r#"__global__ void k(float* x) {
        float y;
        asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x[0]));
        x[0] = y;
    }"#;
    assert!(run_kernel(src, launch(1)).is_ok());
    let mut old = launch(1);
    old.preprocess.arch = Some("sm_70".into());
    let e = run_kernel(src, old).unwrap_err().to_string();
    assert!(e.contains("needs sm_75") && e.contains("tanhf"), "{e}");
}

#[test]
fn unsupported_forms_are_refused_with_what_to_write() {
    let refused = |body: &str| {
        let src = format!("__global__ void k(unsigned* o, float* f) {{ {body} }}");
        run_kernel(&src, launch(1)).unwrap_err().to_string()
    };
    // A modifier not emulated.
    let e = refused(r#"float y; asm("ex2.approx.f16 %0, %1;" : "=f"(y) : "f"(f[0]));"#);
    assert!(e.contains(".f32"), "{e}");
    // A missing required rounding modifier.
    let e = refused(r#"float y; asm("fma.f32 %0, %1, %1, %1;" : "=f"(y) : "f"(f[0]));"#);
    assert!(e.contains(".rn"), "{e}");
    // The wrong register type for the instruction.
    let e = refused(r#"unsigned y; asm("ex2.approx.f32 %0, %1;" : "=r"(y) : "f"(f[0]));"#);
    assert!(e.contains(".f32 register"), "{e}");
    // An instruction outside the families, with the C++ to write.
    let e = refused(r#"unsigned y; asm("atom.global.add.u32 %0, [%1], 1;" : "=r"(y) : "l"(o));"#);
    assert!(e.contains("atom") && e.contains("atomicAdd"), "{e}");
    // An unpacking mov reads its source once per half: a call there is refused.
    let e = refused(
        r#"unsigned short l, h; asm("mov.b32 {%0, %1}, %2;" : "=h"(l), "=h"(h) : "r"(o[0]++));"#,
    );
    assert!(e.contains("variable first"), "{e}");
    // Integer add of a float type is no form: the types that are, and the operator.
    let e = refused(r#"unsigned y; asm("add.f64 %0, %1, %1;" : "=d"(y) : "d"(o[0]));"#);
    assert!(e.contains(".f32") && e.contains("operator"), "{e}");
}

#[test]
fn read_write_operand_and_immediate_lut() {
    // "+r"(acc) read as %0: acc = lop3(acc, 0xff00, 0x0ff0, 0x96) = acc ^ 0xff00 ^ 0x0ff0
    // = 0x1234 ^ 0xf0f0 = 0xe2c4 = 58052.
    let src = r#"__global__ void k(unsigned* o) {
        unsigned acc = 0x1234;
        asm("lop3.b32 %0, %0, %1, %2, 0x96;" : "+r"(acc) : "r"(0xff00), "r"(0x0ff0));
        o[0] = acc;
    }"#;
    let t = run_kernel(src, launch(1)).expect("runs");
    assert_eq!(buffer(&t, "o")["values"][0], 58052);
}

#[test]
fn blocks_refuse_what_they_do_not_emulate_by_name() {
    let refused = |body: &str| {
        let src = format!("__global__ void k(unsigned* o, float* f) {{ {body} }}");
        run_kernel(&src, launch(1)).unwrap_err().to_string()
    };
    // An instruction of no emulated family inside a block: named, with the C++ to write.
    let e = refused(
        r#"unsigned y; asm("{\n\t.reg .u32 t;\n\ttestp.finite.f32 t, %1;\n\tmov.u32 %0, t;\n\t}" : "=r"(y) : "r"(o[0]));"#,
    );
    assert!(e.contains("`testp.finite.f32`"), "{e}");
    // A load of a state space not emulated, inside a block (global, generic and `.shared`
    // ones run: suite `kernel_shared_window`).
    let e = refused(
        r#"unsigned y; asm("{\n\t.reg .u32 t;\n\tld.local.u32 t, [%1];\n\tmov.u32 %0, t;\n\t}" : "=r"(y) : "l"(o));"#,
    );
    assert!(e.contains("`.local` state space"), "{e}");
    // setp's second destination.
    let e = refused(
        r#"unsigned y; asm("{\n\t.reg .pred p, q;\n\tsetp.lt.s32 p|q, %1, 0;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(y) : "r"(o[0]));"#,
    );
    assert!(e.contains("p|q"), "{e}");
    // A register range whose count is no constant (`r<4>` declares r0..r3 and runs: suite
    // `kernel_nv_corpus4`) and a register of the wrong type for the instruction.
    let e = refused(r#"unsigned y; asm("{ .reg .b32 r<n>; mov.u32 %0, 1; }" : "=r"(y));"#);
    assert!(e.contains("r<n>"), "{e}");
    let e =
        refused(r#"unsigned y; asm("{ .reg .f32 t; mov.u32 t, 1; mov.u32 %0, 1; }" : "=r"(y));"#);
    assert!(e.contains("`t`"), "{e}");
    // A name that is no register of the block.
    let e = refused(r#"unsigned y; asm("{ mov.u32 %0, zz; }" : "=r"(y));"#);
    assert!(e.contains("`zz`"), "{e}");
}

#[test]
fn integer_instructions_wrap_and_clamp_their_shifts() {
    // PTX ISA add/sub: modulo 2^32; shr.s32: an amount past 31 clamps (sign fill); xor.b32.
    // o[0] = 0xFFFFFFFF + 2 = 1; o[1] = -16 >> 2 = -4; o[2] = -1 >> 40 = -1 (all ones);
    // o[3] = 0xF0 ^ 0xFF = 0x0F; o[4] = INT_MIN - 1 wraps to INT_MAX = 2147483647.
    let src = r#"__global__ void k(int* o) {
        unsigned a; int b, c, e; unsigned d;
        asm("add.u32 %0, %1, 2;" : "=r"(a) : "r"(0xFFFFFFFFu));
        asm("shr.s32 %0, %1, 2;" : "=r"(b) : "r"(-16));
        asm("shr.s32 %0, %1, %2;" : "=r"(c) : "r"(-1), "r"(40));
        asm("xor.b32 %0, %1, 0xFF;" : "=r"(d) : "r"(0xF0));
        asm("sub.s32 %0, %1, 1;" : "=r"(e) : "r"(-2147483647 - 1));
        o[0] = a; o[1] = b; o[2] = c; o[3] = d; o[4] = e;
    }"#;
    let mut config = launch(1);
    config.buffer_len.insert("o".into(), 5);
    let t = run_kernel(src, config).expect("runs");
    let o = buffer(&t, "o");
    assert_eq!(
        o["values"],
        serde_json::json!([1, -4, -1, 15, 2147483647]),
        "{o}"
    );
}
