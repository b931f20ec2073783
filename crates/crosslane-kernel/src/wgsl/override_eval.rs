//! Override values at pipeline creation (WGSL spec, "Override Declarations" and
//! "override-expressions"): each `override` takes the pipeline's value (by name or `@id`),
//! else its initializer, which may be an expression of other overrides and constants
//! (`override HALF = WG / 2u;`); workgroup sizes and workgroup array sizes may name them.
//!
//! naga evaluates these only in its SPIR-V/HLSL/MSL/GLSL back ends
//! (`naga::back::pipeline_constants`), which the page's WebAssembly build does not carry; so
//! the scalar expression forms an override-expression uses are evaluated here: literals,
//! constants, other overrides, unary and binary operators, conversions and `select`. naga
//! orders module-scope declarations by their dependencies, so the global expressions are
//! evaluated in arena order in one pass (no recursion).

use std::collections::{BTreeMap, HashMap};

use naga::{BinaryOperator, Expression, Handle, Literal, ScalarKind, TypeInner, UnaryOperator};

/// The evaluated overrides of a module: each override's value, or why it has none.
#[derive(Clone, Debug, Default)]
pub struct OverrideValues {
    /// By override.
    pub values: HashMap<Handle<naga::Override>, Result<Literal, String>>,
    /// Each global expression's value where it has one (workgroup sizes, array sizes).
    exprs: HashMap<Handle<Expression>, Literal>,
}

impl OverrideValues {
    /// The value of global expression `e` as a non-negative integer (a workgroup size or an
    /// array size).
    pub fn count(&self, e: Handle<Expression>) -> Option<u64> {
        as_u64(self.exprs.get(&e)?)
    }

    /// The value of override `o` as a non-negative integer.
    pub fn count_of(&self, o: Handle<naga::Override>) -> Option<u64> {
        as_u64(self.values.get(&o)?.as_ref().ok()?)
    }
}

fn as_u64(l: &Literal) -> Option<u64> {
    match *l {
        Literal::U32(v) => Some(u64::from(v)),
        Literal::I32(v) => u64::try_from(v).ok(),
        Literal::U64(v) => Some(v),
        Literal::I64(v) | Literal::AbstractInt(v) => u64::try_from(v).ok(),
        _ => None,
    }
}

/// A pipeline value (`--override NAME=VALUE`, a scenario's `overrides`) as the override's
/// type, converted as the WebGPU API does (WebGPU spec, "GPUProgrammableStage": a double
/// converted to the WGSL type; an integer type needs an integral value in range).
///
/// # Errors
/// The reason, for a value that is not a number or out of the type's range.
pub fn given_literal(scalar: naga::Scalar, text: &str) -> Result<Literal, String> {
    let x: f64 = match text.trim() {
        "true" => 1.0,
        "false" => 0.0,
        t => t.parse().map_err(|_| "not a number".to_string())?,
    };
    let int_in = |lo: f64, hi: f64| {
        if x.fract() != 0.0 || x < lo || x > hi {
            Err("not an integer in the override's type's range".to_string())
        } else {
            Ok(x)
        }
    };
    Ok(match (scalar.kind, scalar.width) {
        (ScalarKind::Bool, _) => Literal::Bool(x != 0.0),
        (ScalarKind::Sint, 4) => {
            Literal::I32(int_in(f64::from(i32::MIN), f64::from(i32::MAX))? as i32)
        }
        (ScalarKind::Uint, 4) => Literal::U32(int_in(0.0, f64::from(u32::MAX))? as u32),
        (ScalarKind::Float, 4) => Literal::F32(x as f32),
        (ScalarKind::Float, 2) => Literal::F16(half::f16::from_f64(x)),
        _ => return Err("an override of this type is not emulated".into()),
    })
}

/// A scalar value while evaluating: integers exact in i128 then wrapped to their type,
/// floats in f64 then rounded to their type.
#[derive(Clone, Copy)]
enum V {
    Int(i128, naga::Scalar),
    Float(f64, naga::Scalar),
    Bool(bool),
}

fn to_v(l: &Literal) -> Option<V> {
    let s = l.scalar();
    Some(match *l {
        Literal::U32(v) => V::Int(v.into(), s),
        Literal::I32(v) => V::Int(v.into(), s),
        Literal::U64(v) => V::Int(v.into(), s),
        Literal::I64(v) | Literal::AbstractInt(v) => V::Int(v.into(), s),
        Literal::F32(v) => V::Float(v.into(), s),
        Literal::F16(v) => V::Float(v.to_f64(), s),
        Literal::F64(v) | Literal::AbstractFloat(v) => V::Float(v, s),
        Literal::Bool(b) => V::Bool(b),
        _ => return None,
    })
}

