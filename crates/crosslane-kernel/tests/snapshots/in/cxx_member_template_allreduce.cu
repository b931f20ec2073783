// A static member function template of a class template, recursing on the class's
// parameter (the flash-attention style all-reduce): AllRed<8>::run xors over offsets 4, 2
// (AllRed<4>, then the explicit specialization AllRed<2>, offset 1), so each lane gets the
// sum of its group of 8 lane ids: group g (lanes 8g..8g+7) sums to 64g + 28:
// 28 (lanes 0-7), 92, 156, 220 (lanes 24-31).
#include <cstdint>
struct SumOp {
    __device__ float operator()(float a, float b) const { return a + b; }
};
template <int THREADS> struct AllRed {
    static_assert(THREADS == 32 || THREADS == 16 || THREADS == 8 || THREADS == 4);
    template <typename T, typename Op>
    static __device__ inline T run(T x, Op &op) {
        constexpr int OFFSET = THREADS / 2;
        x = op(x, __shfl_xor_sync(uint32_t(-1), x, OFFSET));
        return AllRed<OFFSET>::run(x, op);
    }
};
template <> struct AllRed<2> {
    template <typename T, typename Op>
    static __device__ inline T run(T x, Op &op) {
        return op(x, __shfl_xor_sync(uint32_t(-1), x, 1));
    }
};
__global__ void k(float *out) {
    SumOp op;
    out[threadIdx.x] = AllRed<8>::run((float)threadIdx.x, op);
}
