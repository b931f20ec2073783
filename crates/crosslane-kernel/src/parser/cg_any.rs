//! A `thread_group` parameter of a device function (`__device__ int reduce_sum(cg::thread_group
//! g, int* x, int val)`, the rocm-examples cooperative-groups sample's shape): a group whose
//! kind each call fixes — the thread block, a tile, a coalesced group.
//!
//! Source: CUDA C++ Programming Guide, "Cooperative Groups", `thread_group` (the base type of
//! every group: `sync()`, `thread_rank()`, `num_threads()` / `size()`); HIP Programming Guide,
//! "Cooperative groups", `thread_group` (`sync()`, `thread_rank()`, `size()`).
//!
//! The parameter holds the group's member mask, and two hidden parameters beside it hold the
//! calling thread's rank and the group's size, computed at each call from the argument's group
//! ([`Parser::cg_op`]). `g.sync()` is a block barrier when the group is larger than a warp
//! (only a thread block can be: a tile or a coalesced group lies within one warp) and the
//! members' warp barrier (`__syncwarp(mask)`) otherwise.
//!
//! The other `thread_group` the parser meets is the one `tiled_partition(block, n)` returns
//! when `n` is known only at run time (CUDA C++ Programming Guide, Cooperative Groups,
//! "tiled_partition": `thread_group tiled_partition(const thread_group& parent, unsigned
//! tilesz)`, "limited to power-of-2 sizes" up to 32; HIP: up to the wavefront)
//! ([`Group::DynTile`]): its variable holds the calling lane's tile, the lanes
//! `[n·⌊lane/n⌋, n·⌊lane/n⌋ + n)` of the warp (a block's tiles never straddle a warp: a power of
//! two up to the warp divides it), computed when the group is made; `n` is checked there, and
//! a size that is not a power of two up to the warp stops the run with an error naming it.

use super::cg::{Group, Made};
use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::types::{BinOp, Scalar, Ty, ValTy};
use crate::KernelError;

/// The positions of the `thread_group` parameters in a function template's parameter list
/// (`tokens`: its declaration; the list is the one after `name`), read from the tokens since an
/// instance is parsed after its calls.
pub(super) fn thread_group_slots(tokens: &[crate::lexer::Token], name: &str) -> Vec<usize> {
    let Some(open) = tokens.windows(2).position(|w| {
        matches!(&w[0].tok, Tok::Ident(n) if n == name) && matches!(w[1].tok, Tok::Punct("("))
    }) else {
        return Vec::new();
    };
    let mut slots = Vec::new();
    let (mut depth, mut slot, mut group) = (0u32, 0usize, false);
    for t in tokens.iter().skip(open + 1) {
        match &t.tok {
            Tok::Punct("(" | "<" | "[") => depth += 1,
            Tok::Punct(")") if depth == 1 => break,
            Tok::Punct(")" | ">" | "]") => depth = depth.saturating_sub(1),
            Tok::Punct(">>") => depth = depth.saturating_sub(2),
            Tok::Punct(",") if depth == 1 => {
                if group {
                    slots.push(slot);
                }
                slot += 1;
                group = false;
            }
            Tok::Ident(w) if depth == 1 && w == "thread_group" => group = true,
            _ => {}
        }
    }
    if group {
        slots.push(slot);
    }
    slots
}

/// Names of the hidden rank and size parameters of the `thread_group` parameter `g`.
pub(super) fn any_names(g: &str) -> (String, String) {
    (format!("__cg_rank_{g}"), format!("__cg_size_{g}"))
}

