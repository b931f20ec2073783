//! The network from the reference loops (Knuth; semantics.md "Batcher odd-even merge sort"),
//! kept only to cross-check [`super::closed_form`]:
//!
//! ```text
//! for p = 1, 2, 4, … while p < n
//!   for k = p, p/2, …, 1
//!     for j = k % p; j ≤ n-1-k; j += 2k
//!       for i = 0 … min(k-1, n-j-k-1)
//!         if floor((i+j) / 2p) == floor((i+j+k) / 2p): compare_exchange(i+j, i+j+k)
//! ```

use super::{check_network_len, stage_params, Comparator, Network, Stage};
use crate::error::InputError;

/// The network for `len` keys from the reference loops.
///
/// # Errors
/// [`InputError`] on field `len` unless `1 ≤ len ≤` [`super::MAX_NETWORK_LEN`].
pub fn network(len: usize) -> Result<Network, InputError> {
    check_network_len(len)?;
    let stages = stage_params(len)
        .map(|(p, k)| {
            let mut comparators = Vec::new();
            // k ≤ p < n, so n − 1 − k never underflows.
            let mut j = k % p;
            while j + k < len {
                let last = (k - 1).min(len - j - k - 1);
                for i in 0..=last {
                    if (i + j) / (2 * p) == (i + j + k) / (2 * p) {
                        comparators.push(Comparator {
                            lo: i + j,
                            hi: i + j + k,
                        });
                    }
                }
                j += 2 * k;
            }
            Stage { p, k, comparators }
        })
        .collect();
    Ok(Network { len, stages })
}
