//! The verifier: the 0-1 principle exhaustively (bit-parallel) and seeded random inputs; and it
//! does catch a broken network.

use crosslane_core::network::verify::{random_check, zero_one_exhaustive, MAX_EXHAUSTIVE_LEN};
use crosslane_core::network::{verify, Network};

#[test]
fn every_zero_one_input_is_sorted_up_to_20() {
    for n in 1..=20 {
        let z = zero_one_exhaustive(&Network::new(n).unwrap());
        assert_eq!(z.inputs, 1 << n);
        assert_eq!(
            z.failures, 0,
            "n = {n}, first failure {:?}",
            z.first_failure
        );
    }
}

#[test]
fn a_network_missing_a_comparator_fails_the_zero_one_check() {
    for n in [2usize, 3, 5, 10, 16] {
        let full = Network::new(n).unwrap();
        // Drop each comparator in turn: at these sizes no comparator is redundant, so every
        // such network misses some 0-1 input.
        for s in 0..full.stages.len() {
            for c in 0..full.stages[s].comparators.len() {
                let mut broken = full.clone();
                let removed = broken.stages[s].comparators.remove(c);
                let z = zero_one_exhaustive(&broken);
                assert!(
                    z.failures > 0,
                    "n = {n}: without {removed:?} it still sorts"
                );
                // The reported input really is left unsorted.
                let first = z.first_failure.unwrap();
                let mut keys: Vec<u8> = (0..n).map(|i| (first >> i) as u8 & 1).collect();
                broken.apply(&mut keys).unwrap();
                assert!(keys.windows(2).any(|w| w[0] > w[1]));
            }
        }
    }
}

#[test]
fn truncation_can_leave_a_redundant_comparator() {
    // Cutting the 32-key network down to 17 keys keeps comparator 5-9 of stage (16, 4), yet the
    // 17-key network sorts without it (the 0-1 check shows it exhaustively).
    let mut net = Network::new(17).unwrap();
    let stage = net
        .stages
        .iter_mut()
        .find(|s| (s.p, s.k) == (16, 4))
        .unwrap();
    let before = stage.comparators.len();
    stage.comparators.retain(|c| (c.lo, c.hi) != (5, 9));
    assert_eq!(stage.comparators.len(), before - 1);
    assert_eq!(zero_one_exhaustive(&net).failures, 0);
}

#[test]
fn zero_one_counts_small_n_exactly() {
    // n = 2 without its only comparator: of 00, 10, 01, 11 only "1 then 0" (input number 1:
    // position 0 holds 1) is unsorted.
    let mut broken = Network::new(2).unwrap();
    broken.stages.clear();
    let z = zero_one_exhaustive(&broken);
    assert_eq!((z.inputs, z.failures, z.first_failure), (4, 1, Some(1)));
}

#[test]
fn verify_reports_both_checks() {
    let r = verify(10, 5, 50).unwrap();
    assert!(r.ok);
    let z = r.zero_one.unwrap();
    assert_eq!((z.inputs, z.failures), (1024, 0));
    assert_eq!(
        (r.random.seed, r.random.trials, r.random.failures),
        (5, 50, 0)
    );
    assert_eq!(r.random.key_range, 10);
    let big = verify(1000, 5, 3).unwrap();
    assert!(big.zero_one.is_none() && big.ok);
    let at_limit = verify(MAX_EXHAUSTIVE_LEN, 1, 1).unwrap();
    assert_eq!(at_limit.zero_one.unwrap().inputs, 1 << MAX_EXHAUSTIVE_LEN);
    assert!(verify(MAX_EXHAUSTIVE_LEN + 1, 1, 1)
        .unwrap()
        .zero_one
        .is_none());
    assert_eq!(verify(0, 1, 1).unwrap_err().field, "len");
    assert_eq!(verify(5, 1, u64::MAX).unwrap_err().field, "trials");
}

#[test]
fn random_check_is_reproducible_from_its_seed() {
    let a = random_check(33, 9, 20, 5);
    assert_eq!(a, random_check(33, 9, 20, 5));
    assert_eq!(a.failures, 0);
}
