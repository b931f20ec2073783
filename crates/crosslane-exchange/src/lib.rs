//! The inner loops of a walk of Batcher's odd-even merge network (Knuth, *The Art of Computer
//! Programming* vol. 3, §5.3.4; the project's seed 004 gives the comparators): the
//! compare-exchange of a stage's comparators and the count of adjacent pairs in order.
//!
//! Nearly all of the sort view's 2^20-key walk is spent here (210 stages: about 10^8 comparators
//! and 2·10^8 pair comparisons), so [`Key`] gives `u32` keys — the random keys
//! of the large walks — four keys at a time, as 128-bit SIMD on wasm (`simd128`, in every
//! browser since 2023) and as a four-element array elsewhere: the same loop, so the native tests
//! exercise the code the page runs. Other keys (`i64`: typed keys) take the scalar loops.
//!
//! Its own crate so that the page, built for size (opt-level "z"), builds this one for speed
//! (the workspace's `profile.wasm-release.package.crosslane-exchange`): at "z" the slice
//! indexing and the SIMD loads stayed calls and the walk took four times as long as the scalar
//! loop. The walk itself (which pairs form a stage, segments, counters) is the sort view's
//! (`crosslane-web`, `views/sort/model.rs`).
//!
//! Read first: the [`Key`] trait; its two methods are the whole interface.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

/// A key type the walk can run on: compare-exchange and pair count, scalar by default.
pub trait Key: Ord + Copy {
    /// Compare-exchanges the two halves of every `2k` chunk of `keys` (a last, shorter chunk
    /// pairs what its upper half has): afterwards `keys[lo] ≤ keys[lo + k]`. Returns
    /// (comparators, swaps), a swap being a pair with `keys[lo + k] < keys[lo]` before.
    fn compare_exchange(keys: &mut [Self], k: usize) -> (u64, u64) {
        match k {
            1 => compare_exchange_scalar(keys, 1),
            2 => compare_exchange_scalar(keys, 2),
            4 => compare_exchange_scalar(keys, 4),
            8 => compare_exchange_scalar(keys, 8),
            _ => compare_exchange_scalar(keys, k),
        }
    }

    /// Adjacent pairs `keys[i] ≤ keys[i+1]`.
    fn ordered_pairs(keys: &[Self]) -> u64 {
        ordered_pairs_scalar(keys)
    }
}

impl Key for i64 {}

impl Key for u32 {
    fn compare_exchange(keys: &mut [u32], k: usize) -> (u64, u64) {
        match k {
            1 => compare_exchange_scalar(keys, 1),
            2 => compare_exchange_scalar(keys, 2),
            _ => quads::compare_exchange(keys, k),
        }
    }

    fn ordered_pairs(keys: &[u32]) -> u64 {
        quads::ordered_pairs(keys)
    }
}

/// [`Key::compare_exchange`] one pair at a time, branch-free: min and max as selects on the
/// comparison, whose outcome is added as the swap count (a branch on the swap mispredicted half
/// the time on random keys). Indexed loops rather than iterator adapters: the page's wasm is
/// built for size, where adapters can stay calls. Inlined, so that a constant `k` unrolls the
/// chunk.
#[inline(always)]
fn compare_exchange_scalar<T: Ord + Copy>(keys: &mut [T], k: usize) -> (u64, u64) {
    let n = keys.len();
    let (mut comparators, mut swaps) = (0u64, 0u64);
    let mut chunk = 0;
    while chunk + k < n {
        let run = k.min(n - chunk - k);
        let (lower, upper) = keys[chunk..].split_at_mut(k);
        for lo in 0..run {
            swaps += exchange(&mut lower[lo], &mut upper[lo]);
        }
        comparators += run as u64;
        chunk += 2 * k;
    }
    (comparators, swaps)
}

/// One comparator: the smaller key to `lo`, the larger to `hi`; 1 when they were swapped.
/// Branch-free (selects on the comparison).
#[inline(always)]
fn exchange<T: Ord + Copy>(lo: &mut T, hi: &mut T) -> u64 {
    let (x, y) = (*lo, *hi);
    let swapped = y < x;
    *lo = if swapped { y } else { x };
    *hi = if swapped { x } else { y };
    u64::from(swapped)
}

/// [`Key::ordered_pairs`] one pair at a time.
fn ordered_pairs_scalar<T: Ord>(keys: &[T]) -> u64 {
    // Four pairs per iteration from one checked window: the page's wasm is built for size and
    // does not unroll, and the loop's own work outweighed one comparison.
    let mut ordered = 0u64;
    let mut i = 1;
    while i + 4 <= keys.len() {
        let w = &keys[i - 1..i + 4];
        ordered += u64::from(w[0] <= w[1])
            + u64::from(w[1] <= w[2])
            + u64::from(w[2] <= w[3])
            + u64::from(w[3] <= w[4]);
        i += 4;
    }
    while i < keys.len() {
        ordered += u64::from(keys[i - 1] <= keys[i]);
        i += 1;
    }
    ordered
}

