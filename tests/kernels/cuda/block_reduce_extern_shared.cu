// Block reduction through dynamic shared memory sized by the launch.
__global__ void blockSum(const int* in, int* out) {
    extern __shared__ int sdata[];
    unsigned tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

int main() {
    const int threads = 64;
    int *d_in, *d_out;
    cudaMalloc(&d_in, 128 * sizeof(int));
    // The input: cell i = i, copied from the host (cudaMalloc does not clear memory).
    int h_in[128];
    for (int i = 0; i < 128; i++) h_in[i] = i;
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    cudaMalloc(&d_out, 2 * sizeof(int));
    blockSum<<<2, threads, threads * sizeof(int)>>>(d_in, d_out);
    return 0;
}
