// A struct buffer sized by `n * sizeof(P)` (P's layout: 8 bytes), launched with a grid a host
// helper function computes, on a view `d + 8` of the allocation.
// (40 + 8) * 8 bytes from element 8 on: 40 cells; grid blocksFor(40, 16) = 55 / 16 = 3 blocks;
// p.x = 0 0.5 … 19.5, p.id = 0 … 39.
struct P {
  float x;
  int id;
};

static int blocksFor(int n, int b) { return (n + b - 1) / b; }

__global__ void init(P *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    p[i].x = i * 0.5f;
    p[i].id = i;
  }
}

int main() {
  int n = 40, bs = 16;
  P *d;
  cudaMalloc(&d, (n + 8) * sizeof(P));
  init<<<blocksFor(n, bs), bs>>>(d + 8, n);
  return 0;
}
