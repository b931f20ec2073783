#!/usr/bin/env python3
"""Independent model of the expected values in kernel_vector_types.rs (run: python3 vector_half.py).

Rounding to half uses struct's IEEE binary16 format 'e' (round to nearest even); to float,
struct 'f'; to bfloat16, the top 16 bits of the float with round-to-nearest-even on the rest.
Every product and sum below is exact in a Python float (a double) before the one rounding.
"""
import struct


def f16(x):
    return struct.unpack('<e', struct.pack('<e', x))[0]


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def bf16(x):
    bits = struct.unpack('<I', struct.pack('<f', f32(x)))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return struct.unpack('<f', struct.pack('<I', bits << 16))[0]


def half2_dot(lanes, scale):
    # Lane l holds a = (2l, 2l+1) (buffer filled by index), b = __float2half2_rn(scale)
    # (the float scale rounded to half, in both halves);
    # acc = __hfma2(a, b, 0); then a butterfly of __hadd2 with __shfl_xor over masks
    # lanes/2 .. 1; out[l] = low + high as floats.
    b = f16(f32(scale))
    acc = [(f16(2 * l * b), f16((2 * l + 1) * b)) for l in range(lanes)]
    m = lanes // 2
    while m >= 1:
        acc = [(f16(acc[l][0] + acc[l ^ m][0]), f16(acc[l][1] + acc[l ^ m][1])) for l in range(lanes)]
        m //= 2
    return [f32(lo + hi) for lo, hi in acc]


def bf162_butterfly(lanes):
    # Lane l holds __floats2bfloat162_rn(l * 1.1f, -l); a butterfly of __hadd2 with
    # __shfl_xor_sync over masks lanes/2 .. 1 (each sum rounded to bfloat16); out = low, high.
    acc = [(bf16(f32(l * f32(1.1))), bf16(-l)) for l in range(lanes)]
    m = lanes // 2
    while m >= 1:
        acc = [(bf16(acc[l][0] + acc[l ^ m][0]), bf16(acc[l][1] + acc[l ^ m][1])) for l in range(lanes)]
        m //= 2
    return acc


def bf16_roundtrip(n):
    # x = (l + 1) * 1.1f in float; out = float(bf16(x)) and out2 = float(half(x)).
    xs = [f32((l + 1) * f32(1.1)) for l in range(n)]
    return [bf16(x) for x in xs], [f16(x) for x in xs]


if __name__ == '__main__':
    for lanes in (32, 64):
        got = half2_dot(lanes, 0.1)
        exact = sum(range(2 * lanes)) * 0.1
        print(f'half2 dot, {lanes} lanes, scale 0.1f:', sorted(set(got)), 'lane 0', got[0], 'exact', exact)
    got = bf162_butterfly(32)
    print('bf162 butterfly, 32 lanes:', sorted(set(got)), 'exact', 1.1 * 496, -496)
    b, h = bf16_roundtrip(8)
    print('bf16 of (l+1)*1.1f:', b)
    print('half of (l+1)*1.1f:', h)