/// The `u32` loops four keys at a time ([`Quad`]); the scalar loops finish what is left.
mod quads {
    use super::quad::{Quad, Tally};
    use super::{exchange, ordered_pairs_scalar};

    /// [`super::Key::compare_exchange`] for `k ≥ 4`: each chunk's pairs four at a time, the last
    /// fewer than four one at a time. The comparisons of one chunk are independent (disjoint
    /// pairs), so their order does not change the result.
    #[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128"))]
    pub fn compare_exchange(keys: &mut [u32], k: usize) -> (u64, u64) {
        let n = keys.len();
        let (mut comparators, mut swaps) = (0u64, Tally::new());
        let mut chunk = 0;
        while chunk + k < n {
            let run = k.min(n - chunk - k);
            let (lower, upper) = keys[chunk..].split_at_mut(k);
            let mut lo = 0;
            while lo + 4 <= run {
                let (x, y) = (Quad::load(&lower[lo..]), Quad::load(&upper[lo..]));
                swaps.add_lanes(Quad::lt(y, x));
                Quad::min(x, y).store(&mut lower[lo..]);
                Quad::max(x, y).store(&mut upper[lo..]);
                lo += 4;
            }
            // The last fewer than four pairs of the chunk, one at a time.
            for j in lo..run {
                swaps.add(exchange(&mut lower[j], &mut upper[j]));
            }
            comparators += run as u64;
            chunk += 2 * k;
        }
        (comparators, swaps.total())
    }

    /// [`super::Key::ordered_pairs`]: four pairs at a time from two overlapping loads.
    #[cfg_attr(target_arch = "wasm32", target_feature(enable = "simd128"))]
    pub fn ordered_pairs(keys: &[u32]) -> u64 {
        let mut ordered = Tally::new();
        let mut i = 0;
        while i + 5 <= keys.len() {
            let (a, b) = (Quad::load(&keys[i..]), Quad::load(&keys[i + 1..]));
            ordered.add_lanes(Quad::le(a, b));
            i += 4;
        }
        ordered.total() + ordered_pairs_scalar(&keys[i..])
    }
}

/// Four `u32` keys side by side: a `v128` on wasm.
#[cfg(target_arch = "wasm32")]
mod quad {
    use core::arch::wasm32::{
        u32x4_ge, u32x4_gt, u32x4_max, u32x4_min, u32x4_splat, u32x4_sub, u64x2_extend_high_u32x4,
        u64x2_extend_low_u32x4, u64x2_extract_lane, v128,
    };

    /// Four keys.
    #[derive(Clone, Copy)]
    pub struct Quad(v128);

    impl Quad {
        /// The first four keys of `keys` (at least four).
        #[inline]
        #[target_feature(enable = "simd128")]
        pub fn load(keys: &[u32]) -> Quad {
            Quad(bytemuck::pod_read_unaligned(bytemuck::cast_slice(
                &keys[..4],
            )))
        }
        /// Writes the four keys over the first four of `keys`.
        #[inline]
        #[target_feature(enable = "simd128")]
        pub fn store(self, keys: &mut [u32]) {
            bytemuck::cast_slice_mut::<u32, u8>(&mut keys[..4])
                .copy_from_slice(bytemuck::bytes_of(&self.0));
        }
        #[inline]
        #[target_feature(enable = "simd128")]
        pub fn min(a: Quad, b: Quad) -> Quad {
            Quad(u32x4_min(a.0, b.0))
        }
        #[inline]
        #[target_feature(enable = "simd128")]
        pub fn max(a: Quad, b: Quad) -> Quad {
            Quad(u32x4_max(a.0, b.0))
        }
        /// Per key, all ones where `a < b`, else zero.
        #[inline]
        #[target_feature(enable = "simd128")]
        pub fn lt(a: Quad, b: Quad) -> Quad {
            Quad(u32x4_gt(b.0, a.0))
        }
        /// Per key, all ones where `a ≤ b`, else zero.
        #[inline]
        #[target_feature(enable = "simd128")]
        pub fn le(a: Quad, b: Quad) -> Quad {
            Quad(u32x4_ge(b.0, a.0))
        }
    }

    /// Counts lanes set by [`Quad::lt`] / [`Quad::le`]: four `u32` counters (a mask lane is
    /// 2^32 − 1, so subtracting it adds one), widened when totalled. A slice passed to the walk
    /// holds at most 2^20 keys, far below 2^32 per counter.
    pub struct Tally(v128, u64);

    impl Tally {
        #[inline]
        #[target_feature(enable = "simd128")]
        pub fn new() -> Tally {
            Tally(u32x4_splat(0), 0)
        }
        #[inline]
        #[target_feature(enable = "simd128")]
        pub fn add_lanes(&mut self, mask: Quad) {
            self.0 = u32x4_sub(self.0, mask.0);
        }
        /// Adds a count made elsewhere.
        #[inline]
        #[target_feature(enable = "simd128")]
        pub fn add(&mut self, count: u64) {
            self.1 += count;
        }
        #[inline]
        #[target_feature(enable = "simd128")]
        pub fn total(&self) -> u64 {
            let (lo, hi) = (
                u64x2_extend_low_u32x4(self.0),
                u64x2_extend_high_u32x4(self.0),
            );
            self.1
                + u64x2_extract_lane::<0>(lo)
                + u64x2_extract_lane::<1>(lo)
                + u64x2_extract_lane::<0>(hi)
                + u64x2_extract_lane::<1>(hi)
        }
    }
}

