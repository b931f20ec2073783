//! Atomic functions on memory: CUDA's and HIP's `atomicX` (and their `_block` / `_system`
//! variants), GCC's `__atomic_*` and clang's `__hip_atomic_*` builtins, all run by one loop
//! from the table in [`crate::atomics`].
//!
//! The order: every active lane of the warp in turn, in lane order, each reading the cell,
//! writing its new value and getting its result before the next lane starts; warps in the
//! order the executor runs them. The hardware's order is unspecified (CUDA C++ Programming
//! Guide, "Atomic Functions": the operation is performed without interference from other
//! threads, in no stated order), so this is one of the allowed outcomes, and a note says so
//! whenever several lanes take part. Scope and memory order change nothing here (see
//! [`crate::atomics`]). An atomic through a pointer of another type than the cells
//! (`atomicMax((int*)f, …)` on a float buffer) acts on the bytes it covers
//! ([`super::atomic_view`]).

use super::*;
use crate::ast::*;
use crate::atomics::{self, AtomicForm, AtomicOp, Gives};
use crate::exec::Executor;
use crate::trace::{LaneVal, MemWrite, Undef};
use crate::types::{binary, unary, BinOp, KVal, Scalar, UnOp, ValTy};
use crosslane_core::lanes::LaneMask;
use crosslane_core::result::Level;

/// One lane's atomic, once its cell is known: the cell's old value, what to store there
/// (`None`: nothing is written) and what to write back through a compare-exchange's
/// `expected` pointer.
struct LaneAtomic {
    buf: usize,
    off: i64,
    /// The bytes the atomic acts on when its pointer views the cells as another type.
    view: Option<super::atomic_view::AtomicView>,
    old: LaneVal,
    new: Option<LaneVal>,
    expected_back: Option<(usize, i64, LaneVal)>,
    result: LaneVal,
}