impl Parser<'_> {
    /// The hidden parameters after a `thread_group` parameter `name`.
    pub(super) fn any_group_params(&self, name: &str, at: Span) -> [Param; 2] {
        let (r, s) = any_names(name);
        let int = Ty::Val(ValTy::scalar(Scalar::I32));
        [r, s].map(|n| Param {
            name: n,
            ty: int,
            reference: false,
            const_ref: false,
            span: at,
        })
    }

    /// A member of a `thread_group` parameter: `thread_rank`, `size`, `num_threads` (its
    /// hidden parameters); other members are refused naming the ones it has.
    pub(super) fn any_op(&mut self, mask: &Expr, f: &str, at: Span) -> PResult<Expr> {
        let ExprKind::Ident(g) = &mask.kind else {
            return Err(KernelError::new(
                at.line,
                at.col,
                "a thread_group parameter",
            ));
        };
        let (r, s) = any_names(g);
        match f {
            "thread_rank" => Ok(self.e_ident(at, &r)),
            "size" | "num_threads" => Ok(self.e_ident(at, &s)),
            "sync" => Err(KernelError::new(
                at.line,
                at.col,
                "`sync()` of a thread_group is a statement here (`g.sync();`)",
            )),
            _ => Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "`{f}` is not a member of cooperative_groups::thread_group (it has sync, \
                     thread_rank, size and num_threads; CUDA C++ Programming Guide, Cooperative \
                     Groups): take a thread_block_tile or a coalesced_group for shuffles and votes"
                ),
            )),
        }
    }

    /// `g.sync();` of a `thread_group` parameter `g`: `if (size > warp) __syncthreads(); else
    /// __syncwarp(g);`. `None` (position kept) for any other statement.
    pub(super) fn any_sync_stmt(&mut self) -> PResult<Option<StmtKind>> {
        let Tok::Ident(g) = self.peek(0).clone() else {
            return Ok(None);
        };
        if self.groups.get(&g) != Some(&Group::Any)
            || !matches!(self.peek(1), Tok::Punct("."))
            || !matches!(self.peek(2), Tok::Ident(f) if f == "sync")
        {
            return Ok(None);
        }
        let at = self.span();
        for _ in 0..3 {
            self.bump();
        }
        self.expect_punct("(")?;
        self.expect_punct(")")?;
        self.expect_punct(";")?;
        self.cub_pending.clear();
        let (_, s) = any_names(&g);
        let size = self.e_ident(at, &s);
        let w = self.e_int(at, i64::from(self.wave));
        let big = self.e_bin(at, BinOp::Gt, size, w);
        let block = self.e_call(at, "__syncthreads", Vec::new());
        let m = self.e_ident(at, &g);
        let warp = self.e_call(at, "__syncwarp", vec![m]);
        let stmt = |e: Expr| Stmt {
            kind: StmtKind::Expr(e),
            span: at,
            end: at,
        };
        let in_block = StmtKind::If(big, Box::new(stmt(block)), Some(Box::new(stmt(warp))));
        // A group larger than the block is the grid (`this_grid()` given to the parameter):
        // its `sync()` is the grid barrier (CUDA C++ Programming Guide, Cooperative Groups,
        // "Grid Synchronization"), not the block's.
        let dim = |p: &mut Self, m: &str| {
            let b = p.e_ident(at, "blockDim");
            p.cg_node(at, ExprKind::Member(Box::new(b), m.to_string()))
        };
        let (x, y, z) = (dim(self, "x"), dim(self, "y"), dim(self, "z"));
        let xy = self.e_bin(at, BinOp::Mul, x, y);
        let threads = self.e_bin(at, BinOp::Mul, xy, z);
        let size = self.e_ident(at, &s);
        let grid = self.e_bin(at, BinOp::Gt, size, threads);
        let grid_sync = self.e_call(at, super::GRID_SYNC_ANY, Vec::new());
        Ok(Some(StmtKind::If(
            grid,
            Box::new(stmt(grid_sync)),
            Some(Box::new(Stmt {
                kind: in_block,
                span: at,
                end: at,
            })),
        )))
    }

    /// A call's arguments for a function with `thread_group` parameters at the user's argument
    /// positions `slots`: after each such group argument, the calling thread's rank in it and
    /// its size.
    ///
    /// # Errors
    /// An argument there that is not a group variable.
    pub(super) fn any_group_args(
        &mut self,
        callee: &str,
        args: &mut Vec<Expr>,
        slots: &[usize],
        at: Span,
    ) -> PResult<()> {
        for &k in slots.iter().rev() {
            let Some(arg) = args.get(k).cloned() else {
                continue;
            };
            let Some(group) = self.group_of(&arg) else {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "argument {} of `{callee}` is a thread_group: pass a group variable \
                         (`cg::thread_block b = cg::this_thread_block();` then `{callee}(b, …)`)",
                        k + 1
                    ),
                ));
            };
            let meta = match (&arg.kind, group) {
                (ExprKind::Ident(n), Group::Coalesced(super::cg::Meta::Tiled)) => {
                    Some(super::cg::meta_names(n))
                }
                _ => None,
            };
            let rank = self.cg_op(group, arg.clone(), meta.clone(), "thread_rank", &[], at)?;
            let size = self.cg_op(group, arg, meta, "size", &[], at)?;
            args.insert(k + 1, size);
            args.insert(k + 1, rank);
        }
        Ok(())
    }

    /// `tiled_partition(parent, n)` with `n` an expression known only at run time: a
    /// [`Group::DynTile`] whose members are `__cg_tile_of(full warp, __crosslane_tile_size(n, wave))`
    /// ([`crate::builtins::DYN_TILE_SIZE`] checks `n` per lane and stops the run where it is not
    /// a power of two up to the warp).
    ///
    /// # Errors
    /// A parent other than the thread block or a coalesced group (a tile's runtime partition
    /// is not supported): refused at `at`, naming the constant form.
    pub(super) fn dyn_tile(&mut self, parent: Made, n: Expr, at: Span) -> PResult<Made> {
        if let Group::Coalesced(_) = parent.group {
            // A tile of a coalesced group, its size known at run time (hip-tests'
            // `tiled_partition(coalesced_threads(), tileSz)`): its members by rank, n at a
            // time, as for a constant n (`parser::cg`), n checked per lane as a power of two
            // up to the warp (HIP Programming Guide, Cooperative Groups, tiled_partition).
            let wave = self.e_int(at, i64::from(self.wave));
            let size = self.e_call(at, crate::builtins::DYN_TILE_SIZE, vec![n, wave]);
            let mask = self.e_call(at, "__cg_tile_of", vec![parent.mask.clone(), size.clone()]);
            let rank = self.e_rank(at, parent.mask.clone());
            let meta_rank = self.e_bin(at, BinOp::Div, rank, size.clone());
            let members = self.e_popc(at, parent.mask);
            let one = self.e_int(at, 1);
            let up = self.e_bin(at, BinOp::Sub, size.clone(), one);
            let sum = self.e_bin(at, BinOp::Add, members, up);
            let meta_size = self.e_bin(at, BinOp::Div, sum, size);
            return Ok(Made {
                group: Group::Coalesced(super::cg::Meta::Tiled),
                mask,
                meta: Some((meta_rank, meta_size)),
            });
        }
        if parent.group != Group::Block {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "`tiled_partition(parent, n)` with `n` known only at run time is supported \
                     for a thread block parent (`cg::this_thread_block()`), not a {}: write \
                     `tiled_partition<4>(parent)` or `tiled_partition(parent, 4)` with the size \
                     the launch uses",
                    super::cg::group_type_name(parent.group)
                ),
            ));
        }
        let wave = self.e_int(at, i64::from(self.wave));
        let size = self.e_call(at, crate::builtins::DYN_TILE_SIZE, vec![n, wave]);
        let full = self.full_mask();
        let full = self.e_mask(at, full);
        let mask = self.e_call(at, "__cg_tile_of", vec![full, size]);
        Ok(Made {
            group: Group::DynTile,
            mask,
            meta: None,
        })
    }

    /// Member `f` of a [`Group::DynTile`] whose members are `mask` (CUDA C++ Programming
    /// Guide, Cooperative Groups, `thread_group`): `thread_rank()` the members below the
    /// calling lane, `size()` / `num_threads()` the members, `sync()` the members' warp
    /// barrier.
    ///
    /// # Errors
    /// Any other member (`shfl`, `ballot`, …: `thread_group` has none), naming the members it
    /// has and the tile to take instead.
    pub(super) fn dyn_tile_op(&mut self, mask: Expr, f: &str, at: Span) -> PResult<Expr> {
        match f {
            "thread_rank" => Ok(self.e_rank(at, mask)),
            "size" | "num_threads" => Ok(self.e_popc(at, mask)),
            "sync" => Ok(self.e_call(at, "__syncwarp", vec![mask])),
            _ => Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "`{f}` is not a member of the thread_group `tiled_partition(g, n)` returns \
                     for a runtime `n` (it has sync, thread_rank, size and num_threads; CUDA C++ \
                     Programming Guide, Cooperative Groups): use `tiled_partition<N>(g)` \
                     (a thread_block_tile) for shuffles and votes"
                ),
            )),
        }
    }
}

