// A block-wide counter in a plain `__shared__` scalar, the shape of a work-queue ticket or a
// "how many passed" count: lane 0 clears it, every thread takes a ticket with atomicAdd, and
// thread 0 publishes the total after the barrier. A `__shared__` histogram beside it takes
// atomics on array elements.
__global__ void tickets(int* ticket, int* total, int* hist) {
    __shared__ int count;
    __shared__ int bins[4];
    if (threadIdx.x == 0) count = 0;
    if (threadIdx.x < 4) bins[threadIdx.x] = 0;
    __syncthreads();
    int mine = atomicAdd(&count, 1);
    atomicAdd(&bins[threadIdx.x % 4], threadIdx.x);
    ticket[threadIdx.x] = mine;
    __syncthreads();
    if (threadIdx.x == 0) total[0] = count;
    if (threadIdx.x < 4) hist[threadIdx.x] = bins[threadIdx.x];
}

int main() {
    int *d_ticket, *d_total, *d_hist;
    cudaMalloc(&d_ticket, 64 * sizeof(int));
    cudaMalloc(&d_total, sizeof(int));
    cudaMalloc(&d_hist, 4 * sizeof(int));
    tickets<<<1, 64>>>(d_ticket, d_total, d_hist);
    cudaDeviceSynchronize();
    return 0;
}
