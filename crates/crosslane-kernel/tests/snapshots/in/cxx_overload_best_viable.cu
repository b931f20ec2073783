// Overload resolution by the best conversion (C++17 [over.match.best]), each lane's value:
// f(x) with x a float: f(float) is an exact match, f(double) a promotion: 1 (not 2).
// g(n) with n an int: g(int) exact, g(unsigned) a conversion: 10 (not 20).
// h(x) with x a float: the non-template h(float) and the template h(const T&) [T = float]
// both match exactly; the non-template wins the tie: 100 (not 200).
// h(n) with n an int: the template matches exactly, h(float) needs a conversion: 200.
// q(s) with s a short: q(int) is a promotion, q(double) a conversion: 1000 (not 2000).
// w(n) with one argument: w(int, int) is not viable: 10000 (not 20000).
// out = 1 + 10 + 100 + 200 + 1000 + 10000 = 11311 in every lane.
__device__ int f(double x) { return 2; }
__device__ int f(float x) { return 1; }
__device__ int g(unsigned x) { return 20; }
__device__ int g(int x) { return 10; }
template <typename T> __device__ int h(const T& x) { return 200; }
__device__ int h(float x) { return 100; }
__device__ int q(double x) { return 2000; }
__device__ int q(int x) { return 1000; }
__device__ int w(int a, int b) { return 20000; }
__device__ int w(int a) { return 10000; }
__global__ void k(int* out) {
    float x = 1.5f;
    int n = 3;
    short s = 2;
    out[threadIdx.x] = f(x) + g(n) + h(x) + h(n) + q(s) + w(n);
}
