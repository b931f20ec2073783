// Butterfly (xor) all-reduce: every lane ends with the warp's maximum.
#define FULL 0xffffffffu
__device__ int warpMax(int v) {
    for (int mask = 16; mask >= 1; mask >>= 1)
        v = max(v, __shfl_xor_sync(FULL, v, mask));
    return v;
}
__global__ void allMax(const int* in, int* out) {
    out[threadIdx.x] = warpMax(in[threadIdx.x]);
}
int main() {
    int h[32];
    for (int i = 0; i < 32; i++) h[i] = (i * 13) % 32;
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof(h));
    cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice);
    cudaMalloc(&d_out, sizeof(h));
    allMax<<<1, 32>>>(d_in, d_out);
}
