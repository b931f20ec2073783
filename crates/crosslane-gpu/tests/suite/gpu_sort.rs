//! The odd-even merge sort on the device agrees with `sort_unstable` for many lengths, powers of
//! two and not, up to 2^16; values move with their keys.

use crate::common;

/// xorshift64*: deterministic keys with plenty of duplicates when masked.
fn keys(n: usize, seed: u64, mask: u32) -> Vec<u32> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) as u32 & mask
        })
        .collect()
}

fn lengths() -> Vec<usize> {
    let mut v: Vec<usize> = (1..=70).collect();
    for m in 7..=16 {
        let p = 1usize << m;
        v.extend([p - 1, p, p + 1]);
    }
    v.extend([1000, 3000, 10_007, 40_000, 65_535 - 2]);
    v.retain(|&n| n <= 1 << 16);
    v.sort_unstable();
    v.dedup();
    v
}

#[test]
fn gpu_sort_matches_sort_unstable() {
    let Some(gpu) = common::gpu() else { return };
    let sorter = gpu.sorter().unwrap();
    let lens = lengths();
    assert!(lens.contains(&(1 << 16)) && lens.contains(&1) && lens.contains(&((1 << 15) + 1)));
    for (i, &n) in lens.iter().enumerate() {
        // Alternate full-range keys and keys with many duplicates.
        let mask = if i % 2 == 0 { u32::MAX } else { 0xff };
        let k = keys(n, 0x1234_5678 + n as u64, mask);
        let idx: Vec<u32> = (0..n as u32).collect();
        let run = sorter.sort(&k, &idx).unwrap();
        let mut want = k.clone();
        want.sort_unstable();
        assert_eq!(run.keys, want, "keys differ for n = {n}");
        // Values moved with their keys: a permutation, each pointing at its key.
        let mut seen = vec![false; n];
        for (pos, &v) in run.vals.iter().enumerate() {
            let v = v as usize;
            assert!(
                v < n && !seen[v],
                "n = {n}: value {v} repeated or out of range"
            );
            seen[v] = true;
            assert_eq!(k[v], run.keys[pos], "n = {n}: value at {pos} left its key");
        }
    }
}

#[test]
fn gpu_sort_edge_inputs() {
    let Some(gpu) = common::gpu() else { return };
    let sorter = gpu.sorter().unwrap();
    let empty = sorter.sort(&[], &[]).unwrap();
    assert!(empty.keys.is_empty());
    let rev: Vec<u32> = (0..5000u32).rev().collect();
    let run = sorter.sort(&rev, &rev).unwrap();
    assert_eq!(run.keys, (0..5000u32).collect::<Vec<_>>());
    let same = vec![7u32; 1025];
    assert_eq!(sorter.sort(&same, &same).unwrap().keys, same);
    let extremes = vec![u32::MAX, 0, u32::MAX - 1, 1, u32::MAX];
    assert_eq!(
        sorter.sort(&extremes, &[0, 1, 2, 3, 4]).unwrap().keys,
        vec![0, 1, u32::MAX - 1, u32::MAX, u32::MAX]
    );
    assert!(sorter.sort(&[1, 2], &[1]).is_err());
}
