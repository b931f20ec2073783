// Memory orders the run cannot or may not take are refused before the run, each at its
// argument's line:column: an order held in a variable (9:34; an order known only at run time
// is not modelled), `__ATOMIC_ACQUIRE` on a store (10:32; GCC manual, Built-in Functions for
// Memory Model Aware Atomic Operations: a store takes RELAXED, RELEASE or SEQ_CST), 7, which is
// no memory order (11:36), `__ATOMIC_RELEASE` as a compare-exchange's failure order (13:72; the
// failure order cannot be RELEASE or ACQ_REL), and a scoped atomic with one argument (14:5).
__global__ void k(int *c) {
    int o = __ATOMIC_RELAXED;
    __atomic_fetch_add(&c[0], 1, o);
    __atomic_store_n(&c[1], 2, __ATOMIC_ACQUIRE);
    int v = __atomic_load_n(&c[2], 7);
    int e = 0;
    __atomic_compare_exchange_n(&c[3], &e, 1, false, __ATOMIC_SEQ_CST, __ATOMIC_RELEASE);
    atomicAdd_block(&c[4]);
}
