// snapshot: threads=64
// A block reduction templated on its operation with its own `__shared__ float tmp[2]` (MIOpen's
// reductionBlock<NumWarps, Op>): each specialization is its own function ([temp.inst]/3), so
// blk<Max> and blk<Add> each own a `tmp` (a block-scope __shared__ variable has static
// storage). Buffers have the index fill: x[i] = i for 64 threads (two warps of 32). The max is
// 63 and the sum 0 + ... + 63 = 2016, so every o[i] = 63 * 1000 + 2016 = 65016, with no race.
struct Add { __device__ float operator()(float a, float b) const { return a + b; } };
struct Max { __device__ float operator()(float a, float b) const { return fmaxf(a, b); } };
template <typename Op> __device__ float blk(float v, Op op) {
    __shared__ float tmp[2];
    int w = threadIdx.x / 32;
    for (int o = 16; o > 0; o >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, o));
    if (threadIdx.x % 32 == 0) tmp[w] = v;
    __syncthreads();
    return op(tmp[0], tmp[1]);
}
__global__ void k(const float* x, float* o) {
    float v = x[threadIdx.x];
    float m = blk(v, Max());
    float s = blk(v, Add());
    o[threadIdx.x] = m * 1000.0f + s;
}
