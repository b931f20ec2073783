#!/usr/bin/env python3
"""Independent model of CUB's raking block reductions (kernel_cub_load.rs), written from
CUB's block_reduce_raking.cuh and block_reduce_raking_commutative_only.cuh, not from
crosslane's code. Every addition is rounded to float32 (round to nearest even).

- BLOCK_REDUCE_WARP_REDUCTIONS (the default): a shuffle tree in each warp of 32 (offsets
  1, 2, 4, 8, 16: lane l adds lane l + off when that lane is valid), thread 0 folds the warp
  aggregates left to right.
- BLOCK_REDUCE_RAKING on 128 threads: SEG = 4 cells per raking thread, 32 raking threads;
  raking thread r folds x[4r], x[4r+1], x[4r+2], x[4r+3] left to right, then the warp tree.
  With num_valid: cells at index >= num_valid are skipped, ceil(num_valid / 4) partials valid.
- BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY on 128 threads: SHARING = 96, S = 3; raking thread r
  folds x[r], then x[32 + 3r], x[33 + 3r], x[34 + 3r], then the warp tree.

Input: x[0] = 2^24, x[i] = 1 where i % 6 == 1, else 0 (floats near 2^24 are 2 apart, so each
order rounds the ones differently). The script asserts the three orders differ.
Run: python3 cub_raking.py
"""
import struct


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def inp(i):
    if i == 0:
        return 16777216.0
    return 1.0 if i % 6 == 1 else 0.0


def tree(xs, valid):
    v = list(xs)
    off = 1
    while off < len(v):
        nxt = list(v)
        for l in range(len(v)):
            if l + off < valid:
                nxt[l] = f32(v[l] + v[l + off])
        v = nxt
        off *= 2
    return v[0]


def warp_reductions(xs):
    aggs = [tree(xs[w * 32:(w + 1) * 32], 32) for w in range(len(xs) // 32)]
    acc = aggs[0]
    for a in aggs[1:]:
        acc = f32(acc + a)
    return acc


def raking(xs, num_valid):
    seg = 4
    parts = []
    for r in range(32):
        v = xs[r * seg]
        for i in range(1, seg):
            if r * seg + i < num_valid:
                v = f32(v + xs[r * seg + i])
        parts.append(v)
    return tree(parts, (num_valid + seg - 1) // seg)


def commutative(xs):
    s = 3
    parts = []
    for r in range(32):
        v = xs[r]
        for i in range(s):
            v = f32(v + xs[32 + s * r + i])
        parts.append(v)
    return tree(parts, 32)


xs = [inp(i) for i in range(128)]
w, rk, c, rv = warp_reductions(xs), raking(xs, 128), commutative(xs), raking(xs, 100)
print("warp_reductions", w, "raking", rk, "commutative", c, "raking valid 100", rv)
print("exact", sum(xs), "exact 100", sum(xs[:100]))
assert len({w, rk, c}) == 3
