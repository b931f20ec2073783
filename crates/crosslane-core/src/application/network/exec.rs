//! Sorting large arrays with the network, in place, without materializing it.
//!
//! The comparators executed are exactly those of [`super::closed_form`] in an order that respects
//! every data dependency (each position sees its comparators in stage order), so the result is
//! the network's result, bit for bit, including where equal keys' values end up; the tests
//! (`network_exec`) compare it with [`super::Network::apply_pairs`] on duplicate-heavy inputs.
//!
//! How it is fast:
//! * **Runs, not comparators.** In every stage the comparators form runs: `k = p` pairs the two
//!   halves of each `2p` block, `k < p` pairs `[k + 2km, 2k + 2km)` with the `k` positions after
//!   it. A run pair is two equal slices zipped through a branchless compare-exchange (`min` /
//!   `max` for keys, selects for key–value pairs), so the compiler vectorizes it; `k ∈ {1, 2, 4}`
//!   use const-generic kernels so the short runs are unrolled. (Those short runs still compile to
//!   scalar code on baseline x86-64 and cost about 2–3× a long run per comparator; fusing the
//!   three into two 8-item passes measured only ~20% faster on them, so it is not done.)
//! * **Cache tiles** of `block` items (16 KiB by default, [`ExecOptions::for_item_bytes`]).
//!   Phase 1: every stage with `2p ≤ block` stays inside one tile, so each tile runs all of them
//!   while it sits in L1. Phase 2, for each larger `p`: the stages `k ≥ block` stream over the array
//!   one by one; the stages `k < block` are fused into two passes, because a comparator of such a
//!   stage either lies inside one tile or in the `block`-wide window centred on a tile boundary
//!   (its window `[c − k, c + k)` is centred on a multiple `c` of `2k`). A position at distance `d`
//!   from a boundary meets its boundary comparators in the stages `k ≥ d` and its in-tile ones in
//!   the stages `k < d`, i.e. always boundary first: so pass A runs all boundary windows through
//!   all those stages, then pass B runs every tile through them (the in-tile comparators are
//!   exactly the stages `(block/2, k)` applied to the tile).
//! * **Parallel natively, sequential on wasm32.** Tiles and boundary windows (which rayon groups
//!   into tasks adaptively) and the streamed stages (chunks of [`GRAIN`] items) go to rayon,
//!   never a task per comparator; in the browser (no threads) the same code runs the chunks in
//!   order.
//! * **No allocation.** Everything works on sub-slices of the caller's arrays; nothing is
//!   allocated per stage or per comparator (`tests/network_alloc.rs` counts it on the sequential
//!   path; rayon's own job bookkeeping is the only allocation on the parallel one).

use super::stage_params;
use crate::error::InputError;

#[cfg(not(target_arch = "wasm32"))]
use rayon::prelude::*;

/// Items per parallel task: below this the thread hand-off costs more than the comparators.
pub const GRAIN: usize = 1 << 15;

/// Bytes of one cache tile: a tile plus a boundary window stay in a 32 KiB L1 data cache.
pub const TILE_BYTES: usize = 16 * 1024;

/// How [`sort_keys_with`] / [`sort_pairs_with`] run. The result does not depend on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExecOptions {
    /// Cache tile in items: a power of two ≥ 2.
    pub block: usize,
    /// Hand chunks to rayon's thread pool (native only; ignored on wasm32, which has no threads).
    pub parallel: bool,
}

impl ExecOptions {
    /// A [`TILE_BYTES`] tile for items of `bytes` bytes (per key, plus per value when sorting
    /// pairs), rounded down to a power of two, at least 2; parallel.
    pub fn for_item_bytes(bytes: usize) -> ExecOptions {
        let items = (TILE_BYTES / bytes.max(1)).max(2);
        ExecOptions {
            block: 1 << (usize::BITS - 1 - items.leading_zeros()),
            parallel: true,
        }
    }

