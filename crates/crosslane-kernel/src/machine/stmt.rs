//! Statements: declarations, barriers and branch/loop conditions.

use super::*;
use crate::ast::*;
use crate::budget::Resource;
use crate::builtins::{builtin, Builtin};
use crate::exec::Executor;
use crate::host_launch::dims_total;
use crate::memory::Space;
use crate::parser::const_int;
use crate::trace::{LaneVal, Undef};
use crate::types::{KVal, Scalar, Ty, ValTy};
use crosslane_core::lanes::LaneMask;
use crosslane_core::op::Dialect;
use crosslane_core::result::Level;

/// What `__builtin_amdgcn_s_barrier()` is here: the block barrier of `__syncthreads()` without
/// its memory fences.
const S_BARRIER_NOTE: &str = "__builtin_amdgcn_s_barrier: every wave of the workgroup waits here \
     (S_BARRIER), but the builtin is no memory fence: HIP's __syncthreads() is a workgroup fence, \
     s_barrier and a second fence, and on the device a shared-memory write before a bare \
     s_barrier is not promised to be seen after it (that needs s_waitcnt or \
     __builtin_amdgcn_fence). Here every memory operation completes at once, so the values are \
     those of __syncthreads(), and the race check treats it as a barrier";
const S_BARRIER_RULE: &str = "clang BuiltinsAMDGPU.def (__builtin_amdgcn_s_barrier); ROCm clr \
     amd_device_functions.h (__syncthreads: __work_group_barrier); AMD RDNA3 \
     ISA, S_BARRIER; semantics.md \"AMD s_barrier\"";

/// Bytes of one kept printf line beside its text (`PrintfLine`: two indices, a `String`
/// header and a line number on a 64-bit host).
const PRINTF_LINE_BYTES: u64 = 48;

impl Executor {
    /// Marks `lanes` of warp `w` as having left the innermost loop (a false loop test).
    pub(crate) fn leave_loop(&mut self, w: usize, lanes: LaneMask) {
        let warp = &mut self.warps[w];
        if let Some(id) = warp.innermost_loop() {
            for l in lanes.iter() {
                if let Some(s) = warp.status.get_mut(l) {
                    *s = LaneStatus::Broke(id);
                }
            }
        }
    }

    /// Moves an idle warp (no active lane) to where its lanes reconverge.
    pub(crate) fn unwind(&mut self, w: usize) {
        let warp = &mut self.warps[w];
        if warp.leave_branch() {
            return;
        }
        if warp.frames.is_empty() && warp.resume_parked() {
            return;
        }
        match warp.frames.last() {
            None => warp.run = WarpRun::Done,
            Some(Frame::Loop { cont_pc, .. }) => warp.pc = *cont_pc,
            Some(Frame::If { .. }) => {}
        }
    }

    /// A warp reached a call past the call-depth budget ([`crate::compile::Inst::CallTooDeep`])
    /// with the lanes `active`: the run stops naming the budget that ended the inlining.
    pub(crate) fn call_too_deep(
        &mut self,
        span: Span,
        name: &str,
        nesting: bool,
        active: LaneMask,
    ) {
        // Some lane reached a call past the budget (an idle warp never gets here).
        let lanes: Vec<String> = active.iter().take(4).map(|l| l.to_string()).collect();
        let what = format!(
            "the call of `{name}` at {}:{} in lane(s) {}{} (recursion{}; CUDA C++ \
             Programming Guide, \"C++ Language Support\": a device thread's recursion \
             is bounded by its stack, cudaLimitStackSize)",
            span.shown().line,
            span.shown().col,
            lanes.join(", "),
            if active.iter().count() > 4 {
                ", …"
            } else {
                ""
            },
            if nesting {
                ", inlined as deep as the statement nesting allows: each level nests \
                 its body's statements"
            } else {
                ""
            }
        );
        let resource = if nesting {
            Resource::Depth
        } else {
            Resource::CallDepth
        };
        self.limit(resource, span.line, what);
    }

