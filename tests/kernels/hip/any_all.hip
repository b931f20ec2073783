// Wavefront votes.
__global__ void votes(const int* in, int* anyOut, int* allOut) {
    int p = in[threadIdx.x] > 0;
    anyOut[threadIdx.x] = __any(p);
    allOut[threadIdx.x] = __all(p);
}