    fn check(self) -> Result<(), InputError> {
        if self.block >= 2 && self.block.is_power_of_two() {
            Ok(())
        } else {
            Err(InputError::new(
                "block",
                format!(
                    "the cache tile must be a power of two ≥ 2 items, got {}",
                    self.block
                ),
            ))
        }
    }
}

/// Sorts `keys` ascending with the odd-even merge network (not stable; see the module docs of
/// [`super`]). Any length; parallel natively.
pub fn sort_keys<T: Ord + Copy + Send>(keys: &mut [T]) {
    let opts = ExecOptions::for_item_bytes(std::mem::size_of::<T>());
    run(keys, opts.block, opts.parallel);
}

/// [`sort_keys`] with explicit options.
///
/// # Errors
/// [`InputError`] on field `block` unless `opts.block` is a power of two ≥ 2.
pub fn sort_keys_with<T: Ord + Copy + Send>(
    keys: &mut [T],
    opts: ExecOptions,
) -> Result<(), InputError> {
    opts.check()?;
    run(keys, opts.block, opts.parallel);
    Ok(())
}

/// Sorts `keys` ascending and moves `values[i]` with `keys[i]`. Not stable: values of equal keys
/// come out in the network's order, not input order.
///
/// # Errors
/// [`InputError`] on field `values` when the slices differ in length.
pub fn sort_pairs<K: Ord + Copy + Send, V: Copy + Send>(
    keys: &mut [K],
    values: &mut [V],
) -> Result<(), InputError> {
    let opts = ExecOptions::for_item_bytes(std::mem::size_of::<K>() + std::mem::size_of::<V>());
    sort_pairs_with(keys, values, opts)
}

/// [`sort_pairs`] with explicit options.
///
/// # Errors
/// [`InputError`] on field `values` when the slices differ in length, on `block` as in
/// [`sort_keys_with`].
pub fn sort_pairs_with<K: Ord + Copy + Send, V: Copy + Send>(
    keys: &mut [K],
    values: &mut [V],
    opts: ExecOptions,
) -> Result<(), InputError> {
    opts.check()?;
    if keys.len() != values.len() {
        return Err(InputError::new(
            "values",
            format!(
                "needs exactly one value per key: {} keys, {} values",
                keys.len(),
                values.len()
            ),
        ));
    }
    run((keys, values), opts.block, opts.parallel);
    Ok(())
}

/// The array(s) being sorted: keys alone, or keys with values in lockstep. Every operation the
/// executor needs, so that the schedule below is written once.
trait Columns: Sized + Send {
    /// A shorter-lived view of the same columns.
    type Re<'b>: Columns
    where
        Self: 'b;
    fn re(&mut self) -> Self::Re<'_>;
    fn len(&self) -> usize;
    /// `(self[..mid], self[mid..])`; `mid ≤ len`.
    fn split_at(self, mid: usize) -> (Self, Self);
    /// Compare-exchange `lo[r]` with `hi[r]` for every `r` below the shorter length.
    fn cx_runs(lo: Self, hi: Self);
    /// For every chunk of `2k` (the last possibly short): its first `k` against the rest.
    fn half_clean(self, k: usize);
    /// `f(i, chunk)` for the chunks of `size` items, in parallel where allowed.
    fn for_chunks<F: Fn(usize, Self) + Sync + Send>(self, size: usize, parallel: bool, f: F);
    /// `f(lo_chunk, hi_chunk)` over equal-offset chunks of two columns, in parallel where allowed.
    fn for_chunk_pairs<F: Fn(Self, Self) + Sync + Send>(
        lo: Self,
        hi: Self,
        size: usize,
        parallel: bool,
        f: F,
    );

    /// `f(chunk)` for the chunks of `size` items, in order.
    fn chunks_seq(mut self, size: usize, mut f: impl FnMut(Self)) {
        while self.len() > size {
            let (head, tail) = self.split_at(size);
            f(head);
            self = tail;
        }
        if self.len() > 0 {
            f(self);
        }
    }
}

