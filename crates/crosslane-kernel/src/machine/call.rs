//! Calls: inlined device-function results, built-ins and cross-lane operations.

use super::*;
use crate::ast::*;
use crate::builtins::{self, arg_slots, builtin, call_op, find_kernel_op, Builtin, Slot};
use crate::exec::Executor;
use crate::mathlib;
use crate::trace::{LaneVal, Undef};
use crate::types::{KVal, Scalar};
use crosslane_core::args::Role;
use crosslane_core::lanes::LaneMask;
use crosslane_core::result::{Level, Source};

impl Executor {
    /// `__crosslane_valid_only(value, keep, "reason")` ([`builtins::VALID_ONLY`]): the value in
    /// the lanes whose `keep` is true; elsewhere undefined with the reason (the text the
    /// lowering wrote: which vendor rule leaves the result undefined there). `keep` undefined
    /// makes the lane's result undefined with `keep`'s own reason. With a fourth argument
    /// (`__crosslane_valid_only(value, keep, "reason", index)`, the WGSL lowering's run-time
    /// index into a value array), each lane's index value is named after the reason and the
    /// first such lane is reported as a warning at the access (WGSL spec, "Out-of-Bounds
    /// Access": the result is an indeterminate value, so the emulator picks none). A string
    /// literal as the fourth argument (`__crosslane_valid_only(value, keep, "reason",
    /// "source")`) reports the reason as a warning citing `source` in the lanes it leaves
    /// undefined (crosslane's `<mma.h>`: a tf32 input that was not converted).
    fn valid_only(
        &mut self,
        w: usize,
        e: &Expr,
        args: &[Expr],
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Vec<LaneVal> {
        let lanes = self.trace.launch.lanes;
        let mut out = vec![Err(Undef::idle()); lanes];
        let (Some(v), Some(keep)) = (args.first(), args.get(1)) else {
            return out;
        };
        let why = match args.get(2).map(|a| &a.kind) {
            Some(ExprKind::Str(s)) => s.clone(),
            _ => "the vendor defines this result in some threads only".to_string(),
        };
        let vals = self.eval(w, v, mask, cx);
        let keeps = self.eval(w, keep, mask, cx);
        let warn_source = match args.get(3).map(|a| &a.kind) {
            Some(ExprKind::Str(s)) => Some(s.clone()),
            _ => None,
        };
        let index = args
            .get(3)
            .filter(|_| warn_source.is_none())
            .map(|i| self.eval(w, i, mask, cx));
        for l in mask.iter().filter(|&l| l < lanes) {
            out[l] = match keeps.get(l) {
                Some(Ok(k)) if k.as_int().is_some_and(|k| k != 0) => {
                    vals.get(l).cloned().unwrap_or(Err(Undef::idle()))
                }
                Some(Ok(_)) => match index.as_ref().and_then(|v| v.get(l)) {
                    Some(Ok(i)) => {
                        let shown = i
                            .as_int()
                            .map_or_else(|| "?".to_string(), |n| n.to_string());
                        let m = format!("{why} (e.g. the index is {shown})");
                        cx.note(Level::Warning, e.span, m.clone(), "", Some(l));
                        Err(Undef::at(e.span, m))
                    }
                    _ => {
                        if let Some(source) = &warn_source {
                            cx.note(Level::Warning, e.span, why.clone(), source, Some(l));
                        }
                        Err(Undef::at(e.span, why.clone()))
                    }
                },
                Some(Err(u)) => Err(u.clone()),
                None => Err(Undef::idle()),
            };
        }
        out
    }

    /// A cross-lane op's value operand (`__shfl_sync`'s `var`, a ballot's predicate, DPP's
    /// `old`), evaluated in every lane. A lane's own operand that no lane reads is not a use
    /// ([dcl.init]/12 makes *using* an indeterminate value undefined): the CUDA C++
    /// Programming Guide's broadcast (`if (laneId == 0) value = arg; value =
    /// __shfl_sync(0xffffffff, value, 0);`) reads only lane 0's. So an uninitialized variable
    /// read here notes nothing; its lanes' operands stay undefined with the reason, and the op
    /// makes a result undefined (citing that reason) only in the lanes that read one. Only a
    /// plain value (names, literals, casts and arithmetic of them) is exempt: an index, a
    /// call or an assignment inside the operand reads as anywhere else.
    pub(crate) fn op_operand(
        &mut self,
        w: usize,
        a: &Expr,
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Vec<LaneVal> {
        fn plain(e: &Expr, depth: u32) -> bool {
            depth < 16
                && match &e.kind {
                    ExprKind::Ident(_)
                    | ExprKind::Int { .. }
                    | ExprKind::Float { .. }
                    | ExprKind::Bool(_) => true,
                    ExprKind::Cast(_, x) | ExprKind::Unary(_, x) => plain(x, depth + 1),
                    ExprKind::Binary(_, x, y) => plain(x, depth + 1) && plain(y, depth + 1),
                    _ => false,
                }
        }
        if !plain(a, 0) || cx.operand_read {
            return self.eval(w, a, mask, cx);
        }
        cx.operand_read = true;
        let vals = self.eval(w, a, mask, cx);
        cx.operand_read = false;
        vals
    }

    /// The warning [`Executor::op_operand`] held back, where a lane's result does read an
    /// uninitialized operand: the lane it reads (`from`), or, for an op that combines every
    /// lane's operand (a ballot), any active lane whose operand is uninitialized. Noted per
    /// destination lane, at the call, with the variable's reason.
    #[allow(clippy::too_many_arguments)]
    fn note_uninit_reads(
        &self,
        spec: &crosslane_core::op::OpSpec,
        span: Span,
        args: &[Expr],
        vals: &[Vec<LaneVal>],
        mask: LaneMask,
        outcome: &builtins::CallOutcome,
        cx: &mut StepCtx,
    ) {
        let lanes = self.trace.launch.lanes;
        let operands: Vec<(usize, &Vec<LaneVal>)> = vals
            .iter()
            .enumerate()
            .filter(|(k, _)| {
                spec.args
                    .get(*k)
                    .is_some_and(|x| matches!(x.role, Role::Operand | Role::Old | Role::Data))
            })
            .collect();
        let uninit = |j: usize| {
            operands.iter().find_map(|(k, v)| match v.get(j) {
                Some(Err(u)) if u.uninit => Some((*k, u.why.clone())),
                _ => None,
            })
        };
        if !mask
            .iter()
            .filter(|&l| l < lanes)
            .any(|j| uninit(j).is_some())
        {
            return;
        }
        let step = (outcome.steps.len() == 1)
            .then(|| outcome.steps.first())
            .flatten();
        // An op whose results name no single source lane (a ballot, a vote, a reduction)
        // reads every lane's operand: each uninitialized one is a use, warned as anywhere
        // else, whatever the op made of it.
        let combining = step.is_none_or(|s| {
            mask.iter()
                .filter(|&l| l < lanes)
                .any(|l| s.results.get(l).is_some_and(|r| r.from.is_none()))
        });
        if combining {
            for j in mask.iter().filter(|&l| l < lanes) {
                let Some((k, why)) = uninit(j) else { continue };
                let name = match args.get(k).map(|a| &a.kind) {
                    Some(ExprKind::Ident(n)) => n.clone(),
                    _ => "the operand".to_string(),
                };
                cx.note(
                    Level::Warning,
                    args.get(k).map_or(span, |a| a.span),
                    format!("`{name}` is read uninitialized ({why}): its value is undefined"),
                    "ISO C++17 [dcl.init]/12; seed 002 §3.8.3 example",
                    Some(j),
                );
            }
            return;
        }
        for i in mask.iter().filter(|&l| l < lanes) {
            let Some(Err(res)) = outcome.values.get(i) else {
                continue;
            };
            // The lane read (`from`), or any lane for an op that combines them all; the
            // result's own reason must carry that operand's, so another cause of an
            // undefined result is never blamed on it.
            let from = step.and_then(|s| s.results.get(i)).and_then(|r| r.from);
            let candidates: Vec<usize> = match from {
                Some(j) => vec![j],
                None => mask.iter().filter(|&l| l < lanes).collect(),
            };
            let Some((j, (k, why))) = candidates.into_iter().find_map(|j| {
                uninit(j)
                    .filter(|(_, why)| res.why.contains(why.as_str()))
                    .map(|x| (j, x))
            }) else {
                continue;
            };
            let what = match args.get(k).map(|a| &a.kind) {
                Some(ExprKind::Ident(n)) => format!("`{n}`"),
                _ => "its operand".to_string(),
            };
            cx.note(
                Level::Warning,
                span,
                format!(
                    "`{}` reads {what} where it is uninitialized: the result is undefined (e.g. \
                     lane {i} reads lane {j}'s: {why})",
                    spec.name
                ),
                "ISO C++17 [dcl.init]/12",
                Some(i),
            );
        }
    }

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
        if let Some(&slot) = self.hoisted.get(&(self.cur, e.id)) {
            // An inlined device function already ran; its result is in `slot`.
            if slot == usize::MAX {
                for l in mask.iter().filter(|&l| l < lanes) {
                    out[l] = Err(Undef::at(e.span, format!("`{name}` returns void")));
                }
                return out;
            }
            return self.read_var(w, slot, e.span, mask, cx);
        }
        if name == crate::parser::FN_NULL {
            // A call through a pointer that names no device function (null, or never given
            // one): undefined (CUDA C++ Programming Guide, "Function Pointers"; [expr.call]/1).
            let m = "calling a null function pointer is undefined (the pointer holds no \
                     `__device__` function's address in these lanes); assign it a function \
                     before the call"
                .to_string();
            cx.note(Level::Error, e.span.shown(), m.clone(), "", None);
            for l in mask.iter().filter(|&l| l < lanes) {
                out[l] = Err(Undef::at(e.span.shown(), m.clone()));
            }
            return out;
        }
        if name == builtins::VALID_ONLY {
            return self.valid_only(w, e, args, mask, cx);
        }
        if let Some(out) = self.async_copy_call(w, name, args, mask, cx) {
            return out;
        }
        if let Some(out) = self.shared_window_call(w, e, name, args, mask, cx) {
            return out;
        }
        if let Some(out) = self.maca_memory_call(w, e, name, args, mask, cx) {
            return out;
        }
        if name == super::coop_launch::GRID_IS_VALID {
            return self.grid_is_valid(mask);
        }
        if args.is_empty() {
            if let Some(out) = self.special_register(e, name, mask, cx) {
                return out;
            }
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
            Some(Builtin::Math) if mathlib::out_params(name).is_some() => {
                return self.math_out(w, e, name, args, mask, cx);
            }
            Some(Builtin::Math) if mathlib::table::reads_array(name) => {
                return self.math_array(w, e, name, args, mask, cx);
            }
            Some(Builtin::Math) if matches!(name, "nan" | "nanf") => {
                return self.math_nan(e, name, mask);
            }
            Some(Builtin::Math) => {
                let vals: Vec<Vec<LaneVal>> =
                    args.iter().map(|a| self.eval(w, a, mask, cx)).collect();
                for l in mask.iter().filter(|&l| l < lanes) {
                    let lane_args: Result<Vec<KVal>, Undef> =
                        vals.iter().map(|v| v[l].clone()).collect();
                    // Inline PTX (a `cvt`, an arithmetic instruction) is not compiled by nvcc:
                    // --use_fast_math leaves it.
                    // Nor a byte read (a union member, `memcpy`): bytes are copied, not computed.
                    let fast = self.config.use_fast_math
                        && !crate::ptx_cvt::is_cvt(name)
                        && !crate::ptx_ops::is_op(name)
                        && !crate::reinterpret::is_reinterpret(name)
                        && !crate::ext_swizzle::is_call(name);
                    let name = if fast {
                        mathlib::fast_math_name(name)
                    } else {
                        name
                    };
                    let hip = self.trace.launch.dialect == crosslane_core::op::Dialect::Hip;
                    out[l] = lane_args.and_then(|a| {
                        let a = if fast { mathlib::flush_args(a) } else { a };
                        // HIP defines the casting intrinsics as C++ conversions, undefined
                        // out of range where CUDA's clamp (mathlib::cast).
                        let hip_cast = hip
                            .then(|| {
                                mathlib::cast::call(name, &a, mathlib::cast::Rule::CxxConversion)
                            })
                            .flatten();
                        // The AMD FP8 conversions convert to the target's formats.
                        let hip_cast = hip_cast.or_else(|| {
                            mathlib::amdgcn_fp8::call(name, &a, self.trace.launch.target.as_deref())
                        });
                        // An extended vector's swizzle (crate::ext_swizzle), else the table.
                        let r = hip_cast
                            .or_else(|| crate::ext_swizzle::call(name, &a))
                            .unwrap_or_else(|| builtins::math_lane(name, &a, l));
                        // HIP's own table where it has the function's row.
                        let r = if hip {
                            r.map(|v| mathlib::hip::renote(name, &a, v))
                        } else {
                            r
                        };
                        // __tanhf: "subnormal results are not flushed even with -ftz=true".
                        let r = if fast && name != "__tanhf" {
                            r.map(mathlib::flush_denormal)
                        } else {
                            r
                        };
                        // sqrtf (and the float overload of sqrt) under -prec-sqrt=false.
                        let r = if fast && matches!(name, "sqrtf" | "sqrt") {
                            r.map(mathlib::fast_sqrt)
                        } else {
                            r
                        };
                        r.map_err(|m| {
                            // A runtime tile size the API does not allow stops the run.
                            let level = if name == builtins::DYN_TILE_SIZE {
                                Level::Error
                            } else {
                                Level::Warning
                            };
                            cx.note(level, e.span, m.clone(), "", Some(l));
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
        // Held lanes resuming at their call take the joint exchange's results (`converge`).
        if let Some(got) = self.warps[w].met.remove(&(self.cur, e.id)) {
            for l in mask.iter().filter(|&l| l < lanes) {
                out[l] = got.get(l).cloned().unwrap_or_else(|| Err(Undef::idle()));
            }
            return out;
        }
        // An out-parameter (`__match_all_sync`'s `int *pred`) is a place to store, not a value
        // the op reads: it is evaluated once, as a place.
        let mut vals: Vec<Vec<LaneVal>> = Vec::with_capacity(args.len());
        let mut out_places: Vec<Vec<Result<Place, Undef>>> = Vec::new();
        for (k, a) in args.iter().enumerate() {
            if spec.args.get(k).is_some_and(|x| x.role == Role::Out) {
                out_places.push(self.out_place(w, a, mask, cx));
                vals.push(vec![Err(Undef::idle()); lanes]);
            } else if spec
                .args
                .get(k)
                .is_some_and(|x| matches!(x.role, Role::Operand | Role::Old | Role::Data))
            {
                vals.push(self.op_operand(w, a, mask, cx));
            } else if matches!(&a.kind, ExprKind::Ident(_))
                && !self.idents.contains_key(&(self.cur, a.id))
                && spec
                    .args
                    .get(k)
                    .and_then(|x| x.param)
                    .is_some_and(|p| matches!(p.kind, crosslane_core::params::ParamKind::Text))
            {
                // A bare word in a text parameter (a DPP control `dpp8:[…]`, as
                // `parser::amdgcn_ids` lowers `__builtin_amdgcn_mov_dpp8`): the op reads the
                // word itself (`idents` below), not a value.
                vals.push(vec![Err(Undef::idle()); lanes]);
            } else {
                vals.push(self.eval(w, a, mask, cx));
            }
        }
        // The work budget ran out while the arguments were evaluated: they hold no values
        // (`Undef::idle`), so the op is not called (it would report an argument "undefined"
        // with no reason); the step ends the run with the limit.
        if self.meter.work_spent() {
            return out;
        }
        // A vector operand the vendor's shuffles do not take (`float4`): refused, not split.
        let refused = vals
            .iter()
            .flat_map(|a| mask.iter().filter_map(move |l| a.get(l)))
            .find_map(|v| {
                v.as_ref()
                    .ok()
                    .and_then(|v| crate::vector_types::shuffle_refusal(spec.dialect, spec.name, v))
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
                ExprKind::Ident(n) if !self.idents.contains_key(&(self.cur, a.id)) => {
                    Some(n.clone())
                }
                _ => None,
            })
            .collect();
        // Threads that returned from the kernel, or never launched (a partial warp), have exited;
        // the lanes that never held a thread are told apart for the notes.
        let absent = self.warps.get(w).map_or(LaneMask::default(), |warp| {
            (0..lanes)
                .filter(|&l| !warp.exists.contains(l))
                .fold(LaneMask::default(), LaneMask::with)
        });
        let exited = self.warps.get(w).map_or(LaneMask::default(), |warp| {
            (0..lanes)
                .filter(|&l| matches!(warp.status.get(l), Some(LaneStatus::Returned)))
                .fold(absent, LaneMask::with)
        });
        let exited = (exited, absent);
        self.note_sm6x_paths(w, e, spec.name, mask, &vals, cx);
        let joint = self.meet_held(w, e, spec.name, mask, &mut vals, cx);
        let run_mask = joint.unwrap_or(mask);
        let mut outcome = call_op(
            spec,
            lanes,
            run_mask,
            exited,
            &vals,
            &idents,
            (e.span.line, e.span.col),
            self.config.preprocess.arch.as_deref(),
        );
        // Say which line left a source lane inactive.
        for step in &mut outcome.steps {
            for (i, r) in step.results.iter_mut().enumerate() {
                if r.source != Source::Undefined {
                    continue;
                }
                let Some(j) = r.from else { continue };
                if run_mask.contains(j) {
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
        self.note_uninit_reads(spec, e.span, args, &vals, mask, &outcome, cx);
        carry_notes(spec, &vals, mask, &mut outcome);
        for (level, message, rule) in outcome.diagnostics {
            cx.note(level, e.span, message, &rule, None);
        }
        cx.ops.extend(outcome.steps);
        if joint.is_some() {
            self.deliver_held(w, &outcome.values);
        }
        for l in mask.iter().filter(|&l| l < lanes) {
            out[l] = outcome
                .values
                .get(l)
                .cloned()
                .unwrap_or_else(|| Err(Undef::idle()));
        }
        for places in out_places {
            self.store_pred(w, e, spec.name, &places, &out, mask, cx);
        }
        out
    }

    /// The place a pointer argument names in each lane: `&v` of a variable or element, or a
    /// pointer into memory.
    fn out_place(
        &mut self,
        w: usize,
        a: &Expr,
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Vec<Result<Place, Undef>> {
        match &a.kind {
            ExprKind::AddrOf(inner) => self.place(w, inner, mask, cx),
            _ => {
                let ptrs = self.eval(w, a, mask, cx);
                ptrs.into_iter()
                    .map(|p| {
                        let p = p?;
                        self.address(&p, &KVal::int(Scalar::I32, 0))
                            .map(|(buf, off)| Place::Mem(buf, off))
                            .map_err(|m| Undef::at(a.span, m))
                    })
                    .collect()
            }
        }
    }

    /// Stores `__match_all_sync`'s `*pred` in each active lane (CUDA C++ Programming Guide,
    /// "Warp Match Functions": "Predicate pred is set to true if all threads in mask have the
    /// same value of value; otherwise the predicate is set to false", and the return is mask
    /// or 0): 1 where the lane's result is nonzero (mask, which holds the calling lane), 0
    /// where it is 0, undefined where the result is undefined, with its reason.
    #[allow(clippy::too_many_arguments)]
    fn store_pred(
        &mut self,
        w: usize,
        e: &Expr,
        name: &str,
        places: &[Result<Place, Undef>],
        results: &[LaneVal],
        mask: LaneMask,
        cx: &mut StepCtx,
    ) {
        let lanes = self.trace.launch.lanes;
        for l in mask.iter().filter(|&l| l < lanes) {
            let Some(result) = results.get(l) else {
                continue;
            };
            let pred = result
                .clone()
                .map(|v| KVal::int(Scalar::I32, i128::from(v.as_int().is_some_and(|n| n != 0))));
            match places.get(l) {
                Some(Ok(p)) => {
                    // A failed store notes its own reason.
                    let _ = self.write_place(w, *p, l, pred, e.span, cx);
                }
                Some(Err(u)) => cx.note(
                    Level::Warning,
                    e.span,
                    format!("`{name}`: pred: {}", u.why),
                    "",
                    Some(l),
                ),
                None => {}
            }
        }
    }

    /// A math function that stores through pointer arguments (`sincosf(x, &s, &c)`,
    /// `frexpf(x, &e)`): the other arguments are evaluated, each pointer argument is a place
    /// (`&v` of a variable, or a pointer into memory), and every active lane stores its
    /// results there, converted to the place's type as an assignment converts.
    fn math_out(
        &mut self,
        w: usize,
        e: &Expr,
        name: &str,
        args: &[Expr],
        mask: LaneMask,
        cx: &mut StepCtx,
    ) -> Vec<LaneVal> {
        let lanes = self.trace.launch.lanes;
        let outs = mathlib::out_params(name).unwrap_or(&[]);
        let mut out = vec![Err(Undef::idle()); lanes];
        let mut vals: Vec<Vec<LaneVal>> = Vec::with_capacity(args.len());
        let mut places: Vec<Option<Vec<Result<Place, Undef>>>> = Vec::with_capacity(args.len());
        for (k, a) in args.iter().enumerate() {
            if !outs.contains(&k) {
                vals.push(self.eval(w, a, mask, cx));
                places.push(None);
                continue;
            }
            vals.push(vec![Ok(KVal::int(Scalar::I32, 0)); lanes]);
            let p = self.out_place(w, a, mask, cx);
            places.push(Some(p));
        }
        if let Some(&k) = outs.iter().find(|&&k| k >= args.len()) {
            let m = format!("`{name}` takes a pointer as argument {}", k + 1);
            cx.note(Level::Error, e.span, m.clone(), "", None);
            for l in mask.iter().filter(|&l| l < lanes) {
                out[l] = Err(Undef::at(e.span, m.clone()));
            }
            return out;
        }
        for l in mask.iter().filter(|&l| l < lanes) {
            let lane_args: Result<Vec<KVal>, Undef> = vals.iter().map(|v| v[l].clone()).collect();
            let r = lane_args.and_then(|a| match mathlib::call(name, &a) {
                Some(Ok(c)) => Ok(c),
                Some(Err(m)) => Err(Undef::at(e.span, m)),
                None => Err(Undef::at(
                    e.span,
                    format!("`{name}` is not a math function"),
                )),
            });
            match r {
                Ok(c) => {
                    for (k, v) in c.stores {
                        let place = places
                            .get(k)
                            .and_then(Option::as_ref)
                            .and_then(|p| p.get(l).cloned());
                        match place {
                            Some(Ok(p)) => {
                                // A failed store notes its own reason.
                                let _ = self.write_place(w, p, l, Ok(v), e.span, cx);
                            }
                            Some(Err(u)) => {
                                cx.note(
                                    Level::Warning,
                                    e.span,
                                    format!("`{name}`: {}", u.why),
                                    "",
                                    Some(l),
                                );
                            }
                            None => {}
                        }
                    }
                    out[l] = Ok(c.value);
                }
                Err(u) => {
                    cx.note(Level::Warning, e.span, u.why.clone(), "", Some(l));
                    out[l] = Err(u);
                }
            }
        }
        out
    }
}

/// A cross-lane operation moves values: a result read from one lane keeps the accuracy note
/// that lane's operand carried (a shuffle of `expf`'s value is still `expf`'s value); a
/// result computed from several lanes (a reduction) takes the widest note among the active
/// lanes' operands ([`mathlib`]).
fn carry_notes(
    spec: &crosslane_core::op::OpSpec,
    vals: &[Vec<LaneVal>],
    mask: LaneMask,
    outcome: &mut builtins::CallOutcome,
) {
    let Some(src) = arg_slots(spec, vals.len())
        .iter()
        .position(|s| *s == Slot::Operand)
        .and_then(|k| vals.get(k))
    else {
        return;
    };
    let note_of = |j: usize| {
        src.get(j)
            .and_then(|v| v.as_ref().ok())
            .and_then(KVal::approx)
    };
    let widest = mask
        .iter()
        .filter_map(note_of)
        .reduce(crate::accuracy::Approx::wider);
    if widest.is_none() || outcome.steps.len() != 1 {
        return;
    }
    let Some(step) = outcome.steps.first() else {
        return;
    };
    for (l, r) in step.results.iter().enumerate() {
        let note = match r.from {
            Some(j) => note_of(j),
            None => widest,
        };
        if let (Some(n), Some(Ok(v))) = (note, outcome.values.get_mut(l)) {
            *v = v.clone().with_approx(Some(n));
        }
    }
}
