// snapshot: threads=16
// A device-function call on the right of `&&` / `||` runs only in the lanes whose left operand
// leaves the result undecided (C++17 [expr.log.and]/1: the second operand is not evaluated if
// the first is false; [expr.log.or]/1: not if the first is true), as the tester's
// `o[i] = (i < n && is_odd(a[i])) ? 1 : 0;` needs. A lane the left operand decided is inactive
// for the whole call, as in an `if`. 16 threads, `a` the index fill, N = 10; `hits`, a `__device__`
// array without an initializer, starts as zeros.
// odd[i]: lanes 0..9 call is_odd(i): 1 for odd i; lanes 10..15 decide false: 0 1 0 1 0 1 0 1 0 1
//   then six 0s.
// hits[0] counts is_odd's calls there (an atomic in it): 10.
// seen[i]: lanes 0, 4, 8, 12 call mask_of() (`i % 4 == 0`), whose __activemask() is their bits:
//   0x1111 = 4369; the other lanes keep 0 (CUDA C++ Programming Guide, Warp Vote Functions).
// walk[i]: `while (j < 3 && is_odd(a[i] + j)) j++;` calls before each pass ([stmt.while]/1):
//   odd i passes at j = 0, then a[i] + 1 is even: 1; even i: 0. is_odd's calls there: 16 + 8
//   odd lanes = 24, so hits[1] = 24.
// any[i]: `i >= 12 || is_odd(i)` : lanes 12..15 decide true without a call; the others call:
//   1 for odd i. 0 1 0 1 0 1 0 1 0 1 0 1 1 1 1 1; hits[2] = 12.
#define N 10
__device__ unsigned hits[3];
__device__ bool is_odd(int v, unsigned* count) { atomicAdd(count, 1u); return (v & 1) != 0; }
__device__ unsigned mask_of() { return __activemask(); }

__global__ void k(const int* a, int* odd, unsigned* seen, int* walk, int* any) {
  int i = threadIdx.x;
  odd[i] = (i < N && is_odd(a[i], hits)) ? 1 : 0;
  unsigned m = 0;
  bool t = (i % 4 == 0) && (m = mask_of()) != 0;
  seen[i] = t ? m : 0u;
  int j = 0;
  while (j < 3 && is_odd(a[i] + j, hits + 1)) j++;
  walk[i] = j;
  any[i] = i >= 12 || is_odd(i, &hits[2]);
}
