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

Contraction: nvcc (--fmad=true) and clang for HIP fuse a float a*b+c written in one
expression into one fma, and so does crosslane (crosslane-kernel's contract module). A fused
multiply-add rounds once (<= 0.5 ulp against the exact a*b+c), so a kernel's fused terms stay
inside the per-operation bound the tolerances above already count; the results modelled as
exact float operations (the q8 scale, x / scale and its rounding) have no product feeding a
sum, so fusion changes none of them.

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


def f16(x):
    """x rounded to IEEE binary16 (round to nearest even)."""
    return struct.unpack("e", struct.pack("e", x))[0]


def round_half_away(v):
    """roundf: halfway cases away from zero."""
    return int(math.floor(abs(v) + 0.5)) * (1 if v >= 0 else -1)


def round_half_even(v):
    """__float2int_rn / rintf: halfway cases to the even integer."""
    return int(round(v))


def entry(warps, expect, tol_ulp=0, abs_floor=0.0, note=None, lens=None):
    return {
        "warps": warps,
        "len": lens or {},
        "expect": expect,
        "tol_ulp": tol_ulp,
        "abs": abs_floor,
        "ulp_note": note or {},
    }


def more_kernels(W):
    """The second part of the corpus (the kernels' files name their shapes)."""
    out = {}
    # warp_logsumexp: 2 rows of 2 W logits (scale 1/4); label 3 row + 1.
    lse, loss = [], []
    for r in range(2):
        xs = [inp(r * 2 * W + k, 0.25) for k in range(2 * W)]
        m = max(xs)
        v = m + math.log(sum(math.exp(x - m) for x in xs))
        lse.append(v)
        loss.append(v - xs[3 * r + 1])
    # logf <= 1 ulp after a 2W-term sum of expf values (2 ulp each): the sum's relative error
    # moves log by at most (W + 2) ulp of 1.
    out["warp_logsumexp"] = entry(2, {"lse": lse, "loss": loss}, W + 8, 1.0,
                                  {"lse": 1, "loss": 1})
    # layernorm_block: one row of 4 W (scale 1/8), two-pass mean / variance, gamma, beta.
    n = 4 * W
    xs = [inp(t) for t in range(n)]
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / n
    rstd = 1.0 / math.sqrt(var + 1e-5)
    ys = [(x - mean) * rstd * (1 + (t % 4) * 0.125) + (t % 3) * 0.25 for t, x in enumerate(xs)]
    out["layernorm_block"] = entry(4, {"out": ys}, 4 * n, 1.0, {"out": 2})
    # rmsnorm_float4: one row of 4 W through float4.
    xs = [inp(k) for k in range(n)]
    r = 1.0 / math.sqrt(sum(x * x for x in xs) / n + 1e-6)
    out["rmsnorm_float4"] = entry(1, {"x": xs, "out": [x * r for x in xs]}, n / 2 + 8, 1.0,
                                  {"out": 2}, {"x": n, "out": n})
    # block_cumsum: integers (t * 7) % 11 - 3, inclusive.
    acc, cs = 0, []
    for t in range(n):
        acc += (t * 7) % 11 - 3
        cs.append(acc)
    out["block_cumsum"] = entry(4, {"out": cs})
    # moe_align_count: expert (t * 5 + t // 8) % 8 for each of 4 W threads.
    counts = [0] * 8
    for t in range(n):
        counts[(t * 5 + t // 8) % 8] += 1
    offs = [sum(counts[:e]) for e in range(8)]
    out["moe_align_count"] = entry(4, {"counts": counts, "offsets": offs},
                                   lens={"counts": 8, "offsets": 8})
    # q8_dot: 2 blocks of W int8 pairs; one float rounding of da * db * isum (da * db exact).
    isum, dot = [], []
    for b in range(2):
        p = 0
        for l in range(W):
            g = b * W + l
            p += ((g * 37 + 11) % 255 - 127) * ((g * 91 + 5) % 201 - 100)
        isum.append(p)
        dot.append(f32(0.03125 * 0.0078125 * (1 + b) * p))
    out["q8_dot"] = entry(1, {"isum": isum, "dot": dot}, lens={"isum": 2, "dot": 2})
    # q4_quantize_pack: 2 blocks of W (scale 3/8); float32 steps as IEEE rounds them.
    packed, scales = [], []
    for b in range(2):
        xs = [f32(inp(b * W + l, 0.375)) for l in range(W)]
        amax = max(abs(x) for x in xs)
        d = f32(amax / 7.0)
        inv = f32(1.0 / d) if d != 0.0 else 0.0
        qs = [min(7, max(-7, round_half_away(f32(x * inv)))) + 8 for x in xs]
        packed += [qs[l] | (qs[l + 1] << 4) for l in range(0, W, 2)]
        scales.append(d)
    out["q4_quantize_pack"] = entry(2, {"packed": packed, "scales": scales},
                                    lens={"packed": W, "scales": 2})
    # silu_mul_half2: inputs exact in half; silu(g) * u in exact arithmetic, rounded to half.
    # A half result may round the other way when the float value lies within the expf bound of
    # a half rounding boundary: one half ulp, 2^13 float ulps of the value.
    res = []
    for k in range(2 * W):
        g = f16(inp(k, 0.25))
        u = f16((k % 7) * 0.5 - 1.0)
        res.append(f16(g / (1.0 + math.exp(-g)) * u))
    out["silu_mul_half2"] = entry(1, {"out": res}, 2 ** 13, 0.0, None, {"out": 2 * W})
    # gelu_tanh: 2 W values (scale 1/4), constants as the kernel's floats.
    kb, kk = f32(0.7978845608), f32(0.044715)
    res = []
    for k in range(2 * W):
        x = inp(k, 0.25)
        res.append(0.5 * x * (1 + math.tanh(kb * (x + kk * x ** 3))))
    out["gelu_tanh"] = entry(1, {"out": res}, 16, 1.0, {"out": 2}, {"out": 2 * W})
    # rope_rotary: positions 1, 2; angle pos * 10000^(-i / W); powf <= 4 ulp moves the angle
    # (at most 2 rad) by 8 ulp of 1, sinf / cosf add 2.
    res = [0.0] * (4 * W)
    for w in range(2):
        pos, base = 1 + w, w * 2 * W
        for i in range(W):
            x0, x1 = inp(base + i), inp(base + i + W)
            th = pos * 10000.0 ** (-i / W)
            c, s = math.cos(th), math.sin(th)
            res[base + i] = x0 * c - x1 * s
            res[base + i + W] = x0 * s + x1 * c
    out["rope_rotary"] = entry(2, {"out": res}, 64, 1.0, {"out": 2}, {"out": 4 * W})
    # flash_attn_row: softmax over 8 keys of q . k_j / sqrt(W), weights times v_j.
    q = [inp(d) for d in range(W)]
    sc = []
    for j in range(8):
        kj = [(((j * 64 + d) * 53 + 7) % 23 - 11) * 0.125 for d in range(W)]
        sc.append(sum(a * b for a, b in zip(q, kj)) / math.sqrt(W))
    m = max(sc)
    ps = [math.exp(s - m) for s in sc]
    tot = sum(ps)
    res = [sum(ps[j] * ((j * 5 + d * 3) % 13 - 6) * 0.25 for j in range(8)) / tot
           for d in range(W)]
    # 8 rescaling steps (2 expf and 3 roundings each) on weights summing to 1, |v| <= 1.5.
    out["flash_attn_row"] = entry(1, {"out": res, "lse": [m + math.log(tot)]}, W + 64, 1.0,
                                  {"out": 2}, {"out": W, "lse": 1})
    # paged_attention_reduce: W partitions (max logit scale 1/2, exp sum 1 + (p % 7) / 2).
    mx = [inp(p, 0.5) for p in range(W)]
    es = [1 + (p % 7) * 0.5 for p in range(W)]
    gm = max(mx)
    ws = [e * math.exp(m - gm) for e, m in zip(es, mx)]
    tot = sum(ws)
    res = [sum(w * ((p * 3 + c * 5) % 9 - 4) * 0.25 for p, w in enumerate(ws)) / tot
           for c in range(4)]
    out["paged_attention_reduce"] = entry(1, {"out": res, "total": [tot]}, W / 2 + 16, 1.0,
                                          {"out": 2, "total": 2}, {"out": 4, "total": 1})
    # argmax_block: 4 W logits ((t * 41 + 3) % 31 - 15) / 2, first index of the maximum.
    xs = [((t * 41 + 3) % 31 - 15) * 0.5 for t in range(n)]
    i, v = argmax_first(xs)
    out["argmax_block"] = entry(4, {"out_idx": [i], "out_val": [v]},
                                lens={"out_idx": 1, "out_val": 1})
    # bitonic_sort_warp: W values, descending, equal values by index.
    xs = [inp(l) for l in range(W)]
    order = sorted(range(W), key=lambda k: (-xs[k], k))
    out["bitonic_sort_warp"] = entry(1, {"val": [xs[k] for k in order], "idx": order})
    # l2norm: 2 rows of 2 W; sqrtf is correctly rounded (0 ulp), so no note.
    res = []
    for r in range(2):
        xs = [inp(r * 2 * W + k) for k in range(2 * W)]
        nrm = max(math.sqrt(sum(x * x for x in xs)), 1e-12)
        res += [x / nrm for x in xs]
    out["l2norm"] = entry(2, {"out": res}, W + 4, 0.0, None, {"out": 4 * W})
    # dynamic_int8_quant: x = n * 0.3f in float; exact IEEE steps, round half to even.
    xs = [f32(((t * 37 + 11) % 29 - 14) * f32(0.3)) for t in range(n)]
    amax = max(abs(x) for x in xs)
    inv = f32(127.0 / amax)
    qs = [min(127, max(-128, round_half_even(f32(x * inv)))) for x in xs]
    out["dynamic_int8_quant"] = entry(4, {"q": qs, "scale": [f32(amax / 127.0)]},
                                      lens={"scale": 1})
    # half2_axpy: each half2 operation rounds once to half (values exact in double before).
    ys, ws = [], []
    for k in range(2 * W):
        x = f16((k % 9 - 4) * 0.125)
        y = f16(1.5 * x + f16((k % 5) * 0.25 - 0.5))
        ys.append(y)
        ws.append(f16(f16(y * y) + x))
    out["half2_axpy"] = entry(1, {"y_out": ys, "w_out": ws},
                              lens={"y_out": 2 * W, "w_out": 2 * W})
    # softmax_float4: one row of 4 W (scale 1/4).
    xs = [inp(k, 0.25) for k in range(n)]
    out["softmax_float4"] = entry(1, {"x": xs, "out": softmax(xs)}, n / 2 + 16, 0.0,
                                  {"out": 2}, {"x": n, "out": n})
    # moe_sigmoid_topk: the choice score + bias in float steps (it decides the ranking);
    # weights from the exact sigmoids.
    experts, weights = [], []
    for t in range(2):
        logit = [inp(t * W + e, 0.25) for e in range(W)]
        sf = [f32(1.0 / f32(1.0 + f32(math.exp(-x)))) for x in logit]
        choice = [f32(sf[e] + (e % 4) * 0.0625) for e in range(W)]
        top = sorted(range(W), key=lambda e: (-choice[e], e))[:2]
        sg = [1.0 / (1.0 + math.exp(-logit[e])) for e in top]
        experts += top
        weights += [s / sum(sg) * 2.5 for s in sg]
    out["moe_sigmoid_topk"] = entry(2, {"expert": experts, "weight": weights}, 16, 0.0,
                                    {"weight": 2}, {"expert": 4, "weight": 4})
    # fused_add_rmsnorm: residual = r + x (exact), then RMSNorm with weight 1 + (k % 4) / 8.
    resid, res = [], []
    for r in range(2):
        hs = []
        for k in range(2 * W):
            g = r * 2 * W + k
            hs.append(inp(g) + ((g * 13 + 5) % 17 - 8) * 0.0625)
        inv = 1.0 / math.sqrt(sum(h * h for h in hs) / (2 * W) + 1e-6)
        resid += hs
        res += [h * inv * (1 + (k % 4) * 0.125) for k, h in enumerate(hs)]
    # rmsnorm_cub: vLLM's rms_norm_kernel shape, one row of 2 * 4 W, cub::BlockReduce sum of
    # squares, weight 1 + (k % 3) / 4, eps 1e-6: an n-term float sum (n/2 ulp) and rsqrtf.
    n = 8 * W
    xs = [inp(k) for k in range(n)]
    r = 1.0 / math.sqrt(sum(x * x for x in xs) / n + 1e-6)
    out["rmsnorm_cub"] = entry(1 * 4, {"out": [x * r * (1 + (k % 3) * 0.25) for k, x in enumerate(xs)]},
                               n / 2 + 8, 1.0, {"out": 2}, {"out": n})
    out["fused_add_rmsnorm"] = entry(2, {"residual": resid, "out": res}, W + 8, 1.0,
                                     {"out": 2}, {"residual": 4 * W, "out": 4 * W})
    return out


# The accuracy note each noted buffer carries: the last inexact function on its path, with
# its bound in CUDA's table (CUDA C++ Programming Guide, Mathematical Functions: expf 2,
# rsqrtf 2, logf 1, tanhf 2, sinf / cosf 2 ulp) and in HIP's (HIP documentation, HIP math
# API: expf 1, rsqrtf 1, logf 2, tanhf 2, sinf / cosf 1 ulp, each inside its test range,
# which every argument here is).
BOUNDS = {"expf": (2, 1), "rsqrtf": (2, 1), "logf": (1, 2), "tanhf": (2, 2), "cosf": (2, 1)}
NOTE_FN = {
    "warp_softmax": {"out": "expf"},
    "block_softmax": {"out": "expf"},
    "online_softmax": {"out": "expf"},
    "rmsnorm": {"out": "rsqrtf"},
    "layernorm_welford": {"out": "rsqrtf"},
    "moe_topk_routing": {"weight": "expf"},
    "paged_attention_partials": {"part_sum": "expf"},
    "warp_logsumexp": {"lse": "logf", "loss": "logf"},
    "layernorm_block": {"out": "rsqrtf"},
    "rmsnorm_float4": {"out": "rsqrtf"},
    "gelu_tanh": {"out": "tanhf"},
    "rope_rotary": {"out": "cosf"},
    "flash_attn_row": {"out": "expf"},
    "paged_attention_reduce": {"out": "expf", "total": "expf"},
    "softmax_float4": {"out": "expf"},
    "moe_sigmoid_topk": {"weight": "expf"},
    "fused_add_rmsnorm": {"out": "rsqrtf"},
    "rmsnorm_cub": {"out": "rsqrtf"},
    "act_and_mul": {"out": "expf"},
}


def f16(x):
    """x rounded to IEEE binary16 (round to nearest even), as __float2half does."""
    return struct.unpack("e", struct.pack("e", x))[0]


def round_away(x):
    """roundf: the nearest integer, halfway cases away from zero (C11 7.12.9.6)."""
    return int(math.floor(abs(x) + 0.5)) * (1 if x >= 0 else -1)


def q8_blocks(xs):
    """llama.cpp's q8 quantization of 32-value blocks: d = amax / 127 (float), each q =
    roundf(x / d), and the sum of the quants; per block (d, qs, sum)."""
    res = []
    for ib in range(len(xs) // 32):
        blk = xs[ib * 32:(ib + 1) * 32]
        amax = max(abs(x) for x in blk)
        d = f32(amax / 127.0)
        qs = [0 if amax == 0 else round_away(f32(x / d)) for x in blk]
        res.append((d, qs, sum(qs)))
    return res


def quant_kernels(W):
    """The struct-block kernels (q8_0_roundtrip, q4_0_q8_1_dot): two warps of W lanes, blocks
    of 32 values, the inputs of `inp` at scale 1/8."""
    n = 2 * W
    xs = [f32(inp(g)) for g in range(n)]
    out = {}
    blocks = q8_blocks(xs)
    deq = []
    for d, qs, _ in blocks:
        dh = f16(d)
        deq += [f32(dh * q) for q in qs]
    out["q8_0_roundtrip"] = {
        "warps": 2,
        "len": {"y.d": n // 32, "y.qs": n, "out": n},
        "expect": {
            "y.d": [f16(d) for d, _, _ in blocks],
            "y.qs": [q for _, qs, _ in blocks for q in qs],
            "out": deq,
        },
        "tol_ulp": 0.5,
        "abs": 0.0,
        "ulp_note": {},
    }
    # q4_0 weights: byte l of block ib is (t * 73 + 5) & 0xFF with t = 32 ib + l, its low
    # nibble weighting quant l and its high nibble quant l + 16 (each nibble minus 8 through
    # the block sum below); d4 = 0.0625 (ib + 1) as half.
    nb = n // 32
    isum, dot = [], []
    for ib, (d8, qs, qsum) in enumerate(blocks):
        bytes_ = [((ib * 32 + l) * 73 + 5) & 0xFF for l in range(16)]
        si = sum((b & 0xF) * qs[l] + (b >> 4) * qs[l + 16] for l, b in enumerate(bytes_))
        d8h = f16(d8)
        s8h = f16(f32(d8 * qsum))
        d4 = f16(f32(0.0625 * (ib + 1)))
        isum.append(si)
        dot.append(f32(d4 * f32(f32(d8h * si) - f32(8.0 * s8h))))
    out["q4_0_q8_1_dot"] = {
        "warps": 2,
        "len": {"yq.ds": 2 * nb, "yq.qs": n, "isum": nb, "dot": nb},
        "expect": {
            "yq.qs": [q for _, qs, _ in blocks for q in qs],
            "isum": isum,
            "dot": dot,
        },
        "tol_ulp": 0.5,
        "abs": 0.0,
        "ulp_note": {},
    }
    # act_and_mul (vLLM's act_and_mul_kernel<float, silu_kernel<float>>): d = 128 values,
    # out = silu(x) * y; expf <= 2 ulp, then + / * 0.5 ulp each.
    res = []
    for i in range(128):
        x = inp(i, 0.25)
        y = (i % 7) * 0.5 - 1.5
        res.append(x / (1 + math.exp(-x)) * y)
    out["act_and_mul"] = {
        "warps": 1,
        "len": {"out": 128},
        "expect": {"out": res},
        "tol_ulp": 8,
        "abs": 0.0,
        "ulp_note": {"out": 2},
    }
    return out


def all_kernels(W):
    out = kernels(W)
    out.update(more_kernels(W))
    out.update(quant_kernels(W))
    for name, e in out.items():
        fns = NOTE_FN.get(name, {})
        assert set(fns) == set(e["ulp_note"]), name
        for buf, fn in fns.items():
            assert e["ulp_note"][buf] == BOUNDS[fn][0], (name, buf)
        e["ulp_note_hip"] = {buf: BOUNDS[fn][1] for buf, fn in fns.items()}
    # HIP states expf's bound only for x in [-10, 10] (an infinite argument is an exact
    # special case): where a kernel's expf argument leaves that range, the note says no
    # bound (null here).
    for buf in hip_unbounded(W):
        name, b = buf
        out[name]["ulp_note_hip"][b] = None
    return out


def hip_unbounded(W):
    """(kernel, buffer) pairs whose values come from an expf argument outside [-10, 10]."""
    res = []
    # paged_attention_partials: expf(s - m) within each partition of W scores (scale 1/2).
    if any(min(inp(w * W + l, 0.5) for l in range(W)) - max(inp(w * W + l, 0.5) for l in range(W)) < -10
           for w in range(4)):
        res.append(("paged_attention_partials", "part_sum"))
    # paged_attention_reduce: expf(max_p - max) over the W partitions' maxima (scale 1/2).
    mx = [inp(p, 0.5) for p in range(W)]
    if min(mx) - max(mx) < -10:
        res += [("paged_attention_reduce", "out"), ("paged_attention_reduce", "total")]
    # rope_rotary: powf(10000.0f, e): HIP states powf's bound for a base in [-4, 4] only, and
    # the angle's error carries through cosf / sinf to every rotated value: no bound.
    res.append(("rope_rotary", "out"))
    # flash_attn_row: expf(m_old - m_new) and expf(s_j - m_new) along the 8 keys.
    q = [inp(d) for d in range(W)]
    m, args = None, []
    for j in range(8):
        kj = [(((j * 64 + d) * 53 + 7) % 23 - 11) * 0.125 for d in range(W)]
        s = sum(a * b for a, b in zip(q, kj)) / math.sqrt(W)
        mn = s if m is None else max(m, s)
        if m is not None:
            args.append(m - mn)
        args.append(s - mn)
        m = mn
    if min(args) < -10:
        res.append(("flash_attn_row", "out"))
    return res


if __name__ == "__main__":
    print(json.dumps({"32": all_kernels(32), "64": all_kernels(64)}, indent=1))
