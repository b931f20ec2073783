// Integer intrinsics per lane: population count, find-first-set, leading zeros, bit reverse.
__global__ void bits(const unsigned* in, int* pop, int* ffs, int* clz, unsigned* rev) {
    unsigned v = in[threadIdx.x];
    pop[threadIdx.x] = __popc(v);
    ffs[threadIdx.x] = __ffs(v);
    clz[threadIdx.x] = __clz(v);
    rev[threadIdx.x] = __brev(v);
}
