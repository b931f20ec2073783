//! Built-ins public CUDA and HIP kernels call that the interpreter refused or misread: the
//! integer `__hadd(int, int)`, global-scope `::f(x)` calls, `static const __device__` tables,
//! clang's bit built-ins, CUDA's `__byte_perm` and `__float2uint_*`, and HIP's bit-field
//! functions. Every expected value is derived by hand (or by the Python line quoted) beside
//! its test.

use crate::cells::cell_ints as ints;
use crate::support::{launch, run_finished as run};
use crosslane_core::op::Dialect;
use crosslane_core::result::Level;
use crosslane_kernel::{run_kernel, KernelTrace};

fn warnings(t: &KernelTrace) -> Vec<String> {
    t.merged_diagnostics
        .iter()
        .filter(|d| matches!(d.level, Level::Warning | Level::Error))
        .map(|d| d.message.clone())
        .collect()
}

/// CUDA Math API, Integer Intrinsics: `int __hadd(int x, int y)` is `(x + y) >> 1` computed
/// without overflow (the sum taken wide, then halved rounding down). By hand:
/// (−2³¹ + (−2³¹ + 1)) / 2 = −2³¹ − ½ → floor −2147483648; (2³¹ − 1 − 2³¹) = −1 → floor(−½) = −1;
/// (−9 + 10) = 1 → 0; 3 + 4 = 7 → 3. `__uhadd` on the same bits as unsigned:
/// (2³¹ + 2³¹ + 1) >> 1 = 2³¹ = 2147483648; (2³¹ − 1 + 2³¹) >> 1 = 2³¹ − 1 = 2147483647;
/// (2³² − 9 + 10) >> 1 = 2³¹ = 2147483648; 7 >> 1 = 3.
#[test]
fn hadd_of_ints_is_the_integer_halving_add() {
    let src = r#"__global__ void k(int *a, int *b, int *res, unsigned *ures) {
  int t = threadIdx.x;
  res[t] = __hadd(a[t], b[t]);
  ures[t] = __uhadd((unsigned)a[t], (unsigned)b[t]);
}
"#;
    let t = run(
        src,
        launch(
            Dialect::Cuda,
            4,
            &[
                ("a", 4, "-2147483648,2147483647,-9,3"),
                ("b", 4, "-2147483647,-2147483648,10,4"),
                ("res", 4, "0"),
                ("ures", 4, "0"),
            ],
        ),
    );
    assert_eq!(
        ints(t.buffer("res").unwrap()),
        vec![Some(-2147483648), Some(-1), Some(0), Some(3)]
    );
    assert_eq!(
        ints(t.buffer("ures").unwrap()),
        vec![
            Some(2147483648),
            Some(2147483647),
            Some(2147483648),
            Some(3)
        ]
    );
    assert!(warnings(&t).is_empty(), "{:?}", warnings(&t));
}

/// The half-precision `__hadd` still takes `__half` arguments: 1.5 + 2.25 = 3.75 (exact in
/// half), read back as float.
#[test]
fn hadd_of_halves_stays_half() {
    let src = r#"#include <cuda_fp16.h>
__global__ void k(float *out) {
  __half a = __float2half(1.5f), b = __float2half(2.25f);
  out[threadIdx.x] = __half2float(__hadd(a, b));
}
"#;
    let t = run(src, launch(Dialect::Cuda, 1, &[("out", 1, "0")]));
    let v = t.buffer("out").unwrap()[0]
        .as_ref()
        .and_then(|v| v.as_f64());
    assert_eq!(v, Some(3.75));
}

/// A leading `::` names the global namespace (C++ [namespace.qual]): `::max`, a user `::sq`.
/// By hand, x = 3, −4: max(3, 0) + sq(3) = 3 + 9 = 12; max(−4, 0) + sq(−4) = 0 + 16 = 16.
#[test]
fn global_scope_qualified_calls() {
    let src = r#"__device__ int sq(int v) { return v * v; }
__global__ void k(const int *x, int *out) {
  int i = threadIdx.x;
  out[i] = ::max(x[i], 0) + ::sq(x[i]);
}
"#;
    let t = run(
        src,
        launch(Dialect::Cuda, 2, &[("x", 2, "3,-4"), ("out", 2, "0")]),
    );
    assert_eq!(ints(t.buffer("out").unwrap()), vec![Some(12), Some(16)]);
}

