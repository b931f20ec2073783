// snapshot: arch=gfx1100
// What device memory holds at a launch, in HIP:
//   x: hipMallocManaged, written by the host loop x[i] = 0.5 i (managed memory: one pointer on
//      host and device), so x = 0, 0.5, 1, …, 15.5.
//   m: hipMemset(m, 1, 32 * sizeof(int)): every byte 0x01, each int 0x01010101 = 16843009.
//   p: Params set member by member on the host: p.n = 20, p.scale = 2.
//   y: hipMalloc'ed and never written by the host (memory is not cleared): undefined at launch.
//   y[i] = x[i] * p.scale + (m[i] == 16843009) = i + 1 for i < 20; y[20..32] stay undefined.
struct Params { int n; float scale; };
__global__ void k(Params p, const float* x, const int* m, float* y) {
  int i = threadIdx.x;
  if (i < p.n) y[i] = x[i] * p.scale + (m[i] == 0x01010101 ? 1.0f : 0.0f);
}
int main() {
  const int n = 32;
  float *x, *y;
  int* m;
  hipMallocManaged(&x, n * sizeof(float));
  for (int i = 0; i < n; i++) x[i] = 0.5f * i;
  hipMalloc(&m, n * sizeof(int));
  hipMemset(m, 1, n * sizeof(int));
  hipMalloc(&y, n * sizeof(float));
  Params p;
  p.n = 20;
  p.scale = 2.0f;
  hipLaunchKernelGGL(k, dim3(1), dim3(32), 0, 0, p, x, m, y);
  return 0;
}
