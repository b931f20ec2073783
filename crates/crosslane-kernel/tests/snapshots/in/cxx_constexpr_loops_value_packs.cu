// C++14 constexpr function bodies (loops, locals updated, if, calls of other constexpr
// functions) evaluated where a constant is required, and value parameter packs.
// ilog2(256): 256 halves 8 times before reaching 1, so 8 (template argument).
// tri(5): not 5 > 5, so the loop sums 0 + 1 + 2 + 3 + 4 = 10 (array bound: buf has 10 cells,
// so writing buf[9] raises no out-of-bounds diagnostic; and a template argument).
// tri(7) with a = 7 > 5: 7 - 5 = 2; the do-while in steps(3) runs its body before testing: 3 -> 2
// -> 1 -> 0, three passes, so 3; digits(4096) uses while/break/continue: 4 digits.
// sum_all<1, 2, 3, 4> folds (Ns + ... + 0) = 10; count<5, 6, 7> = sizeof...(Ns) = 3;
// prod<2, 3, 4>: (... * Ns) = 24; maxv<3, 9, 4> keeps the larger in a comma fold: 3, 9, 9: 9.
// out = 8, 10, 2, 3, 4, 10, 3, 24, 9, then lane + 100 for the rest.
constexpr int ilog2(int n) {
    int r = 0;
    while (n > 1) { n >>= 1; ++r; }
    return r;
}
constexpr int tri(int a) {
    if (a > 5) return a - 5;
    int s = 0;
    for (int i = 0; i < a; i++) s += i;
    return s;
}
constexpr int steps(int n) {
    int k = 0;
    do { n -= 1; k++; } while (n > 0);
    return k;
}
constexpr int digits(int n) {
    int d = 0;
    while (true) {
        d += 1;
        n /= 10;
        if (n == 0) break;
        else continue;
    }
    return d;
}
template <int N> __device__ int val() { return N; }
template <int... Ns> __device__ int sum_all() { return (Ns + ... + 0); }
template <int... Ns> __device__ int count() { return sizeof...(Ns); }
template <int... Ns> __device__ int prod() { return (... * Ns); }
template <int... Ns> __device__ int maxv() { int m = 0; ((m = Ns > m ? Ns : m), ...); return m; }

__global__ void k(int *out) {
    int buf[tri(5)];
    buf[9] = val<tri(7)>();
    int t = threadIdx.x;
    out[t] = t + 100;
    if (t == 0) {
        out[0] = val<ilog2(256)>();
        out[1] = val<tri(5)>();
        out[2] = buf[9];
        out[3] = val<steps(3)>();
        out[4] = val<digits(4096)>();
        out[5] = sum_all<1, 2, 3, 4>();
        out[6] = count<5, 6, 7>();
        out[7] = prod<2, 3, 4>();
        out[8] = maxv<3, 9, 4>();
    }
}
