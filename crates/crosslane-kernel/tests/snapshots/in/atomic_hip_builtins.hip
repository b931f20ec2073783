// snapshot: lanes=32 threads=32
// clang's `__hip_atomic_*` builtins with a memory order and a HIP memory scope (predefined
// `__HIP_MEMORY_SCOPE_WAVEFRONT` … `_SYSTEM`; one device here, so every scope gives the same
// values), HIP's `atomicAdd_system` / `atomicMax_system`, `unsafeAtomicAdd` and
// `atomicAddNoRet` (HIP documentation, Atomic functions). A wave32 wavefront (RDNA), t = 0..31;
// lanes apply in lane order (machine/atomic.rs); index fill except the cells lane 0 sets.
// max_f is the float-max loop HIP's own headers write: load, then compare-exchange until the
//   cell is not below `val`. f[0] = 1; lanes 0..2 (val 0, 0.5, 1) never enter the loop and
//   return 1. Round 1: lanes 3..31 hold old 1; lane 3 swaps 1 → 1.5 and leaves; lanes 4..31
//   fail and get 1.5 written back into `old`. Round k: lane k + 2 swaps and leaves. Lane t >= 3
//   returns the value it replaced, (t - 1) * 0.5: max_old = 1 1 1 1 1.5 2 … 15; f[0] = 15.5.
// fetched[t] = 2t; c[0] = 64. f[1] = 32 * 0.25 = 8 (`memory_order_relaxed` is order 0).
// u[0] = OR of 1 << t = 4294967295; u[1] = 0xff & ~0xf = 240; u[2] = XOR of 1 << (t % 3):
//   residues 0 and 1 occur 11 times (odd), 2 ten times: 0b011 = 3.
// c[3] = max(3, t % 10) = 9; c[4] = min(100, 50 - 31) = 19.
// ex[t]: c[1] from 0 exchanged with t + 1: lane t gets t; c[1] = 32. c[2] = 77 (a store).
// The compare-exchange compares bits (C17 7.17.7.4: as if by memcmp): f[2] = -0.0 differs from
//   e = 0.0, so nothing is stored, f[2] stays -0, `ok` is false (f[3] = 0) and e becomes
//   -0.0: f[4] = 1 / -0.0 = -inf.
// c[5] = 5 + 32 = 37; c[6] = max(6, 31) = 31; f[5] = 5 + 32 * 0.5 = 21; f[6] = 6 + 32 = 38.
// `__builtin_amdgcn_s_sleep(2)` changes nothing (a note).
__device__ float max_f(float *addr, float val) {
    float old = __hip_atomic_load(addr, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
    while (old < val && !__hip_atomic_compare_exchange_strong(addr, &old, val, __ATOMIC_RELAXED,
                                                              __ATOMIC_RELAXED,
                                                              __HIP_MEMORY_SCOPE_AGENT)) {
    }
    return old;
}

__global__ void hip_atoms(float *f, int *c, unsigned *u, float *max_old, int *fetched, int *ex) {
    int t = threadIdx.x;
    if (t == 0) {
        f[0] = 1.0f; f[1] = 0.0f; f[2] = -0.0f;
        c[0] = 0; c[1] = 0; c[2] = 0; c[4] = 100;
        u[0] = 0u; u[1] = 0xffu; u[2] = 0u;
    }
    __syncthreads();
    max_old[t] = max_f(&f[0], t * 0.5f);
    fetched[t] = __hip_atomic_fetch_add(&c[0], 2, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WAVEFRONT);
    __hip_atomic_fetch_add(&f[1], 0.25f, memory_order_relaxed, __HIP_MEMORY_SCOPE_WORKGROUP);
    __hip_atomic_fetch_or(&u[0], 1u << t, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);
    __hip_atomic_fetch_and(&u[1], ~(1u << (t % 4)), __ATOMIC_SEQ_CST, __HIP_MEMORY_SCOPE_AGENT);
    __hip_atomic_fetch_xor(&u[2], 1u << (t % 3), __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
    __hip_atomic_fetch_max(&c[3], t % 10, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
    __hip_atomic_fetch_min(&c[4], 50 - t, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
    ex[t] = __hip_atomic_exchange(&c[1], t + 1, __ATOMIC_ACQ_REL, __HIP_MEMORY_SCOPE_AGENT);
    __hip_atomic_store(&c[2], 77, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
    if (t == 0) {
        float e = 0.0f;
        bool ok = __hip_atomic_compare_exchange_weak(&f[2], &e, 5.0f, __ATOMIC_ACQ_REL,
                                                     __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT);
        f[3] = ok ? 1.0f : 0.0f;
        f[4] = 1.0f / e;
    }
    atomicAdd_system(&c[5], 1);
    atomicMax_system(&c[6], t);
    unsafeAtomicAdd(&f[5], 0.5f);
    atomicAddNoRet(&f[6], 1.0f);
    __builtin_amdgcn_s_sleep(2);
}
