//! clang's AMDGPU dot-product built-ins (`__builtin_amdgcn_sdot4`, `udot4`, `sudot4`,
//! `fdot2`), the approximate `rcpf` / `rsqf` / `exp2f`, and the OCML functions
//! (`__ocml_exp2_f32`) in HIP kernels (`mathlib::amdgcn_dot`). Expected values are worked by
//! hand from the instructions' pseudocode (AMD RDNA3 ISA and MI300 CDNA3 ISA: V_DOT4_I32_I8,
//! V_DOT4_U32_U8, V_DOT4_I32_IU8, V_DOT2_F32_F16); the targets from clang's
//! `BuiltinsAMDGPU.def` (required feature of each builtin) and the features each processor
//! has (clang `test/CodeGenOpenCL/amdgpu-features.cl`).

use crosslane_core::op::Dialect;
use crosslane_kernel::{run_kernel, KVal, KernelTrace, LaunchConfig, Outcome};

fn launch(arch: Option<&str>, threads: usize, bufs: &[(&str, usize)]) -> LaunchConfig {
    let mut c = LaunchConfig {
        dialect: Some(Dialect::Hip),
        block_dim: Some([threads, 1, 1]),
        ..LaunchConfig::default()
    };
    c.preprocess.arch = arch.map(str::to_string);
    for (n, l) in bufs {
        c.buffer_len.insert((*n).into(), *l);
    }
    c
}