/// Four `u32` keys side by side: an array off wasm (the native tests run the same loops).
#[cfg(not(target_arch = "wasm32"))]
mod quad {
    /// Four keys.
    #[derive(Clone, Copy)]
    pub struct Quad([u32; 4]);

    impl Quad {
        /// The first four keys of `keys` (at least four).
        pub fn load(keys: &[u32]) -> Quad {
            Quad([keys[0], keys[1], keys[2], keys[3]])
        }
        /// Writes the four keys over the first four of `keys`.
        pub fn store(self, keys: &mut [u32]) {
            keys[..4].copy_from_slice(&self.0);
        }
        pub fn min(a: Quad, b: Quad) -> Quad {
            Quad(std::array::from_fn(|i| a.0[i].min(b.0[i])))
        }
        pub fn max(a: Quad, b: Quad) -> Quad {
            Quad(std::array::from_fn(|i| a.0[i].max(b.0[i])))
        }
        /// Per key, all ones where `a < b`, else zero.
        pub fn lt(a: Quad, b: Quad) -> Quad {
            Quad(std::array::from_fn(|i| {
                if a.0[i] < b.0[i] {
                    u32::MAX
                } else {
                    0
                }
            }))
        }
        /// Per key, all ones where `a ≤ b`, else zero.
        pub fn le(a: Quad, b: Quad) -> Quad {
            Quad(std::array::from_fn(|i| {
                if a.0[i] <= b.0[i] {
                    u32::MAX
                } else {
                    0
                }
            }))
        }
    }

    /// Counts lanes set by [`Quad::lt`] / [`Quad::le`], as the wasm one does.
    pub struct Tally([u32; 4], u64);

    impl Tally {
        pub fn new() -> Tally {
            Tally([0; 4], 0)
        }
        pub fn add_lanes(&mut self, mask: Quad) {
            for (c, m) in self.0.iter_mut().zip(mask.0) {
                *c = c.wrapping_sub(m);
            }
        }
        /// Adds a count made elsewhere.
        pub fn add(&mut self, count: u64) {
            self.1 += count;
        }
        pub fn total(&self) -> u64 {
            self.1 + self.0.iter().map(|&c| u64::from(c)).sum::<u64>()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two stages of the four-key network by hand (Knuth 5.3.4, Batcher's merge of two sorted
    /// pairs): `k = 2` pairs 0–2 and 1–3, then `k = 1` pairs 0–1 and 2–3.
    #[test]
    fn a_stage_orders_each_pair_and_counts_its_swaps() {
        let mut keys = [4u32, 1, 2, 3];
        assert_eq!(u32::compare_exchange(&mut keys, 2), (2, 1));
        assert_eq!(keys, [2, 1, 4, 3]);
        assert_eq!(u32::compare_exchange(&mut keys, 1), (2, 2));
        assert_eq!(keys, [1, 2, 3, 4]);
        // A last chunk with fewer keys in its upper half pairs only those: 6 keys, k = 4:
        // pairs 0–4 and 1–5.
        let mut keys = [9i64, 8, 7, 6, 1, 2];
        assert_eq!(i64::compare_exchange(&mut keys, 4), (2, 2));
        assert_eq!(keys, [1, 2, 7, 6, 9, 8]);
    }

    /// Four at a time gives what one at a time gives: every `k` from 1 to 37 (runs of whole
    /// quads, of quads and a tail, shorter than a quad), over lengths that cut the last chunk,
    /// on keys with duplicates and the extremes of `u32` (min and max are unsigned).
    #[test]
    fn four_at_a_time_is_one_at_a_time() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for len in [0usize, 1, 4, 5, 8, 9, 63, 64, 65, 100, 257] {
            let keys: Vec<u32> = (0..len)
                .map(|_| match next() % 8 {
                    0 => u32::MAX,
                    1 => 0,
                    2 => 1 << 31,
                    r => (r as u32) * 1000 + (next() % 5) as u32,
                })
                .collect();
            for k in 1..=37 {
                let (mut quads, mut one) = (keys.clone(), keys.clone());
                let got = u32::compare_exchange(&mut quads, k);
                let want = compare_exchange_scalar(&mut one, k);
                assert_eq!((got, &quads), (want, &one), "len {len} k {k}");
            }
            let ordered = keys.windows(2).filter(|w| w[0] <= w[1]).count() as u64;
            assert_eq!(u32::ordered_pairs(&keys), ordered, "len {len}");
            assert_eq!(
                i64::ordered_pairs(&keys.iter().map(|&v| i64::from(v)).collect::<Vec<_>>()),
                ordered
            );
        }
    }
}
