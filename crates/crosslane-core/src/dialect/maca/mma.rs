//! MACA warp matrix multiply-accumulate (seed 002 §3.6): `D = A·B + C` on 16×16 tiles held across
//! the 64 lanes of a warp. The lane layout lives in [`super::mma_layout`]; this module holds the
//! element types, the arithmetic and the ops.
//!
//! Arithmetic (the seed gives only `D = A * B + C`; AMD leaves the internal order unspecified):
//! * float shapes: products of f16/bf16/tf32/f32 inputs are exact in f64; the K products and C are
//!   summed in f64 as `C + Σ_k` (k ascending) and rounded once to f32.
//! * f64: `d = c; for k in 0..K { d = fma(a[i][k], b[k][j], d) }`.
//! * int8: exact integer sum, wrapped to 32 bits (AMD MFMA i32 accumulation wraps).
//! * tf32 inputs: the f32 registers are read as tf32, i.e. the low 13 mantissa bits are ignored
//!   (truncated) — our choice; round them first with `__builtin_mxc_cvt_f32totf32`.
//!
//! The op view: params `a`, `b`, `c` give the matrices (row-major comma lists, one value
//! broadcast, or `index` = row·cols + col); the result row shows register `reg` of D in every
//! lane, each lane's `why` naming the element it holds (`D[5][3]`). The operand row (`values`)
//! is not used. For drawing, [`MmaLayout::locate`] gives every element's lane and slot.

use half::{bf16, f16};

use crate::args::{Arg, Role, PER_LANE};
use crate::error::InputError;
use crate::op::{Dialect, OpInput, OpKind, OpOutput, OpSpec, Proto};
use crate::params::{ParamDefault, ParamKind, ParamSpec};
use crate::result::{LaneResult, Source};
use crate::value::{Value, ValueType};

use super::arch::{self, ArchReq, ARCH_NEW, ARCH_OLD};
use super::mma_layout::{layout_of, Matrix, MmaLayout, WARP};

/// Element type of an MMA operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    /// IEEE binary16.
    F16,
    /// bfloat16.
    Bf16,
    /// f32 register read as tf32 (low 13 mantissa bits ignored).
    Tf32,
    /// IEEE binary32.
    F32,
    /// IEEE binary64.
    F64,
    /// Signed 8-bit integer.
    I8,
    /// Signed 32-bit integer.
    I32,
}

impl Elem {
    /// Rounds / checks a typed number to this element type; `None` if an integer is out of range.
    pub fn quantize(self, x: f64) -> Option<f64> {
        Some(match self {
            Elem::F16 => f16::from_f64(x).to_f64(),
            Elem::Bf16 => bf16::from_f64(x).to_f64(),
            Elem::Tf32 => f32::from_bits((x as f32).to_bits() & !0x1fff) as f64,
            Elem::F32 => x as f32 as f64,
            Elem::F64 => x,
            Elem::I8 => {
                if x.fract() != 0.0 || !(-128.0..=127.0).contains(&x) {
                    return None;
                }
                x
            }
            Elem::I32 => {
                if x.fract() != 0.0 || !(i32::MIN as f64..=i32::MAX as f64).contains(&x) {
                    return None;
                }
                x
            }
        })
    }

    fn range_text(self) -> &'static str {
        match self {
            Elem::I8 => "integers in -128..=127",
            Elem::I32 => "integers in -2147483648..=2147483647",
            _ => "numbers",
        }
    }
}

/// One MMA builtin: layout, element types, architecture limit, seed section.
#[derive(Clone, Copy, Debug)]
pub struct MmaSpec {
    /// Full builtin name.
    pub name: &'static str,
    /// A and B element type.
    pub input: Elem,
    /// C and D element type.
    pub output: Elem,
    /// The seed's 架构支持限制, if any.
    pub arch: Option<ArchReq>,
    /// Seed 002 section.
    pub section: &'static str,
}

