// Calls and comma expressions in a `for` head ([stmt.for]/1: the step runs after the body,
// its operands in order, [expr.comma]/1). Lane L: i starts at start(L) = 2·(L mod 4), the
// step adds next(i) = i + 1 then counts j; the loop runs while i < 20.
//   L mod 4 = 0: i = 0, 1, 3, 7, 15 (then 31): s = 26, j ends 4
//   L mod 4 = 1: i = 2, 5, 11 (then 23): s = 18, j ends 2
//   L mod 4 = 2: i = 4, 9, 19 (then 39): s = 32, j ends 2
//   L mod 4 = 3: i = 6, 13 (then 27): s = 19, j ends 1
// The second loop's step is `++m, t += twice(m)`: `twice` sees m after `++m`. m = 0, 1, 2
// run (t < 12): t = 0 → 2·1 = 2 → 2 + 2·2 = 6 → 6 + 2·3 = 12 stops; t = 12, m = 3.
__device__ int start(int l) { return 2 * (l % 4); }
__device__ int next(int i) { return i + 1; }
__device__ int twice(int m) { return 2 * m; }
__global__ void k(int* sum, int* count, int* t_out) {
    int s = 0, c = 0;
    for (int i = start(threadIdx.x), j = 0; i < 20; i += next(i), ++j) {
        s += i;
        c = j;
    }
    sum[threadIdx.x] = s;
    count[threadIdx.x] = c;
    int t = 0, m = 0;
    for (; t < 12; ++m, t += twice(m)) {
    }
    t_out[threadIdx.x] = t * 10 + m;
}