/// Ascending compare-exchange, branchless: `min` / `max` (for equal keys `min` keeps the first
/// and `max` the second, so nothing moves, as in the network). LLVM emits vector min/max for
/// primitive keys; on x86-64 this form measured 0.24 ns per comparator on long runs against
/// 0.39 ns for the equivalent pair of selects.
#[inline(always)]
fn cx<T: Ord + Copy>(a: &mut T, b: &mut T) {
    let (x, y) = (*a, *b);
    *a = x.min(y);
    *b = x.max(y);
}

/// The key–value compare-exchange: one comparison picks both keys and both values, so values
/// stay with their keys (selects; no branch).
#[inline(always)]
fn cx_kv<K: Ord + Copy, V: Copy>(ka: &mut K, kb: &mut K, va: &mut V, vb: &mut V) {
    let (x, y) = (*ka, *kb);
    let (u, v) = (*va, *vb);
    let swap = y < x;
    *ka = if swap { y } else { x };
    *kb = if swap { x } else { y };
    *va = if swap { v } else { u };
    *vb = if swap { u } else { v };
}

fn half_clean_small<T: Ord + Copy, const K: usize>(s: &mut [T]) {
    let mut chunks = s.chunks_exact_mut(2 * K);
    for c in &mut chunks {
        let (lo, hi) = c.split_at_mut(K);
        for r in 0..K {
            cx(&mut lo[r], &mut hi[r]);
        }
    }
    half_clean_any(chunks.into_remainder(), K);
}

fn half_clean_any<T: Ord + Copy>(s: &mut [T], k: usize) {
    for c in s.chunks_mut(2 * k) {
        let (lo, hi) = c.split_at_mut(k.min(c.len()));
        lo.iter_mut().zip(hi.iter_mut()).for_each(|(a, b)| cx(a, b));
    }
}

fn half_clean_small_kv<K: Ord + Copy, V: Copy, const W: usize>(ks: &mut [K], vs: &mut [V]) {
    let mut kc = ks.chunks_exact_mut(2 * W);
    let mut vc = vs.chunks_exact_mut(2 * W);
    for (k, v) in (&mut kc).zip(&mut vc) {
        let (klo, khi) = k.split_at_mut(W);
        let (vlo, vhi) = v.split_at_mut(W);
        for r in 0..W {
            cx_kv(&mut klo[r], &mut khi[r], &mut vlo[r], &mut vhi[r]);
        }
    }
    half_clean_any_kv(kc.into_remainder(), vc.into_remainder(), W);
}

fn half_clean_any_kv<K: Ord + Copy, V: Copy>(ks: &mut [K], vs: &mut [V], k: usize) {
    for (kc, vc) in ks.chunks_mut(2 * k).zip(vs.chunks_mut(2 * k)) {
        let m = k.min(kc.len());
        let (klo, khi) = kc.split_at_mut(m);
        let (vlo, vhi) = vc.split_at_mut(m);
        klo.iter_mut()
            .zip(khi.iter_mut())
            .zip(vlo.iter_mut().zip(vhi.iter_mut()))
            .for_each(|((a, b), (u, v))| cx_kv(a, b, u, v));
    }
}

impl<T: Ord + Copy + Send> Columns for &mut [T] {
    type Re<'b>
        = &'b mut [T]
    where
        Self: 'b;

    fn re(&mut self) -> &mut [T] {
        self
    }

    fn len(&self) -> usize {
        <[T]>::len(self)
    }

    fn split_at(self, mid: usize) -> (Self, Self) {
        self.split_at_mut(mid)
    }

    fn cx_runs(lo: Self, hi: Self) {
        lo.iter_mut().zip(hi.iter_mut()).for_each(|(a, b)| cx(a, b));
    }

    fn half_clean(self, k: usize) {
        match k {
            1 => half_clean_small::<T, 1>(self),
            2 => half_clean_small::<T, 2>(self),
            4 => half_clean_small::<T, 4>(self),
            _ => half_clean_any(self, k),
        }
    }

