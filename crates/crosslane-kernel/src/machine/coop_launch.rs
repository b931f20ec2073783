//! Whether the launch being run may synchronize its grid: `grid.sync()` and
//! `grid_group::is_valid()` by the launch that host code makes.
//!
//! Source: CUDA C++ Programming Guide, Cooperative Groups, "Grid Group": the grid group's
//! members other than `sync()` "are available at all times, but to be able to synchronize
//! across the grid, you need to use the cooperative launch API"; `is_valid()` "Returns whether
//! the grid_group can synchronize"; "Grid Synchronization": to enable grid synchronization the
//! kernel is launched with `cudaLaunchCooperativeKernel` (or the driver's equivalent) instead
//! of the `<<<…>>>` execution configuration syntax. HIP Programming Guide, Cooperative groups:
//! the same with `hipLaunchCooperativeKernel`.
//!
//! So `is_valid()` is true in a cooperative launch and false in a `<<<…>>>` /
//! `cudaLaunchKernel` / `hipLaunchKernel` one, and `grid.sync()` reached in the latter is an
//! error of the run naming the launch's line (the device gives it no meaning: the blocks need
//! not be resident together). A kernel that no host code launches — a bare kernel pasted
//! alone, run with `--blocks` — runs as a cooperative launch, the only launch in which its
//! `grid.sync()` means anything; the run says so in a note at the first `grid.sync()`.
//!
//! The rule is CUDA's and HIP's: they are the dialects with a cooperative launch API. Ascend C
//! launches with `<<<…>>>` only (asc-devkit's samples synchronize a grid that way), so its
//! launches are taken as able to synchronize their grid, as are the other dialects'.

use super::StepCtx;
use crate::ast::Span;
use crate::exec::Executor;
use crate::trace::LaneVal;
use crate::types::KVal;
use crosslane_core::lanes::LaneMask;
use crosslane_core::op::Dialect;
use crosslane_core::result::Level;

/// The call `grid.is_valid()` lowers to (`parser/cg_lower.rs`): the launch's answer, per lane.
pub(crate) const GRID_IS_VALID: &str = "__cg_grid_is_valid";

/// The rule a non-cooperative launch breaks at `grid.sync()`.
const RULE: &str = "CUDA C++ Programming Guide, Cooperative Groups, Grid Synchronization";

impl Executor {
    /// The line of the non-cooperative launch running, in a dialect with a cooperative launch
    /// API (CUDA, HIP); `None` for a cooperative launch, a kernel no host code launches, and
    /// the other dialects' launches.
    fn plain_launch_line(&self) -> Option<u32> {
        let gated = matches!(self.trace.launch.dialect, Dialect::Cuda | Dialect::Hip);
        self.config.plain_launch_line.filter(|_| gated)
    }

    /// `grid.is_valid()` in the lanes of `mask`: whether this launch is a cooperative one.
    pub(crate) fn grid_is_valid(&self, mask: LaneMask) -> Vec<LaneVal> {
        let lanes = self.trace.launch.lanes;
        let valid = self.plain_launch_line().is_none();
        let mut out = vec![Ok(KVal::bool(false)); lanes];
        for l in mask.iter().filter(|&l| l < lanes) {
            out[l] = Ok(KVal::bool(valid));
        }
        out
    }

    /// Checks that the launch may synchronize its grid, where `grid.sync()` is reached at
    /// `at`: an error naming the launch's line when it is not a cooperative one (the run ends
    /// there unless it keeps going), a note when no host code launches the kernel.
    pub(crate) fn check_grid_sync_launch(&self, at: Span, cx: &mut StepCtx) {
        if let Some(line) = self.plain_launch_line() {
            cx.note(
                Level::Error,
                at,
                format!(
                    "grid.sync() in a kernel launched at line {line} without the cooperative \
                     launch API: a grid can synchronize only when launched with \
                     cudaLaunchCooperativeKernel / hipLaunchCooperativeKernel instead of \
                     <<<…>>> (or cudaLaunchKernel / hipLaunchKernel), and grid.is_valid() is \
                     false in this launch; launch it with the cooperative API"
                ),
                RULE,
                None,
            );
        } else if self.config.cooperative_launch_line.is_none()
            && self.config.plain_launch_line.is_none()
        {
            cx.note(
                Level::Info,
                at,
                "no host code launches this kernel: it runs as a cooperative launch \
                 (cudaLaunchCooperativeKernel / hipLaunchCooperativeKernel), the only launch \
                 in which grid.sync() synchronizes the grid; launched with <<<…>>> it would \
                 not be valid"
                    .into(),
                RULE,
                None,
            );
        }
    }
}
