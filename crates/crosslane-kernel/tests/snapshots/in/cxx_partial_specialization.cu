// Class template partial and explicit specializations, the most specialized match chosen:
// Reducer<float, 8> matches <float, N> (N = 8): eight lanes of 1.0 sum to 8;
// Reducer<int, 8> matches only the primary: the value itself (lane);
// Reducer<int, 1> matches <T, 1>: 100 * lane;
// Reducer<float, 1> is the explicit specialization (both partials would tie): -2.
template <typename T, int N> struct Reducer {
    static __device__ T run(T v) { return v; }
};
template <int N> struct Reducer<float, N> {
    static __device__ float run(float v) {
        for (int o = N / 2; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
        return v;
    }
};
template <typename T> struct Reducer<T, 1> {
    static __device__ T run(T v) { return v * 100; }
};
template <> struct Reducer<float, 1> {
    static __device__ float run(float v) { return -v; }
};
__global__ void k(float *a, int *b, int *c, float *d) {
    a[threadIdx.x] = Reducer<float, 8>::run(1.0f);
    b[threadIdx.x] = Reducer<int, 8>::run((int)threadIdx.x);
    c[threadIdx.x] = Reducer<int, 1>::run((int)threadIdx.x);
    d[threadIdx.x] = Reducer<float, 1>::run(2.0f);
}
