// snapshot: threads=8
// One-instruction inline PTX global loads and stores (PTX ISA 8.5, ld, ld.global.nc, st: a
// `.vN` access moves N consecutive elements; cache qualifiers change no value), as the
// `ld_global_nc` / `st_global` helpers of inference kernels write them. Buffers hold the
// index fill (cell i = i). Hand-derived:
// thread t loads in[4*(t/4) .. +4] as an int4 and keeps element t % 4: e = t.
// threads 0..3 store {10t, e + 100} at out[2t], out[2t+1] (`.v2.s32`, operands after `::`):
//   out = 0 100 10 101 20 102 30 103.
// g[t] = ld.global.f32 at f + t, 8 bytes on (two floats): f[t + 2] = t + 2 for t < 6, else -1:
//   g = 2 3 4 5 6 7 -1 -1.
__global__ void k(const int* in, int* out, const float* f, float* g) {
    unsigned t = threadIdx.x;
    int4 v;
    asm volatile("ld.global.nc.L1::no_allocate.v4.s32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(reinterpret_cast<const int4*>(in) + t / 4));
    int e = (t % 4 == 0) ? v.x : (t % 4 == 1) ? v.y : (t % 4 == 2) ? v.z : v.w;
    if (t < 4) {
        int a = 10 * (int)t, b = e + 100;
        asm volatile("st.global.v2.s32 [%0], {%1, %2};"
                     :: "l"(reinterpret_cast<int2*>(out) + t), "r"(a), "r"(b));
    }
    float x = -1.0f;
    if (t < 6) {
        asm("ld.global.f32 %0, [%1+8];" : "=f"(x) : "l"(f + t));
    }
    g[t] = x;
}