/// `static const __device__` tables and `__device__ const` scalars with constant initializers
/// read as constants (CUDA C++ Programming Guide, Variable Memory Space Specifiers; a `const`
/// object is not written, C++ [dcl.type.cv]/4). idx = 2, 0, 3: tab[2] + off = −7 + 3 = −4,
/// −3 + 3 = 0, 9 + 3 = 12; the `static __constant__` table adds 100·w[i & 1]: w = {1, 2}:
/// i = 0, 1, 2 → +100, +200, +100.
#[test]
fn static_const_device_tables_are_constants() {
    let src = r#"static const __device__ signed char tab[4] = {-3, 5, -7, 9};
static __constant__ int w[2] = {1, 2};
__device__ const int off = 3;
__global__ void k(const int *idx, int *out) {
  int i = threadIdx.x;
  out[i] = tab[idx[i] & 3] + off + 100 * w[i & 1];
}
"#;
    let t = run(
        src,
        launch(Dialect::Cuda, 3, &[("idx", 3, "2,0,3"), ("out", 3, "0")]),
    );
    assert_eq!(
        ints(t.buffer("out").unwrap()),
        vec![Some(96), Some(200), Some(112)]
    );
}

/// clang's bit built-ins and CUDA's `__byte_perm` / `__float2uint_rz`. Python derivation:
/// ```text
/// clz=lambda v: 32-v.bit_length(); ctz=lambda v: (v&-v).bit_length()-1
/// bp=lambda x,y,s: sum(((((y<<32)|x)>>(8*((s>>(4*n))&7)))&0xff)<<(8*n) for n in range(4))
/// for t,v in enumerate([0,1,0x12345678,0xf0000000]):
///   [bin(v).count('1'), clz(v|1), ctz(v|0x80000000), 0 if v==0 else ctz(v)+1,
///    int.from_bytes(v.to_bytes(4,'little'),'big'), int(format(v,'032b')[::-1],2),
///    bp(v,0x76543210,0x7531), int(2.9+t)+(100 if v>5 else 0)]
/// ```
#[test]
fn clang_bit_builtins_byte_perm_and_float2uint() {
    let src = r#"__global__ void k(unsigned *x, unsigned *o) {
  unsigned t = threadIdx.x;
  unsigned v = x[t];
  o[t * 8 + 0] = __builtin_popcount(v);
  o[t * 8 + 1] = __builtin_clz(v | 1u);
  o[t * 8 + 2] = __builtin_ctz(v | 0x80000000u);
  o[t * 8 + 3] = __builtin_ffs(v);
  o[t * 8 + 4] = __builtin_bswap32(v);
  o[t * 8 + 5] = __builtin_bitreverse32(v);
  o[t * 8 + 6] = __byte_perm(v, 0x76543210u, 0x7531);
  o[t * 8 + 7] = __float2uint_rz(2.9f + t) + (__builtin_expect(v > 5, 1) ? 100 : 0);
}
"#;
    let t = run(
        src,
        launch(
            Dialect::Cuda,
            4,
            &[("x", 4, "0,1,0x12345678,0xf0000000"), ("o", 32, "0")],
        ),
    );
    let want: Vec<i128> = vec![
        0, 31, 31, 0, 0, 0, 1982988288, 2, //
        1, 31, 0, 1, 16777216, 2147483648, 1982988288, 3, //
        13, 3, 3, 4, 2018915346, 510274632, 1982992982, 104, //
        4, 0, 28, 29, 240, 15, 1983049728, 105,
    ];
    let got = ints(t.buffer("o").unwrap());
    assert_eq!(got, want.into_iter().map(Some).collect::<Vec<_>>());
    assert!(warnings(&t).is_empty(), "{:?}", warnings(&t));
}

