//! A MACA warp MMA (`__builtin_mxc_mma_*`, seed 002 §3.6) called from a kernel: each lane
//! passes its registers of A, B and C (`v4f16 a`, `float b`, `v4f32 c`, …), which the MMA
//! layout ([`crosslane_core::dialect::maca::mma_layout`], the one place it is defined) places
//! as matrix elements; `D = A·B + C` is computed with the arithmetic of
//! [`crosslane_core::dialect::maca::mma::compute`] and each lane gets its D registers.
//!
//! Undefined is a value with its reason: an operand undefined in a lane (a parameter nobody
//! set, a register never written) stands for as many undefined elements as the lane's
//! register holds (an undefined `v4f32` is four undefined components), and a D element
//! computed from any undefined element is undefined with that element's reason. A lane not
//! executing the call holds no registers the seed defines, so its elements are undefined too.

use crosslane_core::dialect::maca::mma::{compute, Elem, MmaSpec};
use crosslane_core::dialect::maca::mma_layout::{layout_of, Matrix, MmaLayout, WARP};
use crosslane_core::lanes::LaneMask;
use crosslane_core::op::OpSpec;
use crosslane_core::params::Params;
use crosslane_core::result::{LaneResult, Level, Source};
use crosslane_core::trace::Step;
use crosslane_core::value::{Value, ValueType};

use crate::trace::{LaneVal, Undef};
use crate::types::{KVal, Scalar};

/// One matrix element held in a lane's register: its number (already of the element type)
/// or why it has none.
type Elt = Result<f64, String>;

/// What an MMA call gives: each lane's value, the step for the lane diagram, and the
/// diagnostics (level, message, rule) — the parts of a cross-lane call's outcome.
pub type MmaOutcome = (Vec<LaneVal>, Vec<Step>, Vec<(Level, String, String)>);

/// Runs the MMA `mma` (whose op entry is `spec`) on the lanes' register arguments
/// `args[k][lane]` (A, B, C in the prototype's order). `(line, col)` is the call's position.
pub fn call(
    mma: &MmaSpec,
    spec: &'static OpSpec,
    lanes: usize,
    active: LaneMask,
    args: &[Vec<LaneVal>],
    (line, col): (u32, u32),
) -> MmaOutcome {
    let undef = |why: String| Undef {
        line,
        col,
        why,
        uninit: false,
    };
    let fail = |why: String| -> MmaOutcome {
        (
            vec![Err(undef(why.clone())); lanes],
            Vec::new(),
            vec![(Level::Error, why, spec.source.to_string())],
        )
    };
    let Some(layout) = layout_of(mma.name) else {
        return fail(format!("{} has no layout entry", mma.name));
    };
    if lanes != WARP {
        return fail(format!(
            "{} is a 64-lane warp operation (seed 002 §{}): this launch has {lanes} lanes per warp",
            mma.name, mma.section
        ));
    }
    if args.len() != 3 {
        return fail(format!(
            "{} takes 3 arguments (a, b, c), got {}",
            mma.name,
            args.len()
        ));
    }
    let mut diagnostics = Vec::new();
    let mut regs: Vec<Vec<Vec<Elt>>> = Vec::with_capacity(3);
    for (k, (matrix, elem)) in [
        (Matrix::A, mma.input),
        (Matrix::B, mma.input),
        (Matrix::C, mma.output),
    ]
    .into_iter()
    .enumerate()
    {
        let name = ["a", "b", "c"][k];
        let slots = layout.slots(matrix);
        let per_lane = (0..lanes)
            .map(|l| {
                if !active.contains(l) {
                    return vec![
                        Err(format!(
                            "lane {l} is not executing the call, so its `{name}` registers hold nothing the seed defines"
                        ));
                        slots
                    ];
                }
                match args[k].get(l) {
                    Some(Ok(v)) => elements(v, elem, slots, name, l, &mut diagnostics),
                    Some(Err(u)) => vec![Err(format!("`{name}` is undefined in lane {l} ({})", u.why)); slots],
                    None => vec![Err(format!("`{name}` has no value in lane {l}")); slots],
                }
            })
            .collect();
        regs.push(per_lane);
    }
    let d = multiply(mma, layout, &regs);
    let out_ty = match mma.output {
        Elem::F64 => Scalar::F64,
        Elem::I32 => Scalar::I32,
        _ => Scalar::F32,
    };
    let value_ty = match mma.output {
        Elem::F64 => ValueType::F64,
        Elem::I32 => ValueType::I32,
        _ => ValueType::F32,
    };
    let mut values = Vec::with_capacity(lanes);
    let mut results = Vec::with_capacity(lanes);
    for (l, row) in d.iter().enumerate() {
        let items: Result<Vec<KVal>, String> = row
            .iter()
            .map(|e| e.clone().map(|x| number(out_ty, x)))
            .collect();
        let first = row
            .first()
            .cloned()
            .unwrap_or_else(|| Err("no register".into()));
        let label = layout
            .element_at(Matrix::D, l, 0)
            .map(|(i, j)| format!("D[{i}][{j}]"));
        results.push(match &first {
            Ok(x) => LaneResult {
                value: Some(core_value(value_ty, *x)),
                source: Source::Computed,
                from: None,
                why: label,
            },
            Err(why) => LaneResult::undefined(why.clone(), None),
        });
        values.push(
            items
                .map(|items| KVal::Vector { ty: out_ty, items })
                .map_err(|why| undef(format!("{}: {why}", mma.name))),
        );
    }
    let step = Step {
        dialect: spec.dialect,
        op: spec.name.to_string(),
        lanes,
        active,
        ty: value_ty,
        inputs: vec![None; lanes],
        params: Params::default(),
        results,
        diagnostics: Vec::new(),
        scalar: false,
        label: Some(format!("line {line}, D register 0")),
    };
    (values, vec![step], diagnostics)
}