impl Executor {
    /// An atomic call `name(args)` in the active lanes `mask` of warp `w`: every lane in turn
    /// (lane order) reads the cell, writes the new value and gets its result, as the module
    /// says. A memory order or scope that is not a constant the vendor accepts gives every
    /// lane an undefined value with an error (the name check refuses it before the run; this
    /// is the same rule for a program built without that check).
    pub(crate) fn atomic(
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
        let fail = |cx: &mut StepCtx, out: &mut Vec<LaneVal>, m: String| {
            cx.note(Level::Error, e.span, m.clone(), "", None);
            for l in mask.iter().filter(|&l| l < lanes) {
                out[l] = Err(Undef::at(e.span, m.clone()));
            }
        };
        let Some(form) = atomics::form(name) else {
            fail(cx, &mut out, format!("`{name}` is not an atomic function"));
            return out;
        };
        if let Err((_, m)) = check_call(name, &form, e.span, args) {
            fail(cx, &mut out, m);
            return out;
        }
        let vals: Vec<Vec<LaneVal>> = form
            .value_positions()
            .map(|k| self.eval(w, &args[k], mask, cx))
            .collect();
        if let Some(k) = form.weak {
            self.eval(w, &args[k], mask, cx);
        }
        let rule = atomic_rule(self.trace.launch.dialect);
        // GCC's builtins in a CUDA run: clang's CUDA compiles them, nvcc does not (nvcc 13.0,
        // run on an NVIDIA H200: "calling a __host__ function ("__atomic_fetch_add_4") from a
        // __global__ function is not allowed"; `__atomic_fetch_min/max` are undefined there).
        // The run follows clang, with the warning.
        if self.trace.launch.dialect == crosslane_core::op::Dialect::Cuda
            && name.starts_with("__atomic_")
        {
            cx.note(
                Level::Warning,
                e.span,
                format!("`{name}` is a GCC/clang builtin: clang compiles it in CUDA device code, nvcc refuses it (\"calling a __host__ function from a __global__ function\"); run here as clang does. For nvcc write `atomicAdd`, `atomicExch`, … or `cuda::atomic_ref`"),
                "GCC manual, Built-in Functions for Memory Model Aware Atomic Operations",
                None,
            );
        }
        if mask.count() > 1 && form.op != AtomicOp::Load {
            cx.note(
                Level::Info,
                e.span,
                format!("`{name}` from several lanes: applied here in lane order; the hardware order is unspecified (each warp applies its lanes in turn, warps in the order they run; each lane gets the value before its own)"),
                rule,
                None,
            );
        }
        for l in mask.iter().filter(|&l| l < lanes) {
            let lane_args: Vec<LaneVal> = vals.iter().map(|v| v[l].clone()).collect();
            match self.atomic_lane(name, &form, &lane_args, e.span, l, rule, cx) {
                Ok(a) => {
                    self.race_atomic(w, a.buf, a.off, l);
                    if let (Some(new), Some(view)) = (a.new.clone(), a.view) {
                        let stored = self.atomic_store_view(w, (a.buf, view), l, new, e.span, cx);
                        if form.gives == Gives::New {
                            out[l] = stored.map_err(|u| {
                                Undef::at(
                                    e.span,
                                    format!("`{name}`: the new value is undefined ({})", u.why),
                                )
                            });
                        }
                    } else if let Some(new) = a.new {
                        let elem = self.trace.memory.buffers.get(a.buf).map(|b| b.elem);
                        let stored = match (new, elem) {
                            (Ok(x), Some(t)) => x.convert(t).ok(),
                            _ => None,
                        };
                        // A failed compare-and-swap stores the value already there: no change
                        // for the spin-loop watch (`machine/spin.rs`).
                        if let (Ok(o), Some(x), Some(t)) = (&a.old, &stored, elem) {
                            if o.clone().convert(t).ok().as_ref() == Some(x) {
                                cx.same_writes += 1;
                            }
                        }
                        if self
                            .trace
                            .memory
                            .write(a.buf, a.off, stored.clone())
                            .is_ok()
                        {
                            cx.writes.push(MemWrite {
                                buffer: a.buf,
                                index: a.off as usize,
                                value: stored.clone(),
                                lane: l,
                            });
                        }
                        if form.gives == Gives::New {
                            out[l] = stored.ok_or_else(|| {
                                Undef::at(e.span, format!("`{name}`: the new value is undefined"))
                            });
                        }
                    }
                    if let Some((buf, off, v)) = a.expected_back {
                        let _ = self.write_place(w, Place::Mem(buf, off), l, v, e.span, cx);
                    }
                    let cell = a
                        .view
                        .map(|(_, t)| t)
                        .or_else(|| self.trace.memory.buffers.get(a.buf).map(|b| b.elem));
                    match form.gives {
                        Gives::Old if name == "asc_atomic_add" && cell.is_some_and(half_cell) => {
                            // CANN asc-devkit SIMT API reference, asc_atomic_add, 返回值说明:
                            // "half和bfloat16_t类型的返回值不准确，禁止直接使用" — the cell is
                            // updated, the value returned is not the old one.
                            out[l] = Err(Undef::at(
                                e.span,
                                "asc_atomic_add on a half or bfloat16_t cell: its return value is inaccurate (\"不准确，禁止直接使用\"; half2 and bfloat16x2_t are exact)".to_string(),
                            ));
                        }
                        Gives::Old => out[l] = a.old,
                        Gives::Success => out[l] = a.result,
                        Gives::Nothing => {
                            out[l] = Err(Undef::at(
                                e.span,
                                format!("`{name}` returns nothing (void)"),
                            ))
                        }
                        Gives::New => {}
                    }
                }
                Err(u) => {
                    cx.note(
                        Level::Warning,
                        e.span,
                        format!("`{name}`: {}", u.why),
                        rule,
                        Some(l),
                    );
                    out[l] = Err(u);
                }
            }
        }
        out
    }

