//! Shared operand plumbing of the MACA builtins written here: typed per-lane operands given as
//! text (a `--values`-style spec: `lane`, `lane+K`, `lane*K`, or a comma list) and the per-lane
//! frame that leaves lanes outside the active mask inactive.

use crate::error::InputError;
use crate::op::OpInput;
use crate::result::LaneResult;
use crate::value::{Value, ValueType, ValuesSpec};

/// A per-lane operand of type `ty` from the text parameter `name` (`lane`, `lane+K`, `lane*K`,
/// one value broadcast, or exactly one item per lane). Used where the operand's type differs
/// from the op's value type (mad_wide's 64-bit `c`, memory addresses, compare operands).
///
/// # Errors
/// [`InputError`] on `name` (or `name[i]`) when the text does not parse or has the wrong length.
pub fn lane_values(input: &OpInput, name: &str, ty: ValueType) -> Result<Vec<Value>, InputError> {
    let text = input.params.text(name)?;
    let rename = |e: InputError| InputError {
        field: e.field.replacen("values", name, 1),
        message: e.message,
    };
    let spec = ValuesSpec::parse(text).map_err(rename)?;
    // One item is a broadcast, like every other per-lane parameter.
    let spec = match spec {
        ValuesSpec::List(items) if items.len() == 1 => {
            ValuesSpec::List(vec![items[0].clone(); input.lanes])
        }
        other => other,
    };
    spec.materialize(ty, input.lanes).map_err(rename)
}

/// Runs `f` for every active lane; lanes outside the active mask compute nothing.
///
/// # Errors
/// The first error `f` returns.
pub fn per_lane(
    input: &OpInput,
    mut f: impl FnMut(usize) -> Result<LaneResult, InputError>,
) -> Result<Vec<LaneResult>, InputError> {
    (0..input.lanes)
        .map(|i| {
            if input.active.contains(i) {
                f(i)
            } else {
                Ok(LaneResult::inactive())
            }
        })
        .collect()
}

/// The operand row's value of lane `i`, or an input error if the row is short (it never is
/// after validation; the check keeps user input from reaching an index panic).
///
/// # Errors
/// [`InputError`] on `values`.
pub fn lane_value(values: &[Value], i: usize, field: &str) -> Result<Value, InputError> {
    values
        .get(i)
        .copied()
        .ok_or_else(|| InputError::new(field, format!("has no item for lane {i}")))
}
