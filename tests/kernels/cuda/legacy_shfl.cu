// Pre-CUDA-9 shuffle: still found in old samples; removed for sm_70+.
__global__ void oldReduce(int* out) {
    int v = threadIdx.x;
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down(v, offset);
    if (threadIdx.x == 0) out[0] = v;
}
