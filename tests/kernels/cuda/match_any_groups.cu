// Lanes holding the same key find each other (__match_any_sync).
__global__ void peers(const int* key, unsigned* out) {
    out[threadIdx.x] = __match_any_sync(0xffffffff, key[threadIdx.x]);
}
