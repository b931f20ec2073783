// A function template's specialization named without a call is that function
// ([temp.arg.explicit]/4, [conv.func]): passed to a function pointer parameter, stored in a
// function pointer, and a functor class template's temporary passed to an `Op` parameter.
// By hand (32 lanes, x = lane):
//   a[t] = butterfly max over lanes 0..31 = 31 (through `T (*op)(T, T)` given maxop<float>).
//   b[t] = butterfly sum = 0 + 1 + … + 31 = 496 (SumOp<float>{} as `Op op`).
//   c[t] = minop<int>(t, 7) through `int (*f)(int, int) = &minop<int>;`: t for t < 7, else 7.
template <typename T> __device__ T maxop(T a, T b) { return a > b ? a : b; }
template <typename T> __device__ T minop(T a, T b) { return a < b ? a : b; }
template <typename T> struct SumOp {
    __device__ T operator()(T a, T b) const { return a + b; }
};
template <typename T> __device__ T warp_reduce(T x, T (*op)(T, T)) {
    for (int o = 16; o > 0; o >>= 1) x = op(x, __shfl_xor_sync(0xffffffff, x, o));
    return x;
}
template <typename T, typename Op> __device__ T warp_reduce_op(T x, Op op) {
    for (int o = 16; o > 0; o >>= 1) x = op(x, __shfl_xor_sync(0xffffffff, x, o));
    return x;
}
__global__ void k(float* a, float* b, int* c) {
    int t = threadIdx.x;
    float x = t;
    a[t] = warp_reduce(x, maxop<float>);
    b[t] = warp_reduce_op(x, SumOp<float>{});
    int (*f)(int, int) = &minop<int>;
    c[t] = f(t, 7);
}
