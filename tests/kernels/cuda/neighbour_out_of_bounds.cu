// Each thread adds the cell 64 on from its own; in the second block every read of `in[i + 64]`
// runs past the buffer's 128 cells, in both of its warps: one diagnostic, reported twice.
__global__ void addFar(const int* in, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] + in[i + 64];
}

int main() {
    int *d_in, *d_out;
    cudaMalloc(&d_in, 128 * sizeof(int));
    // The input: cell i = i, copied from the host (cudaMalloc does not clear memory).
    int h_in[128];
    for (int i = 0; i < 128; i++) h_in[i] = i;
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    cudaMalloc(&d_out, 128 * sizeof(int));
    addFar<<<2, 64>>>(d_in, d_out);
    return 0;
}