/// Every MMA builtin.
pub const SPECS: &[MmaSpec] = &[
    MmaSpec {
        name: "__builtin_mxc_mma_16x16x16f16",
        input: Elem::F16,
        output: Elem::F32,
        arch: None,
        section: "3.6.1",
    },
    MmaSpec {
        name: "__builtin_mxc_mma_16x16x4f32",
        input: Elem::F32,
        output: Elem::F32,
        arch: None,
        section: "3.6.2",
    },
    MmaSpec {
        name: "__builtin_mxc_mma_16x16x16i8",
        input: Elem::I8,
        output: Elem::I32,
        arch: Some(ArchReq::Below1500),
        section: "3.6.3",
    },
    MmaSpec {
        name: "__builtin_mxc_mma_16x16x32i8",
        input: Elem::I8,
        output: Elem::I32,
        arch: Some(ArchReq::AtLeast1500),
        section: "3.6.4",
    },
    MmaSpec {
        name: "__builtin_mxc_mma_16x16x16bf16",
        input: Elem::Bf16,
        output: Elem::F32,
        arch: None,
        section: "3.6.5",
    },
    MmaSpec {
        name: "__builtin_mxc_mma_16x16x4f64",
        input: Elem::F64,
        output: Elem::F64,
        arch: None,
        section: "3.6.6",
    },
    MmaSpec {
        name: "__builtin_mxc_mma_16x16x8tf32",
        input: Elem::Tf32,
        output: Elem::F32,
        arch: None,
        section: "3.6.7",
    },
];

/// The spec of MMA builtin `name`.
pub fn spec_of(name: &str) -> Option<&'static MmaSpec> {
    SPECS.iter().find(|s| s.name == name)
}

/// Per-lane registers of one matrix: `regs[lane][slot]`, numbers already of the element type.
pub type Regs = Vec<Vec<f64>>;

/// Places a row-major matrix into per-lane registers by the layout.
pub fn pack(layout: &MmaLayout, matrix: Matrix, elements: &[f64]) -> Regs {
    let (rows, cols) = layout.dims(matrix);
    let mut regs = vec![vec![0.0; layout.slots(matrix)]; WARP];
    for r in 0..rows {
        for c in 0..cols {
            if let (Some((lane, slot)), Some(x)) =
                (layout.locate(matrix, r, c), elements.get(r * cols + c))
            {
                if let Some(cell) = regs.get_mut(lane).and_then(|l| l.get_mut(slot)) {
                    *cell = *x;
                }
            }
        }
    }
    regs
}

/// Reads a matrix (row-major) back out of per-lane registers; missing registers read 0.
pub fn unpack(layout: &MmaLayout, matrix: Matrix, regs: &Regs) -> Vec<f64> {
    let (rows, cols) = layout.dims(matrix);
    (0..rows * cols)
        .map(|idx| {
            layout
                .locate(matrix, idx / cols, idx % cols)
                .and_then(|(lane, slot)| regs.get(lane).and_then(|l| l.get(slot)).copied())
                .unwrap_or(0.0)
        })
        .collect()
}

/// `D = A·B + C` from per-lane registers, as the warp computes it: unpack by the layout, multiply
/// with the spec's arithmetic (module doc), pack D by the layout.
pub fn compute(spec: &MmaSpec, layout: &MmaLayout, a: &Regs, b: &Regs, c: &Regs) -> Regs {
    let (am, bm, cm) = (
        unpack(layout, Matrix::A, a),
        unpack(layout, Matrix::B, b),
        unpack(layout, Matrix::C, c),
    );
    let (m, n, k) = (layout.m, layout.n, layout.k);
    let d: Vec<f64> = (0..m * n)
        .map(|idx| {
            let (i, j) = (idx / n, idx % n);
            let at = |v: &[f64], p: usize| v.get(p).copied().unwrap_or(0.0);
            let c0 = at(&cm, idx);
            match spec.output {
                Elem::F64 => (0..k).fold(c0, |acc, kk| {
                    at(&am, i * k + kk).mul_add(at(&bm, kk * n + j), acc)
                }),
                Elem::I32 => {
                    let sum = (0..k).fold(c0 as i64, |acc, kk| {
                        acc.wrapping_add(
                            (at(&am, i * k + kk) as i64) * (at(&bm, kk * n + j) as i64),
                        )
                    });
                    sum as i32 as f64
                }
                _ => {
                    let sum = (0..k).fold(c0, |acc, kk| {
                        acc + at(&am, i * k + kk) * at(&bm, kk * n + j)
                    });
                    sum as f32 as f64
                }
            }
        })
        .collect();
    pack(layout, Matrix::D, &d)
}

