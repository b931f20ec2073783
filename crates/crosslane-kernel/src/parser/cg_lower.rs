//! The operations of a cooperative group, built as calls of the dialect's registry operations
//! (CUDA `__shfl*_sync`, `__ballot_sync`, `__any_sync`, `__all_sync`, `__match_any_sync`; HIP
//! `__shfl*`, `__ballot`) and a few per-lane helpers, as syntax-tree nodes (no C++ text).
//!
//! Every node built here gets a position of its own ([`Parser::syn_span`]): the compiler keys
//! names and cross-lane calls by position, and one group call becomes several nodes.
//!
//! Sources, per group kind:
//! - thread block and tiles: CUDA C++ Programming Guide, "Cooperative Groups" (thread_block,
//!   thread_block_tile: `shfl*` with the tile as the shuffle's `width`, `ballot` / `any` / `all`
//!   / `match_any` over the tile's lanes with bit k = the tile's rank k; CUDA's masks are the
//!   tile's own lanes, so a block of fewer than 32 threads names no lane past its end, and a
//!   block that does not split into whole tiles gets undefined results, [`partial_tile_why`]);
//!   HIP Programming Guide,
//!   "Cooperative groups" (the same members; tiles up to the wavefront, 64 lanes on wave64).
//! - coalesced groups: CUDA C++ Programming Guide, "Cooperative Groups", coalesced_group: the
//!   group is the set of threads active where it was made; "thread_rank … the rank of the
//!   calling thread within [0, num_threads)", ranks follow lane order among the members;
//!   `shfl(var, src_rank)` reads the member of rank `src_rank`; `shfl_down` / `shfl_up` read the
//!   member `delta` ranks above / below, and a thread with no such member keeps its own value;
//!   `ballot` and `match_any` answer with bit k = the member of rank k; `sync` synchronizes the
//!   members. The coalesced group has no `shfl_xor` (neither CUDA's nor HIP's class lists one).
//!   HIP's `coalesced_group` has the same members and rules (HIP API reference,
//!   `cooperative_groups::coalesced_group`).

use super::cg::{partial_tile_why, Group, Meta};
use super::{PResult, Parser};
use crate::ast::*;
use crate::types::{BinOp, Scalar, Ty, UnOp, ValTy};
use crate::KernelError;

/// The call `grid.sync()` lowers to: a barrier of every thread of the grid, run by
/// `machine/grid_sync.rs` (each block parked there until every block of the grid is); the
/// semantic pass (`compile.rs`) refuses it at its line, for an entry that reaches it, when the
/// grid has more blocks than the model device holds at once.
pub(crate) const GRID_SYNC: &str = "__cg_grid_sync";

/// The grid barrier of `g.sync()` on a `thread_group` parameter `g` that a call gave the grid
/// (`reduce_sum(this_grid(), ws, v)`, asc-devkit's cooperative-groups sample): run as
/// [`GRID_SYNC`], reached only where the group is larger than the block. It is not refused
/// before the run for a grid larger than the model device holds, since most calls give such a
/// parameter a block or a tile (`cg_any.rs`).
pub(crate) const GRID_SYNC_ANY: &str = "__cg_grid_sync_any";

/// Why `grid.sync()` cannot run in a grid of more blocks than the model device holds at once
/// (CUDA C++ Programming Guide, Cooperative Groups, "Grid Synchronization": a cooperative
/// launch needs every block of the grid resident at once; CUDA Runtime API,
/// `cudaLaunchCooperativeKernel`: `cudaErrorCooperativeLaunchTooLarge`).
pub(crate) const GRID_SYNC_REFUSAL: &str =
    "`sync()` of a grid_group (`this_grid()`) needs every block of the grid resident at once \
    (a cooperative launch: cudaLaunchCooperativeKernel / hipLaunchCooperativeKernel, CUDA C++ \
    Programming Guide, Cooperative Groups, Grid Synchronization), and a cooperative launch of \
    more blocks than the device holds fails (cudaErrorCooperativeLaunchTooLarge); crosslane's \
    model device holds min(2048 / threads per block, 32) blocks (one multiprocessor, as \
    cudaOccupancyMaxActiveBlocksPerMultiprocessor answers here): launch at most that many \
    blocks (CLI: --blocks N)";
