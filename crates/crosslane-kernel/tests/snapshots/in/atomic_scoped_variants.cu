// snapshot: threads=32
// CUDA's scoped atomics: `atomicX_block` and `atomicX_system` are `atomicX` whose atomicity is
// guaranteed only within the block / across the system (CUDA C++ Programming Guide, Atomic
// Functions). One device, memory operations at once: each gives what `atomicX` gives, applied
// lane by lane in lane order (the emulator's order for `atomicAdd`, machine/atomic.rs). One
// warp of 32 lanes, t = 0..31; the buffers start with the index fill (cell i = i) except the
// cells lane 0 sets. Derived by hand (a few lines of Python agree):
// add_old[t] = t (atomicAdd_block(+1) from 0); c[0] = 32.
// sub_old[t] = 100 - 2t; c[1] = 100 - 64 = 36.
// u[0] = OR of 1 << t over t = 0..31 = 0xffffffff = 4294967295.
// u[1] = 0xffffffff with bits 0..3 cleared (t % 4) = 0xfffffff0 = 4294967280.
// u[2] = XOR of 0..31 = 0 (each bit set in exactly 16 of them).
// max_old: c[2] from 10, lane t offers (7t) % 32 = 0 7 14 21 28 3 10 17 24 31 …: olds
//   10 10 10 14 21 28 28 28 28 28 then 31 from lane 10 on; c[2] = 31.
// c[3] = min(3, 20 - t) over t: 20 - 31 = -11.
// exch_old: 4 (the index fill) for lane 0, then t - 1; c[4] = 31.
// cas_old: c[5] = 5; lanes 0..4 compare t != 5 and read 5; lane 5 matches, reads 5, stores 6;
//   lane t >= 6 finds t and stores t + 1: olds 5 5 5 5 5 5 6 7 … 31; c[5] = 32.
// inc_old: atomicInc_system(u[3], 3) from 5 stores (old >= 3) ? 0 : old + 1: olds 5, then
//   (t - 1) % 4 = 0 1 2 3 0 …; lane 31 reads 2 and stores u[3] = 3.
// atomicDec_block(u[4], 2) from 4 stores ((old == 0) || (old > 2)) ? 2 : old - 1: 2 1 0 2 1 0
//   …; after 32 lanes (31 % 3 = 1) u[4] = 1.
// `__threadfence_system()` and `__nanosleep(100)` change nothing (a note each).
// Checked on an NVIDIA H200 (nvcc 13.0, sm_90, this kernel with every buffer index-filled):
// the same eight buffers cell for cell, the olds in lane order too (that order is the
// hardware's choice, not a guarantee).
__global__ void scoped(int *c, unsigned *u, int *add_old, int *sub_old, int *max_old,
                       int *exch_old, int *cas_old, unsigned *inc_old) {
    int t = threadIdx.x;
    if (t == 0) {
        c[0] = 0; c[1] = 100; c[2] = 10; c[5] = 5;
        u[0] = 0u; u[1] = 0xffffffffu; u[2] = 0u; u[3] = 5u;
    }
    __syncthreads();
    add_old[t] = atomicAdd_block(&c[0], 1);
    sub_old[t] = atomicSub_system(&c[1], 2);
    atomicOr_block(&u[0], 1u << t);
    atomicAnd_system(&u[1], ~(1u << (t % 4)));
    atomicXor_block(&u[2], (unsigned)t);
    max_old[t] = atomicMax_system(&c[2], (t * 7) % 32);
    atomicMin_block(&c[3], 20 - t);
    exch_old[t] = atomicExch_system(&c[4], t);
    cas_old[t] = atomicCAS_block(&c[5], t, t + 1);
    inc_old[t] = atomicInc_system(&u[3], 3u);
    atomicDec_block(&u[4], 2u);
    __threadfence_system();
    __nanosleep(100);
}
