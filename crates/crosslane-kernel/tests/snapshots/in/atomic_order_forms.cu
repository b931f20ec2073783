// snapshot: threads=32
// Memory orders as code writes them besides the `__ATOMIC_*` macros: a template value
// parameter (`ld<__ATOMIC_ACQUIRE>`, a constant in each instance) and C++'s
// `std::memory_order_relaxed` (the same value, 0, in libstdc++ and libc++); atomics on a local
// whose address is taken (each lane its own `mine`) and on a `__shared__` scalar.
// mine = 10 + t (each lane adds t to its own copy). flag = 5 + 32 lanes × 1 = 37.
// c[3] = 3 (index fill): out[t] = 3 * 1000 + 37 * 100 + 10 + t = 6710 + t.
template <int O>
__device__ int ld(int *p, int i) { return __atomic_load_n(&p[i], O); }
__global__ void k(int *c, int *out) {
    __shared__ int flag;
    int t = threadIdx.x;
    if (t == 0) flag = 5;
    __syncthreads();
    int mine = 10;
    __atomic_fetch_add(&mine, t, std::memory_order_relaxed);
    __atomic_fetch_add(&flag, 1, __ATOMIC_RELAXED);
    __syncthreads();
    out[t] = ld<__ATOMIC_ACQUIRE>(c, 3) * 1000 + __atomic_load_n(&flag, __ATOMIC_SEQ_CST) * 100 + mine;
}
