// A constexpr function whose loop never ends is stopped by the evaluation's step bound
// (10000 statements, loop passes and calls per constant) and refused before the run, naming
// the bound.
constexpr int forever(int n) {
    while (n > 0) { n += 1; }
    return n;
}
template <int N> __device__ int val() { return N; }
__global__ void k(int *out) { out[threadIdx.x] = val<forever(1)>(); }
