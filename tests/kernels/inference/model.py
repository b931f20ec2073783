#!/usr/bin/env python3
"""Independent model of the inference kernels in this folder (standard library only).

Each function follows the kernel's definition in exact (double) arithmetic, not its code:
a softmax is exp(x - max) / sum, a norm is computed from its formula, argmax and top-k sort
the row. Where the kernel's result is an exact float operation (the q8 block scale and the
rounding of x / scale), the model rounds to float32 after each operation as IEEE 754 does.

Writes expected.json: for each kernel and warp width (32: CUDA and HIP wave32; 64: HIP
wave64), the launch (warps per block, buffer lengths) and the expected final buffers, with
"tol_ulp": the error the CUDA Math API table allows the float kernel against the exact value,
in float ulps of the value (plus "abs" times that ulp for values near zero):
expf <= 2 ulp, rsqrtf <= 2 ulp, each + - * / <= 0.5 ulp, so an n-term float sum is within
n/2 ulp, plus the functions on the path.

Run: python3 model.py > expected.json
"""
import json
import math
import struct


def f32(x):
    """x rounded to float32 (round to nearest even)."""
    return struct.unpack("f", struct.pack("f", x))[0]


def inp(g, scale=0.125):
    return ((g * 37 + 11) % 29 - 14) * scale


def softmax(xs):
    m = max(xs)
    es = [math.exp(x - m) for x in xs]
    s = sum(es)
    return [e / s for e in es]


def argmax_first(xs):
    best = max(xs)
    return xs.index(best), best


def kernels(W):
    out = {}
    # warp_softmax: 2 rows of W.
    rows = [[inp(r * W + l) for l in range(W)] for r in range(2)]
    out["warp_softmax"] = {
        "warps": 2,
        "len": {},
        "expect": {"out": [p for row in rows for p in softmax(row)]},
        "tol_ulp": W / 2 + 8,
        "abs": 0.0,
        "ulp_note": {"out": 2},
    }
    # block_softmax: one row of 4 W.
    row = [inp(t) for t in range(4 * W)]
    out["block_softmax"] = {
        "warps": 4,
        "len": {},
        "expect": {"out": softmax(row)},
        "tol_ulp": 2 * W + 8,
        "abs": 0.0,
        "ulp_note": {"out": 2},
    }
    # online_softmax: one row of 4 W (4 per lane).
    row = [inp(g) for g in range(4 * W)]
    out["online_softmax"] = {
        "warps": 1,
        "len": {"out": 4 * W},
        # each rescale step adds an expf (2 ulp) and a multiply-add.
        "expect": {"out": softmax(row)},
        "tol_ulp": 4 * W + 16,
        "abs": 0.0,
        "ulp_note": {"out": 2},
    }
    # rmsnorm: 2 rows of 2 W, weight 1 + (k % 3) / 4, eps 1e-6.
    n = 2 * W
    res = []
    for r in range(2):
        xs = [inp(r * n + k) for k in range(n)]
        scale = 1.0 / math.sqrt(sum(x * x for x in xs) / n + 1e-6)
        res += [xs[k] * scale * (1 + (k % 3) * 0.25) for k in range(n)]
    out["rmsnorm"] = {
        "warps": 2,
        "len": {"out": 2 * n},
        "expect": {"out": res},
        "tol_ulp": n / 2 + 8,
        "abs": 1.0,
        "ulp_note": {"out": 2},
    }
    # layernorm: 2 rows of 2 W, eps 1e-5, population variance.
    res = []
    for r in range(2):
        xs = [inp(r * n + k) for k in range(n)]
        mean = sum(xs) / n
        var = sum((x - mean) ** 2 for x in xs) / n
        inv = 1.0 / math.sqrt(var + 1e-5)
        res += [(x - mean) * inv for x in xs]
    out["layernorm_welford"] = {
        "warps": 2,
        "len": {"out": 2 * n},
        "expect": {"out": res},
        "tol_ulp": 4 * n,
        "abs": 1.0,
        "ulp_note": {"out": 2},
    }
    # argmax of 2 W values: first index of the maximum.
    xs = [inp(k) for k in range(2 * W)]
    i, v = argmax_first(xs)
    out["argmax"] = {
        "warps": 1,
        "len": {},
        "expect": {"out_idx": [i], "out_val": [v]},
        "tol_ulp": 0,
        "abs": 0.0,
        "ulp_note": {},
    }
    # top-4 of 2 W values: by value descending, ties by index ascending.
    order = sorted(range(2 * W), key=lambda k: (-xs[k], k))[:4]
    out["warp_topk"] = {
        "warps": 1,
        "len": {},
        "expect": {"idx": order, "val": [xs[k] for k in order]},
        "tol_ulp": 0,
        "abs": 0.0,
        "ulp_note": {},
    }
    # MoE routing: 2 tokens of W expert logits (scale 1/4), softmax, top-2, renormalized.
    experts, weights = [], []
    for t in range(2):
        # The kernel's logits are float32 values: round them as the kernel does.
        logits = [
            f32(f32(inp(t * W + e, 0.25)) + f32((t * W + e) % 5 * f32(0.01)))
            for e in range(W)
        ]
        p = softmax(logits)
        top = sorted(range(W), key=lambda e: (-p[e], e))[:2]
        norm = p[top[0]] + p[top[1]]
        experts += top
        weights += [p[top[0]] / norm, p[top[1]] / norm]
    out["moe_topk_routing"] = {
        "warps": 2,
        "len": {},
        "expect": {"expert": experts, "weight": weights},
        "tol_ulp": W / 2 + 16,
        "abs": 0.0,
        "ulp_note": {"weight": 2},
    }
    # q8: 2 blocks of W values (scale 3/8); float32 steps as IEEE rounds them.
    qs, ds = [], []
    for b in range(2):
        xs = [f32(inp(b * W + l, 0.375)) for l in range(W)]
        amax = max(abs(x) for x in xs)
        d = f32(amax / 127.0)
        inv = f32(1.0 / d) if d != 0.0 else 0.0
        for x in xs:
            v = f32(x * inv)
            # roundf: halfway cases away from zero.
            q = math.floor(abs(v) + 0.5) * (1 if v >= 0 else -1)
            qs.append(int(q))
        ds.append(d)
    out["q8_quantize"] = {
        "warps": 2,
        "len": {},
        "expect": {"qs": qs, "scales": ds},
        "tol_ulp": 0,
        "abs": 0.0,
        "ulp_note": {},
    }
    # paged attention: 4 partitions of W scores (scale 1/2).
    pm, ps = [], []
    for w in range(4):
        sc = [inp(w * W + l, 0.5) for l in range(W)]
        m = max(sc)
        pm.append(m)
        ps.append(sum(math.exp(s - m) for s in sc))
    big = max(pm)
    total = sum(s * math.exp(m - big) for m, s in zip(pm, ps))
    out["paged_attention_partials"] = {
        "warps": 4,
        "len": {},
        "expect": {"part_max": pm, "part_sum": ps, "result": [big, total]},
        "tol_ulp": W / 2 + 16,
        "abs": 0.0,
        "ulp_note": {"part_sum": 2},
    }
    return out


if __name__ == "__main__":
    print(json.dumps({"32": kernels(32), "64": kernels(64)}, indent=1))
