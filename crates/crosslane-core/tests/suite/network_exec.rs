//! The fast executor (`network::exec`) sorts, keeps key–value pairs together, and performs exactly
//! the network's comparators (its result equals `Network::apply_pairs`, including the order of
//! values under equal keys, which only the same comparator sequence reproduces).

use crosslane_core::network::{
    sort_keys, sort_keys_with, sort_pairs, sort_pairs_with, ExecOptions, Network,
};
use proptest::prelude::*;

fn random_keys(rng: &mut fastrand::Rng, n: usize, range: u32) -> Vec<u32> {
    (0..n).map(|_| rng.u32(0..range)).collect()
}

#[test]
fn sorts_every_length_up_to_64_on_random_inputs() {
    let mut rng = fastrand::Rng::with_seed(6);
    for n in 0..=64 {
        for range in [2, 8, 1000, u32::MAX] {
            for _ in 0..20 {
                let mut keys = random_keys(&mut rng, n, range);
                let mut expected = keys.clone();
                expected.sort_unstable();
                sort_keys(&mut keys);
                assert_eq!(keys, expected, "n = {n}");
            }
        }
    }
}

#[test]
fn sorts_every_zero_one_input_up_to_16() {
    for n in 1..=16usize {
        for bits in 0u32..(1 << n) {
            let mut keys: Vec<u8> = (0..n).map(|i| (bits >> i) as u8 & 1).collect();
            let ones = bits.count_ones() as usize;
            sort_keys(&mut keys);
            let expected: Vec<u8> = (0..n).map(|i| u8::from(i >= n - ones)).collect();
            assert_eq!(keys, expected, "n = {n}, input {bits:#b}");
        }
    }
}

#[test]
fn same_result_as_the_network_comparator_by_comparator() {
    // Small tiles make phase 2 (streamed stages, boundary windows, in-tile passes) do most of
    // the work; keys in 0..8 make many ties, whose values expose any change of comparator order.
    let mut rng = fastrand::Rng::with_seed(42);
    for block in [2, 4, 8, 16, 64] {
        for n in [
            1, 2, 3, 7, 31, 64, 65, 100, 127, 255, 256, 257, 600, 1000, 1023, 1500,
        ] {
            let net = Network::new(n).unwrap();
            for parallel in [false, true] {
                let keys = random_keys(&mut rng, n, 8);
                let values: Vec<u32> = (0..n as u32).collect();
                let (mut k1, mut v1) = (keys.clone(), values.clone());
                net.apply_pairs(&mut k1, &mut v1).unwrap();
                let (mut k2, mut v2) = (keys.clone(), values.clone());
                sort_pairs_with(&mut k2, &mut v2, ExecOptions { block, parallel }).unwrap();
                assert_eq!((&k2, &v2), (&k1, &v1), "n = {n}, block = {block}");
                let mut k3 = keys.clone();
                sort_keys_with(&mut k3, ExecOptions { block, parallel }).unwrap();
                assert_eq!(k3, k1, "n = {n}, block = {block}");
            }
        }
    }
}

#[test]
fn default_tiles_on_large_inputs() {
    // 3·2^15 + 17 u32 keys: tiles of 4096, several streamed stages and boundary passes.
    let mut rng = fastrand::Rng::with_seed(7);
    let n = 3 * (1 << 15) + 17;
    let keys = random_keys(&mut rng, n, 1 << 12);
    let values: Vec<u64> = (0..n as u64).map(|i| i * 3 + 1).collect();
    let (mut k, mut v) = (keys.clone(), values.clone());
    sort_pairs(&mut k, &mut v).unwrap();
    let mut expected: Vec<(u32, u64)> = keys.iter().copied().zip(values.iter().copied()).collect();
    expected.sort_unstable();
    let mut got: Vec<(u32, u64)> = k.iter().copied().zip(v.iter().copied()).collect();
    assert!(k.windows(2).all(|w| w[0] <= w[1]));
    got.sort_unstable();
    assert_eq!(got, expected, "every (key, value) pair survives");
    // n is above MAX_NETWORK_LEN, so compare with a much smaller tile, a different schedule of
    // the same comparators, instead of the materialized network.
    let (mut k2, mut v2) = (keys.clone(), values.clone());
    sort_pairs_with(
        &mut k2,
        &mut v2,
        ExecOptions {
            block: 256,
            parallel: false,
        },
    )
    .unwrap();
    assert_eq!((k2, v2), (k, v));
}

