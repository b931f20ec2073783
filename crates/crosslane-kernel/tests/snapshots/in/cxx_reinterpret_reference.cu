// snapshot: threads=4
// `reinterpret_cast<T&>(x)` and the C-style `(T&)x` see x's bytes as a T ([expr.reinterpret.cast]/11:
// the result refers to x with type T, i.e. `*reinterpret_cast<T*>(&x)`; [expr.cast]/4 makes a
// C-style cast to a non-const reference of another type that reinterpret_cast). They are not
// value conversions (the front end used to convert the value: u[1] was 1 for f = 1.5).
// `(const T&)x` is the static_cast to a temporary of the converted value ([expr.cast]/4,
// [dcl.init.ref]/5): q gets the truncated values.
//
// Buffers have the index fill. Lane t: f = t + 0.5 (0.5, 1.5, 2.5, 3.5).
// u[t] = reinterpret_cast<unsigned&>(f): 0x3F000000 = 1056964608, 0x3FC00000 = 1069547520,
//   0x40200000 = 1075838976, 0x40600000 = 1080033280 (Python struct.pack('<f', f)).
// y[t] = __uint_as_float((unsigned&)f ^ 0x80000000u): the sign bit flipped, -f.
// q[t] = (int)(const unsigned&)f: 0, 1, 2, 3.
// hb[t] = reinterpret_cast<unsigned const&>(h) of h = (half t, half 1) (`.x` the low 16
//   bits): 0x3C000000 = 1006632960, 0x3C003C00 = 1006648320, 0x3C004000 = 1006649344,
//   0x3C004200 = 1006649856 (Python struct.pack('<ee', t, 1.0) read as '<I').
// x[t] through reinterpret_cast<unsigned&>(x[t]) ^= 0x80000000u: an element of a buffer is
//   written through the view: x = -0, -1, -2, -3.
#include <cuda_fp16.h>
__global__ void k(float* x, unsigned* u, float* y, int* q, unsigned* hb) {
    int t = threadIdx.x;
    float f = t + 0.5f;
    u[t] = reinterpret_cast<unsigned&>(f);
    y[t] = __uint_as_float((unsigned&)f ^ 0x80000000u);
    q[t] = (int)(const unsigned&)f;
    __half2 h = __floats2half2_rn((float)t, 1.0f);
    hb[t] = reinterpret_cast<unsigned const&>(h);
    reinterpret_cast<unsigned&>(x[t]) ^= 0x80000000u;
}
