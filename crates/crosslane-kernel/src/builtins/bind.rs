//! One argument of a cross-lane call bound to the op's typed parameter: a per-thread argument
//! keeps every lane's value, one the vendor requires to be one value is checked across the
//! active lanes (the rules of `builtins`' module text; each op's threading is its
//! `OpSpec::args` entry, written once in `crosslane-core`).

use super::*;

pub(super) fn to_type(v: &KVal, ty: ValueType) -> Option<Value> {
    let core = v.to_core()?;
    if core.ty == ty {
        return Some(core);
    }
    let target = match ty {
        ValueType::I32 => ValTy::scalar(Scalar::I32),
        ValueType::U32 => ValTy::scalar(Scalar::U32),
        ValueType::I64 => ValTy::scalar(Scalar::I64),
        ValueType::U64 => ValTy::scalar(Scalar::U64),
        ValueType::F32 => ValTy::scalar(Scalar::F32),
        ValueType::F64 => ValTy::scalar(Scalar::F64),
        ValueType::F16 => ValTy::scalar(Scalar::F16),
        ValueType::Bf16 => ValTy::scalar(Scalar::Bf16),
        ValueType::F16x2 => ValTy {
            scalar: Scalar::F16,
            lanes: 2,
        },
        ValueType::Bf16x2 => ValTy {
            scalar: Scalar::Bf16,
            lanes: 2,
        },
    };
    v.convert(target).ok()?.to_core()
}

/// The launch's target for an op's `arch` setting, when it names the same family of targets as
/// the setting's default (`gfx90a` for an AMD op defaulting to `gfx1030`, `xcore1000` for a
/// MACA op): a CUDA `sm_80` never reaches an AMD op.
pub(super) fn launch_target<'a>(p: &ParamSpec, arch: Option<&'a str>) -> Option<&'a str> {
    let arch = arch?;
    let ParamDefault::Text(default) = p.default else {
        return None;
    };
    let family = |t: &str| t.chars().take_while(char::is_ascii_alphabetic).count();
    let n = family(default);
    (p.name == "arch" && n > 0 && family(arch) == n && arch.get(..n) == default.get(..n))
        .then_some(arch)
}

/// What binding one argument noted besides its value.
pub(super) enum Note {
    /// The vendor requires one value and the lanes disagree: (warning, rule). Every lane of the
    /// call is undefined.
    Varies(String, String),
    /// A scalar-register operand varied: the first active lane's value is used, as the
    /// hardware reads it (warning, rule).
    FirstLane(String, String),
}

/// One parameter bound from an argument row.
pub(super) struct Bound {
    pub(super) value: ParamValue,
    pub(super) note: Option<Note>,
}

