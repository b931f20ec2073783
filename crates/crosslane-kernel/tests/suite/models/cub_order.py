#!/usr/bin/env python3
"""Independent model of the float results of CUB's and hipCUB's reductions (kernel_cub.rs).

Written from the libraries' documented algorithms, not from crosslane's code:
- CUB WarpReduce (WarpReduceShfl): steps at offsets 1, 2, 4, ...; lane l adds lane l + off
  when l + off is a valid lane; lane 0's value is the result.
- CUB BlockReduce, BLOCK_REDUCE_WARP_REDUCTIONS: that warp tree in every warp of 32, then
  thread 0 folds the warp aggregates left to right.
- hipCUB (rocPRIM block_reduce_warp_reduce): the same warp tree in warps of 64 (wave64), then
  a second tree over the warp aggregates.
Every addition is rounded to float32 (round to nearest even), as the device does.

Inputs: x[0] = 2^24, x[i] = 1 for i in 1..3 and for every i that is a multiple of 32, else 0:
near 2^24 floats are 2 apart, so each order rounds the ones away (ties to even) differently.
The script asserts that the three orders give three different floats, so the test tells them
apart.
Run: python3 cub_order.py
"""
import struct


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def inp(i):
    if i == 0:
        return 16777216.0
    return 1.0 if i < 4 or i % 32 == 0 else 0.0


def warp_tree(xs, valid):
    v = list(xs)
    w = len(v)
    off = 1
    while off < w:
        nxt = list(v)
        for l in range(w):
            if l + off < valid:
                nxt[l] = f32(v[l] + v[l + off])
        v = nxt
        off *= 2
    return v[0]


def cub_block(xs, ws=32):
    aggs = [warp_tree(xs[k:k + ws], ws) for k in range(0, len(xs), ws)]
    acc = aggs[0]
    for a in aggs[1:]:
        acc = f32(acc + a)
    return acc


def rocprim_block(xs, ws=64):
    aggs = [warp_tree(xs[k:k + ws], ws) for k in range(0, len(xs), ws)]
    p = 1
    while p < len(aggs):
        p *= 2
    return warp_tree(aggs + [0.0] * (p - len(aggs)), len(aggs))


def kogge_stone(vs):
    """Inclusive warp scan, offsets 1, 2, 4, ...: v[l] = v[l - d] + v[l] where l >= d."""
    v = list(vs)
    d = 1
    while d < len(v):
        v = [f32(v[l - d] + v[l]) if l >= d else v[l] for l in range(len(v))]
        d *= 2
    return v


def raking_inclusive(xs, raking):
    """CUB BlockScanRaking / rocPRIM reduce_then_scan inclusive sum: `raking` threads each
    reduce a segment left to right, a Kogge-Stone scan of the totals, then each segment runs
    down from the total of the segments before it (none for the first)."""
    seg = len(xs) // raking
    totals = []
    for r in range(raking):
        acc = xs[r * seg]
        for x in xs[r * seg + 1:(r + 1) * seg]:
            acc = f32(acc + x)
        totals.append(acc)
    incl = kogge_stone(totals)
    out = []
    for r in range(raking):
        run = xs[r * seg]
        if r != 0:
            run = f32(incl[r - 1] + run)
        out.append(run)
        for x in xs[r * seg + 1:(r + 1) * seg]:
            run = f32(run + x)
            out.append(run)
    return out


def sequential(xs):
    acc = 0.0
    for x in xs:
        acc = f32(acc + x)
    return acc


if __name__ == "__main__":
    xs = [inp(i) for i in range(256)]
    c, r, s = cub_block(xs), rocprim_block(xs), sequential(xs)
    assert len({c, r, s}) == 3, (c, r, s)
    print("cub BlockReduce<float,256> sum:", repr(c))
    print("hipcub BlockReduce<float,256> wave64 sum:", repr(r))
    print("sequential sum (neither):", repr(s))
    print("cub WarpReduce<float> sum of x[0..32):", repr(warp_tree(xs[:32], 32)))
    print("hipcub WarpReduce<float> sum of x[0..64):", repr(warp_tree(xs[:64], 64)))
    print("cub WarpReduce<float> Sum(x, 13) of x[0..32):", repr(warp_tree(xs[:32], 13)))
    # Scans of y[0] = 2^24, y[i] = 1 for every other thread.
    ys = [16777216.0] + [1.0] * 255
    cub_scan = raking_inclusive(ys, 32)
    roc_scan = raking_inclusive(ys, 64)
    seq_scan = []
    acc = 0.0
    for y in ys:
        acc = f32(acc + y)
        seq_scan.append(acc)
    assert len({cub_scan[255], roc_scan[255], seq_scan[255]}) == 3
    print("BlockScan<float,256> InclusiveSum, thread 255: cub", repr(cub_scan[255]),
          "hipcub wave64", repr(roc_scan[255]), "sequential", repr(seq_scan[255]))
    print("cub WarpScan<float> InclusiveSum of x[0..32), lane 31:", repr(kogge_stone(xs[:32])[31]))
