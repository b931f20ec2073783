// One device pointer passed to two parameters is one memory: `a` and `b` view `d`.
// a[i] = 10 i; after the barrier b[i] = a[(i + 1) % 32] + b[i] = 10 ((i + 1) % 32) + 10 i:
// 10 30 50 … 610, and 310 for i = 31. One buffer, `a`.
__global__ void rotate_add(int *a, int *b) {
  int i = threadIdx.x;
  a[i] = i * 10;
  __syncthreads();
  b[i] = a[(i + 1) % 32] + b[i];
}

int main() {
  int h[32];
  for (int i = 0; i < 32; i++) h[i] = i;
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  cudaMemcpy(d, h, 32 * sizeof(int), cudaMemcpyHostToDevice);
  rotate_add<<<1, 32>>>(d, d);
  return 0;
}