impl Parser<'_> {
    /// Whether groups lower to the unsynchronized wave operations (`__shfl*`, `__ballot`,
    /// `__fns64`, `__popcll`) with 64-bit member masks: HIP (HIP Programming Guide,
    /// "Cooperative groups": tiles up to the wavefront) and MACA, whose cooperative groups
    /// follow the same API on its 64-thread warp (MACA programming guide, seed 002 §3.4.1: a
    /// warp of 64 threads). CUDA's 32-lane `*_sync` registry operations would read the second
    /// 32-lane tile of a 64-lane warp as outside the mask.
    pub(super) fn cg_wide(&self) -> bool {
        self.sync64
    }

    /// The scalar type of a group's member mask: 32 bits for CUDA's warps, 64 for HIP, whose
    /// lane masks are `unsigned long long` on every wavefront size (HIP `__ballot`).
    pub(super) fn mask_scalar(&self) -> Scalar {
        if self.cg_wide() {
            Scalar::U64
        } else {
            Scalar::U32
        }
    }

    /// The mask's type.
    pub(super) fn mask_ty(&self) -> Ty {
        Ty::Val(ValTy::scalar(self.mask_scalar()))
    }

    pub(super) fn cg_node(&mut self, at: Span, kind: ExprKind) -> Expr {
        let s = self.syn_span(at);
        Expr::new(kind, s)
    }

    pub(super) fn e_call(&mut self, at: Span, name: &str, args: Vec<Expr>) -> Expr {
        self.cg_node(at, ExprKind::Call(name.to_string(), args))
    }

    /// An `int` literal (negative values as `-n`).
    pub(super) fn e_int(&mut self, at: Span, v: i64) -> Expr {
        let s = self.syn_span(at);
        let lit = int_lit(s, v.unsigned_abs());
        if v < 0 {
            self.cg_node(at, ExprKind::Unary(UnOp::Neg, Box::new(lit)))
        } else {
            lit
        }
    }

    /// A literal of the mask's type.
    pub(super) fn e_mask(&mut self, at: Span, v: u64) -> Expr {
        let long = self.cg_wide();
        self.cg_node(
            at,
            ExprKind::Int {
                value: v,
                unsigned: true,
                long,
            },
        )
    }

    pub(super) fn e_ident(&mut self, at: Span, name: &str) -> Expr {
        self.cg_node(at, ExprKind::Ident(name.to_string()))
    }

    /// The built-in `name` (`threadIdx`, `blockIdx`, `blockDim`, `gridDim`) as one value:
    /// `make_uint3(name.x, name.y, name.z)` (CUDA C++ Programming Guide, "Built-in Variables":
    /// each is a `uint3` / `dim3` of three components).
    pub(super) fn e_geometry(&mut self, at: Span, name: &str) -> Expr {
        let parts = ["x", "y", "z"]
            .iter()
            .map(|c| {
                let b = self.e_ident(at, name);
                self.e_member(at, b, c)
            })
            .collect();
        self.e_call(at, "make_uint3", parts)
    }

    /// `base[k]`, `base` a name.
    pub(super) fn e_index(&mut self, at: Span, base: &str, k: Expr) -> Expr {
        let b = self.e_ident(at, base);
        self.cg_node(at, ExprKind::Index(Box::new(b), Box::new(k)))
    }

    /// `target = value`.
    pub(super) fn e_assign(&mut self, at: Span, target: Expr, value: Expr) -> Expr {
        self.cg_node(
            at,
            ExprKind::Assign(None, Box::new(target), Box::new(value)),
        )
    }

    /// `base.field`.
    pub(super) fn e_member(&mut self, at: Span, base: Expr, field: &str) -> Expr {
        self.cg_node(at, ExprKind::Member(Box::new(base), field.to_string()))
    }

    pub(super) fn e_bin(&mut self, at: Span, op: BinOp, a: Expr, b: Expr) -> Expr {
        self.cg_node(at, ExprKind::Binary(op, Box::new(a), Box::new(b)))
    }

    /// HIP's `__lanemask_lt()`, `__lanemask_gt()` and `__lanemask_eq()` (HIP device functions,
    /// "Warp cross-lane functions"; the HIP headers define them): 64-bit masks of the lanes of
    /// the wavefront below, above and equal to the caller. The HIP definitions AND the `lt` and
    /// `gt` masks with `__ballot(1)` (the active lanes); `eq` is the caller's bit alone:
    /// `lt = ballot & ((1 << lane) − 1)`, `gt = ballot & ~((2 << lane) − 1)` (lane 63: 2 << 63
    /// wraps to 0, so the mask is empty), `eq = 1 << lane`, all in 64 bits.
    pub(super) fn hip_lanemask(&mut self, name: &str, at: Span) -> Expr {
        let lane = self.e_lane(at);
        if name == "__lanemask_eq" {
            let one = self.e_mask(at, 1);
            return self.e_bin(at, BinOp::Shl, one, lane);
        }
        let first = self.e_mask(at, if name == "__lanemask_lt" { 1 } else { 2 });
        let shifted = self.e_bin(at, BinOp::Shl, first, lane);
        let one_again = self.e_mask(at, 1);
        let below = self.e_bin(at, BinOp::Sub, shifted, one_again);
        let mask = if name == "__lanemask_lt" {
            below
        } else {
            self.cg_node(at, ExprKind::Unary(UnOp::BitNot, Box::new(below)))
        };
        let yes = self.e_int(at, 1);
        let active = self.e_call(at, "__ballot", vec![yes]);
        self.e_bin(at, BinOp::And, active, mask)
    }

    /// `__lane_id()`: the lane's index in its warp or wavefront.
    pub(super) fn e_lane(&mut self, at: Span) -> Expr {
        self.e_call(at, "__lane_id", Vec::new())
    }

    /// The thread's linear rank in its block, `x + X * (y + Y * z)` (CUDA C++ Programming
    /// Guide, "Thread Hierarchy").
    pub(super) fn e_linear(&mut self, at: Span) -> Expr {
        let part = |p: &mut Self, base: &str, f: &str| {
            let b = p.e_ident(at, base);
            p.cg_node(at, ExprKind::Member(Box::new(b), f.to_string()))
        };
        let (x, y, z) = (
            part(self, "threadIdx", "x"),
            part(self, "threadIdx", "y"),
            part(self, "threadIdx", "z"),
        );
        let (bx, by) = (part(self, "blockDim", "x"), part(self, "blockDim", "y"));
        let yz = self.e_bin(at, BinOp::Mul, by, z);
        let yz = self.e_bin(at, BinOp::Add, y, yz);
        let xyz = self.e_bin(at, BinOp::Mul, bx, yz);
        self.e_bin(at, BinOp::Add, x, xyz)
    }

    /// The block's thread count.
    pub(super) fn e_block_size(&mut self, at: Span) -> Expr {
        let part = |p: &mut Self, f: &str| {
            let b = p.e_ident(at, "blockDim");
            p.cg_node(at, ExprKind::Member(Box::new(b), f.to_string()))
        };
        let (x, y, z) = (part(self, "x"), part(self, "y"), part(self, "z"));
        let xy = self.e_bin(at, BinOp::Mul, x, y);
        self.e_bin(at, BinOp::Mul, xy, z)
    }

    /// The population count of a mask (`__popc` / `__popcll`).
    pub(super) fn e_popc(&mut self, at: Span, m: Expr) -> Expr {
        let f = if self.cg_wide() { "__popcll" } else { "__popc" };
        self.e_call(at, f, vec![m])
    }

    /// Every lane of the warp: the tile's `mask` argument (CUDA) and a full group's members.
    pub(super) fn full_mask(&self) -> u64 {
        if self.wave >= 64 {
            u64::MAX
        } else {
            (1u64 << self.wave) - 1
        }
    }

    /// The active lanes where this is evaluated: CUDA `__activemask()`; HIP `__ballot(1)`
    /// (the lanes whose predicate is true among the active ones: all of them).
    pub(super) fn e_active(&mut self, at: Span) -> Expr {
        if self.cg_wide() {
            let one = self.e_int(at, 1);
            self.e_call(at, "__ballot", vec![one])
        } else {
            self.e_call(at, "__activemask", Vec::new())
        }
    }

    /// A tile of `n` lanes: the lanes of the calling lane's tile, `((1 << n) - 1) << ((lane /
    /// n) * n)`.
    pub(super) fn e_tile_mask(&mut self, at: Span, n: u32) -> Expr {
        let low = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
        let low = self.e_mask(at, low);
        let shift = self.e_tile_shift(at, n);
        self.e_bin(at, BinOp::Shl, low, shift)
    }

    /// The first lane of the calling lane's tile of `n`: `(lane / n) * n`.
    fn e_tile_shift(&mut self, at: Span, n: u32) -> Expr {
        let lane = self.e_lane(at);
        let nn = self.e_int(at, i64::from(n));
        let q = self.e_bin(at, BinOp::Div, lane, nn);
        let nn = self.e_int(at, i64::from(n));
        self.e_bin(at, BinOp::Mul, q, nn)
    }

    /// `(bits >> ((lane / n) * n)) & ((1 << n) - 1)`: a warp-wide answer as the tile's, bit k
    /// = the tile's rank k.
    fn e_tile_bits(&mut self, at: Span, n: u32, bits: Expr) -> Expr {
        let shift = self.e_tile_shift(at, n);
        let down = self.e_bin(at, BinOp::Shr, bits, shift);
        let low = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
        let low = self.e_mask(at, low);
        self.e_bin(at, BinOp::And, down, low)
    }

    /// The calling thread's rank among the members of `m`: the members at lower lanes,
    /// `popc(m & ((1 << lane) - 1))`.
    pub(super) fn e_rank(&mut self, at: Span, m: Expr) -> Expr {
        let one = self.e_mask(at, 1);
        let lane = self.e_lane(at);
        let bit = self.e_bin(at, BinOp::Shl, one, lane);
        let one = self.e_mask(at, 1);
        let below = self.e_bin(at, BinOp::Sub, bit, one);
        let and = self.e_bin(at, BinOp::And, m, below);
        self.e_popc(at, and)
    }

    /// The warp's ballot of `p` (CUDA `__ballot_sync(mask, p)`; HIP `__ballot(p)`).
    pub(super) fn e_ballot(&mut self, at: Span, mask: Expr, p: Expr) -> Expr {
        if self.cg_wide() {
            self.e_call(at, "__ballot", vec![p])
        } else {
            self.e_call(at, "__ballot_sync", vec![mask, p])
        }
    }

    fn refuse<T>(at: Span, message: impl Into<String>) -> PResult<T> {
        Err(KernelError::new(at.line, at.col, message))
    }

    /// Operation `f` of a group on `args`: `mask` is the group's member mask (its variable, or
    /// the expression that made it) and `meta` its hidden `meta_group_rank` / `meta_group_size`
    /// variables, for a tile of a coalesced group.
    pub(super) fn cg_op(
        &mut self,
        group: Group,
        mask: Expr,
        meta: Option<(String, String)>,
        f: &str,
        args: &[Expr],
        at: Span,
    ) -> PResult<Expr> {
        let need = |k: usize| -> PResult<()> {
            if args.len() < k {
                Self::refuse(
                    at,
                    format!("`{f}` takes {k} argument(s), given {}", args.len()),
                )
            } else {
                Ok(())
            }
        };
        let arg = |k: usize| args.get(k).cloned();
        if let Group::Tile(n) = group {
            if n > self.wave {
                return self.big_tile_op(n, f, args, at);
            }
        }
        match (group, f) {
            (Group::Block, "thread_rank") => Ok(self.e_linear(at)),
            (Group::Block, "size" | "num_threads") => Ok(self.e_block_size(at)),
            // CUDA C++ Programming Guide, Cooperative Groups, "Thread Block Group":
            // `group_index()` is the block's 3-D index in the grid (`blockIdx`),
            // `thread_index()` the thread's 3-D index in the block (`threadIdx`),
            // `dim_threads()` (and the older `group_dim()`) the block's dimensions (`blockDim`).
            // Each a `dim3` value of the built-in's three components, as `uint3 t = threadIdx;`
            // reads (a bare built-in is no value of its own here).
            (Group::Block, "group_index") => Ok(self.e_geometry(at, "blockIdx")),
            (Group::Block, "thread_index") => Ok(self.e_geometry(at, "threadIdx")),
            (Group::Block, "dim_threads" | "group_dim") => Ok(self.e_geometry(at, "blockDim")),
            (Group::Block, "sync") => {
                self.cub_pending.clear();
                Ok(self.e_call(at, "__syncthreads", Vec::new()))
            }
            // The split barrier (CUDA C++ Programming Guide, Cooperative Groups, "thread_block":
            // `barrier_arrive()` returns an `arrival_token`, `barrier_wait(token&&)` waits for
            // every thread of the block to have arrived; HIP's `thread_block` the same,
            // `amd_hip_cooperative_groups.h`, whose `barrier_wait` is the work-group barrier
            // with its acquire fence). Arriving blocks no thread, so it lowers to its token (a
            // value nothing reads), and the wait to the block's barrier, where every write a
            // thread made before it is visible to the block after it (ROCm hip-tests'
            // `Unit_coop_thread_block_split_barrier` relies on that for a write between the two).
            (Group::Block, "barrier_arrive") => Ok(self.e_int(at, 0)),
            (Group::Block, "barrier_wait") => {
                self.cub_pending.clear();
                Ok(self.e_call(at, "__syncthreads", Vec::new()))
            }
            (Group::Any, _) => self.any_op(&mask, f, at),
            (Group::DynTile, _) => self.dyn_tile_op(mask, f, at),
            (Group::Grid, _) => self.grid_op(f, at),
            (Group::Tile(n), _) => self.tile_op(n, f, args, at, &need),
            (Group::Coalesced(m), _) => {
                let a0 = arg(0);
                let a1 = arg(1);
                self.coalesced_op(m, mask, meta, f, (a0, a1), at, &need)
            }
            (Group::Block, _) => Self::refuse(
                at,
                format!(
                    "cooperative groups: `{f}` on a thread block is not supported here \
                     (thread_rank, size, num_threads, sync, barrier_arrive, barrier_wait, \
                     group_index, thread_index, dim_threads; partition it with tiled_partition \
                     for shuffles and votes)"
                ),
            ),
        }
    }

    /// Operation `f` of the grid (`this_grid()`), CUDA C++ Programming Guide, Cooperative
    /// Groups, "Grid Group" (HIP: `amd_hip_cooperative_groups.h`, `grid_group`): `block_rank`
    /// is the block's linear index in the grid (x fastest), `num_blocks` the grid's block
    /// count, `thread_rank` `block_rank · block size + the thread's rank in its block`,
    /// `size` / `num_threads` every thread of the grid. `is_valid` says whether the grid can
    /// synchronize, which needs a cooperative launch (`cudaLaunchCooperativeKernel`); the
    /// emulator's launch is an ordinary one, so it is false. `block_index` and `dim_blocks`
    /// (legacy alias `group_dim`) are `blockIdx` and `gridDim`. `sync` is lowered to
    /// [`GRID_SYNC`], the grid's barrier (every block parked there until all are), refused
    /// for a grid larger than the model device holds at once.
    fn grid_op(&mut self, f: &str, at: Span) -> PResult<Expr> {
        let part = |p: &mut Self, base: &str, m: &str| {
            let b = p.e_ident(at, base);
            p.cg_node(at, ExprKind::Member(Box::new(b), m.to_string()))
        };
        let block_rank = |p: &mut Self| {
            let (x, y, z) = (
                part(p, "blockIdx", "x"),
                part(p, "blockIdx", "y"),
                part(p, "blockIdx", "z"),
            );
            let (gx, gy) = (part(p, "gridDim", "x"), part(p, "gridDim", "y"));
            let yz = p.e_bin(at, BinOp::Mul, gy, z);
            let yz = p.e_bin(at, BinOp::Add, y, yz);
            let xyz = p.e_bin(at, BinOp::Mul, gx, yz);
            p.e_bin(at, BinOp::Add, x, xyz)
        };
        let num_blocks = |p: &mut Self| {
            let (x, y, z) = (
                part(p, "gridDim", "x"),
                part(p, "gridDim", "y"),
                part(p, "gridDim", "z"),
            );
            let xy = p.e_bin(at, BinOp::Mul, x, y);
            p.e_bin(at, BinOp::Mul, xy, z)
        };
        match f {
            "block_rank" => Ok(block_rank(self)),
            "num_blocks" => Ok(num_blocks(self)),
            "thread_rank" => {
                let b = block_rank(self);
                let n = self.e_block_size(at);
                let base = self.e_bin(at, BinOp::Mul, b, n);
                let t = self.e_linear(at);
                Ok(self.e_bin(at, BinOp::Add, base, t))
            }
            "size" | "num_threads" => {
                let b = num_blocks(self);
                let n = self.e_block_size(at);
                Ok(self.e_bin(at, BinOp::Mul, b, n))
            }
            // Whether the launch is a cooperative one (`machine/coop_launch.rs`).
            "is_valid" => {
                Ok(self.e_call(at, crate::machine::coop_launch::GRID_IS_VALID, Vec::new()))
            }
            "sync" => Ok(self.e_call(at, GRID_SYNC, Vec::new())),
            // `block_index()` the block's 3-D index in the grid, `dim_blocks()` (and the
            // legacy alias `group_dim()`) the grid's dimensions in blocks: `blockIdx` and
            // `gridDim` as `dim3` values (Programming Guide, "Grid Group").
            "block_index" => Ok(self.e_geometry(at, "blockIdx")),
            "dim_blocks" | "group_dim" => Ok(self.e_geometry(at, "gridDim")),
            // The grid's split barrier (CUDA C++ Programming Guide, Cooperative Groups,
            // "grid_group": `barrier_arrive` / `barrier_wait`, HIP's `grid_group` the same):
            // the token is a value nothing reads; the wait is the grid's barrier.
            "barrier_arrive" => Ok(self.e_int(at, 0)),
            "barrier_wait" => Ok(self.e_call(at, GRID_SYNC, Vec::new())),
            _ => Self::refuse(
                at,
                format!(
                    "cooperative groups: `{f}` on a grid_group is not supported here \
                     (thread_rank, size, num_threads, num_blocks, block_rank, block_index, \
                     dim_blocks, group_dim, is_valid, sync, barrier_arrive, barrier_wait)"
                ),
            ),
        }
    }

    /// `value` (a tile collective's result) where the block's threads split evenly into
    /// tiles of `n`, undefined with the rule's reason elsewhere: the CUDA C++ Programming
    /// Guide, Cooperative Groups, "tiled_partition", makes "((size(parent)/tilesz) subgroups
    /// ... therefore the parent group size must be evenly divisible by the Size", so a block
    /// whose last tile is partial (10 threads, tiles of 4) breaks the partition's
    /// precondition and every collective over its tiles is undefined (never a number picked).
    /// HIP's tiles are left as they are (the HIP guide states no such rule).
    pub(super) fn whole_tiles(&mut self, at: Span, n: u32, value: Expr) -> Expr {
        if self.hip {
            return value;
        }
        let threads = self.e_block_size(at);
        let nn = self.e_int(at, i64::from(n));
        let rem = self.e_bin(at, BinOp::Rem, threads, nn);
        let zero = self.e_int(at, 0);
        let even = self.e_bin(at, BinOp::Eq, rem, zero);
        let why = partial_tile_why(n);
        let why = self.cg_node(at, ExprKind::Str(why));
        self.e_call(at, crate::builtins::VALID_ONLY, vec![value, even, why])
    }

    fn tile_op(
        &mut self,
        n: u32,
        f: &str,
        args: &[Expr],
        at: Span,
        need: &dyn Fn(usize) -> PResult<()>,
    ) -> PResult<Expr> {
        let a = |k: usize| args.get(k).cloned();
        let nn = i64::from(n);
        Ok(match f {
            "thread_rank" => {
                let lin = self.e_linear(at);
                let n = self.e_int(at, nn);
                self.e_bin(at, BinOp::Rem, lin, n)
            }
            "size" | "num_threads" => self.e_int(at, nn),
            "meta_group_rank" => {
                let lin = self.e_linear(at);
                let n = self.e_int(at, nn);
                self.e_bin(at, BinOp::Div, lin, n)
            }
            "meta_group_size" => {
                let size = self.e_block_size(at);
                let up = self.e_int(at, nn - 1);
                let sum = self.e_bin(at, BinOp::Add, size, up);
                let n = self.e_int(at, nn);
                self.e_bin(at, BinOp::Div, sum, n)
            }
            "sync" => {
                // The tile's own lanes (CUDA C++ Programming Guide, Cooperative Groups,
                // thread_block_tile: `sync` synchronizes the tile's threads): lanes past the
                // block's end are no members, as in a block of fewer than 32 threads.
                let m = self.e_tile_mask(at, n);
                self.e_call(at, "__syncwarp", vec![m])
            }
            "shfl" | "shfl_up" | "shfl_down" | "shfl_xor" => {
                need(2)?;
                let (v, x) = (a(0).unwrap_or_else(|| self.e_int(at, 0)), a(1));
                let x = x.unwrap_or_else(|| self.e_int(at, 0));
                // A struct value: shuffled member by member (`structs/shuffle.rs`).
                let is_struct = self.struct_of(&v).is_some();
                let r = self.cg_shfl_any(at, v, |p, v| {
                    let width = p.e_int(at, nn);
                    if p.cg_wide() {
                        p.e_call(at, &format!("__{f}"), vec![v, x.clone(), width])
                    } else {
                        let m = p.e_tile_mask(at, n);
                        p.e_call(at, &format!("__{f}_sync"), vec![m, v, x.clone(), width])
                    }
                });
                let r = self.whole_tiles(at, n, r);
                if is_struct {
                    return Ok(self.e_call(at, super::structs::STRUCT_SHFL, vec![r]));
                }
                return Ok(r);
            }
            "ballot" | "any" | "all" => {
                need(1)?;
                let p = a(0).unwrap_or_else(|| self.e_int(at, 0));
                let m = self.e_tile_mask(at, n);
                let b = self.e_ballot(at, m, p);
                let bits = self.e_tile_bits(at, n, b);
                let low = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
                let r = match f {
                    "ballot" => bits,
                    "any" => {
                        let z = self.e_mask(at, 0);
                        self.e_bin(at, BinOp::Ne, bits, z)
                    }
                    _ => {
                        let all = self.e_mask(at, low);
                        self.e_bin(at, BinOp::Eq, bits, all)
                    }
                };
                return Ok(self.whole_tiles(at, n, r));
            }
            "match_any" => {
                need(1)?;
                let v = a(0).unwrap_or_else(|| self.e_int(at, 0));
                if self.cg_wide() {
                    let members = self.e_tile_mask(at, n);
                    let b = self.e_hip_match(at, members, v);
                    let bits = self.e_tile_bits(at, n, b);
                    return Ok(self.whole_tiles(at, n, bits));
                }
                let m = self.e_tile_mask(at, n);
                let b = self.e_call(at, "__match_any_sync", vec![m, v]);
                let bits = self.e_tile_bits(at, n, b);
                return Ok(self.whole_tiles(at, n, bits));
            }
            // CUDA C++ Programming Guide, Cooperative Groups, `thread_block_tile::match_all(T
            // val, int &pred)`: the tile's mask (bit k = rank k) with `pred` true when every
            // member holds the same `val`, else 0 with `pred` false: `__match_all_sync` over
            // the tile's lanes, its mask brought to the tile's ranks.
            "match_all" if !self.hip => {
                need(2)?;
                let (Some(v), Some(pred)) = (a(0), a(1)) else {
                    return self.err("`match_all(value, pred)`");
                };
                let m = self.e_tile_mask(at, n);
                let addr = self.cg_node(at, ExprKind::AddrOf(Box::new(pred)));
                if self.cg_wide() {
                    // MACA: `__match_all_sync` over the 64-lane warp, as its own calls are
                    // lowered (`hip_sync`), the answer brought to the tile's ranks.
                    let call = self.hip_sync_call("__match_all_sync", &[m, v, addr], at)?;
                    let Some(b) = call else {
                        return self.err("`match_all(value, pred)`");
                    };
                    let bits = self.e_tile_bits(at, n, b);
                    return Ok(self.whole_tiles(at, n, bits));
                }
                let b = self.e_call(at, "__match_all_sync", vec![m, v, addr]);
                let bits = self.e_tile_bits(at, n, b);
                return Ok(self.whole_tiles(at, n, bits));
            }
            _ => {
                return Self::refuse(
                    at,
                    format!(
                        "cooperative groups: `{f}` on a tile is not supported here (supported: \
                         thread_rank, size, num_threads, meta_group_rank, meta_group_size, sync, \
                         shfl, shfl_up, shfl_down, shfl_xor, ballot, any, all, match_any; \
                         match_all in CUDA)"
                    ),
                )
            }
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn coalesced_op(
        &mut self,
        kind: Meta,
        m: Expr,
        meta: Option<(String, String)>,
        f: &str,
        (a0, a1): (Option<Expr>, Option<Expr>),
        at: Span,
        need: &dyn Fn(usize) -> PResult<()>,
    ) -> PResult<Expr> {
        let wave = i64::from(self.wave);
        let zero = |p: &mut Self| p.e_int(at, 0);
        Ok(match f {
            "thread_rank" => self.e_rank(at, m),
            "size" | "num_threads" => self.e_popc(at, m),
            "meta_group_rank" | "meta_group_size" => match (kind, meta) {
                (Meta::Whole, _) => self.e_int(at, i64::from(f == "meta_group_size")),
                (Meta::Tiled, Some((rank, size))) => {
                    let name = if f == "meta_group_rank" { rank } else { size };
                    self.e_ident(at, &name)
                }
                _ => {
                    return Self::refuse(
                        at,
                        format!(
                            "`{f}` of a coalesced group passed as a parameter is not known here: \
                             pass the value itself, or call it where the group is made"
                        ),
                    )
                }
            },
            "sync" => self.e_call(at, "__syncwarp", vec![m]),
            "shfl" => {
                need(2)?;
                let v = a0.unwrap_or_else(|| zero(self));
                let r = a1.unwrap_or_else(|| zero(self));
                // The member of rank r: the (r + 1)-th set bit of the mask (`fns`).
                let r = if self.cg_wide() {
                    let size = self.e_popc(at, m.clone());
                    self.e_bin(at, BinOp::Rem, r, size)
                } else {
                    r
                };
                let one = self.e_int(at, 1);
                let nth = self.e_bin(at, BinOp::Add, r, one);
                let base = self.e_int(at, 0);
                let fns = if self.cg_wide() { "__fns64" } else { "__fns" };
                let src = self.e_call(at, fns, vec![m.clone(), base, nth]);
                self.e_shfl_idx(at, v, src, wave)
            }
            "shfl_down" | "shfl_up" => {
                need(2)?;
                let v = a0.unwrap_or_else(|| zero(self));
                let d = a1.unwrap_or_else(|| zero(self));
                // The member `d` ranks above (below): the (d + 1)-th member from this lane,
                // upwards (downwards); none: the lane's own value.
                let int = Ty::Val(ValTy::scalar(Scalar::I32));
                let d = self.cg_node(at, ExprKind::Cast(int, Box::new(d)));
                let one = self.e_int(at, 1);
                let mut off = self.e_bin(at, BinOp::Add, d, one);
                if f == "shfl_up" {
                    off = self.cg_node(at, ExprKind::Unary(UnOp::Neg, Box::new(off)));
                }
                let lane = self.e_lane(at);
                let src = self.e_call(at, "__cg_fns_own", vec![m.clone(), lane, off]);
                self.e_shfl_idx(at, v, src, wave)
            }
            "shfl_xor" => {
                return Self::refuse(
                    at,
                    "a coalesced group has no shfl_xor (CUDA C++ Programming Guide, \
                     coalesced_group; HIP's class has none either): use shfl with a rank, or a \
                     thread_block_tile",
                )
            }
            "ballot" | "any" | "all" => {
                need(1)?;
                let p = a0.unwrap_or_else(|| zero(self));
                let act = self.e_active(at);
                let b = self.e_ballot(at, act, p);
                match f {
                    "ballot" => self.e_call(at, "__cg_pack", vec![m, b]),
                    "any" => {
                        let and = self.e_bin(at, BinOp::And, b, m);
                        let z = self.e_mask(at, 0);
                        self.e_bin(at, BinOp::Ne, and, z)
                    }
                    _ => {
                        let and = self.e_bin(at, BinOp::And, b, m.clone());
                        self.e_bin(at, BinOp::Eq, and, m)
                    }
                }
            }
            "match_any" => {
                need(1)?;
                let v = a0.unwrap_or_else(|| zero(self));
                if self.cg_wide() {
                    let b = self.e_hip_match(at, m.clone(), v);
                    return Ok(self.e_call(at, "__cg_pack", vec![m, b]));
                }
                let act = self.e_active(at);
                let b = self.e_call(at, "__match_any_sync", vec![act, v]);
                self.e_call(at, "__cg_pack", vec![m, b])
            }
            _ => {
                return Self::refuse(
                    at,
                    format!(
                        "cooperative groups: `{f}` on a coalesced group is not supported here \
                         (supported: thread_rank, size, num_threads, meta_group_rank, \
                         meta_group_size, sync, shfl, shfl_up, shfl_down, ballot, any, all, \
                         match_any)"
                    ),
                )
            }
        })
    }

    /// A read of lane `src` (a member of the group): CUDA `__shfl_sync(__activemask(), v, src,
    /// 32)`; HIP `__shfl(v, src, wave)`. The call's mask is every lane at the call: the groups
    /// of a partition call together, each lane with its own group, and the registry's
    /// `__shfl_sync` takes one mask for the warp; the source is always a member.
    pub(super) fn e_shfl_idx(&mut self, at: Span, v: Expr, src: Expr, wave: i64) -> Expr {
        self.cg_shfl_any(at, v, |p, v| {
            let w = p.e_int(at, wave);
            if p.cg_wide() {
                p.e_call(at, "__shfl", vec![v, src.clone(), w])
            } else {
                let act = p.e_active(at);
                p.e_call(at, "__shfl_sync", vec![act, v, src.clone(), w])
            }
        })
    }

    /// The members of a coalesced group made by `labeled_partition(parent, label)`: the
    /// parent's members with the calling thread's label (CUDA `__match_any_sync` over the
    /// lanes at the call, restricted to the parent).
    pub(super) fn e_labeled(&mut self, at: Span, parent: Expr, label: Expr) -> PResult<Expr> {
        if self.cg_wide() {
            return Ok(self.e_hip_match(at, parent, label));
        }
        let act = self.e_active(at);
        let same = self.e_call(at, "__match_any_sync", vec![act, label]);
        Ok(self.e_bin(at, BinOp::And, same, parent))
    }

    /// The members of a coalesced group made by `binary_partition(parent, pred)`: the parent's
    /// members whose predicate equals the calling thread's.
    pub(super) fn e_binary(&mut self, at: Span, parent: Expr, pred: Expr) -> Expr {
        let act = self.e_active(at);
        let b = self.e_ballot(at, act, pred);
        self.e_call(at, "__cg_side", vec![parent, b])
    }
}

/// The `int` literal `v` at `at`: [`Parser::e_int`]'s node, for the rewrites that run with no
/// parser at hand (`device_vars`).
pub(super) fn int_lit(at: Span, v: u64) -> Expr {
    Expr::new(
        ExprKind::Int {
            value: v,
            unsigned: false,
            long: false,
        },
        at,
    )
}

/// The `unsigned int` literal `v` at `at` (C++17 [lex.icon]/2, suffix `u`): the PTX rewrites'
/// immediates and special registers (`asm_sreg`, `asm_alu`, `asm_ops`).
pub(super) fn uint_lit(at: Span, v: u64) -> Expr {
    Expr::new(
        ExprKind::Int {
            value: v,
            unsigned: true,
            long: false,
        },
        at,
    )
}