    /// Lane `l`'s atomic with its value arguments `vals` (the pointer first, then the
    /// operands, as [`AtomicForm::value_positions`] lists them).
    #[allow(clippy::too_many_arguments)]
    fn atomic_lane(
        &mut self,
        name: &str,
        form: &AtomicForm,
        vals: &[LaneVal],
        span: Span,
        l: usize,
        rule: &'static str,
        cx: &mut StepCtx,
    ) -> Result<LaneAtomic, Undef> {
        let arg = |k: usize| vals.get(k).cloned().unwrap_or_else(|| Err(Undef::idle()));
        let p = arg(0)?;
        let (buf, off) = self
            .address(&p, &KVal::int(Scalar::I32, 0))
            .map_err(|m| Undef::at(span, m))?;
        let elem = self.trace.memory.buffers.get(buf).map(|b| b.elem);
        // An atomic through a pointer cast to another element type (`(int*)f` for vLLM's
        // float max, a `char` shared array used as `float*`) acts on the bytes the pointer
        // covers, as the pointer's type ([`super::atomic_view`]).
        let view = self
            .atomic_view(name, &p, buf, off)
            .map_err(|m| super::atomic_view::refuse(span, m, rule, cx))?;
        let elem = view.map(|(_, t)| t).or(elem);
        // An `int*` over `unsigned` cells (or the reverse) of one width has no view: the
        // conversion is the reinterpretation ([conv.integral]/2). The operation is still the
        // pointer's (`atomicMax(int*, int)` compares signed: CUDA C++ Programming Guide,
        // Atomic Functions, "atomicMax"; WGSL § Atomic Read-modify-write, `atomicMax` on an
        // `atomic<i32>` member of a buffer held as `u32` bits), so the old value is read as
        // the pointer's type; the new one is stored converted back to the cell's.
        let as_ptr = match (&p, view, elem) {
            (KVal::Ptr { elem: pe, .. }, None, Some(c))
                if pe.lanes == 1
                    && c.lanes == 1
                    && *pe != c
                    && !pe.scalar.is_float()
                    && !c.scalar.is_float()
                    && pe.scalar.bits() == c.scalar.bits() =>
            {
                Some(*pe)
            }
            _ => None,
        };
        let elem = as_ptr.or(elem);
        // `atomicInc` / `atomicDec` exist for `unsigned int*` only (CUDA C++ Programming
        // Guide, Atomic Functions; HIP likewise), Ascend C's `asc_atomic_inc` / `_dec` for
        // `uint32_t*` and `uint64_t*` (CANN asc-devkit SIMT API reference, their prototypes):
        // another cell type names no function, so nothing is read or written.
        let ascend = atomics::ascend_op(name).is_some();
        let counts = |t: ValTy| {
            t == ValTy::scalar(Scalar::U32) || (ascend && t == ValTy::scalar(Scalar::U64))
        };
        if matches!(form.op, AtomicOp::Inc | AtomicOp::Dec) && !elem.is_some_and(counts) {
            return Err(Undef::at(
                span,
                format!(
                    "takes {} ({rule}); this cell holds `{}`",
                    if ascend {
                        "a `uint32_t*` or `uint64_t*`"
                    } else {
                        "an `unsigned int*`"
                    },
                    elem.map_or_else(|| "nothing".to_string(), |t| t.name())
                ),
            ));
        }
        let mut lane = LaneAtomic {
            buf,
            off,
            view,
            old: Err(Undef::idle()),
            new: None,
            expected_back: None,
            result: Err(Undef::idle()),
        };
        match form.op {
            // A store reads nothing: a cell never written is no fault.
            AtomicOp::Store => {
                lane.new = Some(arg(1));
                return Ok(lane);
            }
            AtomicOp::Load => {
                lane.old = self.atomic_read((buf, off), view, span, l, cx);
                return Ok(lane);
            }
            _ => {}
        }
        let old = self.atomic_read((buf, off), view, span, l, cx);
        let old = match as_ptr {
            Some(t) => old.and_then(|o| {
                o.convert(t)
                    .map_err(|_| Undef::at(span, format!("the cell has no `{}` value", t.name())))
            }),
            None => old,
        };
        lane.old = old.clone();
        if form.op == AtomicOp::CompareExchange {
            self.compare_exchange(&mut lane, &arg(1), arg(2), elem, span, l, cx)?;
            return Ok(lane);
        }
        let v = match arg(1) {
            Ok(v) => v,
            // The read-modify-write still happens: with an undefined operand the cell's new
            // value is undefined too (never the old value kept, never dropped).
            Err(u) => {
                cx.note(
                    Level::Warning,
                    span,
                    format!("`{name}`: {}; the cell's new value is undefined", u.why),
                    rule,
                    Some(l),
                );
                lane.new = Some(Err(u));
                return Ok(lane);
            }
        };
        lane.new = Some(match (&old, form.op) {
            (_, AtomicOp::Exch) => Ok(v),
            (Err(u), _) => Err(u.clone()),
            (Ok(o), AtomicOp::Cas) => {
                let val = arg(2)?;
                let same = binary(BinOp::Eq, o, &v).ok().and_then(|b| b.truthy());
                Ok(if same == Some(true) { val } else { o.clone() })
            }
            (Ok(o), AtomicOp::Inc | AtomicOp::Dec) => {
                let wide = elem == Some(ValTy::scalar(Scalar::U64));
                wrap_count(form.op == AtomicOp::Inc, wide, name, o, &v, span)
            }
            (Ok(o), op) => combine(op, o, &v, span),
        });
        Ok(lane)
    }

