// `<functional>`'s function objects, as CCCL code names them under `cuda::std::` or `std::`,
// passed to a template's `Op op` parameter or declared as locals ([arithmetic.operations],
// [bitwise.operations], [comparisons]: `operator()(x, y)` returns `x OP y`).
// By hand (32 lanes, t = lane):
//   a[t] = butterfly sum of 0..31 with cuda::std::plus<float>{} = 496.
//   b[t] = butterfly xor of 0..31 with a `cuda::std::bit_xor<int>` local = 0 (0..31 is eight
//          runs of 4k..4k+3, each xoring to 0).
//   c[t] = std::less<int> lt; lt(t, 5): 1 for lanes 0..4, 0 after.
//   d[t] = std::multiplies<float>{}(…) through the template: 2 * t.
#include <cuda/std/functional>
template <typename T, typename Op> __device__ T warp_reduce(T x, Op op) {
    for (int o = 16; o > 0; o >>= 1) x = op(x, __shfl_xor_sync(0xffffffff, x, o));
    return x;
}
template <typename T, typename Op> __device__ T apply(T a, T b, Op op) { return op(a, b); }
__global__ void k(float* a, int* b, int* c, float* d) {
    int t = threadIdx.x;
    a[t] = warp_reduce((float)t, cuda::std::plus<float>{});
    cuda::std::bit_xor<int> bx;
    b[t] = warp_reduce(t, bx);
    std::less<int> lt;
    c[t] = lt(t, 5);
    d[t] = apply(2.0f, (float)t, std::multiplies<float>{});
}
