// snapshot: threads=4
// Multi-instruction inline PTX blocks run in order over their registers (PTX ISA 8.5: .reg,
// setp, selp, mov, add/sub, shl/shr, Predicated Execution; inputs are read before outputs are
// written, as GCC's extended asm). Thread i = 0..3. Hand-derived:
// flag: setp.ne.b32 p, i & 1, 0; selp.u32 → 0 1 0 1.
// y: a = i - 1.5, t = a·2, u = t + 1.0 (0f3F800000), y = max(u, a):
//    a = -1.5 -0.5 0.5 1.5 → u = -2 0 2 4 → y = -1.5 0 2 4.
// g: p = i < 2 (setp.lt.s32); r = 100; @p r += i; @!p r -= i → 100 101 98 97.
// v: v = 10i is both %0 and %1; %1 is read first: %0 = v + 1, then %0 = %0 + %1 = 2v + 1 →
//    1 21 41 61.
// s: 0xFF << sh, sh = 8, 16, 24, 32 (a shift of 32 clamps to 32: 0), then shr.u32 by 1:
//    0x7F80, 0x7F8000, 0x7F800000, 0 = 32640 8355840 2139095040 0.
// n: z = 0 1 2 NaN; p = z != 2 ordered (false for NaN), q = z != 2 unordered (true for NaN);
//    n = (p ? 1 : 0) + (q ? 2 : 0) → 3 3 0 2.
// lm: t = %lanemask_lt (the lanes below, PTX ISA Special Registers), popc t = the lane: 0 1 2 3.
__global__ void k(unsigned* flag, float* y, unsigned* g, unsigned* v, unsigned* s, int* n,
                  unsigned* lm) {
    unsigned i = threadIdx.x, r;
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %1, 0;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(r) : "r"(i & 1));
    flag[i] = r;
    float a = i - 1.5f, out;
    asm("{\n\t.reg .f32 t, u;\n\tmul.rn.f32 t, %1, %2;\n\tadd.rn.f32 u, t, 0f3F800000;\n\t"
        "max.f32 %0, u, %1;\n\t}"
        : "=f"(out) : "f"(a), "f"(2.0f));
    y[i] = out;
    asm("{\n\t.reg .pred p;\n\t.reg .u32 r;\n\tsetp.lt.s32 p, %1, 2;\n\tmov.u32 r, 100;\n\t"
        "@p add.u32 r, r, %1;\n\t@!p sub.u32 r, r, %1;\n\tmov.u32 %0, r;\n\t}"
        : "=r"(r) : "r"(i));
    g[i] = r;
    unsigned w = 10 * i;
    asm("{ add.u32 %0, %1, 1; add.u32 %0, %0, %1; }" : "=r"(w) : "r"(w));
    v[i] = w;
    unsigned sh = 8 * i + 8, x;
    asm("{\n\tshl.b32 %0, %1, %2;\n\tshr.u32 %0, %0, 1;\n\t}" : "=r"(x) : "r"(0xFFu), "r"(sh));
    s[i] = x;
    float z = (i == 3) ? sqrtf(-1.0f) : (float)i;
    int m;
    asm("{\n\t.reg .pred p, q;\n\t.reg .s32 a, b;\n\tsetp.ne.f32 p, %1, 0f40000000;\n\t"
        "setp.neu.f32 q, %1, 0f40000000;\n\tselp.s32 a, 1, 0, p;\n\tselp.s32 b, 2, 0, q;\n\t"
        "add.s32 %0, a, b;\n\t}"
        : "=r"(m) : "f"(z));
    n[i] = m;
    unsigned below;
    asm("{\n\t.reg .u32 t;\n\tmov.u32 t, %%lanemask_lt;\n\tpopc.b32 %0, t;\n\t}" : "=r"(below));
    lm[i] = below;
}