/// 64-bit forms: popcountll(2⁴⁰ − 1) = 40; clzll(2⁴⁰ − 1) = 64 − 40 = 24; ctzll(2⁴⁰) = 40;
/// ffsll(2⁴⁰) = 41; bswap64(0x0102030405060708) = 0x0807060504030201 = 578437695752307201.
#[test]
fn sixty_four_bit_builtins() {
    let src = r#"__global__ void k(unsigned long long *o) {
  unsigned long long m = (1ull << 40) - 1ull;
  o[0] = __builtin_popcountll(m);
  o[1] = __builtin_clzll(m);
  o[2] = __builtin_ctzll(m + 1ull);
  o[3] = __builtin_ffsll(m + 1ull);
  o[4] = __builtin_bswap64(0x0102030405060708ull);
}
"#;
    let t = run(src, launch(Dialect::Cuda, 1, &[("o", 5, "0")]));
    assert_eq!(
        ints(t.buffer("o").unwrap()),
        vec![
            Some(40),
            Some(24),
            Some(40),
            Some(41),
            Some(578437695752307201)
        ]
    );
}

/// clang and GCC: `__builtin_clz(0)` and `__builtin_ctz(0)` are undefined (unlike CUDA's
/// `__clz(0)` = 32): the lane's value is undefined with a warning naming the rule; the other
/// lanes are clz(1) = 31, clz(2) = 30, clz(0xffffffff) = 0.
#[test]
fn builtin_clz_and_ctz_of_zero_are_undefined() {
    let src = r#"__global__ void k(unsigned *x, int *o, int *p, int *c) {
  int t = threadIdx.x;
  o[t] = __builtin_clz(x[t]);
  p[t] = __builtin_ctz(x[t]);
  c[t] = __clz(x[t]);
}
"#;
    let t = run(
        src,
        launch(
            Dialect::Cuda,
            4,
            &[
                ("x", 4, "0,1,2,0xffffffff"),
                ("o", 4, "0"),
                ("p", 4, "0"),
                ("c", 4, "0"),
            ],
        ),
    );
    assert_eq!(
        ints(t.buffer("o").unwrap()),
        vec![None, Some(31), Some(30), Some(0)]
    );
    assert_eq!(
        ints(t.buffer("p").unwrap()),
        vec![None, Some(0), Some(1), Some(0)]
    );
    assert_eq!(
        ints(t.buffer("c").unwrap()),
        vec![Some(32), Some(31), Some(30), Some(0)]
    );
    let w = warnings(&t);
    assert!(
        w.iter()
            .any(|m| m.contains("__builtin_clz(0)") && m.contains("undefined")),
        "{w:?}"
    );
    assert!(w.iter().any(|m| m.contains("__builtin_ctz(0)")), "{w:?}");
}

/// HIP device functions: `__bitextract_u32(0xabcd1234, 8, 12)` = bits 8..19 = 0xd12 = 3346;
/// width 0 → 0; `__bitinsert_u32(0xffffffff, 0x5, 4, 4)` clears bits 4..7 and writes 0101:
/// 0xffffff5f = 4294967135; `__bitextract_u64(0x123456789abcdef0, 32, 16)` = 0x5678 = 22136;
/// `__bitinsert_u64(0, 0xff, 60, 4)` = 0xf << 60 = 17293822569102704640. An extract running
/// past bit 31 (offset 28 + width 8) is undefined (its shift count goes negative).
#[test]
fn hip_bit_field_extract_and_insert() {
    let src = r#"#include <hip/hip_runtime.h>
__global__ void k(unsigned *o, unsigned long long *q) {
  o[0] = __bitextract_u32(0xabcd1234u, 8, 12);
  o[1] = __bitextract_u32(0xabcd1234u, 8, 0);
  o[2] = __bitinsert_u32(0xffffffffu, 0x5u, 4, 4);
  o[3] = __bitextract_u32(0xabcd1234u, 28, 8);
  q[0] = __bitextract_u64(0x123456789abcdef0ull, 32, 16);
  q[1] = __bitinsert_u64(0ull, 0xffull, 60, 4);
}
"#;
    let t = run(
        src,
        launch(Dialect::Hip, 1, &[("o", 4, "0"), ("q", 2, "0")]),
    );
    assert_eq!(
        ints(t.buffer("o").unwrap()),
        vec![Some(3346), Some(0), Some(4294967135), None]
    );
    assert_eq!(
        ints(t.buffer("q").unwrap()),
        vec![Some(22136), Some(17293822569102704640)]
    );
}

