// A device lambda and a functor passed to a reduce template, and bit casts.
// wreduce with the lambda max over lanes 0..31 gives 31 in every lane; with the functor Add
// it gives the sum 496: a[lane] = 527.
// __builtin_bit_cast(unsigned, 1.0f) is IEEE 754 binary32 1.0 = 0x3f800000 = 1065353216;
// std::bit_cast<float> of __builtin_bit_cast(int, lane + 0.5f) is lane + 0.5 again.
struct Add {
    __device__ float operator()(float a, float b) const { return a + b; }
};
template <typename Op> __device__ float wreduce(float v, Op op) {
    for (int o = 16; o > 0; o >>= 1) v = op(v, __shfl_xor_sync(0xffffffff, v, o));
    return v;
}
__global__ void k(float *a, unsigned *bits, float *c) {
    float x = threadIdx.x;
    float m = wreduce(x, [] __device__ (float p, float q) { return p > q ? p : q; });
    float s = wreduce(x, Add());
    a[threadIdx.x] = m + s;
    bits[threadIdx.x] = __builtin_bit_cast(unsigned, 1.0f);
    c[threadIdx.x] = std::bit_cast<float>(__builtin_bit_cast(int, x + 0.5f));
}