    // -------------------------------------------------------------- statements

    /// Gives an address-taken local `slot` (`&x` somewhere in the kernel) one cell of memory
    /// per lane ([`Warp::lane_refs`]), reused when the declaration runs again.
    pub(crate) fn declare_in_memory(
        &mut self,
        w: usize,
        (span, var): (Span, &str),
        slot: usize,
        elem: ValTy,
        active: LaneMask,
        cx: &mut StepCtx,
    ) {
        let lanes = self.trace.launch.lanes;
        let warp_index = self.warps[w].index;
        let mut bufs = self.warps[w]
            .lane_refs
            .get(&slot)
            .cloned()
            .unwrap_or_else(|| vec![None; lanes]);
        for l in active.iter().filter(|&l| l < lanes) {
            let key = (span, self.block, warp_index, l);
            let buf = match self.locals.get(&key) {
                Some(b) => *b,
                None => {
                    let name = format!("{var} (block {}, warp {warp_index}, lane {l})", self.block);
                    let space = Space::Local {
                        block: self.block as u32,
                        warp: warp_index as u32,
                        lane: l as u32,
                    };
                    match self.trace.memory.alloc_uninit(&name, space, elem, 1) {
                        Ok(b) => {
                            self.locals.insert(key, b);
                            b
                        }
                        Err(m) => {
                            cx.note(Level::Error, span, m, "", None);
                            return;
                        }
                    }
                }
            };
            if let Some(b) = bufs.get_mut(l) {
                *b = Some(buf);
            }
        }
        self.warps[w].lane_refs.insert(slot, bufs);
    }

    /// A by-value parameter of an inlined call whose address is taken (`&f`): a local object
    /// of the call (C++17 [expr.call]/7), so it lives in a one-cell buffer of its lane as an
    /// address-taken local does ([`Self::declare_in_memory`]); nothing for any other slot.
    pub(crate) fn param_in_memory(
        &mut self,
        w: usize,
        slot: usize,
        span: Span,
        active: LaneMask,
        cx: &mut StepCtx,
    ) {
        if !self.addr_taken.contains(&slot) {
            return;
        }
        if let Some(crate::compile::SlotInfo {
            ty: Ty::Val(elem),
            name,
        }) = self.slots.get(slot).cloned()
        {
            self.declare_in_memory(w, (span, &name), slot, elem, active, cx);
        }
    }

