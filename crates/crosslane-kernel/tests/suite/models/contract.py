#!/usr/bin/env python3
"""Expected values of kernel_contract.rs, derived independently with exact rationals.

A fused multiply-add rounds the exact a*b+c once; the unfused expression rounds the product,
then the sum (IEEE 754 round-to-nearest-even). `rnd(x, p, emin)` rounds a Fraction to a binary
format with p significand bits and minimum normal exponent emin (binary32: 24, -126; binary64:
53, -1022). Run: python3 contract.py (prints each case; the test file quotes the numbers).
"""
from fractions import Fraction as F


def rnd(x, p, emin):
    if x == 0:
        return F(0)
    s = -1 if x < 0 else 1
    x = abs(x)
    e = 0
    while x >= 2:
        x /= 2
        e += 1
    while x < 1:
        x *= 2
        e -= 1
    # x in [1, 2): the quantum is 2^(e - p + 1), but never below the subnormal quantum.
    q = max(e, emin) - p + 1
    m = abs(F(x * F(2) ** e) / F(2) ** q)
    n = m.numerator // m.denominator
    r = m - n
    if r > F(1, 2) or (r == F(1, 2) and n % 2 == 1):
        n += 1
    return s * F(n) * F(2) ** q


def f32(x):
    return rnd(x, 24, -126)


def f64(x):
    return rnd(x, 53, -1022)


def show(name, v):
    print(f"{name} = {v} = {float(v)!r}")


a = b = 1 + F(1, 2**12)
show("f32 fused a*b-1", f32(a * b - 1))
show("f32 unfused a*b-1", f32(f32(a * b) - 1))
show("f32 fused 1-a*b", f32(1 - a * b))
show("f32 unfused 1-a*b", f32(1 - f32(a * b)))
d = 1 + F(1, 2**30)
show("f64 fused d*d-1", f64(d * d - 1))
show("f64 unfused d*d-1", f64(f64(d * d) - 1))

# The dot product: x[k] = 1 + k*2^-12, y[k] = 1 + k*3*2^-12 for k = 0..7 (the fills
# `i*0.000244140625+1` and `i*0.000732421875+1`), acc += x[k]*y[k] from acc = 0.
xs = [1 + k * F(1, 2**12) for k in range(8)]
ys = [1 + k * F(3, 2**12) for k in range(8)]
assert all(f32(v) == v for v in xs + ys)
fused = F(0)
unfused = F(0)
for x, y in zip(xs, ys):
    fused = f32(x * y + fused)
    unfused = f32(unfused + f32(x * y))
show("dot fused", fused)
show("dot unfused", unfused)
assert fused != unfused

# --use_fast_math (kernel_contract.rs fast_math_*): the emulator gives the correctly rounded
# value and the note; -ftz=true flushes denormal operands and results.
show("f32 2/3", f32(F(2, 3)))
# sqrt(2) to float: the floor of sqrt(2) * 2^23 * 2^k by integer square root, then the
# rounding bit from one more bit (sqrt(2) is irrational, so there is never a tie).
from math import isqrt
r = isqrt(2 * 2**(2 * 24))  # floor(sqrt(2) * 2^24): 25 bits, one past float's 24
n = r >> 1
if r & 1:
    n += 1
show("f32 sqrt(2)", F(n, 2**23))
assert f32(F(n, 2**23)) == F(n, 2**23)
show("2^-126 * 0.5 (unflushed)", f32(F(1, 2**126) * F(1, 2)))
show("2^100 / 2^127", f32(F(2**100, 2**127)))
