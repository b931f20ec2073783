// snapshot: threads=32
// Device recursion (CUDA C++ Programming Guide, C++ Language Support: recursion is supported in
// device code on compute capability 2.x and up; each thread's stack is sized by
// cudaLimitStackSize). Calls are inlined one copy per level up to --max-call-depth (64 by
// default), so recursion deeper than the 8 levels once allowed runs.
// fact(11) = 39916800 in every lane (o). depth(t) = t: 31 nested calls in lane 31 (d).
// sum_to(t) = t + (t - 1) + … + 0 = t (t + 1) / 2, recursing in an `if` (s): 0 1 3 6 10 … 496.
__device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
__device__ int depth(int n) {
  if (n == 0) return 0;
  return 1 + depth(n - 1);
}
__device__ int sum_to(int n) {
  int r = n;
  if (n > 0) r += sum_to(n - 1);
  return r;
}

__global__ void k(int* o, int* d, int* s) {
  int t = threadIdx.x;
  o[t] = fact(11);
  d[t] = depth(t);
  s[t] = sum_to(t);
}