    /// A compare-exchange's lane (GCC manual, `__atomic_compare_exchange_n`; clang's
    /// `__hip_atomic_compare_exchange_strong/weak` the same): when the cell's bits equal
    /// `*expected`'s (the expected value converted to the cell's type), `desired` is stored
    /// and the result is `true`; otherwise the cell is only read, its value is written to
    /// `*expected` and the result is `false`. Bits, not `==`: the builtins compare the
    /// objects' contents, so `-0.0` and `0.0` differ and a NaN equals its own bits. An
    /// undefined cell or expected value leaves both the cell and `*expected` undefined (either
    /// branch may have run).
    #[allow(clippy::too_many_arguments)]
    fn compare_exchange(
        &mut self,
        lane: &mut LaneAtomic,
        expected_ptr: &LaneVal,
        desired: LaneVal,
        elem: Option<ValTy>,
        span: Span,
        l: usize,
        cx: &mut StepCtx,
    ) -> Result<(), Undef> {
        let ep = expected_ptr.clone()?;
        let (ebuf, eoff) = self
            .address(&ep, &KVal::int(Scalar::I32, 0))
            .map_err(|m| Undef::at(span, format!("the `expected` pointer: {m}")))?;
        let expected = self.load(ebuf, eoff, span, l, cx);
        let bits = |v: &KVal| {
            elem.and_then(|t| v.convert(t).ok())
                .and_then(|c| c.to_core())
        };
        let same = match (&lane.old, &expected) {
            (Ok(o), Ok(x)) => match (bits(o), bits(x)) {
                (Some(a), Some(b)) => Ok(a.bits == b.bits),
                _ => Err(Undef::at(span, "the values have no bits to compare")),
            },
            (Err(u), _) | (_, Err(u)) => Err(u.clone()),
        };
        match same {
            Ok(true) => {
                lane.new = Some(desired);
                lane.result = Ok(KVal::bool(true));
            }
            Ok(false) => {
                lane.expected_back = Some((ebuf, eoff, lane.old.clone()));
                lane.result = Ok(KVal::bool(false));
            }
            Err(u) => {
                let why = Undef::at(
                    span,
                    format!("whether the compare-exchange stored is unknown ({})", u.why),
                );
                lane.new = Some(Err(why.clone()));
                lane.expected_back = Some((ebuf, eoff, Err(why.clone())));
                lane.result = Err(why);
            }
        }
        Ok(())
    }
}

