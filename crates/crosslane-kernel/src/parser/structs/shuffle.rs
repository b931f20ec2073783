//! Shuffles of a user struct: `tile.shfl_down(p, d)` of a `struct Pair { float v; int i; }`.
//!
//! CUDA C++ Programming Guide, Cooperative Groups, `thread_block_tile` member functions:
//! `T shfl_down(T var, unsigned int delta)` (and `shfl`, `shfl_up`, `shfl_xor`) take any `T`
//! that is trivially copyable (its size a multiple of 4 bytes in the guide's older
//! editions); the tile moves each 32-bit word of `var` from the one source lane the operation
//! names. Every word of the struct comes from that same lane (or, where the source lies
//! outside the tile, stays the lane's own), so the result is the source lane's whole struct:
//! here one shuffle per member ("leaf"), which gives exactly that, padding aside.
//!
//! The free functions are not templates over any type: `__shfl_sync`, `__shfl_up_sync`,
//! `__shfl_down_sync`, `__shfl_xor_sync` take `int`, `unsigned int`, `long`, `unsigned long`,
//! `long long`, `unsigned long long`, `float`, `double`, and with `cuda_fp16.h` /
//! `cuda_bf16.h` `__half`, `__half2`, `__nv_bfloat16`, `__nv_bfloat162` (CUDA C++ Programming
//! Guide, Warp Shuffle Functions); HIP's `__shfl*` likewise take scalars (HIP Programming
//! Guide, Warp shuffle functions). A struct there is refused before the run, as nvcc finds no
//! overload ([`Parser::refuse_struct_shuffle`]).

use super::super::{PResult, Parser};
use super::Leaves;
use crate::ast::*;
use crate::builtins::VALID_ONLY;
use crate::KernelError;

/// The wrapper [`super::super::cg_lower`] puts around a group shuffle whose value is a struct; its
/// one argument is the shuffle of the whole struct, read leaf by leaf in
/// [`Parser::struct_shuffle_leaves`].
pub(crate) const STRUCT_SHFL: &str = "@cg_struct_shfl";

/// The free shuffles: the name and the index of the value argument.
fn free_shuffle(name: &str) -> Option<usize> {
    match name {
        "__shfl_sync" | "__shfl_up_sync" | "__shfl_down_sync" | "__shfl_xor_sync" => Some(1),
        "__shfl" | "__shfl_up" | "__shfl_down" | "__shfl_xor" => Some(0),
        _ => None,
    }
}

/// The shuffle inside `@cg_struct_shfl(…)`'s arguments (past the whole-tile check), its name,
/// arguments and the index of the value argument.
fn inner_shuffle(args: &[Expr]) -> Option<(&Expr, Option<&[Expr]>)> {
    let inner = args.first()?;
    Some(match &inner.kind {
        ExprKind::Call(n, a) if n == VALID_ONLY && a.len() == 3 => (&a[0], Some(&a[1..])),
        _ => (inner, None),
    })
}

/// The value a `@cg_struct_shfl(…)` shuffles (the struct argument).
pub(crate) fn shuffled_value(args: &[Expr]) -> Option<&Expr> {
    let (call, _) = inner_shuffle(args)?;
    let ExprKind::Call(fname, fargs) = &call.kind else {
        return None;
    };
    fargs.get(free_shuffle(fname)?)
}

/// Whether a free shuffle at `span` is the one inside crosslane's declaration of rocPRIM's
/// `warp_shuffle` / `_up` / `_down` / `_xor` (`parser/rocprim_prelude.rs`), which take any
/// type: rocPRIM API, "Warp-level intrinsics" (`template<class T> T warp_shuffle_up(const T&
/// input, …)`; the library moves a larger `T` in 32-bit words, each from the same source
/// lane, so the result is the source lane's whole value), read as a tile's shuffle of a struct
/// is, member by member.
pub(crate) fn rocprim_shuffle(span: Span) -> bool {
    span.col % crate::ast::SYNTH_COL >= crate::ast::ROCPRIM_PRELUDE_COL
}

impl Parser<'_> {
    /// The leaves of `@cg_struct_shfl(shuffle)`: the shuffle applied to each leaf of its
    /// struct argument, the other arguments (mask, offset, width) repeated, which must be
    /// names, literals or operators on them (evaluated once per member); a struct with an
    /// array member is refused.
    pub(crate) fn struct_shuffle_leaves(
        &mut self,
        args: &[Expr],
        span: Span,
    ) -> PResult<Option<(String, Leaves)>> {
        // `__crosslane_valid_only(shuffle, whole_tiles, why)` around the shuffle (CUDA).
        let Some((call, wrap)) = inner_shuffle(args) else {
            return Ok(None);
        };
        let ExprKind::Call(fname, fargs) = &call.kind else {
            return Ok(None);
        };
        let Some(k) = free_shuffle(fname) else {
            return Ok(None);
        };
        let Some(value) = fargs.get(k) else {
            return Ok(None);
        };
        let Some((s, leaves)) = self.leaves_of(value, None)? else {
            return Ok(None);
        };
        let refuse = |m: String| Err(KernelError::new(span.line, span.col, m));
        if self.leaves(&s, span)?.iter().any(|l| l.count > 0) {
            return refuse(format!(
                "a group shuffle of the struct `{s}`, which has an array member, is not \
                 supported; shuffle its members one by one"
            ));
        }
        // The source lane, offset or mask the source wrote follows the value; the mask,
        // width and whole-tile check around it are the group lowering's own pure nodes.
        let offset_repeats = fargs
            .get(k + 1)
            .is_none_or(|a| super::super::cg_vec::repeatable(a, 0));
        if !offset_repeats {
            return refuse(format!(
                "a group shuffle of the struct `{s}` runs once per member here, so its other \
                 arguments must have no side effects: compute the offset into a variable first"
            ));
        }
        let mut out = Vec::new();
        for (path, leaf) in leaves {
            let mut a = fargs.clone();
            a[k] = leaf;
            let sp = self.syn_span(span);
            let mut e = Expr::new(ExprKind::Call(fname.clone(), a), sp);
            if let Some(w) = wrap {
                let mut wa = vec![e];
                wa.extend(w.iter().cloned());
                e = Expr::new(ExprKind::Call(VALID_ONLY.to_string(), wa), sp);
            }
            out.push((path, e));
        }
        Ok(Some((s, out)))
    }

    /// A free shuffle (`__shfl_down_sync(m, p, d)`) of a struct argument: refused, naming the
    /// types the function takes and what to write instead.
    pub(crate) fn refuse_struct_shuffle(
        &self,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> PResult<()> {
        let Some(k) = free_shuffle(name) else {
            return Ok(());
        };
        let Some(s) = args.get(k).and_then(|a| self.struct_of(a)) else {
            return Ok(());
        };
        if rocprim_shuffle(span) {
            return Ok(());
        }
        Err(KernelError::new(
            span.line,
            span.col,
            format!(
                "`{name}` takes int, unsigned, long, long long (signed or unsigned), float, \
                 double, __half, __half2, __nv_bfloat16 or __nv_bfloat162 (CUDA C++ Programming \
                 Guide, Warp Shuffle Functions), not the struct `{s}`: shuffle each member \
                 (`r.v = {name}(…, p.v, …);`) or use a cooperative-groups tile's shuffle \
                 (`tile.shfl_down(p, d)`), which takes any trivially-copyable type"
            ),
        ))
    }
}
