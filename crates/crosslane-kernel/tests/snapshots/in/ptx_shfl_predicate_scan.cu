// snapshot: threads=64
// An inline-PTX warp scan step with the shuffle's validity predicate, as CUB's WarpScanShfl
// and hand-written scans write it (PTX ISA, shfl.sync: `.up` with c = 0 is valid when
// lane - d >= 0; `@p` guards the add). Five steps over two warps of v = t + 1 give each warp an
// inclusive scan: o[t] = sum(range(32 * (t // 32) + 1, t + 2)) = 1, 3, 6, …, 528, then 33, 67, ….
__device__ unsigned step(unsigned x, unsigned d) {
  unsigned r;
  asm("{.reg .u32 r0;"
      ".reg .pred p;"
      "shfl.sync.up.b32 r0|p, %1, %2, 0, 0xffffffff;"
      "@p add.u32 r0, r0, %3;"
      "mov.u32 %0, r0;}"
      : "=r"(r) : "r"(x), "r"(d), "r"(x));
  return r;
}
__global__ void scan(unsigned *o) {
  unsigned v = threadIdx.x + 1;
  for (int d = 1; d < 32; d <<= 1) v = step(v, d);
  o[threadIdx.x] = v;
}
int main() {
  unsigned *o;
  cudaMalloc(&o, 64 * sizeof(unsigned));
  scan<<<1, 64>>>(o);
  return 0;
}
