// snapshot: dialect=ascend threads=64
// Ascend C SIMT lane-id functions, asc_atomic_* and a __ubuf__ block object on two 32-thread
// warps (hand-derived values): laneid() = t % 32; lanemask_lt() of lane l = (1 << l) - 1, so
// __popc of it is l; every thread adds 1 to the __ubuf__ counter `seen` (zeroed by thread 0
// before the barrier), so after the second barrier every thread reads 64. `total` starts as
// the default fill (cell i = i): asc_atomic_max of t into total[0] leaves 63, and 64
// asc_atomic_inc(&total[1], 9) from 1 count modulo 10 (old >= 9 gives 0), ending at 65 % 10 = 5.
__global__ void k(int32_t *lane, int32_t *below, uint32_t *seen_out, uint32_t *total) {
    __ubuf__ uint32_t seen;
    uint32_t t = threadIdx.x;
    if (t == 0) {
        seen = 0;
    }
    asc_syncthreads();
    lane[t] = laneid();
    below[t] = __popc((uint32_t)lanemask_lt());
    asc_atomic_add(&seen, 1u);
    asc_syncthreads();
    seen_out[t] = seen;
    asc_atomic_max(&total[0], t);
    asc_atomic_inc(&total[1], 9u);
}
