//! The Ascend C SIMT C++ API (`namespace AscendC::Simt`, asc-devkit
//! `include/simt_api/cpp/kernel_simt_common_intf.h` and `kernel_simt_warp_level_intf.h`), built
//! as syntax-tree calls of the registry's operations and the launch's built-in variables.
//!
//! - `GetWarpSize()`: the warp's 32 threads (CANN Ascend C API reference, SIMT API overview:
//!   "每32个线程被分为一组 … Warp", LaneId in [0, 31]) — the launch's `warpSize`.
//! - `GetThreadIdx<dim>()`, `GetThreadNum<dim>()`, `GetBlockIdx()`, `GetBlockNum()`: the
//!   thread's index and the thread count along `dim` (0, 1, 2 = x, y, z), the block's index and
//!   the block count: `threadIdx`, `blockDim`, `blockIdx.x`, `gridDim.x`.
//! - `WarpShflSync(var, srcLane, width)`, `WarpShflUpSync(var, delta, width)`,
//!   `WarpShflDownSync`, `WarpShflXorSync(var, laneMask, width)`: the registry's `asc_shfl`,
//!   `asc_shfl_up`, `asc_shfl_down`, `asc_shfl_xor` (the C API of the same rules, seeds 000 and
//!   001).
//! - `WarpAllSync(p)`, `WarpAnySync(p)`, `WarpBallotSync(p)`, `WarpActiveMask()`: the votes over
//!   the active threads, as the C API's `asc_all`, `asc_any`, `asc_ballot`, `asc_activemask`
//!   (CANN API reference: over the warp's active threads).
//! - `Uni(p)`: whether `p` is the same in every active thread, the vote PTX calls `vote.uni`
//!   (the header declares it beside the votes; its reference page gives no further rule).
//!
//! The C API's lane-id functions (CANN asc-devkit SIMT API reference, "lane id functions",
//! header `simt_api/device_functions.h`), read in an Ascend C run where the source declares no
//! function or variable of the name:
//!
//! - `laneid()`: "线程在其Warp内的索引 … Lane ID的取值范围为[0,31]" — the thread's lane, an
//!   `int32_t`.
//! - `lanemask_eq()`, `lanemask_lt()`, `lanemask_le()`, `lanemask_gt()`, `lanemask_ge()`: "获取
//!   当前线程的一个32位掩码", the bits of the warp's lanes whose Lane ID is equal to, strictly
//!   less than, at most, strictly greater than, at least the caller's (lane 0's `lanemask_ge` is
//!   all ones, lane 31's is bit 31 alone; lane 0's `lanemask_lt` is 0, lane 31's is
//!   `0x7FFFFFFF`), returned as `int32_t`. The masks count every lane of the warp, active or
//!   not: the reference defines them by Lane ID alone.
//!
//! The C API's barrier and fences (`asc_syncthreads()`: "等待当前线程块内所有线程代码都执行到该
//! 函数位置", CANN API reference asc_syncthreads; `asc_threadfence`, `asc_threadfence_block`) are
//! kernel built-ins (`crate::builtins::builtin`).

use super::build::Build;
use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::types::{BinOp, Scalar, Ty, UnOp, ValTy};
use crate::KernelError;

/// The names of the C++ API read here (after their `AscendC::Simt::` qualifier).
const NAMES: &[&str] = &[
    "GetWarpSize",
    "GetThreadIdx",
    "GetThreadNum",
    "GetBlockIdx",
    "GetBlockNum",
    "WarpShflSync",
    "WarpShflUpSync",
    "WarpShflDownSync",
    "WarpShflXorSync",
    "WarpAllSync",
    "WarpAnySync",
    "WarpBallotSync",
    "WarpActiveMask",
    "Uni",
];

/// A lane mask of the C API's lane-id functions: `first << lane` (`1u` or `2u`), less one when
/// `below`, complemented when `not` (`lanemask_gt` is `~((2u << lane) - 1u)`).
#[derive(Clone, Copy)]
struct LaneMaskForm {
    first: u64,
    below: bool,
    not: bool,
}

const fn form(first: u64, below: bool, not: bool) -> Option<LaneMaskForm> {
    Some(LaneMaskForm { first, below, not })
}

/// The lane-id functions of the C API and their values over the 32-bit lane mask (table in the
/// module comment), each read as `int`: `None` the lane (`__lane_id()`), else the mask.
const LANE_FNS: &[(&str, Option<LaneMaskForm>)] = &[
    ("laneid", None),
    ("lanemask_eq", form(1, false, false)),
    ("lanemask_lt", form(1, true, false)),
    ("lanemask_le", form(2, true, false)),
    ("lanemask_gt", form(2, true, true)),
    ("lanemask_ge", form(1, true, true)),
];

