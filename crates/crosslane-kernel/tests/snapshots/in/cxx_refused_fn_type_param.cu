// A function given to a template's type parameter `Op` by value makes `Op` a function pointer
// type ([temp.deduct.call]/2.2). It is bound for a plain __device__ function
// (fn_to_template_op.cu), not for a function template's specialization: refused at the
// argument, 12:40, naming the two forms that run (a function pointer parameter, a functor).
template <typename T> __device__ T maxop(T a, T b) { return a > b ? a : b; }
template <typename T, typename Op> __device__ T warp_reduce_op(T x, Op op) {
    for (int o = 16; o > 0; o >>= 1) x = op(x, __shfl_xor_sync(0xffffffff, x, o));
    return x;
}
__global__ void k(float* b) {
    float x = threadIdx.x;
    b[threadIdx.x] = warp_reduce_op(x, maxop<float>);
}