#[test]
fn key_value_pairs_stay_together_and_it_is_not_stable() {
    // Key i % 4 with value i: the values under each key are a permutation of that key's values.
    let n = 40;
    let mut keys: Vec<u8> = (0..n).map(|i| (i % 4) as u8).collect();
    let mut values: Vec<usize> = (0..n).collect();
    sort_pairs(&mut keys, &mut values).unwrap();
    assert!(keys.windows(2).all(|w| w[0] <= w[1]));
    for (k, v) in keys.iter().zip(&values) {
        assert_eq!(*k as usize, v % 4, "value {v} left its key");
    }
    // Not stable: within equal keys the values are not all in input order.
    let in_order = keys
        .iter()
        .zip(&values)
        .collect::<Vec<_>>()
        .windows(2)
        .all(|w| w[0].0 != w[1].0 || w[0].1 < w[1].1);
    assert!(
        !in_order,
        "expected the network to reorder some equal keys: {values:?}"
    );
}

/// The naive bitonic sort (`l = i ^ j`, skip `l ≥ n`) that many GPU codes use is only correct
/// for powers of two.
fn naive_bitonic(keys: &mut [u8]) {
    let n = keys.len();
    let mut k = 2;
    while k < 2 * n {
        let mut j = k / 2;
        while j > 0 {
            for i in 0..n {
                let l = i ^ j;
                if l > i && l < n {
                    let ascending = i & k == 0;
                    if (keys[i] > keys[l]) == ascending {
                        keys.swap(i, l);
                    }
                }
            }
            j /= 2;
        }
        k *= 2;
    }
}

#[test]
fn ten_keys_that_naive_bitonic_code_gets_wrong() {
    let n = 10;
    let mut naive_failures = 0;
    for bits in 0u32..(1 << n) {
        let input: Vec<u8> = (0..n).map(|i| (bits >> i) as u8 & 1).collect();
        let mut expected = input.clone();
        expected.sort_unstable();
        let mut naive = input.clone();
        naive_bitonic(&mut naive);
        if naive != expected {
            naive_failures += 1;
            let mut ours = input.clone();
            sort_keys(&mut ours);
            assert_eq!(ours, expected, "input {input:?}");
        }
    }
    assert!(
        naive_failures > 0,
        "the naive bitonic code should fail for n = 10"
    );
    // A concrete case: 9, 8, …, 0. The naive code leaves 2 and 3 at the end.
    let mut naive: Vec<u8> = (0..10u8).rev().collect();
    naive_bitonic(&mut naive);
    assert_eq!(naive, [0, 1, 4, 5, 6, 7, 8, 9, 2, 3]);
    let mut keys: Vec<u8> = (0..10u8).rev().collect();
    sort_keys(&mut keys);
    assert_eq!(keys, (0..10u8).collect::<Vec<_>>());
    let net = Network::new(10).unwrap();
    let mut keys: Vec<u8> = (0..10u8).rev().collect();
    net.apply(&mut keys).unwrap();
    assert_eq!(keys, (0..10u8).collect::<Vec<_>>());
}

#[test]
fn bad_options_and_lengths_are_errors() {
    let mut k = [2, 1, 3];
    let e = sort_keys_with(
        &mut k,
        ExecOptions {
            block: 12,
            parallel: false,
        },
    )
    .unwrap_err();
    assert_eq!(e.field, "block");
    assert!(sort_keys_with(
        &mut k,
        ExecOptions {
            block: 1,
            parallel: false
        }
    )
    .is_err());
    let mut v = [0u8; 2];
    assert_eq!(sort_pairs(&mut k, &mut v).unwrap_err().field, "values");
    assert_eq!(ExecOptions::for_item_bytes(4).block, 4096);
    assert_eq!(ExecOptions::for_item_bytes(12).block, 1024);
    assert_eq!(ExecOptions::for_item_bytes(1 << 20).block, 2);
}

proptest! {
    #[test]
    fn sorts_like_sort_unstable(mut keys in proptest::collection::vec(any::<i16>(), 0..700), block_log in 1u32..8) {
        let mut expected = keys.clone();
        expected.sort_unstable();
        sort_keys_with(&mut keys, ExecOptions { block: 1 << block_log, parallel: false }).unwrap();
        prop_assert_eq!(keys, expected);
    }

    #[test]
    fn pairs_are_a_permutation_of_the_input_pairs(keys in proptest::collection::vec(0u8..6, 0..300)) {
        let mut k = keys.clone();
        let mut v: Vec<usize> = (0..keys.len()).collect();
        sort_pairs(&mut k, &mut v).unwrap();
        let mut got: Vec<(u8, usize)> = k.into_iter().zip(v).collect();
        prop_assert!(got.windows(2).all(|w| w[0].0 <= w[1].0));
        got.sort_unstable();
        let mut expected: Vec<(u8, usize)> = keys.into_iter().zip(0..).collect();
        expected.sort_unstable();
        prop_assert_eq!(got, expected);
    }
}