    fn for_chunks<F: Fn(usize, Self) + Sync + Send>(self, size: usize, parallel: bool, f: F) {
        #[cfg(not(target_arch = "wasm32"))]
        if parallel && self.len() > size {
            self.par_chunks_mut(size)
                .enumerate()
                .for_each(|(i, c)| f(i, c));
            return;
        }
        let _ = parallel;
        self.chunks_mut(size).enumerate().for_each(|(i, c)| f(i, c));
    }

    fn for_chunk_pairs<F: Fn(Self, Self) + Sync + Send>(
        lo: Self,
        hi: Self,
        size: usize,
        parallel: bool,
        f: F,
    ) {
        #[cfg(not(target_arch = "wasm32"))]
        if parallel && lo.len() > size {
            lo.par_chunks_mut(size)
                .zip(hi.par_chunks_mut(size))
                .for_each(|(a, b)| f(a, b));
            return;
        }
        let _ = parallel;
        lo.chunks_mut(size)
            .zip(hi.chunks_mut(size))
            .for_each(|(a, b)| f(a, b));
    }
}

impl<'a, K: Ord + Copy + Send, V: Copy + Send> Columns for (&'a mut [K], &'a mut [V]) {
    type Re<'b>
        = (&'b mut [K], &'b mut [V])
    where
        Self: 'b;

    fn re(&mut self) -> (&mut [K], &mut [V]) {
        (&mut *self.0, &mut *self.1)
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    fn split_at(self, mid: usize) -> (Self, Self) {
        let (k0, k1) = self.0.split_at_mut(mid);
        let (v0, v1) = self.1.split_at_mut(mid);
        ((k0, v0), (k1, v1))
    }

    fn cx_runs(lo: Self, hi: Self) {
        lo.0.iter_mut()
            .zip(hi.0.iter_mut())
            .zip(lo.1.iter_mut().zip(hi.1.iter_mut()))
            .for_each(|((a, b), (u, v))| cx_kv(a, b, u, v));
    }

    fn half_clean(self, k: usize) {
        match k {
            1 => half_clean_small_kv::<K, V, 1>(self.0, self.1),
            2 => half_clean_small_kv::<K, V, 2>(self.0, self.1),
            4 => half_clean_small_kv::<K, V, 4>(self.0, self.1),
            _ => half_clean_any_kv(self.0, self.1, k),
        }
    }

    fn for_chunks<F: Fn(usize, Self) + Sync + Send>(self, size: usize, parallel: bool, f: F) {
        #[cfg(not(target_arch = "wasm32"))]
        if parallel && self.len() > size {
            self.0
                .par_chunks_mut(size)
                .zip(self.1.par_chunks_mut(size))
                .enumerate()
                .for_each(|(i, c)| f(i, c));
            return;
        }
        let _ = parallel;
        self.0
            .chunks_mut(size)
            .zip(self.1.chunks_mut(size))
            .enumerate()
            .for_each(|(i, c)| f(i, c));
    }

    fn for_chunk_pairs<F: Fn(Self, Self) + Sync + Send>(
        lo: Self,
        hi: Self,
        size: usize,
        parallel: bool,
        f: F,
    ) {
        #[cfg(not(target_arch = "wasm32"))]
        if parallel && lo.len() > size {
            lo.0.par_chunks_mut(size)
                .zip(lo.1.par_chunks_mut(size))
                .zip(hi.0.par_chunks_mut(size).zip(hi.1.par_chunks_mut(size)))
                .for_each(|(a, b)| f(a, b));
            return;
        }
        let _ = parallel;
        lo.0.chunks_mut(size)
            .zip(lo.1.chunks_mut(size))
            .zip(hi.0.chunks_mut(size).zip(hi.1.chunks_mut(size)))
            .for_each(|(a, b)| f(a, b));
    }
}