    pub(crate) fn declare(
        &mut self,
        w: usize,
        d: &Declarator,
        (storage, owner): (Storage, u32),
        active: LaneMask,
        cx: &mut StepCtx,
    ) {
        let Some(&slot) = self.decl_slots.get(&(self.cur, d.id)) else {
            return;
        };
        let lanes = self.trace.launch.lanes;
        let elem = match d.ty {
            Ty::Val(v) | Ty::Ptr(v) => v,
            Ty::Void => ValTy::scalar(Scalar::I32),
        };
        if d.array.is_some() {
            self.array_slots.insert(slot);
        }
        if d.array.is_some() || storage.shared {
            let len = match &d.array {
                Some(Some(n)) => {
                    let v = self.eval(w, n, active, cx);
                    let first = active.iter().find_map(|l| v.get(l).cloned());
                    match first.and_then(|v| v.ok()).and_then(|v| v.as_int()) {
                        Some(n) if n >= 0 => n as usize,
                        _ => {
                            cx.note(
                                Level::Error,
                                d.span,
                                format!("the size of `{}` is not a non-negative integer", d.name),
                                "",
                                None,
                            );
                            0
                        }
                    }
                }
                Some(None) => {
                    let len = self
                        .config
                        .shared_len
                        .unwrap_or_else(|| dims_total(self.trace.launch.block_dim).unwrap_or(1));
                    if storage.shared && storage.external {
                        cx.note(Level::Info, d.span, format!("`extern __shared__ {}[]` gets its size at launch: {len} cells (LaunchConfig.shared_len)", d.name), "", None);
                    } else {
                        cx.note(
                            Level::Warning,
                            d.span,
                            format!(
                                "`{}[]` has no size and is not `extern`: not valid C; given {len} cells as if it were `extern __shared__`",
                                d.name
                            ),
                            "ISO C11 6.7.6.2; CUDA C++ Programming Guide, extern __shared__",
                            None,
                        );
                    }
                    len
                }
                None => 1,
            };
            if storage.shared {
                let key = (d.span, owner, self.block);
                // Every `extern __shared__` array of a block starts at the same address, the
                // start of its dynamic shared memory (CUDA C++ Programming Guide, "__shared__":
                // "All variables declared in this fashion, start at the same address in
                // memory"): one buffer per block, whatever the name.
                let ext_key = (String::new(), self.block);
                let known = if storage.external {
                    self.extern_shared.get(&ext_key)
                } else {
                    self.shared.get(&key)
                };
                if let (true, Some(&b)) = (storage.external, known) {
                    let first = self.trace.memory.buffers.get(b).map(|x| x.name.clone());
                    if let Some(first) = first.filter(|n| *n != d.name) {
                        cx.note(
                            Level::Info,
                            d.span,
                            format!(
                                "`extern __shared__ {}[]` is the same dynamic shared memory as \
                                 `{first}[]` (every such array starts at its first byte); it is \
                                 shown as `{first}`",
                                d.name
                            ),
                            "CUDA C++ Programming Guide, __shared__",
                            None,
                        );
                    }
                }
                let buf = match known {
                    Some(b) => *b,
                    None => {
                        match self.trace.memory.alloc_uninit(
                            &d.name,
                            Space::Shared {
                                block: self.block as u32,
                            },
                            elem,
                            len,
                        ) {
                            Ok(b) => {
                                if storage.external {
                                    self.extern_shared.insert(ext_key, b);
                                } else {
                                    self.shared.insert(key, b);
                                }
                                b
                            }
                            Err(m) => {
                                cx.note(Level::Error, d.span, m, "", None);
                                return;
                            }
                        }
                    }
                };
                let warp = &mut self.warps[w];
                if d.array.is_some() {
                    if let Some(r) = warp.vars.get_mut(slot) {
                        for l in 0..lanes {
                            r.set_val(
                                l,
                                KVal::Ptr {
                                    elem,
                                    buf,
                                    offset: 0,
                                },
                            );
                        }
                    }
                } else {
                    warp.refs.insert(slot, buf);
                }
                cx.changed.insert(slot);
                return;
            }
            // A local array: one buffer per lane (an index past its end is out of bounds, not
            // another lane's cell), reused when the declaration runs again (a loop body).
            let warp_index = self.warps[w].index;
            for l in active.iter().filter(|&l| l < lanes) {
                let key = (d.span, self.block, warp_index, l);
                let buf = match self.locals.get(&key) {
                    Some(b) => *b,
                    None => {
                        let name = format!(
                            "{} (block {}, warp {warp_index}, lane {l})",
                            d.name, self.block
                        );
                        match self.trace.memory.alloc_uninit(
                            &name,
                            Space::Local {
                                block: self.block as u32,
                                warp: warp_index as u32,
                                lane: l as u32,
                            },
                            elem,
                            len,
                        ) {
                            Ok(b) => {
                                self.locals.insert(key, b);
                                b
                            }
                            Err(m) => {
                                cx.note(Level::Error, d.span, m, "", None);
                                return;
                            }
                        }
                    }
                };
                if let Some(r) = self.warps[w].vars.get_mut(slot) {
                    r.set_val(
                        l,
                        KVal::Ptr {
                            elem,
                            buf,
                            offset: 0,
                        },
                    );
                }
            }
            cx.changed.insert(slot);
            // A brace initializer: the parser made it the cells' assignments, in order
            // (`parser/arrays.rs`).
            if let Some(init) = &d.init {
                self.eval(w, init, active, cx);
            }
            return;
        }
        if self.addr_taken.contains(&slot) {
            self.declare_in_memory(w, (d.span, &d.name), slot, elem, active, cx);
        }
        match &d.init {
            Some(init) => {
                let vals = self.eval(w, init, active, cx);
                for l in active.iter() {
                    let v = vals.get(l).cloned().unwrap_or_else(|| Err(Undef::idle()));
                    let _ = self.store_var(w, slot, l, v, d.span, cx);
                }
            }
            None => {
                let (id, bytes) = self.reasons.intern(&Undef {
                    line: d.span.line,
                    col: d.span.shown().col,
                    why: format!(
                        "`{}` was declared at line {} without a value",
                        d.name, d.span.line
                    ),
                    uninit: true,
                });
                self.meter.trace_bytes = self.meter.trace_bytes.saturating_add(bytes);
                if let Some(r) = self.warps[w].vars.get_mut(slot) {
                    for l in active.iter() {
                        r.set_undef(l, id);
                    }
                }
                cx.changed.insert(slot);
            }
        }
    }

