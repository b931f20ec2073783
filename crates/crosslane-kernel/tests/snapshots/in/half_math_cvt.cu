// snapshot: threads=4
// Half math of cuda_fp16.h and an inline PTX cvt, in the shapes DeepSpeed's half layer norm,
// candle's f16 helpers and vLLM's int8 quantization write. Thread i reads x[i] (the fill of
// the launch: cell i = i, so x = 0, 1, 2, 3 as half).
// a[i] = hsqrt(i) + hrsqrt(4) — sqrt in float, rounded to half (python struct 'e' of struct
// 'f' of math.sqrt): 0 + 0.5 = 0.5; 1 + 0.5 = 1.5; 1.4140625 + 0.5 = 1.9140625;
// 1.732421875 + 0.5 = 2.232421875 (each sum exact in half). The accuracy note these values
// carry (the CUDA Math API states no bound) is checked in tests/suite/kernel_half_math.rs.
// b[i] = low half of h2floor((i + 0.5, -i - 0.5)) + high half: i + (-i - 1) = -1 in every
// thread (floor is exact: no note).
// c[i] = cvt.rni.sat.s8.f32 of (i - 1.5) · 100 = -150, -50, 50, 150 → clamped and rounded:
// -128, -50, 50, 127; read back as the s8 low byte of the 32-bit register.
// d[i] = __hmul_sat(i, 0.5): 0, 0.5, 1, 1.5 → 1 (saturated to [0, 1]).
#include <cuda_fp16.h>
__global__ void k(const __half* x, float* a, float* b, int* c, float* d) {
    int i = threadIdx.x;
    __half h = x[i];
    a[i] = __half2float(__hadd(hsqrt(h), hrsqrt(__float2half(4.0f))));
    __half2 p = __floats2half2_rn(i + 0.5f, -i - 0.5f);
    __half2 f = h2floor(p);
    b[i] = __low2float(f) + __high2float(f);
    uint32_t q;
    float v = (i - 1.5f) * 100.0f;
    asm volatile("cvt.rni.sat.s8.f32 %0, %1;" : "=r"(q) : "f"(v));
    c[i] = reinterpret_cast<const int8_t&>(q);
    d[i] = __half2float(__hmul_sat(h, __float2half(0.5f)));
}
