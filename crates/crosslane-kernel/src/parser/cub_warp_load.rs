//! CUB's `WarpLoad` and `WarpStore`: `WarpLoad<T, ITEMS_PER_THREAD, ALGORITHM,
//! LOGICAL_WARP_THREADS>(temp).Load(ptr, items[, valid_items[, oob_default]])` and
//! `WarpStore<…>(temp).Store(ptr, items[, valid_items])`, read as the block classes'
//! loads and stores ([`super::cub_load`]) over one logical warp: the thread's rank is its lane
//! in its logical warp (`linear thread index % LOGICAL_WARP_THREADS`, CUB's `WarpLoad`:
//! "the thread's lane within the warp"), the tile starting at `ptr`.
//!
//! Arrangements (CUB API, `cub::WarpLoadAlgorithm` / `cub::WarpStoreAlgorithm`):
//! `WARP_LOAD_DIRECT`, `_VECTORIZE` and `_TRANSPOSE` leave a *blocked* arrangement (lane `l`
//! holds items `l·N + i`; the vector loads and the transposing exchange change how, not which,
//! items a lane gets); `WARP_LOAD_STRIPED` a *striped* one (lane `l` holds `l + i·L`). The
//! stores take the same arrangements. A guarded load (`valid_items`) of a direct or striped
//! algorithm assigns nothing to an item past `valid_items` (CUB's `LoadDirectBlocked` /
//! `LoadDirectStriped` with a range); the transposing one with no `oob_default` is refused
//! (after its exchange such an item is another lane's unset slot).

use super::cub::{CubClass, Kind};
use super::{PResult, Parser};
use crate::ast::*;
use crate::types::BinOp;
use crate::KernelError;

/// The algorithms after `WARP_LOAD_` / `WARP_STORE_`.
const ALGORITHMS: &[&str] = &["DIRECT", "STRIPED", "VECTORIZE", "TRANSPOSE"];

/// Most items per thread read here.
const MAX_ITEMS: u32 = 256;

impl Parser<'_> {
    /// The template arguments of `WarpLoad<T, N[, ALGORITHM[, LOGICAL_WARP_THREADS]]>` (or
    /// `WarpStore`) after the name.
    ///
    /// # Errors
    /// A struct or vector `T`, a non-constant count, an unknown algorithm, a logical warp
    /// that is no power of two up to the warp.
    pub(super) fn cub_warp_load_args(
        &mut self,
        name: &str,
        record: bool,
        at: Span,
    ) -> PResult<CubClass> {
        let elem = self.cub_scalar_elem(name, record, at)?;
        self.expect_punct(",")?;
        let items = self.cub_const(&format!("{name}'s ITEMS_PER_THREAD"))?;
        let prefix = if name == "WarpLoad" {
            "WARP_LOAD_"
        } else {
            "WARP_STORE_"
        };
        let mut alg = format!("{prefix}DIRECT");
        let warp = self.cub_warp();
        let mut threads = warp;
        if self.eat(",") {
            alg = self.cub_algorithm(name, prefix, ALGORITHMS)?;
            if self.eat(",") {
                threads = self.cub_const(&format!("{name}'s LOGICAL_WARP_THREADS"))?;
            }
        }
        self.cub_logical_warp(
            &format!("{name}<T, {items}, {alg}, {threads}>"),
            threads,
            at,
        )?;
        if items > MAX_ITEMS {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("{name} of {items} items per thread: at most {MAX_ITEMS} are modelled"),
            ));
        }
        Ok(CubClass {
            kind: if name == "WarpLoad" {
                Kind::BlockLoad
            } else {
                Kind::BlockStore
            },
            elem,
            record: None,
            threads,
            items,
            alg,
            value: None,
        })
    }

    /// Checks the `LOGICAL_WARP_THREADS` of a warp class (`WarpLoad`, `WarpStore`,
    /// `WarpExchange`; `head` is the class as written, for the message): a power of two up to
    /// the hardware warp ([`Self::cub_warp`]).
    ///
    /// # Errors
    /// Any other count.
    pub(super) fn cub_logical_warp(&self, head: &str, threads: u32, at: Span) -> PResult<()> {
        let warp = self.cub_warp();
        if threads > warp || !threads.is_power_of_two() {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!("{head}: a logical warp of a power of two up to the {warp}-lane warp"),
            ));
        }
        Ok(())
    }

    /// The call of a warp class's load or store: the direct function of the arrangement
    /// ([`Self::cub_load_fn`]) with the lane in the logical warp as the thread's rank.
    ///
    /// # Errors
    /// A guarded transposing load without `oob_default`.
    pub(super) fn cub_warp_load_fn_call(
        &mut self,
        c: &CubClass,
        (ptr, items, rest): (Expr, Expr, Vec<Expr>),
        at: Span,
    ) -> PResult<Expr> {
        if c.kind == Kind::BlockLoad && c.alg.ends_with("TRANSPOSE") && rest.len() == 1 {
            return Err(KernelError::new(
                at.line,
                at.col,
                "WarpLoad with WARP_LOAD_TRANSPOSE and valid_items but no oob_default leaves \
                 an item past valid_items another lane's unset slot (CUB API, WarpLoad::Load); \
                 give oob_default, or use WARP_LOAD_DIRECT",
            ));
        }
        let f = self.cub_load_fn(c, rest.len(), true, at);
        let lin = self.e_linear(at);
        let w = self.e_int(at, i64::from(c.threads));
        let lane = self.e_bin(at, BinOp::Rem, lin, w);
        let mut args = vec![lane, ptr, items];
        args.extend(rest);
        Ok(self.e_call(at, &f, args))
    }
}