    /// A barrier or no-op call used as a statement: `Some(true)` when the warp now waits,
    /// `Some(false)` when it was handled and the warp goes on, `None` when it is no such call.
    pub(crate) fn barrier_call(
        &mut self,
        w: usize,
        e: &Expr,
        active: LaneMask,
        cx: &mut StepCtx,
    ) -> Option<bool> {
        // `cg::wait(g)`: the thread's asynchronous copies complete, then the group's barrier
        // (`parser::cg_async`, `machine::async_copy`).
        if let ExprKind::Comma(done, sync) = &e.kind {
            let waits =
                matches!(&done.kind, ExprKind::Call(n, _) if n == super::async_copy::ASYNC_WAIT);
            let barrier =
                matches!(&sync.kind, ExprKind::Call(n, _) if builtin(n) == Some(Builtin::Barrier));
            if waits && barrier {
                self.eval(w, done, active, cx);
                return self.barrier_call(w, sync, active, cx);
            }
            return None;
        }
        let ExprKind::Call(name, args) = &e.kind else {
            return None;
        };
        match builtin(name) {
            Some(Builtin::Barrier) => {
                let arg0 = args.first().and_then(const_int);
                let syncs = match name.as_str() {
                    "__builtin_mxc_barrier_ex" => arg0 != Some(3),
                    "__syncwarp" => false,
                    n if n.starts_with("__builtin_mxc_barrier_and_wait") => arg0 == Some(1),
                    _ => true,
                };
                // Lanes held at this `__syncwarp` resume after it met the other path's
                // (`machine::converge`): that call was the barrier, already counted.
                if name == "__syncwarp" && self.resume_met_sync(w, e.id) {
                    return Some(false);
                }
                let vals: Vec<Vec<LaneVal>> =
                    args.iter().map(|a| self.eval(w, a, active, cx)).collect();
                self.maca_fence(w, name, &vals, active, e.span, cx);
                if !syncs {
                    if name == "__syncwarp" {
                        let warp = self.warps[w].index;
                        self.warp_race.syncwarp(warp);
                    }
                    if name == "__syncwarp" && self.trace.launch.dialect != Dialect::Maca {
                        // The lanes held at the other path's `__syncwarp` join this one.
                        let joint = self
                            .meet_held_sync(w, e.span, active, vals.first().map(Vec::as_slice), cx)
                            .unwrap_or(active);
                        // `__syncwarp()`: the whole warp (CUDA C++ Programming Guide,
                        // Synchronization Functions: `__syncwarp(unsigned mask=0xffffffff)`).
                        let lanes = self.trace.launch.lanes;
                        let whole = vec![
                            Ok(KVal::int(
                                Scalar::U64,
                                i128::from(
                                    u64::MAX
                                        .checked_shr(64u32.saturating_sub(lanes.min(64) as u32))
                                        .unwrap_or(0)
                                )
                            ));
                            lanes
                        ];
                        let mask = vals.first().unwrap_or(&whole);
                        self.check_syncwarp(w, mask, joint, e.span, cx);
                    }
                    let (message, rule) = ordering_note(self.trace.launch.dialect, name, true);
                    cx.note(Level::Info, e.span, message, rule, None);
                    return Some(false);
                }
                let warp = &self.warps[w];
                let all = LaneMask(warp.exists.0 & warp.running().0);
                // Divergent only where the condition around the barrier actually differs: some
                // running lane of this warp is not here. A branch every lane took (`if (n_warps
                // > 1)`, `if constexpr`) is not divergence ("allowed in conditional code but
                // only if the conditional evaluates identically across the entire thread
                // block": CUDA C++ Programming Guide, Synchronization Functions); warps that
                // disagree are caught when the barrier opens (`Executor::schedule`).
                // Undefined, and on the device likely a hang (an NVIDIA H200 hung on such a
                // kernel): the run ends here unless the launch keeps going.
                if active != all {
                    let absent: Vec<usize> = LaneMask(all.0 & !active.0).iter().collect();
                    let level = if self.config.keep_going {
                        Level::Warning
                    } else {
                        Level::Error
                    };
                    cx.note(
                        level,
                        e.span,
                        format!(
                            "`{name}` in divergent code: lane(s) {} of warp {} do not reach it; a barrier must be reached by every thread of the block, else the behaviour is undefined (the device is likely to hang); --keep-going runs on as if they had arrived",
                            crate::builtins::list_lanes(&absent),
                            warp.index
                        ),
                        "CUDA C++ Programming Guide, __syncthreads(); seed 002 §3.1.9",
                        None,
                    );
                }
                cx.note(
                    Level::Info,
                    e.span,
                    format!(
                        "warp {} waits at the barrier until every warp of block {} reaches it",
                        warp.index, self.block
                    ),
                    "",
                    None,
                );
                if name == crate::parser::GRID_SYNC || name == crate::parser::GRID_SYNC_ANY {
                    self.check_grid_sync_launch(e.span, cx);
                    cx.note(
                        Level::Info,
                        e.span,
                        "grid.sync(): once every warp of this block waits, the block waits \
                         until every block of the grid reaches it (the blocks run one at a \
                         time between grid barriers, one order the device may take)"
                            .into(),
                        "CUDA C++ Programming Guide, Cooperative Groups, Grid Synchronization",
                        None,
                    );
                }
                if name == "__builtin_amdgcn_s_barrier" {
                    cx.note(
                        Level::Info,
                        e.span,
                        S_BARRIER_NOTE.into(),
                        S_BARRIER_RULE,
                        None,
                    );
                }
                cx.barrier = true;
                Some(true)
            }
            Some(Builtin::NoOp) if name == crate::builtins::ASSERT => {
                self.device_assert(w, e, args, active, cx);
                Some(false)
            }
            Some(Builtin::NoOp) if name == crate::builtins::ASSUME => {
                self.device_assume(w, e, args, active, cx);
                Some(false)
            }
            Some(Builtin::NoOp) if name == crate::builtins::UNREACHABLE => {
                self.device_unreachable(w, e, active, cx);
                Some(false)
            }
            Some(Builtin::NoOp) if name == "printf" => {
                // Each active lane prints its own line (CUDA C++ Programming Guide, Formatted
                // Output), in lane order here.
                let fmt = match args.first().map(|a| &a.kind) {
                    Some(ExprKind::Str(f)) => f.clone(),
                    _ => {
                        cx.note(
                            Level::Warning,
                            e.span,
                            "printf: the format must be a string literal".into(),
                            "",
                            None,
                        );
                        return Some(false);
                    }
                };
                let lanes = self.trace.launch.lanes;
                // A string literal argument is printed by `%s` ([`crate::printf`]), not
                // evaluated in the lanes.
                let strs: Vec<Option<String>> = args
                    .iter()
                    .skip(1)
                    .map(|a| match &a.kind {
                        ExprKind::Str(s) => Some(s.clone()),
                        _ => None,
                    })
                    .collect();
                let vals: Vec<Vec<LaneVal>> = args
                    .iter()
                    .skip(1)
                    .map(|a| match &a.kind {
                        ExprKind::Str(_) => vec![Ok(KVal::int(Scalar::U64, 0)); lanes],
                        _ => self.eval(w, a, active, cx),
                    })
                    .collect();
                let warp_index = self.warps[w].index;
                let convs = crate::printf::conversions(&fmt);
                // Each lane's call costs its formatting, kept or not (past the line cap).
                let calls = active.iter().filter(|&l| l < lanes).count() as u64;
                self.meter
                    .work(crate::budget::PRINTF_WORK.saturating_mul(calls));
                for l in active.iter().filter(|&l| l < lanes) {
                    if self.trace.printf.len() >= crate::printf::MAX_PRINTF_LINES {
                        cx.note(
                            Level::Warning,
                            e.span,
                            format!(
                                "printf: more than {} lines; the rest are not kept",
                                crate::printf::MAX_PRINTF_LINES
                            ),
                            "",
                            None,
                        );
                        break;
                    }
                    let mut lane_args: Vec<LaneVal> = vals.iter().map(|v| v[l].clone()).collect();
                    // A `char` pointer chosen in the lane (`c ? "odd" : "even"`, a `const
                    // char*` variable): `%s` prints the characters it points to.
                    let mut lane_strs = strs.clone();
                    for (k, a) in lane_args.iter_mut().enumerate() {
                        let Ok(KVal::Ptr { elem, buf, offset }) = a else {
                            continue;
                        };
                        if convs.get(k) != Some(&'s') {
                            continue;
                        }
                        if elem.lanes > 1 || !matches!(elem.scalar, Scalar::I8 | Scalar::U8) {
                            continue;
                        }
                        match self.trace.memory.c_string(
                            *buf,
                            *offset,
                            crate::printf::MAX_PRINTF_FIELD,
                        ) {
                            Ok(text) => lane_strs[k] = Some(text.replace('\\', "\\\\")),
                            Err(why) => *a = Err(Undef::at(args[k + 1].span, why)),
                        }
                    }
                    let out = crate::printf::format_line_strs(&fmt, &lane_args, &lane_strs);
                    if let Some(n) = out.capped {
                        cx.note(
                            Level::Warning,
                            e.span,
                            format!(
                                "printf: a width or precision of {n} is past the cap of {}; \
                                 printed with {} (the cap is fixed)",
                                crate::printf::MAX_PRINTF_FIELD,
                                crate::printf::MAX_PRINTF_FIELD
                            ),
                            "C11 7.21.6.1 (field width and precision)",
                            None,
                        );
                    }
                    let text = out.text;
                    // Printed text is held until the run ends: it counts against the memory
                    // budget (stopping the run with `--max-memory` named once it is spent)
                    // and costs work by its length, so a loop of long lines ends in time.
                    let bytes = text.len() as u64 + PRINTF_LINE_BYTES;
                    self.meter.trace_bytes = self.meter.trace_bytes.saturating_add(bytes);
                    self.meter.work(bytes / 16);
                    self.trace.printf.push(crate::printf::PrintfLine {
                        block: self.block,
                        thread: warp_index * lanes + l,
                        text,
                        line: e.span.line,
                    });
                }
                Some(false)
            }
            Some(Builtin::NoOp) => {
                let vals: Vec<Vec<LaneVal>> =
                    args.iter().map(|a| self.eval(w, a, active, cx)).collect();
                self.maca_fence(w, name, &vals, active, e.span, cx);
                let (message, rule) = ordering_note(self.trace.launch.dialect, name, false);
                cx.note(Level::Info, e.span, message, rule, None);
                Some(false)
            }
            _ => None,
        }
    }