impl Parser<'_> {
    /// The tile size a value template parameter `tparam` of template `name` takes from a
    /// call's arguments `args`: the size of the tile passed where the function parameter is
    /// written `thread_block_tile<tparam>` (`cg::thread_block_tile<tileSz> const& g`), deduced as
    /// [temp.deduct.type]/8 deduces a class template's value argument. `None` when no such
    /// parameter takes a tile.
    pub(super) fn deduce_tile_arg(
        &self,
        name: &str,
        tparam: &super::targs::TParam,
        args: &[Expr],
    ) -> Option<super::targs::TArg> {
        tparam.value.as_ref()?;
        let param = tparam.name.as_str();
        let t = self.templates.get(name)?;
        let params = super::overload::split_params(super::overload::param_tokens(t.tokens())?);
        params.iter().zip(args).find_map(|(toks, arg)| {
            let names_tile = toks.windows(4).any(|w| {
                matches!(&w[0].tok, Tok::Ident(x) if x == "thread_block_tile")
                    && matches!(w[1].tok, Tok::Punct("<"))
                    && matches!(&w[2].tok, Tok::Ident(x) if x == param)
                    && matches!(w[3].tok, Tok::Punct(">" | ","))
            });
            match (names_tile, self.group_of(arg)) {
                (true, Some(Group::Tile(n))) => Some(super::targs::TArg::Value(i128::from(n))),
                _ => None,
            }
        })
    }
}