/// The positions of one `2p` block that stage `(p, k)` touches, as one slice whose `2k` chunks
/// each pair their halves: the whole block for `k = p`, else `[k, 2p − k)` (cut at the block's
/// end). `None` when the stage touches nothing there.
fn stage_region<C: Columns>(block: C, p: usize, k: usize) -> Option<C> {
    if k == p {
        return Some(block);
    }
    if block.len() <= 2 * k {
        return None;
    }
    let (_, rest) = block.split_at(k);
    let end = (2 * p - 2 * k).min(rest.len());
    Some(rest.split_at(end).0)
}

/// Stage `(p, k)` on `cols`, whose start is a multiple of `2p`, in order.
fn stage_in_blocks<C: Columns>(cols: C, p: usize, k: usize) {
    cols.chunks_seq(2 * p, |blk| {
        if let Some(region) = stage_region(blk, p, k) {
            region.half_clean(k);
        }
    });
}

/// One stage `(p, k)` over the whole array with `k ≥ block`: streamed, in chunks of ≥ GRAIN.
fn stage_streaming<C: Columns>(cols: C, p: usize, k: usize, parallel: bool) {
    if 2 * p <= GRAIN {
        cols.for_chunks(GRAIN, parallel, |_, c| stage_in_blocks(c, p, k));
        return;
    }
    cols.chunks_seq(2 * p, |blk| {
        let Some(region) = stage_region(blk, p, k) else {
            return;
        };
        if 2 * k <= GRAIN {
            region.for_chunks(GRAIN, parallel, |_, c| c.half_clean(k));
        } else {
            region.chunks_seq(2 * k, |pair| {
                let m = k.min(pair.len());
                let (lo, hi) = pair.split_at(m);
                C::for_chunk_pairs(lo, hi, GRAIN / 2, parallel, C::cx_runs);
            });
        }
    });
}

/// The schedule described in the module docs.
fn run<C: Columns>(mut cols: C, block: usize, parallel: bool) {
    let n = cols.len();
    // Only a slice of zero-sized keys can exceed isize::MAX items, and those are all equal: the
    // guard keeps every `2 * p` below overflow.
    if n < 2 || n > isize::MAX as usize {
        return;
    }
    // Phase 1: every stage with 2p ≤ block, tile by tile.
    cols.re().for_chunks(block, parallel, |_, mut tile| {
        for (p, k) in stage_params(n).take_while(|&(p, _)| 2 * p <= block) {
            stage_in_blocks(tile.re(), p, k);
        }
    });
    // Phase 2: p ≥ block.
    let half = block / 2;
    let mut p = block;
    while p < n {
        let mut k = p;
        while k >= block {
            stage_streaming(cols.re(), p, k, parallel);
            k /= 2;
        }
        // Pass A: the windows [tB − block/2, tB + block/2) centred on tile boundaries tB that are
        // not 2p-block boundaries (there the merge condition drops every comparator).
        if n > half {
            let (_, rest) = cols.re().split_at(half);
            rest.for_chunks(block, parallel, |i, mut window| {
                // Without positions past the boundary the window has no comparator.
                if ((i + 1) * block).is_multiple_of(2 * p) || window.len() <= half {
                    return;
                }
                let mut k = half;
                while k >= 1 {
                    let w = window.re();
                    let len = w.len();
                    let (left, right) = w.split_at(half);
                    let lo = left.split_at(half - k).1;
                    let hi = right.split_at(k.min(len - half)).0;
                    Columns::cx_runs(lo, hi);
                    k /= 2;
                }
            });
        }
        // Pass B: the in-tile comparators, i.e. stages (block/2, k) for k < block/2 per tile.
        cols.re().for_chunks(block, parallel, |_, mut tile| {
            let mut k = block / 4;
            while k >= 1 {
                if let Some(region) = stage_region(tile.re(), half, k) {
                    region.half_clean(k);
                }
                k /= 2;
            }
        });
        p *= 2;
    }
}