/// A name that is no built-in stays refused.
#[test]
fn unknown_builtin_stays_refused() {
    let src = "__global__ void k(int *o) { o[0] = __builtin_not_a_thing(1); }\n";
    let e = run_kernel(src, launch(Dialect::Cuda, 1, &[("o", 1, "0")])).unwrap_err();
    assert!(e.message.contains("not declared"), "{}", e.message);
}

/// HIP's lane masks (HIP device functions; the HIP headers AND `lt`/`gt` with the active
/// lanes, `__ballot(1)`). Wave64, 64 threads, lane 2 inactive, so active = 2⁶⁴ − 1 − 4.
/// By hand: lt(0) = 0, lt(1) = 1, lt(3) = 0b011 = 3 (lane 2 off), lt(63) = 2⁶³ − 1 − 4;
/// gt(0) = active − 1 = 2⁶⁴ − 6, gt(1) = active − 3 = 2⁶⁴ − 8, gt(62) = 2⁶³, gt(63) = 0;
/// eq(l) = 2^l.
#[test]
fn hip_lanemasks_below_above_and_equal() {
    let src = r#"#include <hip/hip_runtime.h>
__global__ void k(unsigned long long *lt, unsigned long long *gt, unsigned long long *eq) {
  int t = threadIdx.x;
  if (t != 2) { lt[t] = __lanemask_lt(); gt[t] = __lanemask_gt(); eq[t] = __lanemask_eq(); }
}
"#;
    let mut c = launch(
        Dialect::Hip,
        64,
        &[("lt", 64, "0"), ("gt", 64, "0"), ("eq", 64, "0")],
    );
    c.lanes = Some(64);
    let t = run(src, c);
    let (lt, gt, eq) = (
        ints(t.buffer("lt").unwrap()),
        ints(t.buffer("gt").unwrap()),
        ints(t.buffer("eq").unwrap()),
    );
    let p64 = 1i128 << 64;
    assert_eq!(&lt[..4], &[Some(0), Some(1), Some(0), Some(3)]);
    assert_eq!(lt[63], Some((1i128 << 63) - 1 - 4));
    assert_eq!(&gt[..2], &[Some(p64 - 6), Some(p64 - 8)]);
    assert_eq!(gt[62], Some(1i128 << 63));
    assert_eq!(gt[63], Some(0));
    assert_eq!(eq[5], Some(32));
    assert_eq!(eq[63], Some(1i128 << 63));
}

/// `__builtin_amdgcn_wave_barrier()` (clang's AMDGPU builtins: a scheduling barrier, no
/// instruction) as a statement and as the discarded left operand of a comma (a void operand is
/// allowed there, C++ [expr.comma]/1): o[t] = (barrier, t + 1) = t + 1, without diagnostics.
#[test]
fn wave_barrier_is_a_no_op_even_in_a_comma() {
    let src = r#"#include <hip/hip_runtime.h>
__global__ void k(unsigned *o) {
  unsigned t = threadIdx.x;
  __builtin_amdgcn_wave_barrier();
  o[t] = (__builtin_amdgcn_wave_barrier(), t + 1);
}
"#;
    let t = run(src, launch(Dialect::Hip, 3, &[("o", 3, "0")]));
    assert_eq!(
        ints(t.buffer("o").unwrap()),
        vec![Some(1), Some(2), Some(3)]
    );
    assert!(warnings(&t).is_empty(), "{:?}", warnings(&t));
}

