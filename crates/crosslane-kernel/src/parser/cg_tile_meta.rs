//! A tile's place among its siblings (`meta_group_rank()`, `meta_group_size()`) carried into
//! the functions the tile is passed to.
//!
//! Source: CUDA C++ Programming Guide, "Cooperative Groups", "Thread Block Tile":
//! `meta_group_rank()` is the "linear rank of the group within the set of tiles partitioned
//! from a parent group (bounded by meta_group_size)", `meta_group_size()` the "number of groups
//! created when the parent group was partitioned". A tile of a tile (`tiled_partition<8>(warp32)`)
//! counts among the 4 tiles of its 32-thread parent, not among the block's tiles; the pair is a
//! property of the tile object, so it holds wherever the tile goes — by value, by reference, as
//! `thread_block_tile<8>` or as a deduced template `Group`.
//!
//! The declaring function keeps the pair in hidden variables ([`super::cg::meta_names`]). A
//! function with tile parameters takes the pair of each as two hidden parameters appended
//! after the user's parameters, named as those variables, so the body's `t.meta_group_rank()`
//! reads them as the declaring function reads its own. Each hidden parameter has a default
//! argument — the pair of a tile of the block (`linear / N`, `⌈block / N⌉`), what a tile that
//! is not a tile of a tile has — so a call the parser does not extend (a call that leaves out
//! a user's default argument, a call through a pointer) keeps today's block-based pair rather
//! than failing for its argument count.
//!
//! Which parameters take the pair: for a plain function, its tile parameters, recorded where
//! its parameter list is read (prototype or definition, before any call); for a function
//! template, whose instance is read after its calls, the call decides — each argument that is
//! a tile where the template's parameter is not a `thread_group` — and the instance's
//! parameter list follows that decision ([`Parser::tile_meta_hidden`]).

use super::cg::{meta_names, Group};
use super::Parser;
use crate::ast::*;
use crate::lexer::Tok;
use crate::types::{Scalar, Ty, ValTy};

/// A plain function with tile parameters, as its calls fill them.
#[derive(Clone)]
pub(super) struct TileFn {
    /// The user's parameter count.
    user_params: usize,
    /// The positions of its tile parameters.
    slots: Vec<usize>,
    /// The user's default arguments, in order (the trailing parameters').
    user_defaults: Vec<Expr>,
}

/// The tile parameters of the parameter list read last: (user's argument position, name,
/// tile size).
pub(super) type TileSlots = Vec<(usize, String, u32)>;

