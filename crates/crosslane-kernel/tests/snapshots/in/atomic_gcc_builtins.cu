// snapshot: threads=32
// GCC's and clang's `__atomic_*` builtins (GCC manual, Built-in Functions for Memory Model
// Aware Atomic Operations; `__atomic_fetch_min/max` are clang's): `__atomic_fetch_OP` returns
// the old value, `__atomic_OP_fetch` the new one, `__atomic_store_n` nothing; the memory order
// changes no value on one device whose memory operations complete at once. Lanes apply in
// lane order (machine/atomic.rs). t = 0..31, index fill except the cells lane 0 sets.
// clang's CUDA compiles these; nvcc 13.0 refuses them in device code (tried on an H200:
// "calling a __host__ function ... from a __global__ function"), so each call warns.
// fetch_add[t] = 0 + 1 + … + (t - 1) = t(t - 1)/2 (0 0 1 3 6 10 …, lane 31: 465); c[0] = 496.
// add_fetch[t] = 7 + (t + 1) = t + 8; c[1] = 39.
// c[4] = 0 - 496 = -496.
// u[0] = 0xff with bit t % 8 toggled by every lane: each bit 4 times, so 0xff = 255.
// u[3] = OR of 1 << (t / 4): bits 0..7 = 255. u[2] = 0x0f & ~1 & ~2 = 0x0c = 12.
// nand_old: u[1] from 1 stores ~(old & 0xf0): ~0 = 0xffffffff, then ~0xf0 = 0xffffff0f, then
//   0xffffffff, …: olds 1, 4294967295, 4294967055, 4294967295, …; after 32 lanes (even)
//   u[1] = 4294967055.
// c[5] = max(50, 3 * 31 = 93) = 93. c[6] = min(6, t - 16) = -16.
// prev: c[7] from 7 exchanged with t: 7 for lane 0, then t - 1; c[7] = 31.
// `__atomic_store_n` from every lane: lane order, lane 31's 31 stays; every lane then loads 31:
//   loaded[t] = 3100 + prev (lane 0: 3107, lane t: 3099 + t).
// Compare-exchange (lanes 0..3, each its own `expected` = 3, c[3] = 3): lane 0 finds 3, stores
//   100, returns true and leaves expected 3; lanes 1..3 find 100, store nothing, write 100 back
//   into expected and return false: won = 1 0 0 0, seen = 3 100 100 100; c[3] = 100. Lanes
//   4..31 keep the index fill of won and seen.
__global__ void gcc(int *c, unsigned *u, int *fetch_add, int *add_fetch, int *loaded,
                    int *won, int *seen, unsigned *nand_old) {
    int t = threadIdx.x;
    if (t == 0) {
        c[0] = 0; c[1] = 7; c[2] = -1; c[4] = 0; c[5] = 50;
        u[0] = 0xffu; u[1] = 1u; u[2] = 0x0fu; u[3] = 0u;
    }
    __syncthreads();
    fetch_add[t] = __atomic_fetch_add(&c[0], t, __ATOMIC_RELAXED);
    add_fetch[t] = __atomic_add_fetch(&c[1], 1, __ATOMIC_SEQ_CST);
    __atomic_fetch_sub(&c[4], t, __ATOMIC_RELAXED);
    __atomic_fetch_xor(&u[0], 1u << (t % 8), __ATOMIC_ACQ_REL);
    __atomic_fetch_or(&u[3], 1u << (t / 4), __ATOMIC_RELAXED);
    __atomic_fetch_and(&u[2], ~(1u << (t % 2)), __ATOMIC_RELEASE);
    nand_old[t] = __atomic_fetch_nand(&u[1], 0xf0u, __ATOMIC_RELAXED);
    __atomic_fetch_max(&c[5], t * 3, __ATOMIC_RELAXED);
    __atomic_fetch_min(&c[6], t - 16, __ATOMIC_CONSUME);
    int prev = __atomic_exchange_n(&c[7], t, __ATOMIC_ACQ_REL);
    __atomic_store_n(&c[2], t, __ATOMIC_RELEASE);
    loaded[t] = __atomic_load_n(&c[2], __ATOMIC_ACQUIRE) * 100 + prev;
    if (t < 4) {
        int expected = 3;
        bool s = __atomic_compare_exchange_n(&c[3], &expected, 100 + t, false,
                                             __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
        won[t] = s;
        seen[t] = expected;
    }
}
