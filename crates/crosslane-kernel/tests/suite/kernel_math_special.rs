//! The CUDA Math API functions beyond C's `math.h` (the normal distribution, `erfcx`,
//! `erfcinv`, the Bessel functions, the norms, `scalbln`, `fdividef`, `nanf`) in a kernel, as
//! statistics, physics and graphics kernels call them. Expected values: `models/math_special.py`
//! (mpmath at 60 digits, rounded once to float). Each result carries the maximum error the CUDA
//! C++ Programming Guide, "Mathematical Functions", "Single-Precision Floating-Point
//! Functions" and "Double-Precision Floating-Point Functions" give it.

use crate::support::{floats, floats_or_nan, launch, run_finished};
use crosslane_core::Dialect;
use crosslane_kernel::accuracy::Bound;
use crosslane_kernel::{KVal, KernelTrace};

/// Buffer `name`'s cell `i`.
fn cell(t: &KernelTrace, name: &str, i: usize) -> KVal {
    t.buffer(name).expect("buffer")[i].clone().expect("written")
}

/// The kernel: one call per cell of `o` (float) and `d` (double), in the model's order.
const SRC: &str = r#"
__global__ void special(float* o, double* d) {
  float v[5] = {1.f, 2.f, 3.f, 4.f, 5.f};
  double w[5] = {1.0, 2.0, 3.0, 4.0, 5.0};
  o[0] = normcdff(-2.0f);        o[1] = normcdff(-10.0f);
  o[2] = normcdfinvf(0.975f);    o[3] = normcdfinvf(0.001f);
  o[4] = erfcxf(3.0f);           o[5] = erfcxf(-0.5f);        o[6] = erfcxf(30.0f);
  o[7] = erfcinvf(0.25f);        o[8] = erfcinvf(1e-20f);     o[9] = erfcinvf(1.75f);
  o[10] = cyl_bessel_i0f(2.0f);  o[11] = cyl_bessel_i0f(50.0f); o[12] = cyl_bessel_i1f(-1.5f);
  o[13] = j0f(2.5f);             o[14] = j1f(20.0f);          o[15] = jnf(3, 10.0f);
  o[16] = y0f(0.75f);            o[17] = y1f(9.0f);           o[18] = ynf(2, 1.5f);
  o[19] = rhypotf(3.0f, 5.0f);   o[20] = norm3df(1.1f, 2.2f, 3.3f);
  o[21] = rnorm3df(1.0f, 2.0f, 3.0f);
  o[22] = norm4df(1e30f, 1e30f, 1e30f, 1e30f);
  o[23] = rnorm4df(0.5f, 1.5f, 2.5f, 3.5f);
  o[24] = normf(5, v);           o[25] = rnormf(5, v);
  d[0] = normcdf(-2.0);          d[1] = normcdfinv(0.975);    d[2] = erfcx(3.0);
  d[3] = erfcinv(0.25);          d[4] = cyl_bessel_i0(2.0);   d[5] = j0(2.5);
  d[6] = yn(2, 1.5);             d[7] = rhypot(3.0, 5.0);     d[8] = norm3d(1.1, 2.2, 3.3);
  d[9] = rnorm(5, w);
}
"#;

/// `python3 models/math_special.py`: the correctly rounded float of each call, as bits.
const SINGLE_BITS: [u32; 26] = [
    0x3CBA_5E7C,
    0x1913_63AF,
    0x3FFA_E01D,
    0xC045_C65E,
    0x3E37_4C14,
    0x3FF9_E6F3,
    0x3C99_F9D6,
    0x3F50_3C48,
    0x40D3_4026,
    0xBF50_3C48,
    0x4011_E4BA,
    0x617E_5BC6,
    0xBF7B_4E7E,
    0xBD46_2E11,
    0x3D88_DFCE,
    0x3D6F_1F37,
    0xBE0C_7705,
    0x3DD5_A2E1,
    0xBF6E_A440,
    0x3E2F_9D53,
    0x4083_B4D3,
    0x3E88_D677,
    0x71C9_F2CA,
    0x3E5F_7483,
    0x40ED_517F,
    0x3E0A_137D,
];