impl Parser<'_> {
    /// The hidden parameters (and their default arguments) for the tile parameters `tiles`
    /// of the parameter list just read, of function `name`; records the positions that calls
    /// of a plain function fill. For a template instance whose call chose the positions
    /// ([`Self::template_tile_meta_args`]), exactly those positions take a pair: one that the
    /// instance's list does not read as a tile gets an unused pair, so the call's argument
    /// count still matches.
    pub(super) fn tile_meta_hidden(
        &mut self,
        name: &str,
        tiles: TileSlots,
        user_params: usize,
        at: Span,
    ) -> (Vec<Param>, Vec<(String, Expr)>) {
        let chosen = self.tile_meta_expect.get(name).cloned();
        let slots: Vec<(usize, Option<(String, u32)>)> = match &chosen {
            Some(slots) => slots
                .iter()
                .map(|&k| {
                    let tile = tiles
                        .iter()
                        .find(|(s, _, _)| *s == k)
                        .map(|(_, n, size)| (n.clone(), *size));
                    (k, tile)
                })
                .collect(),
            None => tiles
                .into_iter()
                .map(|(s, n, size)| (s, Some((n, size))))
                .collect(),
        };
        if chosen.is_none() && !slots.is_empty() {
            let user_defaults = self.param_defaults.iter().map(|(_, d)| d.clone()).collect();
            self.tile_meta_fns.insert(
                name.to_string(),
                TileFn {
                    user_params,
                    slots: slots.iter().map(|(k, _)| *k).collect(),
                    user_defaults,
                },
            );
        }
        let int = Ty::Val(ValTy::scalar(Scalar::I32));
        let mut params = Vec::new();
        let mut defaults = Vec::new();
        for (k, tile) in slots {
            let ((r, s), n) = match tile {
                Some((g, n)) => (meta_names(&g), n),
                None => (
                    (
                        format!("{}unused_rank_{k}", super::cg::HIDDEN_META_PREFIX),
                        format!("{}unused_size_{k}", super::cg::HIDDEN_META_PREFIX),
                    ),
                    self.wave,
                ),
            };
            let mask = self.e_tile_mask(at, n);
            let rank = self.block_tile_meta(n, mask.clone(), "meta_group_rank", at);
            let size = self.block_tile_meta(n, mask, "meta_group_size", at);
            for (p, d) in [(r, rank), (s, size)] {
                params.push(Param {
                    name: p.clone(),
                    ty: int,
                    reference: false,
                    const_ref: false,
                    span: at,
                });
                if let Some(d) = d {
                    defaults.push((p, d));
                }
            }
        }
        (params, defaults)
    }

    /// The block-based member `f` of a tile of `n` (a tile of the block).
    fn block_tile_meta(&mut self, n: u32, mask: Expr, f: &str, at: Span) -> Option<Expr> {
        self.cg_op(Group::Tile(n), mask, None, f, &[], at).ok()
    }

    /// The pair a tile argument `arg` (a tile of `n`) carries: its hidden variables or
    /// parameters where it has them (a tile of a tile, or a tile parameter), the block-based
    /// pair otherwise.
    fn tile_meta_of(&mut self, arg: &Expr, n: u32, at: Span) -> Option<(Expr, Expr)> {
        if let Some((r, s)) = self.made_meta.get(&arg.id) {
            return Some((r.clone(), s.clone()));
        }
        if let ExprKind::Ident(g) = &arg.kind {
            let (r, s) = meta_names(g);
            if self.var_type(&r).is_some() && self.var_type(&s).is_some() {
                return Some((self.e_ident(at, &r), self.e_ident(at, &s)));
            }
        }
        let rank = self.block_tile_meta(n, arg.clone(), "meta_group_rank", at)?;
        let size = self.block_tile_meta(n, arg.clone(), "meta_group_size", at)?;
        Some((rank, size))
    }

    /// The pairs a call of the plain function `callee` appends for its tile parameters
    /// (`args`: the user's arguments as written). Empty when `callee` has none, or the call
    /// leaves out a default argument (its defaults then stand).
    pub(super) fn tile_meta_args(&mut self, callee: &str, args: &[Expr], at: Span) -> Vec<Expr> {
        let Some(f) = self.tile_meta_fns.get(callee).cloned() else {
            return Vec::new();
        };
        // Trailing arguments left out take their default arguments (C++17
        // [dcl.fct.default]/1), written out here so that the pairs follow them.
        let missing = f.user_params.saturating_sub(args.len());
        if args.len() > f.user_params || missing > f.user_defaults.len() {
            return Vec::new();
        }
        let Some(pairs) = self.pairs_for(args, &f.slots, at) else {
            return Vec::new();
        };
        let mut out: Vec<Expr> = f.user_defaults[f.user_defaults.len() - missing..].to_vec();
        out.extend(pairs);
        out
    }

    /// The pairs for the tile arguments at `slots`; `None` when one is no tile.
    fn pairs_for(&mut self, args: &[Expr], slots: &[usize], at: Span) -> Option<Vec<Expr>> {
        let mut out = Vec::new();
        for &k in slots {
            let arg = args.get(k)?;
            let n = match self.group_of(arg) {
                Some(Group::Tile(n)) => n,
                _ => return None,
            };
            let (r, s) = self.tile_meta_of(arg, n, at)?;
            out.push(r);
            out.push(s);
        }
        Some(out)
    }

    /// The pairs a call of the function template `name` (instance `instance`) appends: one
    /// for each argument that is a tile whose parameter is not a `thread_group`; the positions
    /// are recorded for the instance's parameter list. Empty when the template's parameter
    /// list does not match the arguments one to one (a pack, a default left out).
    pub(super) fn template_tile_meta_args(
        &mut self,
        name: &str,
        instance: &str,
        args: &[Expr],
        at: Span,
    ) -> Vec<Expr> {
        let slots = {
            let Some(t) = self.templates.get(name) else {
                return Vec::new();
            };
            let Some(toks) = super::overload::param_tokens(t.tokens()) else {
                return Vec::new();
            };
            let params = super::overload::split_params(toks);
            let packed = params
                .iter()
                .any(|p| p.iter().any(|t| matches!(t.tok, Tok::Punct("..." | ".."))));
            if packed || params.len() != args.len() {
                return Vec::new();
            }
            params
                .iter()
                .zip(args)
                .enumerate()
                .filter(|(_, (p, a))| {
                    matches!(self.group_of(a), Some(Group::Tile(_)))
                        && !p
                            .iter()
                            .any(|t| matches!(&t.tok, Tok::Ident(w) if w == "thread_group"))
                })
                .map(|(k, _)| k)
                .collect::<Vec<_>>()
        };
        if slots.is_empty() {
            return Vec::new();
        }
        let Some(pairs) = self.pairs_for(args, &slots, at) else {
            return Vec::new();
        };
        self.tile_meta_expect.insert(instance.to_string(), slots);
        pairs
    }
}
