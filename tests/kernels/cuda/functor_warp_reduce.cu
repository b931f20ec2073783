// A templated warp reduction taking the combining operation as a functor object, the shape of
// cub::WarpReduce::Reduce(value, op) and of hand-written helpers: the functor's operator() is
// called on the lane's value and the value __shfl_xor_sync reads from lane ^ mask (CUDA C++
// Programming Guide, "Warp Shuffle Functions"). After the xor butterfly every lane holds the
// result.

struct Sum {
    __device__ float operator()(float a, float b) const { return a + b; }
};

struct MaxOp {
    __device__ __forceinline__ int operator()(int a, int b) const { return a > b ? a : b; }
};

// A functor with state: values below `floor` count as `floor`.
struct ClampedMin {
    int floor;
    __device__ int operator()(int a, int b) const {
        int x = a < floor ? floor : a;
        int y = b < floor ? floor : b;
        return x < y ? x : y;
    }
};

template <typename T, typename Op>
__device__ T warp_all_reduce(T v, Op op) {
#pragma unroll
    for (int mask = 16; mask > 0; mask >>= 1)
        v = op(v, __shfl_xor_sync(0xffffffff, v, mask));
    return v;
}

__global__ void reduce_three(const int* x, float* sums, int* maxes, int* mins, int floor) {
    int v = x[threadIdx.x];
    sums[threadIdx.x] = warp_all_reduce((float)v, Sum());
    MaxOp mx;
    maxes[threadIdx.x] = warp_all_reduce(v, mx);
    ClampedMin cm{floor};
    mins[threadIdx.x] = warp_all_reduce(v, cm);
}
