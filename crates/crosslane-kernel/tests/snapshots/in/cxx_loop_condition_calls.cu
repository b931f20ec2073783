// Device-function calls in loop conditions. [stmt.while]/1: the condition is evaluated before
// each execution of the body; [stmt.for]/1 reads `for (init; cond; step) body` as that `while`
// with the step after the body (`continue` goes to the step, then the condition); [stmt.do]/1:
// a `do` condition is evaluated after each body. So each call runs again per iteration, in the
// lanes still looping.
//
// grow: i runs 0 → next(0) = 1 → 3 → 7 → 15 → 31 (next(i) = 2i + 1) while next(i) < L + 2.
//   steps = how many of 1, 3, 7, 15, 31 are below L + 2; i = the last of them:
//   L = 0, 1 (L+2 ≤ 3): 1 step, i = 1 → 101    L = 2..5 (L+2 ≤ 7): 2, i = 3 → 203
//   L = 6..13: 3, i = 7 → 307    L = 14..29: 4, i = 15 → 415    L = 30, 31: 5, i = 31 → 531
// skip: j = 0 .. L mod 4 (at_most(j, n) is j ≤ n), j == 1 skipped by `continue`, 10 per other
//   pass: L mod 4 = 0 → 10, 1 → 10, 2 → 20, 3 → 30.
// rounds: a do-while whose condition reduces over the warp with __shfl_xor_sync (all 32 lanes
//   loop together, so the full mask names exactly the lanes calling): after r passes the sum
//   is 32·r; 32 < 96, 64 < 96, 96 stops: r = 3 in every lane. The `for` does the same test
//   before each pass: t = 0, 1, 2 run (0, 32, 64 < 96), so t ends 3 and count = 3.
__device__ int next(int i) { return 2 * i + 1; }
__device__ bool at_most(int j, int n) { return j <= n; }
__device__ int warp_sum(int v) {
    for (int o = 16; o > 0; o >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, o);
    }
    return v;
}
__global__ void k(int* grow, int* skip, int* rounds) {
    int lane = threadIdx.x;
    int i = 0, steps = 0;
    while (next(i) < lane + 2) {
        i = next(i);
        steps++;
    }
    grow[lane] = steps * 100 + i;
    int s = 0;
    for (int j = 0; at_most(j, lane % 4); ++j) {
        if (j == 1) {
            continue;
        }
        s += 10;
    }
    skip[lane] = s;
    int r = 0;
    do {
        r++;
    } while (warp_sum(r) < 96);
    int count = 0, t = 0;
    for (; warp_sum(t) < 96; ++t) {
        count++;
    }
    rounds[lane] = r * 100 + t * 10 + count;
}
