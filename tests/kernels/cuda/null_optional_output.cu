// Optional outputs behind NULL checks, as library kernels write them: a pointer parameter is
// compared with NULL/nullptr, a local pointer starts as nullptr and is set for one lane, and a
// device function returns NULL when the output is not wanted (C11 6.3.2.3p3: the null pointer
// constant compares unequal to every pointer to an object).

__device__ int* maybe(int* p, bool want) {
    return want ? p : NULL;
}

__global__ void warp_total(const int* in, int* total, int* counts, int* tail) {
    int v = in[threadIdx.x];
    for (int mask = 16; mask > 0; mask >>= 1)
        v += __shfl_xor_sync(0xffffffff, v, mask);

    int* dst = nullptr;
    if (threadIdx.x == 0) dst = total;
    if (dst != nullptr) *dst = v;

    if (counts != NULL) counts[threadIdx.x] = 1;

    int* skip = maybe(counts, false);
    if (!skip) counts[threadIdx.x] += 1;
    if (skip == NULL) counts[threadIdx.x] += 10;

    // Pointer arithmetic within a buffer: the last eight cells.
    int* last = tail + 24;
    if (threadIdx.x < 8) last[threadIdx.x] = v + (int)threadIdx.x;
}
