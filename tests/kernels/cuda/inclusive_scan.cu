// Warp inclusive prefix sum with __shfl_up_sync (Kogge-Stone).
__global__ void warpScan(const int* in, int* out) {
    int lane = threadIdx.x & 31;
    int x = in[threadIdx.x];
#pragma unroll
    for (int offset = 1; offset < 32; offset <<= 1) {
        int y = __shfl_up_sync(0xffffffff, x, offset);
        if (lane >= offset) x += y;
    }
    out[threadIdx.x] = x;
}

int main() {
    int *d_in, *d_out;
    cudaMalloc(&d_in, 32 * sizeof(int));
    // The input: cell i = i, copied from the host (cudaMalloc does not clear memory).
    int h_in[32];
    for (int i = 0; i < 32; i++) h_in[i] = i;
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    cudaMalloc(&d_out, 32 * sizeof(int));
    warpScan<<<1, 32>>>(d_in, d_out);
}