impl Parser<'_> {
    /// Whether `name` is one of the C API's lane-id functions read by [`Parser::ascend_lane`].
    pub(super) fn is_ascend_lane(name: &str) -> bool {
        LANE_FNS.iter().any(|(n, _)| *n == name)
    }

    /// `laneid()` or `lanemask_xx()` (the position is after the name): the lane's index or
    /// mask (module comment).
    ///
    /// # Errors
    /// A call with arguments (the functions take none).
    pub(super) fn ascend_lane(&mut self, name: &str, at: Span) -> PResult<Expr> {
        let args = self.call_args()?;
        if !args.is_empty() {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("`{name}()` takes no arguments, given {}", args.len()),
            ));
        }
        let Some(&(_, form)) = LANE_FNS.iter().find(|(n, _)| *n == name) else {
            return self.err("an Ascend C lane-id function");
        };
        // Every node at the call, which the lowering stands for.
        let mut b = Build::at(at);
        let lane = b.call("__lane_id", Vec::new());
        let value = match form {
            None => lane,
            Some(f) => {
                let first = b.uint(f.first);
                let mut m = b.bin(BinOp::Shl, first, lane);
                if f.below {
                    let one = b.uint(1);
                    m = b.bin(BinOp::Sub, m, one);
                }
                if f.not {
                    m = b.unary(UnOp::BitNot, m);
                }
                m
            }
        };
        Ok(b.cast(Ty::Val(ValTy::scalar(Scalar::I32)), value))
    }

    /// Whether `name` is a function of the Ascend C SIMT C++ API read by [`Parser::ascend_simt`].
    pub(super) fn is_ascend_simt(name: &str) -> bool {
        NAMES.contains(&name)
    }

    /// `name<…>(args)` of the Ascend C SIMT C++ API (the position is after the name).
    ///
    /// # Errors
    /// A `dim` that is not 0, 1 or 2, or a call with the wrong number of arguments.
    pub(super) fn ascend_simt(&mut self, name: &str, at: Span) -> PResult<Expr> {
        let mut dim = 0i128;
        if self.eat("<") {
            let e = self.binary(8)?;
            self.expect_punct(">")?;
            dim = super::const_int(&e).unwrap_or(-1);
        }
        let args = self.call_args()?;
        let want = match name {
            "WarpShflSync" | "WarpShflUpSync" | "WarpShflDownSync" | "WarpShflXorSync" => 2..=3,
            "WarpAllSync" | "WarpAnySync" | "WarpBallotSync" | "Uni" => 1..=1,
            _ => 0..=0,
        };
        if !want.contains(&args.len()) {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "`{name}` takes {} argument(s), given {}",
                    if want.start() == want.end() {
                        want.start().to_string()
                    } else {
                        format!("{} or {}", want.start(), want.end())
                    },
                    args.len()
                ),
            ));
        }
        let axis = |p: &mut Self, base: &str, dim: i128| -> PResult<Expr> {
            let f = match dim {
                0 => "x",
                1 => "y",
                2 => "z",
                _ => {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        format!("`{name}<dim>`: dim must be 0, 1 or 2"),
                    ))
                }
            };
            let b = p.e_ident(at, base);
            Ok(p.e_member(at, b, f))
        };
        let first = |p: &mut Self| args.first().cloned().unwrap_or_else(|| p.e_int(at, 0));
        Ok(match name {
            "GetWarpSize" => self.e_ident(at, "warpSize"),
            "GetThreadIdx" => axis(self, "threadIdx", dim)?,
            "GetThreadNum" => axis(self, "blockDim", dim)?,
            "GetBlockIdx" => axis(self, "blockIdx", 0)?,
            "GetBlockNum" => axis(self, "gridDim", 0)?,
            "WarpShflSync" | "WarpShflUpSync" | "WarpShflDownSync" | "WarpShflXorSync" => {
                let op = match name {
                    "WarpShflSync" => "asc_shfl",
                    "WarpShflUpSync" => "asc_shfl_up",
                    "WarpShflDownSync" => "asc_shfl_down",
                    _ => "asc_shfl_xor",
                };
                self.e_call(at, op, args.clone())
            }
            "WarpActiveMask" => self.e_call(at, "__activemask", Vec::new()),
            _ => {
                let p = first(self);
                let act = self.e_call(at, "__activemask", Vec::new());
                let b = self.e_call(at, "__ballot_sync", vec![act, p]);
                let act = self.e_call(at, "__activemask", Vec::new());
                match name {
                    "WarpBallotSync" => b,
                    "WarpAnySync" => {
                        let z = self.e_mask(at, 0);
                        self.e_bin(at, BinOp::Ne, b, z)
                    }
                    "WarpAllSync" => self.e_bin(at, BinOp::Eq, b, act),
                    // Uni: the active lanes whose vote equals this lane's are all of them.
                    _ => {
                        let same = self.e_call(at, "__cg_side", vec![act, b]);
                        let act = self.e_call(at, "__activemask", Vec::new());
                        self.e_bin(at, BinOp::Eq, same, act)
                    }
                }
            }
        })
    }

    /// Skips `AscendC::Simt::` (or `AscendC::`) before a name of the API; whether it did.
    pub(super) fn skip_ascend_namespace(&mut self) -> bool {
        let mut skipped = false;
        while matches!(self.peek(0), Tok::Ident(w) if w == "AscendC" || w == "Simt")
            && matches!(self.peek(1), Tok::Punct("::"))
        {
            self.bump();
            self.bump();
            skipped = true;
        }
        skipped
    }
}
