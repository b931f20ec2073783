// Count the lanes of each warp whose element exceeds a threshold (ballot + popc).
__global__ void countAbove(const int* data, int* counts, int threshold) {
    int lane = threadIdx.x % 32;
    unsigned mask = __ballot_sync(0xffffffff, data[threadIdx.x] > threshold);
    if (lane == 0)
        counts[threadIdx.x / 32] = __popc(mask);
}

int main() {
    int *d_data, *d_counts;
    cudaMalloc(&d_data, 64 * sizeof(int));
    // The input: cell i = i, copied from the host (cudaMalloc does not clear memory).
    int h_in[64];
    for (int i = 0; i < 64; i++) h_in[i] = i;
    cudaMemcpy(d_data, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    cudaMalloc(&d_counts, 2 * sizeof(int));
    countAbove<<<1, 64>>>(d_data, d_counts, 40);
    return 0;
}
