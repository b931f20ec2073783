// snapshot: threads=4
// Online softmax in the shape attention kernels write with inline PTX: scores prescaled by
// log2(e) so that one `ex2.approx.f32` gives e^x, the running sum rescaled with `fma.rn.f32`,
// the running max with `max.f32`, the normalisation with `div.full.f32`. The launch fills
// x = 0, 1, 2, 3 (cell i = i); every thread reads the whole row, thread i writes p[i].
// Hand-derived (python3, f = float32 rounding via struct 'f'; L = f(1.4426950408889634)):
//   m = f(3·L) = 4.328084945678711; s = 1 + e^-1 + e^-2 + e^-3 in float steps:
//   s = f(f(f(1·a + b)...)) = 1.553001880645752 (each ex2 correctly rounded, fma one rounding)
//   p[i] = f(f(2^d) / s) with d = f(i·L - m): nvcc contracts the operand `x·L - m` into one
//   fma (--fmad=true), so i·L is not rounded first: for i = 3, d = 3L - f(3L) = 2^-23, not 0,
//   and 2^d rounds to 1 + 2^-23:
//   0.032058604061603546, 0.08714433014392853, 0.23688283562660217, 0.6439142823219299
//   (softmax([0,1,2,3]) exactly: 0.0320586033, 0.0871443187, 0.2368828181, 0.6439142599).
// The device may differ: each ex2.approx.f32 by ≤ 2 ulp (PTX ISA, ex2), carried through
// (tests/suite/kernel_ptx_asm.rs checks the notes).
__global__ void k(const float* x, float* p) {
    const float L = 1.4426950408889634f;
    float m = -INFINITY, s = 0.0f;
    for (int j = 0; j < 4; ++j) {
        float v = x[j] * L, mn, a, b;
        asm("max.f32 %0, %1, %2;" : "=f"(mn) : "f"(m), "f"(v));
        asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(a) : "f"(m - mn));
        asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(b) : "f"(v - mn));
        asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(s) : "f"(s), "f"(a), "f"(b));
        m = mn;
    }
    float e, r;
    asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(x[threadIdx.x] * L - m));
    asm("div.full.f32 %0, %1, %2;" : "=f"(r) : "f"(e), "f"(s));
    p[threadIdx.x] = r;
}