/// Checks an atomic call's shape before the run: the argument count, and that each memory
/// order and the scope is a constant the vendor accepts ([`atomics::check_order`],
/// [`atomics::check_scope`]). A constant is an integer constant expression (the predefined
/// `__ATOMIC_SEQ_CST`, `__HIP_MEMORY_SCOPE_AGENT` are macros for integers) or one of C++'s
/// `memory_order_relaxed` … `memory_order_seq_cst` ([atomics.order]; `std::memory_order` has
/// the `__ATOMIC_*` values in libstdc++ and libc++). An order held in a variable is refused:
/// clang rejects a non-constant scope, and an order known only at run time cannot be checked.
///
/// # Errors
/// The span of the argument at fault (the call's when the count is wrong) and what to write
/// instead.
pub(crate) fn check_call(
    name: &str,
    form: &AtomicForm,
    span: Span,
    args: &[Expr],
) -> Result<(), (Span, String)> {
    if args.len() != form.arity {
        return Err((
            span,
            format!(
                "`{name}` takes {} arguments, got {}",
                form.arity,
                args.len()
            ),
        ));
    }
    for (which, &k) in form.orders.iter().enumerate() {
        let what = match (form.orders.len(), which) {
            (1, _) => "memory order",
            (_, 0) => "success memory order",
            _ => "failure memory order",
        };
        let a = &args[k];
        let v = order_value(a).ok_or_else(|| {
            (
                a.span,
                format!(
                    "`{name}`: the {what} (argument {}) must be a constant (`__ATOMIC_RELAXED`, \
                     `__ATOMIC_ACQUIRE`, `__ATOMIC_RELEASE`, `__ATOMIC_ACQ_REL`, \
                     `__ATOMIC_SEQ_CST`); an order only known at run time is not modelled",
                    k + 1
                ),
            )
        })?;
        atomics::check_order(form.op, which, v).map_err(|m| {
            (
                a.span,
                format!("`{name}`, the {what} (argument {}): {m}", k + 1),
            )
        })?;
    }
    if let Some(k) = form.scope {
        let a = &args[k];
        let v = crate::parser::const_int(a).ok_or_else(|| {
            (
                a.span,
                format!(
                    "`{name}`: the memory scope (argument {}) must be a constant \
                     (`__HIP_MEMORY_SCOPE_WAVEFRONT`, `__HIP_MEMORY_SCOPE_WORKGROUP`, \
                     `__HIP_MEMORY_SCOPE_AGENT`, `__HIP_MEMORY_SCOPE_SYSTEM`), as clang requires",
                    k + 1
                ),
            )
        })?;
        atomics::check_scope(v).map_err(|m| {
            (
                a.span,
                format!("`{name}`, the memory scope (argument {}): {m}", k + 1),
            )
        })?;
    }
    Ok(())
}

/// The value of a memory-order argument: an integer constant, or a C++ `memory_order_X` name.
pub(crate) fn order_value(a: &Expr) -> Option<i128> {
    if let ExprKind::Ident(n) = &a.kind {
        let word = n.strip_prefix("std::").unwrap_or(n);
        let word = word.strip_prefix("memory_order_")?;
        return atomics::ORDERS
            .iter()
            .position(|o| {
                o.strip_prefix("__ATOMIC_")
                    .is_some_and(|w| w.eq_ignore_ascii_case(word))
            })
            .map(|k| k as i128);
    }
    crate::parser::const_int(a)
}

