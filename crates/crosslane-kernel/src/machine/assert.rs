//! Device-side `assert` (the preprocessor writes `assert(e)` as `__crosslane_assert((e), "e")`).
//!
//! CUDA C++ Programming Guide, "Assertion": "`assert` stops the kernel execution if expression
//! is equal to zero"; the failing thread prints the condition, its file and line, its block
//! and thread, and every later runtime call of the host returns `cudaErrorAssert`. HIP does the
//! same (HIP Programming Guide, "Assert"). So a thread whose condition is false ends the run
//! with an error naming the condition, the block, thread and lane; a condition that is
//! undefined in a thread has no defined outcome and ends it the same way, with the value's
//! own reason (as a branch on an undefined condition does, `Executor::condition`).

use super::*;
use crate::ast::{Expr, ExprKind};
use crate::exec::Executor;
use crosslane_core::lanes::LaneMask;
use crosslane_core::result::Level;

impl Executor {
    /// Runs `__crosslane_assert(cond, "text")` in the `active` lanes of warp `w`: an error
    /// note (which ends the run after this step) for each lane where `cond` is zero or
    /// undefined; nothing where it holds.
    pub(crate) fn device_assert(
        &mut self,
        w: usize,
        e: &Expr,
        args: &[Expr],
        active: LaneMask,
        cx: &mut StepCtx,
    ) {
        let Some(cond) = args.first() else {
            return;
        };
        let text = match args.get(1).map(|a| &a.kind) {
            Some(ExprKind::Str(t)) => t.clone(),
            _ => "the condition".to_string(),
        };
        let (_, fails, undefined) = self.condition_split(w, cond, active, cx);
        let lanes = self.trace.launch.lanes;
        let first = self.warps[w].index * lanes;
        let block = self.block;
        let failed: Vec<usize> = fails.iter().filter(|&l| l < lanes).collect();
        if let Some(&l) = failed.first() {
            cx.note(
                Level::Error,
                e.span,
                format!(
                    "assertion `{text}` failed in block {block}, thread {} (lane(s) {} of warp \
                     {}): a failed device-side assert stops the kernel, and the host's next \
                     runtime call returns cudaErrorAssert",
                    first + l,
                    crate::builtins::list_lanes(&failed),
                    self.warps[w].index
                ),
                "CUDA C++ Programming Guide, Assertion; HIP Programming Guide, Assert",
                None,
            );
        }
        if let Some((l, u)) = undefined.first() {
            let all: Vec<usize> = undefined.iter().map(|(l, _)| *l).collect();
            cx.note(
                Level::Error,
                e.span,
                format!(
                    "the condition of `assert({text})` is undefined in block {block}, thread {} \
                     (lane(s) {} of warp {}): {}; the assertion has no defined outcome, so the \
                     run stops here",
                    first + l,
                    crate::builtins::list_lanes(&all),
                    self.warps[w].index,
                    u.why
                ),
                "CUDA C++ Programming Guide, Assertion",
                None,
            );
        }
    }

    /// Runs `__builtin_assume(cond)` in the `active` lanes of warp `w`: nothing where `cond`
    /// holds; where it is false the program's behaviour is undefined (Clang Language
    /// Extensions, `__builtin_assume`), so the run stops with an error naming the threads, as
    /// no result after it is defined; an undefined `cond` is a warning (the assumption may
    /// hold on the device).
    pub(crate) fn device_assume(
        &mut self,
        w: usize,
        e: &Expr,
        args: &[Expr],
        active: LaneMask,
        cx: &mut StepCtx,
    ) {
        let Some(cond) = args.first() else {
            return;
        };
        let (_, fails, undefined) = self.condition_split(w, cond, active, cx);
        let lanes = self.trace.launch.lanes;
        let first = self.warps[w].index * lanes;
        let failed: Vec<usize> = fails.iter().filter(|&l| l < lanes).collect();
        if let Some(&l) = failed.first() {
            cx.note(
                Level::Error,
                e.span,
                format!(
                    "`__builtin_assume` of a condition that is false in block {}, thread {} \
                     (lane(s) {} of warp {}): the behaviour is undefined from here, so the run \
                     stops",
                    self.block,
                    first + l,
                    crate::builtins::list_lanes(&failed),
                    self.warps[w].index
                ),
                "Clang Language Extensions, __builtin_assume",
                None,
            );
        }
        if let Some((l, u)) = undefined.first() {
            cx.note(
                Level::Warning,
                e.span,
                format!(
                    "the condition of `__builtin_assume` is undefined in thread {}: {}",
                    first + l,
                    u.why
                ),
                "Clang Language Extensions, __builtin_assume",
                None,
            );
        }
    }

    /// Runs `__builtin_unreachable()` in the `active` lanes of warp `w`: control reaching it
    /// is undefined behaviour (Clang Language Extensions, `__builtin_unreachable`: "the
    /// behavior is undefined if control flow reaches the call"), so the run stops with an
    /// error naming the threads that reached it; no result after it is defined.
    pub(crate) fn device_unreachable(
        &mut self,
        w: usize,
        e: &Expr,
        active: LaneMask,
        cx: &mut StepCtx,
    ) {
        let lanes = self.trace.launch.lanes;
        let reached: Vec<usize> = active.iter().filter(|&l| l < lanes).collect();
        let Some(&l) = reached.first() else {
            return;
        };
        let first = self.warps[w].index * lanes;
        cx.note(
            Level::Error,
            e.span,
            format!(
                "`__builtin_unreachable()` reached in block {}, thread {} (lane(s) {} of warp \
                 {}): control reaching it is undefined behaviour, so the run stops",
                self.block,
                first + l,
                crate::builtins::list_lanes(&reached),
                self.warps[w].index
            ),
            "Clang Language Extensions, __builtin_unreachable",
            None,
        );
    }
}
