//! The pseudo-random keys every sort draws from a seed: `crosslane sort`, `crosslane gpu sort`,
//! the page's sort view, the `<crosslane-sort>` element and the JS API's `sortNetwork` all call
//! [`keys`], so one seed sorts the same keys everywhere.

/// Keys are drawn uniformly from `0..KEY_RANGE`: small numbers read well and repeat, which shows
/// that the network is not stable (a sorting network is data-oblivious, so the range changes no
/// timing).
pub const KEY_RANGE: u32 = 1000;

/// `len` keys uniform in `0..`[`KEY_RANGE`], reproducible from `seed` on every target: fastrand's
/// WyRand generator, whose output depends only on the seed (not on the platform or pointer width).
///
/// The draw is `i64` in `0..1000`, exactly as the sort report and the page drew before this
/// function served every command: permalinks made then carry only the seed, and must keep
/// opening the same keys (drawing `u32` would sample differently).
///
/// Allocates `4 * len` bytes; callers bound `len` first (the report at 2^20 keys, `crosslane gpu
/// sort` by the device's binding limit and a host cap).
pub fn keys(len: usize, seed: u64) -> Vec<u32> {
    let mut rng = fastrand::Rng::with_seed(seed);
    (0..len)
        .map(|_| rng.i64(0..i64::from(KEY_RANGE)) as u32)
        .collect()
}

/// `len` keys uniform over all of `u32`, from the same generator as [`keys`]: for benchmarks,
/// where [`keys`]' many repeats would flatter a comparison sort (`sort_unstable` does less work
/// on equal keys; the network does the same work whatever the keys).
pub fn wide_keys(len: usize, seed: u64) -> Vec<u32> {
    let mut rng = fastrand::Rng::with_seed(seed);
    (0..len).map(|_| rng.u32(..)).collect()
}
