//! The four 8-bit float formats of `cuda_fp8.h` and `hip/hip_fp8.h` as numbers: rounding a
//! wider value to one, and its 8-bit encodings. No kernel types here (`types` and `fp8` build
//! on it); the rules and their sources are in [`crate::fp8`]'s module documentation.

/// The shape of one 8-bit float format.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Format {
    /// Mantissa (fraction) bits: 3 for E4M3, 2 for E5M2.
    pub man: i32,
    /// Exponent bias.
    pub bias: i32,
    /// The largest finite value.
    pub max: f64,
    /// Whether the exponent field of all ones holds an infinity (E5M2 only).
    pub inf: bool,
    /// FNUZ: 0x80 is the only NaN, no infinity, no negative zero.
    pub fnuz: bool,
}

impl Format {
    /// OCP E4M3 (OFP8 Table 1): bias 7, largest 448 (S.1111.110), NaN S.1111.111.
    pub const E4M3: Format = Format {
        man: 3,
        bias: 7,
        max: 448.0,
        inf: false,
        fnuz: false,
    };
    /// OCP E5M2 (OFP8 Table 1): bias 15, largest 57344, infinities S.11111.00.
    pub const E5M2: Format = Format {
        man: 2,
        bias: 15,
        max: 57344.0,
        inf: true,
        fnuz: false,
    };
    /// FNUZ E4M3 (gfx942): bias 8, largest 240 (0.1111.111), NaN 0x80 only.
    pub const E4M3_FNUZ: Format = Format {
        man: 3,
        bias: 8,
        max: 240.0,
        inf: false,
        fnuz: true,
    };
    /// FNUZ E5M2 (gfx942): bias 16, largest 57344 (0.11111.11), NaN 0x80 only.
    pub const E5M2_FNUZ: Format = Format {
        man: 2,
        bias: 16,
        max: 57344.0,
        inf: false,
        fnuz: true,
    };

    /// The smallest normal exponent, `1 − bias`.
    fn emin(self) -> i32 {
        1 - self.bias
    }

    /// `x` rounded to nearest even in this format; `satfinite` clamps a result past the
    /// largest finite value (an infinity included) to it, otherwise E5M2 gives an infinity and
    /// the formats without one NaN. NaN stays NaN; FNUZ turns −0 into +0.
    pub fn round(self, x: f64, satfinite: bool) -> f64 {
        if x.is_nan() {
            return f64::NAN;
        }
        let sign = if x.is_sign_negative() { -1.0 } else { 1.0 };
        let a = x.abs();
        let overflow = || {
            if satfinite {
                sign * self.max
            } else if self.inf {
                sign * f64::INFINITY
            } else {
                f64::NAN
            }
        };
        if a.is_infinite() {
            return overflow();
        }
        // The quantum at |x|: 2^(e − man), e the exponent of |x| (at least the smallest normal
        // one, below which the format's values are its subnormals' multiples). An f64
        // subnormal reads as exponent −1023, under every format's `emin`.
        let e = ((a.to_bits() >> 52) as i32 - 1023).max(self.emin());
        // |x| < 2^1024, so |x| / q stays finite; the division by a power of two is exact.
        let q = 2f64.powi(e - self.man);
        let r = (a / q).round_ties_even() * q;
        if r > self.max {
            return overflow();
        }
        if r == 0.0 && self.fnuz {
            return 0.0;
        }
        sign * r
    }

    /// The value of the 8-bit encoding `bits` (NaN for a NaN encoding).
    pub fn decode(self, bits: u8) -> f64 {
        if self.fnuz && bits == 0x80 {
            return f64::NAN;
        }
        let sign = if bits & 0x80 != 0 { -1.0 } else { 1.0 };
        let ebits = 7 - self.man;
        let emax = (1u8 << ebits) - 1;
        let e = (bits >> self.man) & emax;
        let m = bits & ((1u8 << self.man) - 1);
        if !self.fnuz && e == emax {
            if self.inf {
                return if m == 0 {
                    sign * f64::INFINITY
                } else {
                    f64::NAN
                };
            }
            if m == (1u8 << self.man) - 1 {
                return f64::NAN;
            }
        }
        let frac = f64::from(m) / f64::from(1u8 << self.man);
        sign * if e == 0 {
            frac * 2f64.powi(self.emin())
        } else {
            (1.0 + frac) * 2f64.powi(i32::from(e) - self.bias)
        }
    }

    /// The 8-bit encoding of `x`, a value of this format (as [`Format::round`] gives). `None`
    /// for a value not in the format. A NaN is FNUZ's single NaN, 0x80, and for the OCP formats
    /// 0x7F (`S.1111.111` with the sign clear): E4M3 has two NaN encodings and E5M2 six, and
    /// the one CUDA's conversions return was measured on an NVIDIA H200 (nvcc 13.0, sm_90,
    /// 2026-12-04; docs/benchmarks.md, "On real silicon"): `__nv_cvt_float_to_fp8`,
    /// `__nv_cvt_float2_to_fp8x2` and the `__nv_fp8_e4m3` / `__nv_fp8_e5m2` constructors give
    /// 0x7F for a NaN of either sign, with `__NV_SATFINITE` or `__NV_NOSAT`, and so does E4M3's
    /// `__NV_NOSAT` overflow. The emulator keeps floats as values, so a NaN read from a byte
    /// 0xFF is encoded back as 0x7F.
    pub fn encode(self, x: f64) -> Option<u8> {
        if x.is_nan() {
            return Some(if self.fnuz { 0x80 } else { 0x7F });
        }
        // FNUZ has no −0 (0x80 is its NaN): a zero of either sign is 0x00, while every other
        // negative value keeps its sign bit (1.1001.000 is −2 in FNUZ E4M3).
        let sign: u8 = if x.is_sign_negative() && !(self.fnuz && x == 0.0) {
            0x80
        } else {
            0
        };
        let a = x.abs();
        if a.is_infinite() {
            let ebits = 7 - self.man;
            return self
                .inf
                .then_some(sign | (((1u8 << ebits) - 1) << self.man));
        }
        // Search the 128 encodings of this sign: the format is small, and the search is exact.
        (0u8..0x80).find(|b| self.decode(*b) == a).map(|b| b | sign)
    }
}