/// The single-precision bound of each call: `Some(n)` ulp, `None` where the guide gives an
/// absolute bound or none (checked by kind below).
const SINGLE_ULP: [Option<u32>; 26] = [
    Some(5), // normcdff
    Some(5),
    Some(5), // normcdfinvf
    Some(5),
    Some(4), // erfcxf
    Some(4),
    Some(4),
    Some(4), // erfcinvf
    Some(4),
    Some(4),
    Some(6), // cyl_bessel_i0f
    Some(6),
    Some(6), // cyl_bessel_i1f
    Some(9), // j0f, |x| < 8
    None,    // j1f(20): 2.2e-6 absolute
    None,    // jnf(3, …): bounded only for n = 128
    Some(9), // y0f
    None,    // y1f(9): 2.2e-6 absolute
    Some(7), // ynf(2, 1.5): ceil(2 + 2.5·2) = 7 for |x| < n
    Some(2), // rhypotf
    Some(3), // norm3df
    Some(2), // rnorm3df
    Some(3), // norm4df
    Some(2), // rnorm4df
    None,    // normf: "an error bound can't be provided"
    None,    // rnormf
];

/// `python3 models/math_special.py`, the double column (mpmath rounded to double).
const DOUBLE: [f64; 10] = [
    0.02275013194817921,
    1.9599639845400538,
    0.17900115118138996,
    0.8134198475976185,
    2.2795853023360673,
    -0.048383776468198,
    -0.9321937597629739,
    0.17149858514250885,
    4.115823125451335,
    0.13483997249264842,
];

/// The double-precision bounds (Double-Precision table): normcdf 5, normcdfinv 8, erfcx 4,
/// erfcinv 6, cyl_bessel_i0 6, j0 7 (|x| < 8), yn unbounded for |x| ≤ 1.5n, rhypot 1,
/// norm3d 2, rnorm unbounded.
const DOUBLE_ULP: [Option<u32>; 10] = [
    Some(5),
    Some(8),
    Some(4),
    Some(6),
    Some(6),
    Some(7),
    None,
    Some(1),
    Some(2),
    None,
];

#[test]
fn special_functions_give_the_correctly_rounded_float_and_the_guides_bound() {
    let t = run_finished(
        SRC,
        launch(Dialect::Cuda, 1, &[("o", 26, "0"), ("d", 10, "0")]),
    );
    let o = floats_or_nan(&t, "o");
    for (i, bits) in SINGLE_BITS.iter().enumerate() {
        assert_eq!((o[i] as f32).to_bits(), *bits, "o[{i}] = {}", o[i]);
        let a = cell(&t, "o", i)
            .approx()
            .expect("an inexact function's note");
        if let Some(n) = SINGLE_ULP[i] {
            assert_eq!(a.ulp(), Some(n), "o[{i}]");
        }
    }
    // j1f(20), y1f(9): "otherwise, the maximum absolute error is 2.2 x 10^-6" (2^-18.79).
    for i in [14, 17] {
        assert_eq!(
            cell(&t, "o", i).approx().unwrap().bound,
            Bound::AbsPow2(-18.79)
        );
    }
    // jnf(3, x), normf, rnormf: no bound, so no ulp count.
    for i in [15, 24, 25] {
        let a = cell(&t, "o", i).approx().unwrap();
        assert_eq!((a.bound, a.ulp()), (Bound::Unstated, None), "o[{i}]");
    }
    let d = floats_or_nan(&t, "d");
    for (i, want) in DOUBLE.iter().enumerate() {
        // Within 4 double ulps of the model (the reference is libm-grade, not correctly
        // rounded, in double).
        assert!(
            (d[i] - want).abs() <= 4.0 * f64::EPSILON * want.abs(),
            "d[{i}] = {} not {want}",
            d[i]
        );
        let a = cell(&t, "d", i).approx().expect("note");
        match DOUBLE_ULP[i] {
            Some(n) => assert_eq!(a.ulp(), Some(n), "d[{i}]"),
            None => assert_eq!(a.bound, Bound::Unstated, "d[{i}]"),
        }
    }
}

/// Exact functions carry no note: `scalblnf(1.5, 10L)` = 1536, `fdividef(1, 4)` = 0.25,
/// `nanf("")` a NaN; special values by the CUDA Math API's entries: `norm3df(∞, NaN, 0)` =
/// +∞, `rnorm3df(0, 0, 0)` = +∞, `erfcinvf(0)` = +∞, `normcdfinvf(1.5)` NaN, `erfcxf(+∞)` = +0.
#[test]
fn exact_functions_and_special_values() {
    let src = r#"
__global__ void k(float* o) {
  long n = 10;
  o[0] = scalblnf(1.5f, n);  o[1] = fdividef(1.0f, 4.0f);  o[2] = nanf("");
  o[3] = norm3df(INFINITY, NAN, 0.0f);  o[4] = rnorm3df(0.0f, 0.0f, 0.0f);
  o[5] = erfcinvf(0.0f);  o[6] = normcdfinvf(1.5f);  o[7] = erfcxf(INFINITY);
}
"#;
    let t = run_finished(src, launch(Dialect::Cuda, 1, &[("o", 8, "0")]));
    let o = floats_or_nan(&t, "o");
    assert_eq!(&o[..2], &[1536.0, 0.25]);
    assert!(o[2].is_nan());
    assert_eq!(&o[3..6], &[f64::INFINITY; 3]);
    assert!(o[6].is_nan());
    assert_eq!(o[7], 0.0);
    for i in 0..3 {
        assert_eq!(cell(&t, "o", i).approx(), None, "o[{i}]");
    }
}

