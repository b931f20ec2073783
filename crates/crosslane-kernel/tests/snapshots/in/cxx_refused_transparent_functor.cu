// The transparent `cuda::std::plus<>` (T = void, [arithmetic.operations.plus]/2, whose
// `operator()` is itself a template) is read as a CUB reduction's operator and where it is
// called (lib_functor_calls.cu); passed to a user template it is refused at the name, 9:97,
// naming the typed form.
template <typename T, typename Op> __device__ T warp_reduce(T x, Op op) {
    for (int o = 16; o > 0; o >>= 1) x = op(x, __shfl_xor_sync(0xffffffff, x, o));
    return x;
}
__global__ void k(float* a) { float x = threadIdx.x; a[threadIdx.x] = warp_reduce(x, cuda::std::plus<>{}); }
