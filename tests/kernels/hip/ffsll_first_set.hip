// The first lane whose value passes a test: __ffsll of the ballot (1-based, 0 when none).
__global__ void firstAbove(const int* in, int* out, int limit) {
    unsigned long long m = __ballot(in[threadIdx.x] > limit);
    if (threadIdx.x == 0) out[0] = __ffsll(m);
}
