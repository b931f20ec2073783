// Inline PTX reads of the special registers (PTX ISA, Special Registers), as warp utilities
// write them.
__device__ __forceinline__ unsigned lane_id() {
    unsigned id;
    asm("mov.u32 %0, %%laneid;" : "=r"(id));
    return id;
}

__global__ void registers(unsigned* lane, unsigned* lt, unsigned* le, unsigned* gt,
                          unsigned* ge, unsigned* eq) {
    unsigned a, b, c, d, e;
    asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(a));
    asm volatile("mov.u32 %0, %%lanemask_le;" : "=r"(b));
    asm volatile("mov.u32 %0, %%lanemask_gt;" : "=r"(c));
    asm volatile("mov.u32 %0, %%lanemask_ge;" : "=r"(d));
    asm volatile("mov.u32 %0, %%lanemask_eq;" : "=r"(e));
    lane[threadIdx.x] = lane_id();
    lt[threadIdx.x] = a;
    le[threadIdx.x] = b;
    gt[threadIdx.x] = c;
    ge[threadIdx.x] = d;
    eq[threadIdx.x] = e;
}
