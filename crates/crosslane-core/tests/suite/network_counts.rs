//! The network's shape: the closed form (seed 004) equals the reference loops (semantics.md), and
//! the counts equal the formulas and the reference vectors `oddeven-network-sizes` and
//! `oddeven-network-10` in tests/vectors/seed-examples.json.

use crosslane_core::network::{
    closed_form, figures, reference, stage_comparator_count, stage_params, Network, MAX_NETWORK_LEN,
};
use serde_json::Value as J;

const SEED: &str = include_str!("../../../../tests/vectors/seed-examples.json");

fn case(id: &str) -> J {
    let doc: J = serde_json::from_str(SEED).expect("vector file is JSON");
    doc["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .find(|c| c["id"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("vector {id} missing"))
}

#[test]
fn closed_form_equals_reference_loops_below_600() {
    for n in 1..600 {
        let closed = Network::new(n).unwrap();
        let reference = reference::network(n).unwrap();
        assert_eq!(closed, reference, "n = {n}");
    }
}

#[test]
fn half_n_threads_suffice() {
    // More threads than (n+1)/2 never add a comparator: thread t ≥ (n+1)/2 always returns early.
    for n in 1..300 {
        for (p, k) in stage_params(n) {
            for t in closed_form::threads_per_stage(n)..2 * n {
                assert_eq!(
                    closed_form::thread_comparator(n, p, k, t),
                    None,
                    "n={n} p={p} k={k} t={t}"
                );
            }
        }
    }
}

#[test]
fn power_of_two_counts() {
    let expected = [(2, 1), (4, 5), (8, 19), (16, 63), (32, 191), (64, 543)];
    for (m, (n, count)) in expected.into_iter().enumerate() {
        let net = Network::new(n).unwrap();
        assert_eq!(net.comparator_count(), count, "n = {n}");
        let fig = figures(n);
        assert_eq!(fig.comparators, count as u64);
        assert_eq!(fig.comparators_formula, Some(count as u64));
        let m = m + 1;
        assert_eq!(net.stages.len(), m * (m + 1) / 2, "n = {n}");
    }
    assert_eq!(Network::new(10).unwrap().comparator_count(), 32);
    assert_eq!(Network::new(100).unwrap().comparator_count(), 1104);
    assert_eq!(figures(1).comparators_formula, Some(0));
    assert_eq!(figures(10).comparators_formula, None);
}

#[test]
fn figures_count_without_materializing() {
    for n in 1..600 {
        let net = Network::new(n).unwrap();
        let fig = figures(n);
        assert_eq!(fig.comparators, net.comparator_count() as u64, "n = {n}");
        assert_eq!(fig.stages, net.stages.len(), "n = {n}");
        assert_eq!(fig.stages, fig.stages_formula, "n = {n}");
        for s in &net.stages {
            assert_eq!(
                stage_comparator_count(n, s.p, s.k),
                s.comparators.len() as u64
            );
        }
    }
    // 2^20: (400 − 20 + 4)·2^18 − 1.
    let big = figures(1 << 20);
    assert_eq!(big.comparators, 384 * (1 << 18) - 1);
    assert_eq!(big.comparators_formula, Some(big.comparators));
    assert_eq!(big.stages, 210);
}

#[test]
fn no_stage_is_empty() {
    for n in 2..600 {
        for s in Network::new(n).unwrap().stages {
            assert!(
                !s.comparators.is_empty(),
                "n = {n}, stage ({}, {})",
                s.p,
                s.k
            );
            assert!(s.comparators.iter().any(|c| c.lo == s.p - s.k), "n = {n}");
        }
    }
    assert!(Network::new(1).unwrap().stages.is_empty());
}

#[test]
fn stages_are_disjoint_and_ordered() {
    for n in 1..200 {
        for s in Network::new(n).unwrap().stages {
            let mut seen = vec![false; n];
            let mut last = None;
            for c in &s.comparators {
                assert_eq!(c.hi - c.lo, s.k);
                assert!(c.hi < n);
                assert!(
                    !seen[c.lo] && !seen[c.hi],
                    "n = {n}: position reused in a stage"
                );
                seen[c.lo] = true;
                seen[c.hi] = true;
                assert!(last < Some(c.lo));
                last = Some(c.lo);
            }
        }
    }
}

#[test]
fn vector_oddeven_network_sizes() {
    let v = case("oddeven-network-sizes");
    let comparators = v["comparators"].as_object().unwrap();
    assert_eq!(comparators.len(), 9);
    for (n, count) in comparators {
        let n: usize = n.parse().unwrap();
        assert_eq!(
            Network::new(n).unwrap().comparator_count() as u64,
            count.as_u64().unwrap(),
            "n = {n}"
        );
        assert_eq!(figures(n).comparators, count.as_u64().unwrap());
    }
    let stages = v["stages"].as_object().unwrap();
    assert_eq!(stages.len(), 5);
    for (n, count) in stages {
        let n: usize = n.parse().unwrap();
        assert_eq!(
            Network::new(n).unwrap().stages.len() as u64,
            count.as_u64().unwrap(),
            "n = {n}"
        );
    }
}

#[test]
fn vector_oddeven_network_10() {
    let v = case("oddeven-network-10");
    assert_eq!(v["len"], 10);
    let expected: Vec<Vec<(usize, usize)>> = v["comparator_stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|stage| {
            stage
                .as_array()
                .unwrap()
                .iter()
                .map(|c| {
                    (
                        c[0].as_u64().unwrap() as usize,
                        c[1].as_u64().unwrap() as usize,
                    )
                })
                .collect()
        })
        .collect();
    let got: Vec<Vec<(usize, usize)>> = Network::new(10)
        .unwrap()
        .stages
        .iter()
        .map(|s| s.comparators.iter().map(|c| (c.lo, c.hi)).collect())
        .collect();
    assert_eq!(got, expected);
}

#[test]
fn lengths_outside_the_range_are_errors() {
    let e = Network::new(0).unwrap_err();
    assert_eq!(e.field, "len");
    assert!(Network::new(MAX_NETWORK_LEN + 1).is_err());
    assert!(Network::new(MAX_NETWORK_LEN).is_ok());
    assert!(reference::network(0).is_err());
    let mut keys = [3, 1];
    assert_eq!(
        Network::new(3).unwrap().apply(&mut keys).unwrap_err().field,
        "values"
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(6))]
    #[test]
    fn closed_form_equals_reference_loops_up_to_the_limit(n in 600usize..=MAX_NETWORK_LEN) {
        let closed = Network::new(n).unwrap();
        proptest::prop_assert_eq!(closed.comparator_count() as u64, figures(n).comparators);
        proptest::prop_assert_eq!(closed, reference::network(n).unwrap());
    }
}
