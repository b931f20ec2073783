//! The `crosslane sort` report (table and JSON).

use crosslane_core::network::report;
use crosslane_core::network::report::{KeysFrom, MAX_REPORT_LEN};

#[test]
fn report_of_given_values() {
    let r = report(None, 1, Some("3, 7, 1, 9, 0, 8, 2, 6, 5, -4")).unwrap();
    assert_eq!(r.keys_from, KeysFrom::Values);
    assert_eq!(r.len, 10);
    assert_eq!(r.output, [-4, 0, 1, 2, 3, 5, 6, 7, 8, 9]);
    assert!(r.matches_sort_unstable && r.ok());
    assert_eq!((r.figures.comparators, r.figures.stages), (32, 10));
    let stages = r.stages.as_ref().unwrap();
    assert_eq!(stages.len(), 10);
    let z = r.verify.as_ref().unwrap().zero_one.as_ref().unwrap();
    assert_eq!((z.inputs, z.failures), (1024, 0));
    let table = r.to_string();
    assert!(
        table.contains("network: 32 comparators in 10 stages"),
        "{table}"
    );
    assert!(
        table.contains("    1     1     1  0-1 2-3 4-5 6-7 8-9"),
        "{table}"
    );
    assert!(table.contains("output: -4 0 1 2 3 5 6 7 8 9"), "{table}");
    assert!(
        table.contains("0-1 principle: 1024 of 1024 0-1 inputs sorted"),
        "{table}"
    );
    assert!(table.ends_with("result: sorted\n"), "{table}");
    let json = r.to_json();
    assert_eq!(json["figures"]["comparators"], 32);
    assert_eq!(json["keys_from"], "values");
    assert_eq!(json["stages"][0]["comparators"][0]["hi"], 1);
    assert_eq!(json["output"][0], -4);
    assert_eq!(json["ok"], true);
}

#[test]
fn report_of_random_keys_is_seeded() {
    let a = report(Some(16), 7, None).unwrap();
    let b = report(Some(16), 7, None).unwrap();
    assert_eq!(a, b);
    assert_ne!(a.input, report(Some(16), 8, None).unwrap().input);
    assert!(a.input.iter().all(|k| (0..1000).contains(k)));
    assert_eq!(a.figures.comparators_formula, Some(63));
    assert!(a.to_string().contains("(m²−m+4)·2^(m−2)−1 = 63"));
    let big = report(Some(100_000), 1, None).unwrap();
    assert!(big.ok() && big.stages.is_none() && big.verify.is_none());
    assert!(big.to_string().contains("(100000 keys; --json lists them)"));
}

#[test]
fn report_input_errors() {
    assert_eq!(report(None, 1, None).unwrap_err().field, "len");
    assert_eq!(report(Some(0), 1, None).unwrap_err().field, "len");
    assert_eq!(
        report(Some(MAX_REPORT_LEN + 1), 1, None).unwrap_err().field,
        "len"
    );
    assert_eq!(report(Some(3), 1, Some("1,2")).unwrap_err().field, "len");
    let e = report(None, 1, Some("1,x,3")).unwrap_err();
    assert_eq!(e.field, "values[1]");
}

/// One generator for every sort: the report's random input (what `crosslane sort`, the page's
/// sort view and the JS API's `sortNetwork` show) is `network::keys(n, seed)`, the keys
/// `crosslane gpu sort` sorts; the same seed gives the same keys on every call, in `0..1000`.
#[test]
fn the_report_draws_its_keys_from_the_shared_generator() {
    use crosslane_core::network::{keys, KEY_RANGE};
    for (n, seed) in [(1, 0), (16, 7), (1000, 12345), (4096, u64::MAX)] {
        let r = report(Some(n), seed, None).unwrap();
        let shared: Vec<i64> = keys(n, seed).into_iter().map(i64::from).collect();
        assert_eq!(r.input, shared, "n {n} seed {seed}");
        assert_eq!(keys(n, seed), keys(n, seed));
        assert!(r.input.iter().all(|&k| (0..1000).contains(&k)));
    }
    assert_eq!(KEY_RANGE, 1000);
    // Different seeds give different keys (4096 draws from 1000 values cannot all agree by chance).
    assert_ne!(keys(4096, 1), keys(4096, 2));
    // A prefix is stable: the first keys do not depend on how many are drawn.
    assert_eq!(keys(8, 3)[..], keys(64, 3)[..8]);
}

/// Permalinks to a random sort carry only the seed, so the keys a seed draws are part of the link
/// format: these are the keys `crosslane sort --len 8 --seed 7` and the page showed before
/// `network::keys` served every command (recorded from the build of 2026-12-01, commit 5f87407).
#[test]
fn a_seed_draws_the_keys_links_made_before_show() {
    assert_eq!(
        crosslane_core::network::keys(8, 7),
        [773, 222, 718, 481, 116, 165, 791, 92]
    );
}