fn run(src: &str, config: LaunchConfig) -> KernelTrace {
    let t = run_kernel(src, config).expect("kernel parses and launches");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

fn cells(t: &KernelTrace, name: &str) -> Vec<KVal> {
    t.buffer(name)
        .expect("buffer")
        .iter()
        .map(|c| c.clone().expect("written"))
        .collect()
}

/// On gfx942 (CDNA3: dot1, dot7, dot10). a = 0x01FF7F80 has the bytes (low first) 0x80, 0x7F,
/// 0xFF, 0x01: signed −128, 127, −1, 1, unsigned 128, 127, 255, 1; b = 0x02030405: 5, 4, 3, 2.
/// sdot4: −640 + 508 − 3 + 2 = −133, plus c = t: −133 + t. udot4: 640 + 508 + 765 + 2 = 1915,
/// plus 10: 1925. Saturation: 0x7F7F7F7F·0x7F7F7F7F = 4·127² = 64516 added to
/// 2147483547 (2³¹ − 1 − 100) is 2147548063: clamped 2147483647; wrapped 2147548063 − 2³² =
/// −2147419233. fdot2: 1 + 0.5·0.5 + 2·3 = 7.25.
#[test]
fn dot_products_follow_the_isa_pseudocode() {
    let src = "#include <hip/hip_runtime.h>
__global__ void k(int* o, unsigned* u, float* f) {
  int t = threadIdx.x;
  o[t] = __builtin_amdgcn_sdot4(0x01FF7F80, 0x02030405, t, false);
  u[t] = __builtin_amdgcn_udot4(0x01FF7F80u, 0x02030405u, 10u, false);
  if (t == 0) {
    o[4] = __builtin_amdgcn_sdot4(0x7F7F7F7F, 0x7F7F7F7F, 2147483547, true);
    o[5] = __builtin_amdgcn_sdot4(0x7F7F7F7F, 0x7F7F7F7F, 2147483547, false);
    half2 a = __halves2half2(__float2half(0.5f), __float2half(2.0f));
    half2 b = __halves2half2(__float2half(0.5f), __float2half(3.0f));
    f[0] = __builtin_amdgcn_fdot2(a, b, 1.0f, false);
  }
}
";
    let t = run(
        src,
        launch(Some("gfx942"), 4, &[("o", 6), ("u", 4), ("f", 1)]),
    );
    let o: Vec<i128> = cells(&t, "o").iter().map(|v| v.as_int().unwrap()).collect();
    assert_eq!(o, [-133, -132, -131, -130, 2_147_483_647, -2_147_419_233]);
    let u: Vec<i128> = cells(&t, "u").iter().map(|v| v.as_int().unwrap()).collect();
    assert_eq!(u, [1925; 4]);
    assert_eq!(cells(&t, "f")[0].as_f64(), Some(7.25));
}

/// sudot4 on gfx1100 (RDNA3, dot8): a = 0xFF is 255 unsigned or −1 signed, b = 0xFE 254 or
/// −2, the other bytes 0. (u, u) 255·254 = 64770; (s, u) −254; (u, s) −510; (s, s) 2.
#[test]
fn sudot4_reads_each_operand_signed_as_its_flag_says() {
    let src = "#include <hip/hip_runtime.h>
__global__ void k(int* o) {
  o[0] = __builtin_amdgcn_sudot4(false, 0xFF, false, 0xFE, 0, false);
  o[1] = __builtin_amdgcn_sudot4(true, 0xFF, false, 0xFE, 0, false);
  o[2] = __builtin_amdgcn_sudot4(false, 0xFF, true, 0xFE, 0, false);
  o[3] = __builtin_amdgcn_sudot4(true, 0xFF, true, 0xFE, 0, false);
}
";
    let t = run(src, launch(Some("gfx1100"), 1, &[("o", 4)]));
    let o: Vec<i128> = cells(&t, "o").iter().map(|v| v.as_int().unwrap()).collect();
    assert_eq!(o, [64770, -254, -510, 2]);
}

/// Each builtin is refused before the run on a target without its feature, naming the
/// targets that have it: sdot4 (dot1-insts) not on gfx1100; sudot4 (dot8-insts) not on the
/// default 64-lane target gfx942; udot4 (dot7-insts) not on gfx900.
#[test]
fn dot_builtins_are_refused_where_the_target_lacks_the_instruction() {
    let cases = [
        (
            "__builtin_amdgcn_sdot4(1, 1, 0, false)",
            Some("gfx1100"),
            "exists on gfx90a, gfx942, gfx950, gfx1030",
        ),
        (
            "__builtin_amdgcn_sudot4(true, 1, true, 1, 0, false)",
            None,
            "does not exist on gfx942; it exists on gfx1100, gfx1150, gfx1200",
        ),
        (
            "(int)__builtin_amdgcn_udot4(1u, 1u, 0u, false)",
            Some("gfx900"),
            "V_DOT4_U32_U8) does not exist on gfx900",
        ),
    ];
    for (call, arch, part) in cases {
        let src = format!("__global__ void k(int* o) {{\n  o[0] = {call};\n}}\n");
        let e = run_kernel(&src, launch(arch, 1, &[("o", 1)])).expect_err("refused");
        assert_eq!(e.line, 2, "{e:?}");
        assert!(e.message.contains(part), "{}", e.message);
    }
}

/// rcpf(3) is the float nearest 1/3, 0x3EAAAAAB = 0.3333333432674408; rsqf(16) = 0.25;
/// exp2f(3) = 8, each with the ISA's 1-ulp note naming the instruction. The OCML functions
/// are the math library's: __ocml_exp2_f32(5) = 32, __ocml_sqrt_f32(2) the float nearest √2,
/// 0x3FB504F3 = 1.4142135381698608; their notes are HIP's table's rows for `exp2f`, `sqrtf`.
#[test]
fn approximate_builtins_carry_the_isa_bound_and_ocml_is_the_math_library() {
    let src = "#include <hip/hip_runtime.h>
__global__ void k(float* f) {
  f[0] = __builtin_amdgcn_rcpf(3.0f);
  f[1] = __builtin_amdgcn_rsqf(16.0f);
  f[2] = __builtin_amdgcn_exp2f(3.0f);
  f[3] = __ocml_exp2_f32(5.0f);
  f[4] = __ocml_sqrt_f32(2.0f);
}
";
    let t = run(src, launch(Some("gfx1100"), 1, &[("f", 5)]));
    let f = cells(&t, "f");
    let vals: Vec<f64> = f.iter().map(|v| v.as_f64().unwrap()).collect();
    assert_eq!(
        vals,
        [
            f64::from(f32::from_bits(0x3EAA_AAAB)),
            0.25,
            8.0,
            32.0,
            f64::from(f32::from_bits(0x3FB5_04F3)),
        ]
    );
    for (k, insn) in ["V_RCP_F32", "V_RSQ_F32", "V_EXP_F32"].iter().enumerate() {
        let note = f[k].approx().expect("a note").note();
        assert!(note.contains("≤ 1 ulp") && note.contains(insn), "{note}");
    }
    // __ocml_exp2_f32 is exp2f, with HIP's row for it (1 ulp for x in [-10, 10]).
    let note = f[3].approx().expect("HIP's exp2f row").note();
    assert!(note.contains("HIP math API, exp2f"), "{note}");
}

/// `clamp = true` on V_DOT2_F32_F16 clamps the float result to [0.0, 1.0] (LLVM
/// `AMDGPUModifierSyntax.rst`, "clamp": "For floating-point operations, clamp modifier
/// indicates that the result must be clamped to the range [0.0, 1.0]"). By hand: 1 + 0.5·0.5 +
/// 2·3 = 7.25 → 1.0; −4 + 0.5·0.5 + 1·1 = −2.75 → 0.0; 0.125 + 0.25·0.5 + 0.5·0.25 = 0.375
/// stays. A NaN sum (c = NaN) is 0.0 or NaN by the DX10_CLAMP mode bit, not modelled:
/// undefined with the reason. The integer clamp saturates (same document: "clamped to the
/// largest and smallest representable value"): udot4 of 0xFF·0xFF = 65025 added to
/// 2³² − 1 − 1000 is past 2³² − 1: 4294967295 with clamp, 65025 − 1001 = 64024 wrapped;
/// sdot4 of (−128)·127 = −16256 added to −2³¹ + 100 saturates to −2³¹, wraps to
/// 2³¹ + 100 − 16256 = 2147467492.
#[test]
fn the_clamp_bit_limits_float_results_to_the_unit_interval_and_saturates_integers() {
    let src = "#include <hip/hip_runtime.h>
__global__ void k(float* f, unsigned* u, int* s) {
  half2 a = __halves2half2(__float2half(0.5f), __float2half(2.0f));
  half2 b = __halves2half2(__float2half(0.5f), __float2half(3.0f));
  half2 one = __halves2half2(__float2half(1.0f), __float2half(1.0f));
  half2 q = __halves2half2(__float2half(0.25f), __float2half(0.5f));
  half2 r = __halves2half2(__float2half(0.5f), __float2half(0.25f));
  f[0] = __builtin_amdgcn_fdot2(a, b, 1.0f, true);
  f[1] = __builtin_amdgcn_fdot2(a, one, -4.0f, true);
  f[2] = __builtin_amdgcn_fdot2(q, r, 0.125f, true);
  f[3] = __builtin_amdgcn_fdot2(a, b, __int_as_float(0x7fc00000), true);
  u[0] = __builtin_amdgcn_udot4(0xFFu, 0xFFu, 4294966295u, true);
  u[1] = __builtin_amdgcn_udot4(0xFFu, 0xFFu, 4294966295u, false);
  s[0] = __builtin_amdgcn_sdot4(0x80, 0x7F, -2147483548, true);
  s[1] = __builtin_amdgcn_sdot4(0x80, 0x7F, -2147483548, false);
}
";
    let t = run_kernel(
        src,
        launch(Some("gfx942"), 1, &[("f", 4), ("u", 2), ("s", 2)]),
    )
    .expect("kernel parses and launches");
    let f: Vec<Option<f64>> = t
        .buffer("f")
        .expect("f")
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64))
        .collect();
    assert_eq!(f, [Some(1.0), Some(0.0), Some(0.375), None]);
    assert!(t
        .all_diagnostics()
        .any(|d| d.message.contains("the sum is NaN") && d.message.contains("DX10_CLAMP")));
    let u: Vec<i128> = cells(&t, "u").iter().map(|v| v.as_int().unwrap()).collect();
    assert_eq!(u, [4_294_967_295, 64_024]);
    let s: Vec<i128> = cells(&t, "s").iter().map(|v| v.as_int().unwrap()).collect();
    assert_eq!(s, [-2_147_483_648, 2_147_467_492]);
}
