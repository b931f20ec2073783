// Reference-to-array parameters: fill writes the caller's array through int (&w)[8], and
// sum8 deduces T = int from the array. w = base, base+1, ..., base+7 with base = lane, so
// the sum is 8 * lane + 28: 28, 36, ..., 276 (lane 31).
template <typename T> __device__ T sum8(T (&w)[8]) {
    T s = 0;
    for (int j = 0; j < 8; j++) s += w[j];
    return s;
}
__device__ void fill(int (&w)[8], int base) {
    for (int j = 0; j < 8; j++) w[j] = base + j;
}
__global__ void k(int *out) {
    int w[8];
    fill(w, threadIdx.x);
    out[threadIdx.x] = sum8(w);
}
