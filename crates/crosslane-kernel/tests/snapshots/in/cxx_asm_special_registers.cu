// snapshot: threads=64
// Inline PTX special registers and warp instructions, two warps of 32:
// %warpid = the warp's index in its block (lane ids 0-31: 0, 32-63: 1); %nwarpid = the most
// warp ids of the SM, 64 on sm_90 (the default --arch; an H200 read 64);
// %laneid = threadIdx.x % 32: a = 1000 * warp + 6400 + lane (6400..6431, 7400..7431).
// shfl.sync.bfly with lane mask 1 (c = 0x1f: width 32) swaps neighbours: b = lane ^ 1 within
// each warp's ids (1, 0, 3, 2, ...). activemask: all 32 lanes, 0xffffffff = 4294967295.
// %clock64 is the run's work counter: a later read is larger, d = 1. %smid has no value in
// an emulator: e is undefined, with that reason. The setp/vote.sync ballot block of
// (lane & 1) != 0 sets the odd lanes' bits: 0xaaaaaaaa = 2863311530 in every lane.
__global__ void k(unsigned *a, unsigned *b, unsigned *c, unsigned *d, unsigned *e,
                  unsigned *f) {
    unsigned w, nw, lane, act, v = threadIdx.x, r, sm, bal, odd = threadIdx.x & 1;
    unsigned long long t0, t1;
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
    asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(nw));
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0));
    asm volatile("activemask.b32 %0;" : "=r"(act));
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(1));
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1));
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %1, 0;\n\tvote.sync.ballot.b32 %0, p, %2;\n\t}"
                 : "=r"(bal) : "r"(odd), "r"(0xffffffff));
    a[threadIdx.x] = w * 1000 + nw * 100 + lane;
    b[threadIdx.x] = r;
    c[threadIdx.x] = act;
    d[threadIdx.x] = t1 > t0;
    e[threadIdx.x] = sm;
    f[threadIdx.x] = bal;
}
