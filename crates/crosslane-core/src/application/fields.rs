//! Every field error of a request at once, and the step of what is valid: a form shows each
//! wrong field's message beside that field and still applies the fields that are right
//! (with a bad delta, a bad width or value list must get its own message too).
//!
//! [`OpRequest::run`] stops at the first error (the CLI reports that one). Here each field in
//! error is replaced, one after the other, by its last valid text (`fallback`) or else by its
//! default, and the request runs again, so an error the op's own run finds (a width that is not
//! a power of two) is found even while another field is wrong.

use crate::error::InputError;
use crate::op::{find_op, Dialect};
use crate::request::OpRequest;
use crate::trace::Step;

/// What [`check_fields`] found.
#[derive(Clone, Debug, Default)]
pub struct FieldCheck {
    /// One error per field, in the order found, each with its field's name as
    /// [`InputError::field`] (a vendor parameter name, or `lanes`, `active`, `exited`,
    /// `values`, `type`, `dialect`, `op`).
    pub errors: Vec<InputError>,
    /// The step of `req` with every field in [`FieldCheck::errors`] replaced (its last valid
    /// text, else its default); `None` when even that does not run (a dialect or op that does
    /// not exist).
    pub step: Option<Step>,
}

/// Runs `req` and collects every field's error (see the module doc). `fallback` is the last
/// request that ran; its texts stand in for the fields in error (only when it names the same
/// dialect and op).
pub fn check_fields(req: &OpRequest, fallback: Option<&OpRequest>) -> FieldCheck {
    let fallback = fallback.filter(|f| f.dialect == req.dialect && f.op == req.op);
    let mut current = req.clone();
    let mut out = FieldCheck::default();
    // Each field is replaced at most twice (fallback, then default): the loop ends.
    let mut replaced: Vec<(String, u8)> = Vec::new();
    let bound = 2 * (6 + req.params.len() + fallback.map_or(0, |f| f.params.len())) + 2;
    for _ in 0..bound {
        let err = match current.run() {
            Ok(step) => {
                out.step = Some(step);
                return out;
            }
            Err(e) => e,
        };
        if matches!(err.field.as_str(), "dialect" | "op") {
            out.errors.push(err);
            return out;
        }
        let stage = match replaced.iter_mut().find(|(f, _)| *f == err.field) {
            Some((_, s)) => {
                *s += 1;
                *s
            }
            None => {
                replaced.push((err.field.clone(), 0));
                out.errors.push(err.clone());
                0
            }
        };
        let source = if stage == 0 { fallback } else { None };
        if stage > 1 || !replace(&mut current, &err.field, source) {
            return out;
        }
    }
    out
}

/// Puts `source`'s text of `field` (or the empty text, the default) into `req`. Returns false
/// where `field` is not a field of `req`'s op.
fn replace(req: &mut OpRequest, field: &str, source: Option<&OpRequest>) -> bool {
    let text = |f: fn(&OpRequest) -> &String| source.map(|s| f(s).clone()).unwrap_or_default();
    match field {
        "lanes" => req.lanes = text(|r| &r.lanes),
        "active" => req.active = text(|r| &r.active),
        "exited" => req.exited = text(|r| &r.exited),
        "values" => req.values = text(|r| &r.values),
        "type" => req.ty = text(|r| &r.ty),
        _ => {
            let Some(spec) = Dialect::parse(&req.dialect)
                .ok()
                .and_then(|d| find_op(d, &req.op).ok())
            else {
                return false;
            };
            // The field is the parameter's vendor name; the request may key it in another
            // spelling (`OpSpec::param` accepts both).
            let same = |k: &String| {
                k == field
                    || spec
                        .param(k)
                        .is_some_and(|p| spec.param(field).is_some_and(|q| q.name == p.name))
            };
            let keys: Vec<String> = req.params.keys().filter(|k| same(k)).cloned().collect();
            if keys.is_empty() {
                return false;
            }
            for k in keys {
                req.params.remove(&k);
            }
            if let Some((k, v)) = source.and_then(|s| s.params.iter().find(|(k, _)| same(k))) {
                req.params.insert(k.clone(), v.clone());
            }
        }
    }
    true
}
