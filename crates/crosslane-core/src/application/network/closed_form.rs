//! The network from the per-thread closed form of seed 004 (`merge_step`), the form a GPU kernel
//! runs: one thread per potential comparator, shifts and masks only.
//!
//! Thread `t` of stage `(p, k)` owns `x = (k mod p) + 2k·⌊t / k⌋ + (t mod k)` and compares `x`
//! with `x + k`, unless `x + k ≥ n` (the comparator would touch the +∞ padding of the power-of-two
//! network) or `⌊x / 2p⌋ ≠ ⌊(x + k) / 2p⌋` (the odd-even merge condition). `(n + 1) / 2` threads
//! per stage suffice (semantics.md); the cross-check against [`super::reference`] for every
//! n < 600 is what shows it.

use super::{stage_params, Comparator, Network, Stage};

/// Threads launched per stage for `len` keys: ⌈n / 2⌉.
pub fn threads_per_stage(len: usize) -> usize {
    len.div_ceil(2)
}

/// The comparator of thread `t` in stage `(p, k)` for `len` keys, or `None` where the thread
/// returns early. `p` and `k` must be powers of two with `k ≤ p` (as [`stage_params`] yields).
pub fn thread_comparator(len: usize, p: usize, k: usize, t: usize) -> Option<Comparator> {
    let log_k = k.trailing_zeros();
    let log_2p = (2 * p).trailing_zeros();
    let j0 = k & (p - 1); // k mod p: 0 when k = p, else k
    let x = j0 + ((t >> log_k) << (log_k + 1)) + (t & (k - 1));
    let hi = x.checked_add(k)?;
    if hi >= len || (x >> log_2p) != (hi >> log_2p) {
        return None;
    }
    Some(Comparator { lo: x, hi })
}

/// The comparators of stage `(p, k)` for `len` keys, in increasing `lo` order (x grows with t).
pub fn stage(len: usize, p: usize, k: usize) -> Stage {
    let comparators = (0..threads_per_stage(len))
        .filter_map(|t| thread_comparator(len, p, k, t))
        .collect();
    Stage { p, k, comparators }
}

/// The whole network for `len` keys. Callers bound `len` (see [`super::Network::new`]).
pub(crate) fn network(len: usize) -> Network {
    Network {
        len,
        stages: stage_params(len).map(|(p, k)| stage(len, p, k)).collect(),
    }
}
