// HIP on a 64-lane wavefront: a counting functor with a member that a const operator() reads,
// a struct of two running sums built by a constructor, and a member function that folds a
// partner's sums in. __shfl_down on HIP reads lane + delta within the width (64 by default),
// keeping its own value past the end (HIP Programming Guide, "Warp cross-lane functions").
#include <hip/hip_runtime.h>

struct Above {
    int threshold;
    __device__ int operator()(int x) const { return x > threshold ? 1 : 0; }
};

struct Sums {
    int total;
    int hits;
    __device__ Sums(int t, int h) : total(t), hits(h) {}
    __device__ void add(const Sums& o) {
        total += o.total;
        hits += o.hits;
    }
};

__global__ void count_above(const int* in, int* totals, int* hits, int threshold) {
    Above above{threshold};
    int x = in[threadIdx.x];
    Sums s(x, above(x));
    for (int offset = 32; offset > 0; offset /= 2) {
        Sums o(__shfl_down(s.total, offset), __shfl_down(s.hits, offset));
        s.add(o);
    }
    totals[threadIdx.x] = s.total;
    hits[threadIdx.x] = s.hits;
}
