// Every lane takes the value of one source lane (a kernel parameter).
__global__ void broadcast(const float* in, float* out, int srcLane) {
    float v = in[threadIdx.x];
    out[threadIdx.x] = __shfl_sync(0xffffffff, v, srcLane);
}