/// The new value of an arithmetic, bitwise or min/max atomic: `op` applied to the cell's
/// `old` value and the operand `v`. Integer sums and differences wrap (an atomic is not an
/// arithmetic expression, so no signed-overflow rule applies: PTX ISA, `atom`: ".add" wraps;
/// GCC manual: the builtins use two's complement, no undefined overflow); the rest are C's
/// operators on the values; min/max keep `old` on a tie.
fn combine(op: AtomicOp, o: &KVal, v: &KVal, span: Span) -> LaneVal {
    let bin = match op {
        AtomicOp::Add => BinOp::Add,
        AtomicOp::Sub => BinOp::Sub,
        AtomicOp::And | AtomicOp::Nand => BinOp::And,
        AtomicOp::Or => BinOp::Or,
        AtomicOp::Xor => BinOp::Xor,
        _ => {
            let less = binary(BinOp::Lt, v, o)
                .ok()
                .and_then(|b| b.truthy())
                .unwrap_or(false);
            let take_new = (op == AtomicOp::Min) == less;
            return Ok(if take_new { v.clone() } else { o.clone() });
        }
    };
    let r = match (o.as_int(), v.as_int()) {
        (Some(a), Some(b)) if bin == BinOp::Add => {
            Ok(KVal::int(o.val_ty().scalar, a.wrapping_add(b)))
        }
        (Some(a), Some(b)) if bin == BinOp::Sub => {
            Ok(KVal::int(o.val_ty().scalar, a.wrapping_sub(b)))
        }
        _ => binary(bin, o, v),
    };
    let r = if op == AtomicOp::Nand {
        r.and_then(|x| unary(UnOp::BitNot, &x))
    } else {
        r
    };
    r.map_err(|f| Undef::at(span, f.message))
}

/// `atomicInc` / `atomicDec`'s new value of an `unsigned int` cell holding `old`, with the bound
/// `val` (converted to `unsigned int`, as the parameter is): `atomicInc` stores
/// `(old >= val) ? 0 : old + 1`, `atomicDec` stores `((old == 0) || (old > val)) ? val : old - 1`
/// (CUDA C++ Programming Guide, Atomic Functions, atomicInc() and atomicDec(); HIP has the same
/// two, HIP documentation, Atomic functions). `wide`: a `uint64_t` cell, which Ascend C's
/// `asc_atomic_inc` / `_dec` also take (the same rule in 64 bits, CANN asc-devkit SIMT API
/// reference). The caller has checked the cell's type.
fn wrap_count(inc: bool, wide: bool, name: &str, old: &KVal, val: &KVal, at: Span) -> LaneVal {
    let cell_ty = ValTy::scalar(if wide { Scalar::U64 } else { Scalar::U32 });
    let not_ints = || Undef::at(at, format!("`{name}`: the values are not integers"));
    let (Ok(o), Ok(b)) = (old.convert(cell_ty), val.convert(cell_ty)) else {
        return Err(not_ints());
    };
    let (Some(o), Some(b)) = (o.as_int(), b.as_int()) else {
        return Err(not_ints());
    };
    let new = if inc {
        if o >= b {
            0
        } else {
            o + 1
        }
    } else if o == 0 || o > b {
        b
    } else {
        o - 1
    };
    Ok(KVal::int(cell_ty.scalar, new))
}

/// Whether a cell of type `t` is a lone `half` or `bfloat16_t`, whose `asc_atomic_add` returns no
/// exact old value (CANN asc-devkit SIMT API reference, asc_atomic_add).
fn half_cell(t: ValTy) -> bool {
    t.lanes == 1 && matches!(t.scalar, Scalar::F16 | Scalar::Bf16)
}

/// The document that defines the atomic functions in a run of dialect `d`: a note cites the
/// run's own. A WGSL shader's atomics are lowered to these functions.
fn atomic_rule(d: crosslane_core::op::Dialect) -> &'static str {
    match d {
        crosslane_core::op::Dialect::Hip => "HIP C++ language extensions, Atomic functions",
        crosslane_core::op::Dialect::Wgsl => "WGSL spec, Atomic Built-in Functions",
        crosslane_core::op::Dialect::Ascend => {
            "CANN asc-devkit SIMT API reference, atomic operations (asc_atomic_*)"
        }
        _ => "CUDA C++ Programming Guide, Atomic Functions",
    }
}