/// The literal of `v` in its type: integers wrap (WGSL § Arithmetic Expressions: two's
/// complement; an override-expression that overflows is a pipeline-creation error the
/// device reports, so wrapping here only shows what the device would refuse), floats round
/// to the nearest value of their width.
fn to_lit(v: V) -> Option<Literal> {
    Some(match v {
        V::Bool(b) => Literal::Bool(b),
        V::Int(x, s) => match (s.kind, s.width) {
            (ScalarKind::Uint, 4) => Literal::U32(x as u32),
            (ScalarKind::Sint, 4) => Literal::I32(x as i32),
            (ScalarKind::Uint, 8) => Literal::U64(x as u64),
            (ScalarKind::Sint, 8) => Literal::I64(x as i64),
            (ScalarKind::AbstractInt, _) => Literal::AbstractInt(x as i64),
            _ => return None,
        },
        V::Float(x, s) => match s.width {
            2 => Literal::F16(half::f16::from_f64(x)),
            4 => Literal::F32(x as f32),
            _ if s.kind == ScalarKind::AbstractFloat => Literal::AbstractFloat(x),
            _ => Literal::F64(x),
        },
    })
}

fn binary(op: BinaryOperator, a: V, b: V) -> Option<V> {
    use BinaryOperator as B;
    Some(match (a, b) {
        (V::Int(x, s), V::Int(y, _)) => {
            let bits = u32::from(s.width) * 8;
            match op {
                B::Add => V::Int(x + y, s),
                B::Subtract => V::Int(x - y, s),
                B::Multiply => V::Int(x.wrapping_mul(y), s),
                // Division by zero is a pipeline-creation error: no value.
                B::Divide => V::Int(x.checked_div(y)?, s),
                B::Modulo => V::Int(x.checked_rem(y)?, s),
                B::And => V::Int(x & y, s),
                B::InclusiveOr => V::Int(x | y, s),
                B::ExclusiveOr => V::Int(x ^ y, s),
                B::ShiftLeft => V::Int(x.checked_shl((y as u32) % bits)?, s),
                B::ShiftRight => V::Int(x >> ((y as u32) % bits), s),
                B::Equal => V::Bool(x == y),
                B::NotEqual => V::Bool(x != y),
                B::Less => V::Bool(x < y),
                B::LessEqual => V::Bool(x <= y),
                B::Greater => V::Bool(x > y),
                B::GreaterEqual => V::Bool(x >= y),
                B::LogicalAnd | B::LogicalOr => return None,
            }
        }
        (V::Float(x, s), V::Float(y, _)) => match op {
            B::Add => V::Float(x + y, s),
            B::Subtract => V::Float(x - y, s),
            B::Multiply => V::Float(x * y, s),
            B::Divide => V::Float(x / y, s),
            // WGSL § Arithmetic Expressions: `%` on floats truncates, as Rust's.
            B::Modulo => V::Float(x % y, s),
            B::Equal => V::Bool(x == y),
            B::NotEqual => V::Bool(x != y),
            B::Less => V::Bool(x < y),
            B::LessEqual => V::Bool(x <= y),
            B::Greater => V::Bool(x > y),
            B::GreaterEqual => V::Bool(x >= y),
            _ => return None,
        },
        (V::Bool(x), V::Bool(y)) => match op {
            B::LogicalAnd | B::And => V::Bool(x && y),
            B::LogicalOr | B::InclusiveOr => V::Bool(x || y),
            B::Equal => V::Bool(x == y),
            B::NotEqual => V::Bool(x != y),
            _ => return None,
        },
        _ => return None,
    })
}

/// Rounds the value through its type (so `u32` arithmetic wraps as the device's does).
fn settle(v: V) -> Option<V> {
    to_lit(v).and_then(|l| to_v(&l))
}

