#!/usr/bin/env python3
"""Independent model of the expected values in kernel_math_special.rs (run: python3 math_special.py).

Each function is evaluated with mpmath at 60 significant digits from its mathematical definition
(erfcx(x) = exp(x^2) erfc(x), normcdf(x) = erfc(-x/sqrt 2)/2, normcdfinv its inverse, erfcinv(y)
= erfinv(1 - y), I0/I1 = besseli, J/Y = besselj/bessely, the norms as square roots of sums of
squares) at the float (or double) argument, then rounded once: to float with struct 'f' (the
correctly rounded single-precision value), to double by mpmath's own rounding.
"""
import struct
from mpmath import mp, mpf, erfc, erfinv, exp, sqrt, besseli, besselj, bessely, ncdf

mp.dps = 60


def f32(x):
    return struct.unpack('<f', struct.pack('<f', float(x)))[0]


def a32(x):
    """The float nearest to the literal x (the kernel's `2.5f`)."""
    return mpf(f32(float(x)))


def normcdfinv(p):
    return -sqrt(2) * erfinv(1 - 2 * p)


SINGLE = [
    ("normcdff(-2.0f)", ncdf(a32(-2.0))),
    ("normcdff(-10.0f)", ncdf(a32(-10.0))),
    ("normcdfinvf(0.975f)", normcdfinv(a32(0.975))),
    ("normcdfinvf(0.001f)", normcdfinv(a32(0.001))),
    ("erfcxf(3.0f)", exp(a32(3) ** 2) * erfc(a32(3))),
    ("erfcxf(-0.5f)", exp(a32(-0.5) ** 2) * erfc(a32(-0.5))),
    ("erfcxf(30.0f)", exp(a32(30) ** 2) * erfc(a32(30))),
    ("erfcinvf(0.25f)", erfinv(1 - a32(0.25))),
    ("erfcinvf(1e-20f)", erfinv(1 - a32(1e-20))),
    ("erfcinvf(1.75f)", erfinv(1 - a32(1.75))),
    ("cyl_bessel_i0f(2.0f)", besseli(0, a32(2))),
    ("cyl_bessel_i0f(50.0f)", besseli(0, a32(50))),
    ("cyl_bessel_i1f(-1.5f)", besseli(1, a32(-1.5))),
    ("j0f(2.5f)", besselj(0, a32(2.5))),
    ("j1f(20.0f)", besselj(1, a32(20))),
    ("jnf(3, 10.0f)", besselj(3, a32(10))),
    ("y0f(0.75f)", bessely(0, a32(0.75))),
    ("y1f(9.0f)", bessely(1, a32(9))),
    ("ynf(2, 1.5f)", bessely(2, a32(1.5))),
    ("rhypotf(3.0f, 5.0f)", 1 / sqrt(a32(3) ** 2 + a32(5) ** 2)),
    ("norm3df(1.1f, 2.2f, 3.3f)", sqrt(a32(1.1) ** 2 + a32(2.2) ** 2 + a32(3.3) ** 2)),
    ("rnorm3df(1.0f, 2.0f, 3.0f)", 1 / sqrt(mpf(14))),
    ("norm4df(1e30f, 1e30f, 1e30f, 1e30f)", sqrt(4 * a32(1e30) ** 2)),
    ("rnorm4df(0.5f, 1.5f, 2.5f, 3.5f)", 1 / sqrt(mpf('0.25') + mpf('2.25') + mpf('6.25') + mpf('12.25'))),
    ("normf(5, v)", sqrt(sum(mpf(i) ** 2 for i in range(1, 6)))),
    ("rnormf(5, v)", 1 / sqrt(sum(mpf(i) ** 2 for i in range(1, 6)))),
]

DOUBLE = [
    ("normcdf(-2.0)", ncdf(mpf(-2))),
    ("normcdfinv(0.975)", normcdfinv(mpf(0.975))),
    ("erfcx(3.0)", exp(mpf(9)) * erfc(mpf(3))),
    ("erfcinv(0.25)", erfinv(1 - mpf(0.25))),
    ("cyl_bessel_i0(2.0)", besseli(0, mpf(2))),
    ("j0(2.5)", besselj(0, mpf(2.5))),
    ("yn(2, 1.5)", bessely(2, mpf(1.5))),
    ("rhypot(3.0, 5.0)", 1 / sqrt(mpf(34))),
    ("norm3d(1.1, 2.2, 3.3)", sqrt(mpf(1.1) ** 2 + mpf(2.2) ** 2 + mpf(3.3) ** 2)),
    ("rnorm(5, w)", 1 / sqrt(sum(mpf(i) ** 2 for i in range(1, 6)))),
]

if __name__ == "__main__":
    print("single (float bits, value):")
    for name, v in SINGLE:
        x = f32(v)
        print(f"    {name:42} 0x{struct.unpack('<I', struct.pack('<f', x))[0]:08X} {x!r}")
    print("double (value):")
    for name, v in DOUBLE:
        print(f"    {name:42} {float(v)!r}")
