//! Calls: inlined device-function results, built-ins and cross-lane operations.

use super::*;
use crate::kernel::ast::*;
use crate::kernel::builtins::{self, builtin, call_op, find_kernel_op, Builtin};
use crate::kernel::exec::Executor;
use crate::kernel::trace::{LaneVal, Undef};
use crate::kernel::types::{KVal, Scalar};
use crate::lanes::LaneMask;
use crate::result::{Level, Source};

impl Executor {
    pub(crate) fn call(
        &mut self,
        w: usize,
        e: &Expr,
        name: &str,
        args: &[Expr],
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Vec<LaneVal> {
        let lanes = self.trace.launch.lanes;
        let mut out = vec![Err(Undef::idle()); lanes];
        if let Some(&slot) = self.hoisted.get(&(self.cur, e.span)) {
            // An inlined device function already ran; its result is in `slot`.
            if slot == usize::MAX {
                for l in mask.iter().filter(|&l| l < lanes) {
                    out[l] = Err(Undef::at(e.span, format!("`{name}` returns void")));
                }
                return out;
            }
            return self.read_var(w, slot, e.span, mask, cx);
        }
        if let Some(out) = self.maca_memory_call(w, e, name, args, mask, cx) {
            return out;
        }
        match builtin(name) {
            Some(Builtin::LaneId) => {
                for l in mask.iter().filter(|&l| l < lanes) {
                    out[l] = Ok(KVal::int(Scalar::U32, l as i128));
                }
                return out;
            }
            Some(Builtin::Barrier | Builtin::NoOp) => {
                for a in args {
                    self.eval(w, a, mask, cx);
                }
                let m = format!("`{name}` has no value; call it as a statement");
                cx.note(Level::Error, e.span, m.clone(), "", None);
                for l in mask.iter().filter(|&l| l < lanes) {
                    out[l] = Err(Undef::at(e.span, m.clone()));
                }
                return out;
            }
            Some(Builtin::Atomic) => return self.atomic(w, e, name, args, mask, cx),
            Some(Builtin::Math) => {
                let vals: Vec<Vec<LaneVal>> =
                    args.iter().map(|a| self.eval(w, a, mask, cx)).collect();
                for l in mask.iter().filter(|&l| l < lanes) {
                    let lane_args: Result<Vec<KVal>, Undef> =
                        vals.iter().map(|v| v[l].clone()).collect();
                    out[l] = lane_args.and_then(|a| {
                        builtins::math_lane(name, &a, l).map_err(|m| {
                            cx.note(Level::Warning, e.span, m.clone(), "", Some(l));
                            Undef::at(e.span, m)
                        })
                    });
                }
                return out;
            }
            None => {}
        }
        let Some(spec) = find_kernel_op(self.trace.launch.dialect, name) else {
            let m = if self.functions.iter().any(|f| f == name) {
                format!("`{name}` is a function of this source: calls to other kernel functions are not supported (inline its body)")
            } else {
                format!("`{name}` is neither a kernel built-in nor an operation of any dialect the core emulates")
            };
            for a in args {
                self.eval(w, a, mask, cx);
            }
            cx.note(Level::Error, e.span, m.clone(), "", None);
            for l in mask.iter().filter(|&l| l < lanes) {
                out[l] = Err(Undef::at(e.span, m.clone()));
            }
            return out;
        };
        if spec.name != name {
            cx.note(
                Level::Info,
                e.span,
                format!(
                    "`{name}` is read as `{}` (a documented alias or misspelling)",
                    spec.name
                ),
                spec.source,
                None,
            );
        }
        let vals: Vec<Vec<LaneVal>> = args.iter().map(|a| self.eval(w, a, mask, cx)).collect();
        // A vector operand the vendor's shuffles do not take (`float4`): refused, not split.
        let refused = vals
            .iter()
            .flat_map(|a| mask.iter().filter_map(move |l| a.get(l)))
            .find_map(|v| {
                v.as_ref().ok().and_then(|v| {
                    crate::kernel::vector_types::shuffle_refusal(spec.dialect, spec.name, v)
                })
            });
        if let Some(m) = refused {
            cx.note(Level::Error, e.span, m.clone(), spec.source, None);
            for l in mask.iter().filter(|&l| l < lanes) {
                out[l] = Err(Undef::at(e.span, m.clone()));
            }
            return out;
        }
        let idents: Vec<Option<String>> = args
            .iter()
            .map(|a| match &a.kind {
                ExprKind::Ident(n) if !self.idents.contains_key(&(self.cur, a.span)) => {
                    Some(n.clone())
                }
                _ => None,
            })
            .collect();
        // Threads that returned from the kernel, or never launched (a partial warp), have exited.
        let exited = self.warps.get(w).map_or(LaneMask::default(), |warp| {
            (0..lanes)
                .filter(|&l| {
                    !warp.exists.contains(l)
                        || matches!(warp.status.get(l), Some(LaneStatus::Returned))
                })
                .fold(LaneMask::default(), LaneMask::with)
        });
        let mut outcome = call_op(
            spec,
            lanes,
            mask,
            exited,
            &vals,
            &idents,
            (e.span.line, e.span.col),
        );
        // Say which line left a source lane inactive.
        for step in &mut outcome.steps {
            for (i, r) in step.results.iter_mut().enumerate() {
                if r.source != Source::Undefined {
                    continue;
                }
                let Some(j) = r.from else { continue };
                if mask.contains(j) {
                    continue;
                }
                if let Some(line) = self.warps[w].why_inactive(j) {
                    let extra = format!(" — lane {j} is not executing this call: it took the other path at line {line}");
                    if let Some(why) = &mut r.why {
                        why.push_str(&extra);
                    }
                    if let Some(Err(u)) = outcome.values.get_mut(i) {
                        u.why.push_str(&extra);
                    }
                    cx.note(
                        Level::Warning,
                        e.span,
                        format!("{} reads lanes that are inactive here (they took the other path at line {line}): those results are undefined", spec.name),
                        spec.source,
                        Some(i),
                    );
                }
            }
        }
        for (level, message, rule) in outcome.diagnostics {
            cx.note(level, e.span, message, &rule, None);
        }
        cx.ops.extend(outcome.steps);
        for l in mask.iter().filter(|&l| l < lanes) {
            out[l] = outcome
                .values
                .get(l)
                .cloned()
                .unwrap_or_else(|| Err(Undef::idle()));
        }
        out
    }
}
