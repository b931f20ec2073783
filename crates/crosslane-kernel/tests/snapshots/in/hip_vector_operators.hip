// snapshot: threads=4
// The operators HIP's vector types define (ROCm/clr amd_hip_vector_types.h, HIP_vector_type
// and the operator templates after it), t = 0..3 on one wave64:
// f: c = a * 0.5f + b = (t/2 + 1, 3); c -= 2 → (t/2 - 1, 1); d = -c = (1 - t/2, -1);
//    f = 10·d.x + d.y = 9 - 5t: 9, 4, -1, -6.
// eq: `==` is one bool, true iff every component is equal; `!=` is its negation; a scalar
//    compares as the vector of it (HIP_vector_type{u}). a == b only for t = 1 (+1), else
//    a != b (+2); (t, t) == t always (+4); n = (1, NaN): n == n is false, so n != n (+8).
//    eq = 14, 13, 14, 14.
// iv: q = (t, -t, 7, 200). q * 1.5f multiplies by static_cast<int>(1.5f) = 1, so its .y is
//    -t; (q % 3).y = -t % 3 (truncating) = 0, -1, -2, 0. iv = 100·(-t) + that:
//    0, -101, -202, -300.
// w: m = (t, 1, 7, 200) (no negative component: `<<` of one is undefined, C++17
//    [expr.shift]/2); ((m << 2) | 1).x = 4t + 1; (~m).z = ~7 = -8; (m ^ 1).w = 200 ^ 1 = 201.
//    w = 4t + 1 - 8000 + 201 = -7798, -7794, -7790, -7786.
// u: p = (200, 100 + t) as uchar2; p + p is a uchar2: (400 mod 256, 200 + 2t) = (144, …).
//    u = 1000·144 + 200 + 2t = 144200, 144202, 144204, 144206.
// g: ++ adds HIP_vector_type{1}, += 2 adds (2, 2): g = (t + 3, 2t + 3); g.x·10 + g.y =
//    12t + 33 = 33, 45, 57, 69.
#include <hip/hip_runtime.h>
__global__ void k(float* f, int* eq, int* iv, int* w, unsigned* u, int* g) {
    int t = threadIdx.x;
    float2 a = make_float2(t, 2.0f);
    float2 b = make_float2(1.0f, 2.0f);
    float2 c = a * 0.5f + b;
    c -= 2.0f;
    float2 d = -c;
    f[t] = d.x * 10.0f + d.y;
    float2 n = make_float2(1.0f, sqrtf(-1.0f - t));
    int e = (a == b) ? 1 : 0;
    e += (a != b) ? 2 : 0;
    e += (make_float2(t, t) == t) ? 4 : 0;
    e += (n != n) ? 8 : 0;
    e += (n == n) ? 16 : 0;
    eq[t] = e;
    int4 q = make_int4(t, -t, 7, 200);
    iv[t] = 100 * (q * 1.5f).y + (q % 3).y;
    int4 m = make_int4(t, 1, 7, 200);
    w[t] = ((m << 2) | 1).x + 1000 * (~m).z + (m ^ 1).w;
    uchar2 p = make_uchar2(200, 100 + t);
    u[t] = 1000u * (p + p).x + (p + p).y;
    int2 h = make_int2(t, 2 * t);
    ++h;
    h += 2;
    g[t] = 10 * h.x + h.y;
}
