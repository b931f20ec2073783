// `n` has no launch and no --arg: the run names it.
__global__ void addN(int* out, int n) {
    out[threadIdx.x] = threadIdx.x + n;
}
