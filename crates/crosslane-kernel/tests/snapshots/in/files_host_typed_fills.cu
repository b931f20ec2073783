// Host fills in C++ types: `h` is unsigned (wraps modulo 2^32), `f` float (each float
// operation rounded to float), `g` double. The kernel adds nothing: the buffers show the fills.
// Expected (Python):
//   M = 2**32; [((4294967295 + i) % M % 1000 + ((i * 3000000000 % M) >> 28) * 10000) % M
//               for i in range(8)] == [295, 110000, 60001, 10002, 120003, 70004, 30005, 140006]
//   f = lambda x: struct.unpack('f', struct.pack('f', x))[0]
//   b = f(f(f(1.0) / 12) + f(f(0.1) * 11)); [f(b + i) for i in range(8)]: 1.1833334 … 8.183333
//   [1.0 / 12 + 0.1 * 11 + i for i in range(8)]: 1.1833333333333333, 2.1833333333333336, …
__global__ void show(unsigned *h, float *f, double *g) {
  int i = threadIdx.x;
  h[i] += 0u;
  f[i] += 0.0f;
  g[i] += 0.0;
}

int main() {
  unsigned h[8];
  float f[8];
  double g[8];
  for (int i = 0; i < 8; i++) h[i] = (4294967295u + i) % 1000u + ((i * 3000000000u) >> 28) * 10000u;
  for (int i = 0; i < 8; i++) f[i] = 1.0f / 12 + 0.1f * 11 + i;
  for (int i = 0; i < 8; i++) g[i] = 1.0 / 12 + 0.1 * 11 + i;
  unsigned *dh;
  float *df;
  double *dg;
  cudaMalloc(&dh, 8 * sizeof(unsigned));
  cudaMalloc(&df, 8 * sizeof(float));
  cudaMalloc(&dg, 8 * sizeof(double));
  cudaMemcpy(dh, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMemcpy(df, f, sizeof(f), cudaMemcpyHostToDevice);
  cudaMemcpy(dg, g, sizeof(g), cudaMemcpyHostToDevice);
  show<<<1, 8>>>(dh, df, dg);
  return 0;
}