/// The float-to-integer casting intrinsics saturate under CUDA: the CUDA Math API defines them
/// by PTX `cvt` with an integer rounding, and PTX ISA, "cvt": "For float-to-integer
/// conversions, the result is clamped to the destination range by default", NaN giving 0.
/// By hand: 3e9 > 2³¹ − 1 → 2147483647; −inf → −2³¹ = −2147483648; NaN → 0; −1 to unsigned →
/// 0; 5e9 > 2³² − 1 → 4294967295; 1e19 > 2⁶³ − 1 → 9223372036854775807; −1e10 < −2³¹ →
/// −2147483648; in range: `_rz` of 2.9 = 2, `_rn` of 2.5 = 2 (ties to even), `_ru` of 2.1 = 3;
/// 1e20 > 2⁶⁴ − 1 → 18446744073709551615. A plain C++ cast `(int)3e9f` is not one of them and
/// stays undefined (C++17 [conv.fpint]/1).
const CASTS: &str = r#"__global__ void k(long long *o, unsigned long long *u) {
  float nan = __int_as_float(0x7fc00000);
  float inf = __int_as_float(0x7f800000);
  o[0] = __float2int_rn(3e9f);
  o[1] = __float2int_rz(-inf);
  o[2] = __float2int_rd(nan);
  o[3] = __float2uint_rn(-1.0f);
  o[4] = __float2uint_ru(5e9f);
  o[5] = __float2ll_rn(1e19f);
  o[6] = __float2ll_rz(nan);
  o[7] = __double2int_rn(-1e10);
  o[8] = __double2uint_rz(2.9);
  o[9] = __float2int_rn(2.5f);
  o[10] = __double2ll_ru(2.1);
  u[0] = __float2ull_rn(1e20f);
  u[1] = __double2ull_rd(nan);
  float big = 3e9f;
  o[11] = (int)big;
}
"#;

#[test]
fn cuda_casting_intrinsics_clamp_like_ptx_cvt() {
    let t = run_kernel(
        CASTS,
        launch(Dialect::Cuda, 1, &[("o", 12, "0"), ("u", 2, "0")]),
    )
    .expect("runs");
    let o = ints(t.buffer("o").unwrap());
    let want = [
        2147483647,
        -2147483648,
        0,
        0,
        4294967295,
        9223372036854775807,
        0,
        -2147483648,
        2,
        2,
        3,
    ];
    assert_eq!(&o[..11], want.map(Some).as_slice());
    assert_eq!(
        o[11], None,
        "a plain (int) cast out of range stays undefined"
    );
    assert_eq!(
        ints(t.buffer("u").unwrap()),
        vec![Some(18446744073709551615), Some(0)]
    );
}

/// HIP defines the same names as C++ conversions of the rounded value (ROCm, HIP math API;
/// `(int)rintf(x)`), undefined out of range or for NaN (C++17 [conv.fpint]/1): those cells
/// stay undefined with that reason, the in-range ones (2, 2, 3) are as under CUDA.
#[test]
fn hip_casting_intrinsics_leave_out_of_range_undefined() {
    let t = run_kernel(
        CASTS,
        launch(Dialect::Hip, 1, &[("o", 12, "0"), ("u", 2, "0")]),
    )
    .expect("runs");
    let o = ints(t.buffer("o").unwrap());
    assert_eq!(&o[..8], [None; 8].as_slice());
    assert_eq!(&o[8..11], [Some(2), Some(2), Some(3)].as_slice());
    assert_eq!(ints(t.buffer("u").unwrap()), vec![None, None]);
    assert!(
        warnings(&t).iter().any(|w| w.contains("conv.fpint")),
        "{:?}",
        warnings(&t)
    );
}

#[test]
fn sizeof_a_string_literal_and_printf_of_one() {
    // [lex.string]/8: "abc" is a `const char[4]` (three characters and the NUL), "x\n\0" a
    // `const char[4]` (each escape one char), "é" its two UTF-8 bytes and the NUL: sizeof 4, 4,
    // 3; a `char name[5]` is 5. printf's `%s` of a literal prints it (C11 7.21.6.1/8), `%-6s` pads
    // it on the right to 6, `%.2s` cuts it to 2.
    let src = r#"
__global__ void k(int* out) {
    char name[5];
    out[0] = sizeof("abc");
    out[1] = sizeof("x\n\0");
    out[2] = sizeof("é");
    out[3] = sizeof(name);
    printf("%s|%-6s|%.2s|%d\n", "lit", "ab", "wxyz", 7);
}
"#;
    let t = run(src, launch(Dialect::Hip, 1, &[("out", 4, "0")]));
    assert_eq!(
        crate::support::ints(&t, "out"),
        vec![Some(4), Some(4), Some(3), Some(5)]
    );
    assert_eq!(t.printf.len(), 1);
    assert_eq!(t.printf[0].text, "lit|ab    |wx|7\n");
}
