//! A cross-lane op's `int` operand (a vote's predicate: `__ballot_sync(unsigned mask, int
//! predicate)`, `__any_sync`, `__all_sync`) given a float: C++ converts the argument to the
//! parameter's type before the call (C++17 [expr.call]/4), and a float converts to `int` by
//! truncation toward zero, undefined when the truncated value does not fit (C++17
//! [conv.fpint]/1). So `-3.0f` is the predicate -3, true; the float is never converted to the
//! op's unsigned result type, for which a negative float would be undefined.

use crate::ast::Span;
use crate::trace::{LaneVal, Undef};
use crate::types::{Scalar, ValTy};
use crosslane_core::op::OpSpec;

/// The operand row (argument `k` of `spec`) with each float lane converted to `int`, when the
/// operand's C type is `int`, the op lists no float type, and some lane holds a float; `None` otherwise (the row is used
/// as it is). A lane whose value does not fit is undefined with the rule's reason.
pub(crate) fn int_predicate(
    spec: &OpSpec,
    k: Option<usize>,
    operand: &[LaneVal],
    (line, col): (u32, u32),
) -> Option<Vec<LaneVal>> {
    // An op that lists a float type (`__hip_ds_swizzlef`) takes the float as it is.
    let int_param = k
        .and_then(|k| spec.args.get(k))
        .is_some_and(|a| a.ty == "int")
        && !spec.types.iter().any(|t| t.is_float());
    let float = |v: &LaneVal| {
        v.as_ref()
            .is_ok_and(|x| x.val_ty().lanes == 1 && x.val_ty().scalar.is_float())
    };
    if !int_param || !operand.iter().any(float) {
        return None;
    }
    Some(
        operand
            .iter()
            .map(|v| match v {
                Ok(x) if float(v) => x.convert(ValTy::scalar(Scalar::I32)).map_err(|f| {
                    Undef::at(
                        Span { line, col },
                        format!(
                            "{}'s predicate is an int: converting the float to it is undefined \
                             ({})",
                            spec.name, f.message
                        ),
                    )
                }),
                other => other.clone(),
            })
            .collect(),
    )
}
