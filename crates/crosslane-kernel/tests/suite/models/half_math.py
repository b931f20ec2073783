#!/usr/bin/env python3
"""Independent model of the expected values in kernel_half_math.rs (run: python3 half_math.py).

The CUDA Math API describes each half math function as computed "in round-to-nearest-even
mode"; the emulator evaluates it in single precision and rounds that float to the 16-bit type.
Here: Python's math module (double precision), rounded to float with struct 'f', then to half
with struct 'e' (IEEE binary16, round to nearest even) or to bfloat16 (the float's top 16 bits,
round to nearest even on the rest). floor / ceil / trunc / rint are exact.
"""
import math
import struct


def f16(x):
    try:
        return struct.unpack('<e', struct.pack('<e', x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def f32(x):
    try:
        return struct.unpack('<f', struct.pack('<f', x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def bf16(x):
    if math.isnan(x):
        return x
    bits = struct.unpack('<I', struct.pack('<f', f32(x)))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return struct.unpack('<f', struct.pack('<I', (bits << 16) & 0xFFFFFFFF))[0]


def rint(x):
    # round half to even (Python's round does ties-to-even).
    return float(round(x))


FNS = [
    ('hexp', math.exp), ('hexp2', lambda x: 2.0 ** x), ('hexp10', lambda x: 10.0 ** x),
    ('hlog', math.log), ('hlog2', math.log2), ('hlog10', math.log10),
    ('hsqrt', math.sqrt), ('hrsqrt', lambda x: 1.0 / math.sqrt(x)), ('hrcp', lambda x: 1.0 / x),
    ('hsin', math.sin), ('hcos', math.cos), ('htanh', math.tanh),
    ('hfloor', math.floor), ('hceil', math.ceil), ('htrunc', math.trunc), ('hrint', rint),
]

# Inputs (each exact in half and bfloat16).
XS = [0.25, 0.5, 1.5, 2.5, 3.0, 7.0]


def table(rnd):
    return [[rnd(f32(float(f(x)))) for x in XS] for _, f in FNS]


def q_repro():
    # out = __hadd(__low2half(h2rsqrt(x, x)), hexp(x)) for x = 0.25, 1.0; __hadd rounds once.
    return [f16(f16(f32(1 / math.sqrt(x))) + f16(f32(math.exp(x)))) for x in (0.25, 1.0)]


if __name__ == '__main__':
    print('q_repro', q_repro())
    for (name, _), row in zip(FNS, table(f16)):
        print('half', name, [repr(v) for v in row])
    for (name, _), row in zip(FNS, table(bf16)):
        print('bf16', name, [repr(v) for v in row])
