// Host code with several declarators in one declaration and a dim3's members
// (C++17 [dcl.decl]/3: each init-declarator takes the declaration's type; CUDA C++ Programming
// Guide, "dim3": components left out are 1).
//   threads = 32, add = 100; blk = (32,1,1), one = (1,1,1)
//   grd = ((50 + 32 - 1) / 32) = 81 / 32 = 2 blocks; block blk.x * one.y = 32: 64 threads.
//   out memset to 0, then out[i] = i + 100 for i < 50: 100 … 149, and out[50..64] stay 0.
#define N 50
__global__ void k(int* out, int add, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i + add;
}
int main() {
  int threads = 32, add = 100;
  dim3 blk(threads), one;
  dim3 grd((N + blk.x - 1) / blk.x);
  int* d;
  cudaMalloc(&d, 64 * sizeof(int));
  cudaMemset(d, 0, 64 * sizeof(int));
  k<<<grd, blk.x * one.y>>>(d, add, N);
  return 0;
}