/// One parameter's value from an argument row. A per-thread argument keeps every lane's value;
/// an argument the vendor requires to be one value is checked across the active lanes
/// ([`Note`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn param_value(
    name: &str,
    kind: ParamKind,
    (thread, c_type): (Thread, &str),
    arg: &[LaneVal],
    ident: Option<String>,
    lanes: usize,
    active: LaneMask,
    ty: ValueType,
) -> Result<Bound, String> {
    let c_type = if matches!(kind, ParamKind::Mask) {
        crate::types::sync_mask_type(c_type, lanes)
    } else {
        c_type
    };
    let lane_int = |l: usize| -> Result<i64, String> {
        match arg.get(l) {
            Some(Ok(v)) => v
                .as_int()
                .map(|n| crate::types::to_declared(n, c_type))
                .or_else(|| v.as_f64().map(|x| x as i128))
                // A 64-bit mask at or above 2^63 keeps its bits (read back as `u64` below).
                .and_then(|n| {
                    i64::try_from(n)
                        .ok()
                        .or_else(|| u64::try_from(n).ok().map(|u| u as i64))
                })
                .ok_or_else(|| format!("`{name}` must be an integer, got {v}")),
            Some(Err(u)) => Err(format!("`{name}` is undefined in lane {l} ({})", u.why)),
            None => Err(format!("`{name}` has no value in lane {l}")),
        }
    };
    let varies = |first: usize, differ: &[usize], shown: String| -> Note {
        let lanes_text = list_lanes(differ);
        match thread {
            Thread::Scalar(rule) => Note::FirstLane(
                format!(
                    "`{name}` is a scalar operand (one value for the warp): lane(s) {lanes_text} \
                     pass values other than lane {first}'s {shown}; the hardware reads lane \
                     {first}'s, as readfirstlane of it would"
                ),
                rule.to_string(),
            ),
            Thread::Uniform(rule) | Thread::ConstExpr(rule) => Note::Varies(
                format!(
                    "`{name}` must be {} but differs between lanes (lane {first} passes {shown}; \
                     lane(s) {lanes_text} pass other values): every lane's result is undefined",
                    thread.word()
                ),
                rule.to_string(),
            ),
            Thread::Immediate | Thread::PerThread(_) => Note::Varies(
                format!(
                    "`{name}` is an instruction immediate (one value for the warp) but differs \
                     between lanes (lane {first} passes {shown}; lane(s) {lanes_text} pass other \
                     values): every lane's result is undefined"
                ),
                thread.source().to_string(),
            ),
        }
    };
    let uniform = || -> Result<(i64, Option<Note>), String> {
        let first = active
            .iter()
            .find(|&l| l < lanes)
            .ok_or_else(|| "no active lane".to_string())?;
        let v = lane_int(first)?;
        let differ: Vec<usize> = active
            .iter()
            .filter(|&l| l < lanes && lane_int(l).ok() != Some(v))
            .collect();
        let note = (!differ.is_empty()).then(|| varies(first, &differ, v.to_string()));
        Ok((v, note))
    };
    let bound = |value: ParamValue, note: Option<Note>| Ok(Bound { value, note });
    match kind {
        ParamKind::Int { min, max } => {
            let (v, note) = uniform()?;
            if v < min || v > max {
                return Err(format!("`{name}` must be in {min}..={max}, got {v}"));
            }
            bound(ParamValue::Int(v), note)
        }
        ParamKind::PerLaneInt { min, max } => {
            let mut out = vec![0i64; lanes];
            for l in active.iter().filter(|&l| l < lanes) {
                let v = lane_int(l)?;
                if v < min || v > max {
                    return Err(format!(
                        "`{name}` in lane {l} must be in {min}..={max}, got {v}"
                    ));
                }
                out[l] = v;
            }
            // A per-lane parameter whose vendor requires one value (WGSL's ShuffleUp delta)
            // keeps every lane's value: the op's rule reports the disagreement.
            bound(ParamValue::Ints(out), None)
        }
        ParamKind::PerLaneValue => {
            let mut out = vec![Value::from_bits(ty, 0); lanes];
            for l in active.iter().filter(|&l| l < lanes) {
                out[l] = match arg.get(l) {
                    Some(Ok(v)) => to_type(v, ty).ok_or_else(|| {
                        format!(
                            "`{name}` in lane {l} is not {}",
                            crosslane_core::error::with_article(ty.name())
                        )
                    })?,
                    Some(Err(u)) => {
                        return Err(format!("`{name}` is undefined in lane {l} ({})", u.why))
                    }
                    None => return Err(format!("`{name}` has no value in lane {l}")),
                };
            }
            bound(ParamValue::Values(out), None)
        }
        ParamKind::Mask => {
            let (v, note) = uniform()?;
            bound(
                ParamValue::Mask(LaneMask(v as u64 as u128).truncate(lanes)),
                note,
            )
        }
        ParamKind::Flag => {
            let (v, note) = uniform()?;
            bound(ParamValue::Flag(v != 0), note)
        }
        ParamKind::Text => {
            if let Some(text) = ident {
                return bound(ParamValue::Text(text), None);
            }
            // A text parameter may hold a per-lane row (`lane`, a list): pass one item when the
            // lanes agree, else one item per lane — where the vendor takes it per thread.
            let text_of = |l: usize| -> Result<String, String> {
                match arg.get(l) {
                    Some(Ok(v)) => Ok(v.to_string()),
                    Some(Err(u)) => Err(format!("`{name}` is undefined in lane {l} ({})", u.why)),
                    None => Err(format!("`{name}` has no value in lane {l}")),
                }
            };
            let items: Vec<Option<String>> = (0..lanes)
                .map(|l| {
                    if active.contains(l) {
                        text_of(l).map(Some)
                    } else {
                        Ok(None)
                    }
                })
                .collect::<Result<_, _>>()?;
            let defined: Vec<(usize, &String)> = items
                .iter()
                .enumerate()
                .filter_map(|(l, t)| t.as_ref().map(|t| (l, t)))
                .collect();
            let Some(&(first_lane, first)) = defined.first() else {
                return Err("no active lane".into());
            };
            if defined.iter().all(|(_, t)| *t == first) {
                return bound(ParamValue::Text(first.clone()), None);
            }
            if !thread.per_thread() {
                let differ: Vec<usize> = defined
                    .iter()
                    .filter(|(_, t)| *t != first)
                    .map(|(l, _)| *l)
                    .collect();
                let note = varies(first_lane, &differ, format!("`{first}`"));
                return bound(ParamValue::Text(first.clone()), Some(note));
            }
            let list: Vec<String> = items
                .into_iter()
                .map(|t| t.unwrap_or_else(|| "0".into()))
                .collect();
            bound(ParamValue::Text(list.join(",")), None)
        }
    }
}