    /// Evaluates a condition: (lanes where true, lanes where false, lanes where undefined with
    /// the value's reason). A lane whose value is not a scalar is noted as an error and counted
    /// as undefined.
    pub(crate) fn condition_split(
        &mut self,
        w: usize,
        c: &Expr,
        active: LaneMask,
        cx: &mut StepCtx,
    ) -> (LaneMask, LaneMask, Vec<(usize, Undef)>) {
        let vals = self.eval(w, c, active, cx);
        let (mut t, mut f, mut u) = (LaneMask::none(), LaneMask::none(), Vec::new());
        for l in active.iter() {
            match vals.get(l).map(|v| v.as_ref().map(KVal::truthy)) {
                Some(Ok(Some(true))) => t = t.with(l),
                Some(Ok(Some(false))) => f = f.with(l),
                Some(Err(why)) => u.push((l, why.clone())),
                _ => {
                    let m = "the condition is not a scalar".to_string();
                    cx.note(Level::Error, c.span, m.clone(), "", Some(l));
                    u.push((l, Undef::at(c.span, m)));
                }
            }
        }
        (t, f, u)
    }

    /// Evaluates the condition of a branch or loop: (lanes where true, lanes where false).
    ///
    /// A lane where the condition is undefined has no defined path (C++17 [stmt.select]/[stmt.iter]
    /// choose by the condition's value, which does not exist): an error naming the lanes and the
    /// value's own reason and line, which ends the run after this step. Under
    /// [`crate::LaunchConfig::keep_going`] the lane is taken as false instead, with a
    /// warning saying so.
    pub(crate) fn condition(
        &mut self,
        w: usize,
        c: &Expr,
        active: LaneMask,
        cx: &mut StepCtx,
    ) -> (LaneMask, LaneMask) {
        let (t, mut f, undefined) = self.condition_split(w, c, active, cx);
        let keep_going = self.config.keep_going;
        // The work budget ran out inside the condition: its value was never computed, and the
        // run ends with the limit's own message at this line, not an undefined condition.
        let spent = self.meter.work_spent();
        for (l, u) in undefined {
            if spent {
                f = f.with(l);
                continue;
            }
            let since = if u.line > 0 {
                format!(" (undefined since line {}:{})", u.line, u.col)
            } else {
                String::new()
            };
            if keep_going {
                cx.note(
                    Level::Warning,
                    c.span,
                    format!(
                        "the condition is undefined: {}{since}; --keep-going takes the lane as false",
                        u.why
                    ),
                    "",
                    Some(l),
                );
            } else {
                cx.note(
                    Level::Error,
                    c.span,
                    format!(
                        "the condition is undefined: {}{since}; a branch on an undefined value has no defined path, so the run stops here (--keep-going takes the lane as false)",
                        u.why
                    ),
                    "",
                    Some(l),
                );
            }
            f = f.with(l);
        }
        (t, f)
    }
}