/// The `slots` matrix elements lane `l`'s argument `v` holds, each of `elem` (module doc):
/// a vector's components in order, a scalar as one element, the int8 MMAs' `int` / `v2i32`
/// as four int8 per 32-bit register, lowest byte first.
fn elements(
    v: &KVal,
    elem: Elem,
    slots: usize,
    name: &str,
    l: usize,
    diagnostics: &mut Vec<(Level, String, String)>,
) -> Vec<Elt> {
    let comps: Vec<KVal> = match v {
        KVal::Vector { items, .. } => items.clone(),
        one => vec![one.clone()],
    };
    let numbers: Vec<Elt> = if elem == Elem::I8 {
        comps
            .iter()
            .flat_map(|c| {
                let word = c.as_int().map(|n| n as u32);
                (0..4).map(move |b| {
                    word.map(|w| f64::from((w >> (8 * b)) as u8 as i8))
                        .ok_or_else(|| format!("`{name}` in lane {l} is not an integer register"))
                })
            })
            .collect()
    } else {
        comps
            .iter()
            .map(|c| {
                c.as_f64().and_then(|x| elem.quantize(x)).ok_or_else(|| {
                    format!("`{name}` in lane {l} is not a number of the operand type")
                })
            })
            .collect()
    };
    if numbers.len() != slots {
        let why = format!(
            "`{name}` in lane {l} holds {} elements; this MMA reads {slots} per lane (seed 002 §3.6 prototypes)",
            numbers.len()
        );
        if !diagnostics.iter().any(|(_, m, _)| m == &why) {
            diagnostics.push((Level::Error, why.clone(), String::new()));
        }
        return vec![Err(why); slots];
    }
    numbers
}

/// `D = A·B + C` element by element: a D element whose inputs are all defined is the MMA's
/// arithmetic on them ([`compute`], run on those numbers); otherwise it is undefined with the
/// first undefined input's place and reason.
fn multiply(mma: &MmaSpec, layout: &MmaLayout, regs: &[Vec<Vec<Elt>>]) -> Vec<Vec<Elt>> {
    let at = |m: usize, matrix: Matrix, r: usize, c: usize| -> Elt {
        let (lane, slot) = layout
            .locate(matrix, r, c)
            .ok_or_else(|| format!("{matrix:?}[{r}][{c}] has no lane"))?;
        regs.get(m)
            .and_then(|x| x.get(lane))
            .and_then(|x| x.get(slot))
            .cloned()
            .unwrap_or_else(|| Err("no register".into()))
            .map_err(|why| {
                format!("{matrix:?}[{r}][{c}] (lane {lane}, element {slot}) is undefined: {why}")
            })
    };
    // The defined numbers, undefined ones as 0, for the arithmetic; the reasons beside.
    let number = |e: &Elt| e.as_ref().copied().unwrap_or(0.0);
    let plain: Vec<Vec<Vec<f64>>> = regs
        .iter()
        .map(|m| m.iter().map(|l| l.iter().map(number).collect()).collect())
        .collect();
    let empty = Vec::new();
    let d = compute(
        mma,
        layout,
        plain.first().unwrap_or(&empty),
        plain.get(1).unwrap_or(&empty),
        plain.get(2).unwrap_or(&empty),
    );
    let (m, n, k) = (layout.m, layout.n, layout.k);
    let mut out: Vec<Vec<Elt>> = d
        .iter()
        .map(|row| row.iter().map(|x| Ok(*x)).collect())
        .collect();
    for i in 0..m {
        for j in 0..n {
            let why = (0..k)
                .flat_map(|kk| [at(0, Matrix::A, i, kk), at(1, Matrix::B, kk, j)])
                .chain([at(2, Matrix::C, i, j)])
                .find_map(Result::err);
            if let (Some(why), Some((lane, slot))) = (why, layout.locate(Matrix::D, i, j)) {
                if let Some(cell) = out.get_mut(lane).and_then(|r| r.get_mut(slot)) {
                    *cell = Err(format!("D[{i}][{j}] = A·B + C reads {why}"));
                }
            }
        }
    }
    out
}

fn number(ty: Scalar, x: f64) -> KVal {
    if ty == Scalar::I32 {
        KVal::int(ty, x as i128)
    } else {
        KVal::float(ty, x)
    }
}

fn core_value(ty: ValueType, x: f64) -> Value {
    match ty {
        ValueType::F64 => Value::from_bits(ty, x.to_bits()),
        ValueType::I32 => Value::from_bits(ty, x as i32 as u32 as u64),
        _ => Value::from_bits(ty, (x as f32).to_bits() as u64),
    }
}