/// `normf(dim, p)` reads `dim` elements through `p`: √(3² + 4²) = 5. `dim` = 0 names no
/// vector, so that value is undefined: the cell is left unknown and a warning says why; the
/// run finishes.
#[test]
fn normf_of_no_elements_is_undefined() {
    let src = r#"
__global__ void k(float* o, float* v) {
  o[0] = normf(2, v);
  o[1] = normf(0, v);
}
"#;
    let t = run_finished(
        src,
        launch(Dialect::Cuda, 1, &[("o", 2, "0"), ("v", 2, "3,4")]),
    );
    assert_eq!(floats(&t, "o"), vec![Some(5.0), None]);
    assert!(t
        .merged_diagnostics
        .iter()
        .any(|d| d.message.contains("dim = 0 names none")));
}

/// `ldexp(x, n)` and `scalbn(x, n)` of a `float` `x` call the `float` overload: their `n` is
/// declared `int` in every overload (C++17 [c.math]: `float ldexp(float x, int exp)`), so the
/// `int` argument does not make the call `double`. 2^200 overflows `float` to +∞ (FLT_MAX is
/// about 2^128), while the `double` overload gives 2^200 exactly.
#[test]
fn ldexp_of_a_float_and_an_int_is_the_float_overload() {
    let src = r#"
__global__ void k(float* o, double* d) {
  float x = 1.0f;
  int n = 200;
  d[0] = ldexp(x, n);
  d[1] = ldexp(1.0, n);
  d[2] = scalbn(x, n);
  o[0] = scalbn(1.5f, 3);
}
"#;
    let t = run_finished(
        src,
        launch(Dialect::Cuda, 1, &[("o", 1, "0"), ("d", 3, "0")]),
    );
    assert_eq!(
        floats(&t, "d"),
        vec![
            Some(f64::INFINITY),
            Some(2f64.powi(200)),
            Some(f64::INFINITY)
        ]
    );
    assert_eq!(floats(&t, "o"), vec![Some(12.0)]);
}

/// The classification functions of CUDA's `math_functions.h` in both precisions: `__isnan`,
/// `__isinf`, `__isfinited`, `__signbitd` take a `double`, `__isnanf`, `__isinff`, `__finitef`,
/// `__signbitf` a `float`; each gives a nonzero `int` when the IEEE 754 class holds. Each lane
/// packs the eight answers as bits 1, 2, 4, … 128: +∞ is infinite (2 + 32), −∞ also has its sign
/// bit (+ 8 + 128), −0.0 and −1 are finite with the sign bit (4 + 8 + 64 + 128), 0 and 2 are
/// finite (4 + 64), and NaN is NaN in both precisions (1 + 16; its sign bit is left out here).
#[test]
fn double_and_float_classification_names() {
    let src = r#"
__global__ void k(int* o) {
  int t = threadIdx.x;
  double z = 0.0;
  double x = t == 0 ? z / z : t == 1 ? 1.0 / z : t == 2 ? -1.0 / z : t == 3 ? -z : t - 5.0;
  float y = (float)x;
  o[t] = (__isnan(x) != 0) + 2 * (__isinf(x) != 0) + 4 * (__isfinited(x) != 0)
       + 16 * (__isnanf(y) != 0) + 32 * (__isinff(y) != 0) + 64 * (__finitef(y) != 0);
  if (t > 0) o[t] += 8 * (__signbitd(x) != 0) + 128 * (__signbitf(y) != 0);
}
"#;
    let t = run_finished(src, launch(Dialect::Cuda, 8, &[("o", 8, "0")]));
    assert_eq!(
        crate::support::ints(&t, "o"),
        vec![17, 34, 170, 204, 204, 68, 68, 68]
            .into_iter()
            .map(Some)
            .collect::<Vec<_>>()
    );
}