/// The note a call that only orders memory here gets in a run of dialect `d`: what it does in
/// this emulator, and the document that defines it. `warp_sync` is a barrier that does not
/// wait here (`__syncwarp`, whose lanes already run together, or a MACA barrier that does not
/// sync); otherwise a fence (`__threadfence`, `asc_threadfence`) or a MACA wait. Only MACA
/// queues copies (seed 002 §3.1.6-3.1.10, §3.8.6), so only a MACA call's note names them; in the
/// other dialects every memory operation completes at once.
fn ordering_note(d: Dialect, name: &str, warp_sync: bool) -> (String, &'static str) {
    // A sleep waits and changes no value (builtins::builtin lists the sources).
    match name {
        "__nanosleep" => {
            return (
                format!("`{name}` only waits: no value changes, and here no time passes"),
                "CUDA C++ Programming Guide, Nanosleep Function",
            )
        }
        "__builtin_amdgcn_s_sleep" => {
            return (
                format!("`{name}` only waits: no value changes, and here no time passes"),
                "clang AMDGPU builtins (__builtin_amdgcn_s_sleep); AMD ISA, S_SLEEP",
            )
        }
        "cudaGridDependencySynchronize" | "griddepcontrol.wait" => {
            return (
                format!("`{name}` waits until the grids this launch depends on programmatically have completed: no launch here is programmatic (a `<<<…>>>` or `cudaLaunchKernel` launch starts after the work before it in its stream has completed), so it returns at once and no value changes"),
                "CUDA C++ Programming Guide, Programmatic Dependent Launch and Synchronization; PTX ISA, griddepcontrol",
            )
        }
        "cudaTriggerProgrammaticLaunchCompletion" | "griddepcontrol.launch_dependents" => {
            return (
                format!("`{name}` only lets a later launch that depends on this one programmatically start early: it makes no memory visible and changes no value of this kernel"),
                "CUDA C++ Programming Guide, Programmatic Dependent Launch and Synchronization; PTX ISA, griddepcontrol",
            )
        }
        "__builtin_amdgcn_s_waitcnt" => {
            return (
                format!("`{name}` waits until the wave's outstanding memory operations complete: here every memory operation completes at once, so nothing is outstanding and no value changes"),
                "clang AMDGPU builtins (__builtin_amdgcn_s_waitcnt); AMD Instinct MI300 ISA / RDNA3 ISA, S_WAITCNT",
            )
        }
        "__builtin_amdgcn_fence" => {
            return (
                format!("`{name}` orders this lane's memory operations at the scope it names: here every memory operation completes at once, in program order, so it changes no value"),
                "clang AMDGPU builtins (__builtin_amdgcn_fence); LLVM AMDGPUUsage, Memory Model",
            )
        }
        "__builtin_amdgcn_sched_barrier"
        | "__builtin_amdgcn_sched_group_barrier"
        | "__builtin_amdgcn_iglp_opt" => {
            return (
                format!("`{name}` only guides the compiler's instruction scheduler: it emits no instruction and no value changes"),
                "clang AMDGPU builtins (__builtin_amdgcn_sched_barrier, sched_group_barrier, iglp_opt)",
            )
        }
        _ => {}
    }
    if d == Dialect::Maca || name.starts_with("__builtin_mxc") {
        return if warp_sync {
            (
                format!("`{name}` here orders memory only; besides the queued MACA copies, memory operations complete at once in this emulator"),
                "seed 002 §3.1.9-3.1.10",
            )
        } else {
            (
                format!("`{name}` only orders memory or waits cycles; here every memory operation but the queued MACA copies completes at once"),
                "seed 002 §3.1.6-3.1.8, §3.8.6",
            )
        };
    }
    // A WGSL run reaches these through its lowering: name its own built-ins.
    let name = match (d, warp_sync) {
        (Dialect::Wgsl, true) => "subgroupBarrier",
        (Dialect::Wgsl, false) => "storageBarrier / workgroupBarrier",
        _ => name,
    };
    let message = if warp_sync {
        format!("`{name}` here orders memory only: a warp's lanes run together in this emulator and every memory operation completes at once")
    } else {
        format!("`{name}` only orders memory; here every memory operation completes at once")
    };
    let rule = match (d, warp_sync) {
        (Dialect::Hip, true) => "HIP documentation, Synchronization functions (__syncwarp)",
        (Dialect::Hip, false) => "HIP documentation, Memory fence instructions",
        (Dialect::Ascend, _) => "Ascend C SIMT API reference (asc_threadfence)",
        (Dialect::Wgsl, _) => "WGSL spec, Synchronization Built-in Functions",
        (_, true) => "CUDA C++ Programming Guide, Synchronization Functions (__syncwarp)",
        (_, false) => "CUDA C++ Programming Guide, Memory Fence Functions",
    };
    (message, rule)
}