/// Parses a matrix parameter: `rows·cols` comma-separated numbers (row-major), one number for
/// every element, or `index` (element = row·cols + col). Each is quantized to `elem`.
///
/// # Errors
/// [`InputError`] on `field` for a wrong count, a non-number, or an integer out of range.
pub fn parse_matrix(
    text: &str,
    rows: usize,
    cols: usize,
    elem: Elem,
    field: &str,
) -> Result<Vec<f64>, InputError> {
    let t = text.trim();
    let raw: Vec<f64> = if t.eq_ignore_ascii_case("index") {
        (0..rows * cols).map(|x| x as f64).collect()
    } else {
        let items: Vec<&str> = t.split(',').map(str::trim).collect();
        let nums = items
            .iter()
            .enumerate()
            .map(|(i, s)| {
                Value::parse(ValueType::F64, s, &format!("{field}[{i}]"))
                    .map(|v| f64::from_bits(v.bits))
            })
            .collect::<Result<Vec<_>, _>>()?;
        match nums.len() {
            1 => vec![nums[0]; rows * cols],
            n if n == rows * cols => nums,
            n => {
                return Err(InputError::new(
                    field,
                    format!(
                    "needs one number, `index`, or {rows}×{cols} = {} numbers (row-major), got {n}",
                    rows * cols
                ),
                ))
            }
        }
    };
    raw.iter()
        .enumerate()
        .map(|(i, x)| {
            elem.quantize(*x).ok_or_else(|| {
                InputError::new(
                    format!("{field}[{i}]"),
                    format!("{x} is not allowed: elements are {}", elem.range_text()),
                )
            })
        })
        .collect()
}

const fn matrix_param(name: &'static str, default: &'static str, doc: &'static str) -> ParamSpec {
    ParamSpec {
        name,
        kind: ParamKind::Text,
        default: ParamDefault::Text(default),
        doc,
    }
}

const A: ParamSpec = matrix_param(
    "a",
    "index",
    "matrix A (16×K), row-major comma list, one number, or `index`",
);
/// The int8 MMAs' A: `index` would reach 255 (16×16) or 511 (16×32), outside int8
/// (-128..=127), so their default is a constant that runs (D = 2·K with the default B = 1).
const A_I8: ParamSpec = matrix_param(
    "a",
    "2",
    "matrix A (16×K, int8 elements -128..=127), row-major comma list, one number, or `index` (too large for int8 beyond element 127)",
);
const B: ParamSpec = matrix_param(
    "b",
    "1",
    "matrix B (K×16), row-major comma list, one number, or `index`",
);
const C: ParamSpec = matrix_param(
    "c",
    "0",
    "matrix C (16×16), row-major comma list, one number, or `index`",
);
const REG: ParamSpec = ParamSpec {
    name: "reg",
    kind: ParamKind::Int { min: 0, max: 3 },
    default: ParamDefault::Int(0),
    doc: "which of D's 4 registers (v4 element) the lane row shows",
};

macro_rules! mma_op {
    ($name:literal, $proto:expr, $args:expr, $ty:expr, $settings:expr, $src:literal, $extra:literal, $run:ident) => {
        OpSpec {
            dialect: Dialect::Maca,
            name: $name,
            aliases: &[],
            proto: $proto,
            args: $args,
            rule: concat!(
                "D = A·B + C on a 16×16 tile spread over the 64 lanes. ",
                $extra,
                " Lane layout (the seed gives none; AMD MFMA layout of the same shape, an inference): \
                 A[i][k] in lane 16·⌊k/e⌋ + i, slot k mod e (e = K/4 elements per lane); B[k][j] in \
                 lane 16·⌊k/e⌋ + j, slot k mod e; C/D[i][j] in lane 16·⌊i/4⌋ + j, register i mod 4 \
                 (f64: lane 16·(i mod 4) + j, register ⌊i/4⌋). The lane row shows D register `reg`; \
                 the operand row is unused (A, B, C are the params a, b, c)."
            ),
            source: $src,
            settings: $settings,
            types: &[$ty],
            type_note: "the result element type of this MMA",
            kind: OpKind::Lanes,
            run: $run,
        }
    };
}

