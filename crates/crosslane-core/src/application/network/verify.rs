//! Checking the network: the 0-1 principle, exhaustively and bit-parallel, and seeded random
//! inputs against `slice::sort_unstable`.
//!
//! The 0-1 principle (Knuth, TAOCP vol. 3, §5.3.4, exercise 36): a comparator network sorts every
//! input iff it sorts every input of 0s and 1s. So the 2^n 0-1 inputs prove the network for n.
//! They run 64 at a time: wire `i` holds one `u64` whose bit `b` is position `i` of input number
//! `base + b`; on 0-1 values a compare-exchange is `lo = a & b` (min), `hi = a | b` (max), and
//! "sorted" is "no 1 before a 0": `wire[i] & !wire[i + 1] == 0` for every i.

use serde::{Deserialize, Serialize};

use super::{check_network_len, exec, Network};
use crate::error::InputError;

/// The largest n checked exhaustively by [`verify`]: 2^24 inputs in 2^18 words, well under a
/// second natively.
pub const MAX_EXHAUSTIVE_LEN: usize = 24;

/// The most random trials [`verify`] accepts.
pub const MAX_TRIALS: u64 = 1_000_000;

/// Outcome of the exhaustive 0-1 check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZeroOneCheck {
    /// Inputs checked: 2^n.
    pub inputs: u64,
    /// Inputs the network left unsorted.
    pub failures: u64,
    /// The first unsorted input, as its number (bit i = position i), if any.
    pub first_failure: Option<u64>,
}

/// Outcome of the seeded random check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RandomCheck {
    /// The seed of the generator (fastrand's WyRand: the same seed gives the same inputs on
    /// every platform).
    pub seed: u64,
    /// Random inputs sorted.
    pub trials: u64,
    /// Keys per input are drawn from `0..key_range` (small, so that equal keys occur).
    pub key_range: u32,
    /// Inputs whose result differed from `sort_unstable`.
    pub failures: u64,
    /// The first such input, if any.
    pub first_failure: Option<Vec<u32>>,
}

/// What [`verify`] found for one length.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerifyReport {
    /// Number of keys n.
    pub len: usize,
    /// The exhaustive 0-1 check, when `len ≤` [`MAX_EXHAUSTIVE_LEN`].
    pub zero_one: Option<ZeroOneCheck>,
    /// The random check (through [`exec::sort_keys`], the fast executor).
    pub random: RandomCheck,
    /// No failure anywhere.
    pub ok: bool,
}

/// The first 0-1 input (as a number) that `network` leaves unsorted, among all 2^len, and how many
/// there are. `network.len` must be ≤ 63.
pub fn zero_one_exhaustive(network: &Network) -> ZeroOneCheck {
    let n = network.len;
    let inputs = 1u64 << n;
    // Wire i < 6 alternates inside a word; wire i ≥ 6 is constant across a word.
    const LOW: [u64; 6] = [
        0xAAAA_AAAA_AAAA_AAAA,
        0xCCCC_CCCC_CCCC_CCCC,
        0xF0F0_F0F0_F0F0_F0F0,
        0xFF00_FF00_FF00_FF00,
        0xFFFF_0000_FFFF_0000,
        0xFFFF_FFFF_0000_0000,
    ];
    let valid = if inputs >= 64 {
        u64::MAX
    } else {
        (1u64 << inputs) - 1
    };
    let mut wires = vec![0u64; n];
    let mut failures = 0u64;
    let mut first_failure = None;
    let mut base = 0u64;
    while base < inputs {
        for (i, w) in wires.iter_mut().enumerate() {
            *w = match LOW.get(i) {
                Some(&pattern) => pattern,
                None if (base >> i) & 1 == 1 => u64::MAX,
                None => 0,
            };
        }
        for c in network.stages.iter().flat_map(|s| &s.comparators) {
            let (a, b) = (wires[c.lo], wires[c.hi]);
            wires[c.lo] = a & b;
            wires[c.hi] = a | b;
        }
        let bad = wires.windows(2).fold(0u64, |acc, w| acc | (w[0] & !w[1])) & valid;
        if bad != 0 {
            failures += u64::from(bad.count_ones());
            first_failure.get_or_insert(base + u64::from(bad.trailing_zeros()));
        }
        base += 64;
    }
    ZeroOneCheck {
        inputs,
        failures,
        first_failure,
    }
}

/// `trials` random inputs of `len` keys in `0..key_range`, from `seed`, sorted with
/// [`exec::sort_keys`] and compared with `sort_unstable`.
pub fn random_check(len: usize, seed: u64, trials: u64, key_range: u32) -> RandomCheck {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut failures = 0;
    let mut first_failure = None;
    let mut keys = vec![0u32; len];
    let mut expected = vec![0u32; len];
    for _ in 0..trials {
        keys.iter_mut()
            .for_each(|k| *k = rng.u32(0..key_range.max(1)));
        expected.copy_from_slice(&keys);
        expected.sort_unstable();
        let input = keys.clone();
        exec::sort_keys(&mut keys);
        if keys != expected {
            failures += 1;
            first_failure.get_or_insert(input);
        }
    }
    RandomCheck {
        seed,
        trials,
        key_range,
        failures,
        first_failure,
    }
}

/// Verifies the network for `len` keys: exhaustively by the 0-1 principle when
/// `len ≤` [`MAX_EXHAUSTIVE_LEN`], and with `trials` random inputs from `seed` (keys in
/// `0..max(len, 2)`, so that equal keys occur).
///
/// # Errors
/// [`InputError`] on `len` unless `1 ≤ len ≤` [`super::MAX_NETWORK_LEN`]; on `trials` above
/// [`MAX_TRIALS`].
pub fn verify(len: usize, seed: u64, trials: u64) -> Result<VerifyReport, InputError> {
    check_network_len(len)?;
    if trials > MAX_TRIALS {
        return Err(InputError::out_of_range(
            "trials",
            i64::try_from(trials).unwrap_or(i64::MAX),
            0,
            MAX_TRIALS as i64,
        ));
    }
    let zero_one =
        (len <= MAX_EXHAUSTIVE_LEN).then(|| zero_one_exhaustive(&super::closed_form::network(len)));
    let random = random_check(len, seed, trials, len.max(2) as u32);
    let ok = random.failures == 0 && zero_one.as_ref().is_none_or(|z| z.failures == 0);
    Ok(VerifyReport {
        len,
        zero_one,
        random,
        ok,
    })
}