/// Evaluates every override of `module` with the pipeline values `given` (by name or `@id`,
/// as text).
pub fn evaluate(module: &naga::Module, given: &BTreeMap<String, String>) -> OverrideValues {
    let mut out = OverrideValues::default();
    let mut vals: HashMap<Handle<Expression>, V> = HashMap::new();
    let mut ovals: HashMap<Handle<naga::Override>, V> = HashMap::new();
    let resolve = |o: Handle<naga::Override>,
                   vals: &HashMap<Handle<Expression>, V>,
                   out: &mut OverrideValues|
     -> Option<V> {
        let ov = &module.overrides[o];
        let name = ov.name.clone().unwrap_or_default();
        let scalar = match module.types[ov.ty].inner {
            TypeInner::Scalar(s) => s,
            _ => return None,
        };
        let text = given
            .get(&name)
            .or_else(|| ov.id.and_then(|i| given.get(&i.to_string())));
        let r = match (text, ov.init) {
            (Some(t), _) => given_literal(scalar, t).map_err(|why| format!("`{t}`: {why}")),
            (None, Some(e)) => vals.get(&e).copied().and_then(to_lit).ok_or_else(|| {
                "its initializer is not an expression the emulator evaluates".into()
            }),
            (None, None) => Err("no initializer and no value".into()),
        };
        let v = r.as_ref().ok().and_then(to_v);
        out.values.insert(o, r);
        v
    };
    for (h, e) in module.global_expressions.iter() {
        let v = match *e {
            Expression::Literal(l) => to_v(&l),
            Expression::Constant(c) => vals.get(&module.constants[c].init).copied(),
            Expression::Override(o) => match ovals.get(&o) {
                Some(v) => Some(*v),
                None => {
                    let v = resolve(o, &vals, &mut out);
                    if let Some(v) = v {
                        ovals.insert(o, v);
                    }
                    v
                }
            },
            Expression::ZeroValue(t) => match module.types[t].inner {
                TypeInner::Scalar(s) if s.kind == ScalarKind::Bool => Some(V::Bool(false)),
                TypeInner::Scalar(s) if s.kind == ScalarKind::Float => Some(V::Float(0.0, s)),
                TypeInner::Scalar(s) => Some(V::Int(0, s)),
                _ => None,
            },
            Expression::Unary { op, expr } => match (op, vals.get(&expr).copied()) {
                (UnaryOperator::Negate, Some(V::Int(x, s))) => settle(V::Int(-x, s)),
                (UnaryOperator::Negate, Some(V::Float(x, s))) => Some(V::Float(-x, s)),
                (UnaryOperator::LogicalNot, Some(V::Bool(b))) => Some(V::Bool(!b)),
                (UnaryOperator::BitwiseNot, Some(V::Int(x, s))) => settle(V::Int(!x, s)),
                _ => None,
            },
            Expression::Binary { op, left, right } => {
                match (vals.get(&left).copied(), vals.get(&right).copied()) {
                    (Some(a), Some(b)) => binary(op, a, b).and_then(settle),
                    _ => None,
                }
            }
            Expression::Select {
                condition,
                accept,
                reject,
            } => match vals.get(&condition) {
                Some(V::Bool(true)) => vals.get(&accept).copied(),
                Some(V::Bool(false)) => vals.get(&reject).copied(),
                _ => None,
            },
            Expression::As {
                expr,
                kind,
                convert: Some(width),
            } => {
                let to = naga::Scalar { kind, width };
                match vals.get(&expr).copied() {
                    // WGSL § Conversion: float → integer truncates toward zero, saturating.
                    Some(V::Float(x, _)) if matches!(kind, ScalarKind::Sint | ScalarKind::Uint) => {
                        let (lo, hi) = if kind == ScalarKind::Sint {
                            (f64::from(i32::MIN), f64::from(i32::MAX))
                        } else {
                            (0.0, f64::from(u32::MAX))
                        };
                        Some(V::Int(x.trunc().clamp(lo, hi) as i128, to))
                    }
                    Some(V::Int(x, _)) if kind == ScalarKind::Float => {
                        settle(V::Float(x as f64, to))
                    }
                    Some(V::Float(x, _)) if kind == ScalarKind::Float => settle(V::Float(x, to)),
                    Some(V::Int(x, _)) if kind != ScalarKind::Bool => settle(V::Int(x, to)),
                    Some(V::Bool(b)) if kind == ScalarKind::Float => {
                        Some(V::Float(f64::from(u8::from(b)), to))
                    }
                    Some(V::Bool(b)) if kind != ScalarKind::Bool => Some(V::Int(i128::from(b), to)),
                    Some(V::Int(x, _)) => Some(V::Bool(x != 0)),
                    Some(V::Float(x, _)) => Some(V::Bool(x != 0.0)),
                    other => other,
                }
            }
            _ => None,
        };
        if let Some(v) = v {
            vals.insert(h, v);
            if let Some(l) = to_lit(v) {
                out.exprs.insert(h, l);
            }
        }
    }
    // Overrides no expression names (only their own use in a function) resolve last.
    for (o, _) in module.overrides.iter() {
        if !out.values.contains_key(&o) {
            resolve(o, &vals, &mut out);
        }
    }
    out
}

/// Override values as a user types them in one field: `NAME=VALUE` pairs (or `ID=VALUE` for
/// an `@id`) separated by spaces or commas (`WG=64 SCALE=1.5`), as `--override` takes them one
/// at a time. The values stay text: [`given_literal`] converts each to its override's type.
///
/// # Errors
/// The first entry without `=` or with an empty name or value, quoted.
pub fn parse_overrides(text: &str) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    for entry in text.split(|c: char| c.is_whitespace() || c == ',') {
        if entry.is_empty() {
            continue;
        }
        match entry.split_once('=') {
            Some((name, value)) if !name.is_empty() && !value.is_empty() => {
                out.insert(name.to_string(), value.to_string());
            }
            _ => return Err(format!("`{entry}`: an override is NAME=VALUE")),
        }
    }
    Ok(out)
}