/// The MMA builtins.
pub const OPS: &[OpSpec] = &[
    mma_op!("__builtin_mxc_mma_16x16x16f16", Proto::returns("v4f32"), &[Arg::per_thread("a", "v4f16", Role::Data, A, PER_LANE), Arg::per_thread("b", "v4f16", Role::Data, B, PER_LANE), Arg::per_thread("c", "v4f32", Role::Data, C, PER_LANE)], ValueType::F32, &[REG], "seed 002 §3.6.1; AMD v_mfma_f32_16x16x16f16 layout",
        "f16 inputs, f32 accumulate: exact products summed in f64, rounded once to f32.", run_f16),
    mma_op!("__builtin_mxc_mma_16x16x4f32", Proto::returns("v4f32"), &[Arg::per_thread("a", "float", Role::Data, A, PER_LANE), Arg::per_thread("b", "float", Role::Data, B, PER_LANE), Arg::per_thread("c", "v4f32", Role::Data, C, PER_LANE)], ValueType::F32, &[REG], "seed 002 §3.6.2; AMD v_mfma_f32_16x16x4f32 layout",
        "f32 inputs (A 16×4, B 4×16): exact products summed in f64, rounded once to f32.", run_f32),
    mma_op!("__builtin_mxc_mma_16x16x16i8", Proto::returns("v4i32"), &[Arg::per_thread("a", "int", Role::Data, A_I8, PER_LANE), Arg::per_thread("b", "int", Role::Data, B, PER_LANE), Arg::per_thread("c", "v4i32", Role::Data, C, PER_LANE)], ValueType::I32, &[REG, ARCH_OLD], "seed 002 §3.6.3; AMD v_mfma_i32_16x16x16i8 layout",
        "Signed int8 inputs (4 per int register), int32 accumulate wrapping in 32 bits. Needs a target before xcore1500.", run_i8x16),
    mma_op!("__builtin_mxc_mma_16x16x32i8", Proto::returns("v4i32"), &[Arg::per_thread("a", "v2i32", Role::Data, A_I8, PER_LANE), Arg::per_thread("b", "v2i32", Role::Data, B, PER_LANE), Arg::per_thread("c", "v4i32", Role::Data, C, PER_LANE)], ValueType::I32, &[REG, ARCH_NEW], "seed 002 §3.6.4; AMD v_mfma_i32_16x16x32_i8 layout",
        "Signed int8 inputs (8 per v2i32), int32 accumulate wrapping in 32 bits. Needs xcore1500 or later.", run_i8x32),
    mma_op!("__builtin_mxc_mma_16x16x16bf16", Proto::returns("v4f32"), &[Arg::per_thread("a", "v4f16", Role::Data, A, PER_LANE), Arg::per_thread("b", "v4f16", Role::Data, B, PER_LANE), Arg::per_thread("c", "v4f32", Role::Data, C, PER_LANE)], ValueType::F32, &[REG], "seed 002 §3.6.5; AMD v_mfma_f32_16x16x16bf16_1k layout",
        "bf16 inputs (the prototype spells them v4f16), f32 accumulate: exact products summed in f64, rounded once to f32.", run_bf16),
    mma_op!("__builtin_mxc_mma_16x16x4f64", Proto::returns("v4f64"), &[Arg::per_thread("a", "double", Role::Data, A, PER_LANE), Arg::per_thread("b", "double", Role::Data, B, PER_LANE), Arg::per_thread("c", "v4f64", Role::Data, C, PER_LANE)], ValueType::F64, &[REG], "seed 002 §3.6.6; AMD v_mfma_f64_16x16x4f64 layout",
        "f64: d = c, then d = fma(a[i][k], b[k][j], d) for k = 0..3.", run_f64),
    mma_op!("__builtin_mxc_mma_16x16x8tf32", Proto::returns("v4f32"), &[Arg::per_thread("a", "v2f32", Role::Data, A, PER_LANE), Arg::per_thread("b", "v2f32", Role::Data, B, PER_LANE), Arg::per_thread("c", "v4f32", Role::Data, C, PER_LANE)], ValueType::F32, &[REG], "seed 002 §3.6.7; AMD v_mfma_f32_16x16x8_xf32 layout",
        "tf32 inputs: each f32 is read with its low 13 mantissa bits ignored (our choice; round first with cvt_f32totf32); exact products summed in f64, rounded once to f32.", run_tf32),
];

