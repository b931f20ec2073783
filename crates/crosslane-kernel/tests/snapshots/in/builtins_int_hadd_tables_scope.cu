// snapshot: threads=4
// Built-ins and spellings from public CUDA code (CUDA Math API, Integer Intrinsics; C++
// [namespace.qual]; CUDA C++ Programming Guide, Variable Memory Space Specifiers).
// - __hadd of two ints is (x + y) >> 1 without overflow: t = 0..3, x = 2147483647 - t,
//   y = 2147483647: (2^32 - 2 - t) >> 1 = 2147483647, 2147483646 (2^32 - 3 = 4294967293,
//   >> 1 = 2147483646), 2147483646, 2147483645. h = 2147483647 2147483646 2147483646 2147483645.
// - a static const __device__ table reads as a constant: tab = {-3, 5, -7, 9}; ::abs of the
//   entry plus ::sq(t): q[t] = |tab[t]| + t*t = 3 + 0, 5 + 1, 7 + 4, 9 + 9 = 3 6 11 18.
// - __builtin_popcount(t * 0x11) + __builtin_ffs(t): 0x00, 0x11, 0x22, 0x33 have 0, 2, 2, 4
//   bits; ffs(0..3) = 0, 1, 2, 1: b = 0 3 4 5.
static const __device__ signed char tab[4] = {-3, 5, -7, 9};

__device__ int sq(int v) { return v * v; }

__global__ void k(int *h, int *q, int *b) {
    int t = threadIdx.x;
    h[t] = __hadd(2147483647 - t, 2147483647);
    q[t] = ::abs(tab[t]) + ::sq(t);
    b[t] = __builtin_popcount(t * 0x11) + __builtin_ffs(t);
}
