// A class template of static warp helpers, instantiated per element type and segment width
// (`WarpReduce<int, 8>::sum(v)`), the shape of cub's WarpReduce<T, LOGICAL_WARP_THREADS>.
// __shfl_down_sync with width w reads lane + delta within its w-lane segment, keeping its own
// value past the segment's end (CUDA C++ Programming Guide, "Warp Shuffle Functions"), so lane 0
// of each segment ends with the segment's total.

template <typename T, int N, bool kMax = false>
struct WarpReduce {
    static constexpr int kLanes = N;

    static __device__ T sum(T v) {
        for (int offset = N / 2; offset > 0; offset /= 2)
            v += __shfl_down_sync(0xffffffff, v, offset, N);
        return v;
    }

    static __device__ T pick(T a, T b) {
        if (kMax) return a > b ? a : b;
        return a < b ? a : b;
    }

    static __device__ T extreme(T v) {
        for (int offset = N / 2; offset > 0; offset /= 2)
            v = pick(v, __shfl_down_sync(0xffffffff, v, offset, N));
        return v;
    }
};

__global__ void segment_stats(const int* in, int* sums, int* maxes, int* mins) {
    int v = in[threadIdx.x];
    int s = WarpReduce<int, 8>::sum(v);
    int hi = WarpReduce<int, WarpReduce<int, 8>::kLanes, true>::extreme(v);
    int lo = WarpReduce<int, 8>::extreme(v);
    if (threadIdx.x % 8 == 0) {
        sums[threadIdx.x / 8] = s;
        maxes[threadIdx.x / 8] = hi;
        mins[threadIdx.x / 8] = lo;
    }
}