/// One `run` function per builtin (an OpSpec's `run` is a plain fn pointer).
macro_rules! runner {
    ($f:ident, $name:literal) => {
        fn $f(input: &OpInput) -> Result<OpOutput, InputError> {
            let spec = spec_of($name)
                .ok_or_else(|| InputError::new("op", concat!($name, " has no MMA spec")))?;
            run_spec(spec, input)
        }
    };
}

runner!(run_f16, "__builtin_mxc_mma_16x16x16f16");
runner!(run_f32, "__builtin_mxc_mma_16x16x4f32");
runner!(run_i8x16, "__builtin_mxc_mma_16x16x16i8");
runner!(run_i8x32, "__builtin_mxc_mma_16x16x32i8");
runner!(run_bf16, "__builtin_mxc_mma_16x16x16bf16");
runner!(run_f64, "__builtin_mxc_mma_16x16x4f64");
runner!(run_tf32, "__builtin_mxc_mma_16x16x8tf32");

/// Runs the MMA builtin `spec` on an op input (params a, b, c, reg, optionally arch).
///
/// # Errors
/// [`InputError`] for a matrix that does not parse, an out-of-range element, or a target the
/// builtin does not support.
pub fn run_spec(spec: &MmaSpec, input: &OpInput) -> Result<OpOutput, InputError> {
    if let Some(req) = spec.arch {
        arch::check(input, req, spec.name, spec.section)?;
    }
    let layout = layout_of(spec.name)
        .ok_or_else(|| InputError::new("op", format!("{} has no layout entry", spec.name)))?;
    let (ar, ac) = layout.dims(Matrix::A);
    let (br, bc) = layout.dims(Matrix::B);
    let (cr, cc) = layout.dims(Matrix::C);
    let a = parse_matrix(input.params.text("a")?, ar, ac, spec.input, "a")?;
    let b = parse_matrix(input.params.text("b")?, br, bc, spec.input, "b")?;
    let c = parse_matrix(input.params.text("c")?, cr, cc, spec.output, "c")?;
    let reg = input.params.int("reg")? as usize;
    let d = compute(
        spec,
        layout,
        &pack(layout, Matrix::A, &a),
        &pack(layout, Matrix::B, &b),
        &pack(layout, Matrix::C, &c),
    );
    let results = (0..input.lanes)
        .map(|lane| {
            if !input.active.contains(lane) {
                return LaneResult::undefined(
                    "a warp MMA reads A, B, C from all 64 lanes; with this lane inactive its D \
                     registers are not defined by the seed",
                    None,
                );
            }
            let x = d.get(lane).and_then(|l| l.get(reg)).copied().unwrap_or(0.0);
            let value = match spec.output {
                Elem::F64 => Value::from_bits(ValueType::F64, x.to_bits()),
                Elem::I32 => Value::from_bits(ValueType::I32, x as i32 as u32 as u64),
                _ => Value::from_bits(ValueType::F32, (x as f32).to_bits() as u64),
            };
            let label = layout
                .element_at(Matrix::D, lane, reg)
                .map(|(i, j)| format!("D[{i}][{j}]"));
            LaneResult {
                value: Some(value),
                source: Source::Computed,
                from: None,
                why: label,
            }
        })
        .collect();
    Ok(OpOutput {
        results,
        diagnostics: Vec::new(),
    })
}
