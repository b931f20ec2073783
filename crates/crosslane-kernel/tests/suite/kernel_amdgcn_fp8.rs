//! clang's AMDGPU FP8 conversion built-ins (`__builtin_amdgcn_cvt_pk_fp8_f32`, `cvt_pk_bf8_f32`,
//! `cvt_f32_fp8`, `cvt_f32_bf8`; `mathlib::amdgcn_fp8`). gfx942 converts to the FNUZ formats,
//! gfx950 and gfx12 to the OCP ones (MLIR AMDGPU `Chipset.h`, `hasOcpFp8`); each expected byte
//! is worked by hand from the format's bias and mantissa width (FNUZ E4M3 bias 8, OCP E4M3
//! bias 7, FNUZ E5M2 bias 16, OCP E5M2 bias 15), rounding to nearest even.

use crate::support::{launch, refused, run_finished};
use crosslane_core::op::Dialect;
use crosslane_kernel::LaunchConfig;

fn on(arch: &str, bufs: &[(&str, usize, &str)]) -> LaunchConfig {
    let mut c = launch(Dialect::Hip, 1, bufs);
    c.preprocess.arch = Some(arch.into());
    c.lanes = Some(64);
    c
}

const PACK: &str = "#include <hip/hip_runtime.h>
__global__ void k(int* o) {
  o[0] = __builtin_amdgcn_cvt_pk_fp8_f32(1.0f, -2.0f, 0, false);
  o[1] = __builtin_amdgcn_cvt_pk_fp8_f32(0.3f, 1.0625f, 0, false);
  o[2] = __builtin_amdgcn_cvt_pk_fp8_f32(1.1875f, 0.0f, 0, false);
  o[3] = __builtin_amdgcn_cvt_pk_fp8_f32(1.0f, -2.0f, 0x12345678, true);
  o[4] = __builtin_amdgcn_cvt_pk_bf8_f32(1.0f, 0.75f, 0, false);
  o[5] = __builtin_amdgcn_cvt_pk_fp8_f32(241.0f, 1.0f, 0, false);
}
";

/// gfx942, FNUZ. E4M3 bias 8: 1.0 = 0.1000.000 = 0x40; −2.0 = 1.1001.000 = 0xC8, so
/// (1, −2) packs to 0xC840 (the first argument low). 0.3 = 1.2·2⁻²: field 6, mantissa
/// 0.2·8 = 1.6 → 2: 0.0110.010 = 0x32; 1.0625 = 1 + ½·⅛ is a tie, to even 1.0 = 0x40:
/// 0x4032. 1.1875 = 1 + 1.5·⅛ ties up to 1.25 = 0.1000.010 = 0x42; 0.0 = 0x00: 0x0042.
/// word_sel true writes bits 31:16 and keeps old's 15:0: 0xC8405678 = −935307656. E5M2 bias
/// 16: 1.0 = 0.10000.00 = 0x40, 0.75 = 1.5·2⁻¹ = 0.01111.10 = 0x3E: 0x3E40. 241 is past
/// FNUZ E4M3's 240: undefined.
#[test]
fn gfx942_packs_fnuz_bytes_into_the_selected_word() {
    let t = run_finished(PACK, on("gfx942", &[("o", 6, "0")]));
    let o = crate::support::ints(&t, "o");
    assert_eq!(
        o,
        [
            Some(0xC840),
            Some(0x4032),
            Some(0x0042),
            Some(-935_307_656),
            Some(0x3E40),
            None
        ]
    );
    assert!(crate::support::has(
        &t,
        crosslane_core::result::Level::Warning,
        "past the largest finite value 240"
    ));
}

/// gfx950, OCP. E4M3 bias 7: 1.0 = 0.0111.000 = 0x38, −2.0 = 1.1000.000 = 0xC0: 0xC038; 0.3:
/// field 5, 0.0101.010 = 0x2A, 1.0625 → 1.0 = 0x38: 0x382A; 1.1875 → 1.25 = 0.0111.010 = 0x3A;
/// word 1: 0xC0385678 = −1070049672. E5M2 bias 15: 1.0 = 0.01111.00 = 0x3C, 0.75 =
/// 0.01110.10 = 0x3A: 0x3A3C. 241 < 448: 1.8828·2⁷, mantissa 7.06 → 7: 0.1110.111 = 0x77,
/// with 1.0 = 0x38 high: 0x3877.
#[test]
fn gfx950_packs_ocp_bytes() {
    let t = run_finished(PACK, on("gfx950", &[("o", 6, "0")]));
    let o = crate::support::ints(&t, "o");
    assert_eq!(
        o,
        [
            Some(0xC038),
            Some(0x382A),
            Some(0x003A),
            Some(-1_070_049_672),
            Some(0x3A3C),
            Some(0x3877)
        ]
    );
}

/// Decoding byte `byte_sel` of 0x80C83840: on gfx942 (FNUZ E4M3) 0x40 = 1.0, 0x38 =
/// 0.0111.000 = 2⁻¹ = 0.5, 0xC8 = −2.0, 0x80 = NaN (FNUZ's only NaN); on gfx1200 (OCP)
/// 0x40 = 2¹ = 2.0, 0x38 = 1.0, 0xC8 = −4.0, 0x80 = −0. BF8 0x3E on gfx942 (E5M2 FNUZ) is
/// 0.01111.10 = 1.5·2⁻¹ = 0.75.
#[test]
fn unpacking_decodes_the_selected_byte_in_the_targets_format() {
    let src = "#include <hip/hip_runtime.h>
__global__ void k(float* f) {
  int w = (int)0x80C83840u;
  f[0] = __builtin_amdgcn_cvt_f32_fp8(w, 0);
  f[1] = __builtin_amdgcn_cvt_f32_fp8(w, 1);
  f[2] = __builtin_amdgcn_cvt_f32_fp8(w, 2);
  f[3] = __builtin_amdgcn_cvt_f32_fp8(w, 3);
  f[4] = __builtin_amdgcn_cvt_f32_bf8(0x3E, 0);
}
";
    let t = run_finished(src, on("gfx942", &[("f", 5, "0")]));
    let f = crate::support::floats(&t, "f");
    assert_eq!(&f[..3], [Some(1.0), Some(0.5), Some(-2.0)]);
    assert!(f[3].is_some_and(f64::is_nan));
    assert_eq!(f[4], Some(0.75));
    let mut c = on("gfx1200", &[("f", 5, "0")]);
    c.lanes = Some(32);
    let t = run_finished(src, c);
    let f = crate::support::floats(&t, "f");
    assert_eq!(&f[..3], [Some(2.0), Some(1.0), Some(-4.0)]);
    assert!(f[3].is_some_and(|x| x == 0.0 && x.is_sign_negative()));
}

/// gfx1100 (RDNA3) has no FP8 conversion instructions: refused before the run, naming those
/// that have them.
#[test]
fn targets_without_fp8_conversions_refuse_the_call() {
    let src = "__global__ void k(int* o) {
  o[0] = __builtin_amdgcn_cvt_pk_fp8_f32(1.0f, 1.0f, 0, false);
}
";
    let mut c = on("gfx1100", &[("o", 1, "0")]);
    c.lanes = Some(32);
    let m = refused(src, c);
    assert!(
        m.contains("V_CVT_PK_FP8_F32) does not exist on gfx1100") && m.contains("gfx942"),
        "{m}"
    );
}
