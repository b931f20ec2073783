// snapshot: threads=4
// 32-bit words of global and shared memory written as two halves through a `half*` (the
// half-packing of inference kernels): once both halves of a word are written, the word has a
// value (C++17 [basic.types]/4: its value is its bytes; memory is little-endian on NVIDIA and
// AMD GPUs, so element 2i is the low half of word i).
//
// g (unsigned, host-allocated 12 words, never set: undefined before the kernel).
// Words 0..3: low half(1.0) = 0x3C00, high half(-2.0) = 0xC000, so g[t] = 0xC0003C00 =
// 3221240832 (Python: struct.pack('<e', 1.0) == b'\x00<', struct.pack('<e', -2.0) ==
// b'\x00\xc0').
// Shared s[t]: the high half 0.5 = 0x3800 written before the low half 0.25 = 0x3400; after the
// barrier, g[4 + t] = s[t] = 0x38003400 = 939537408.
// Words 8..11: only the low half is written (half(3.0)); the high bytes 2..=3 are never
// written, so g[8..11] end undefined, and a warning at the end of the run names them.
#include <cuda_fp16.h>
__global__ void k(uint32_t* g) {
  __shared__ uint32_t s[4];
  half* gh = (half*)g;
  gh[2 * threadIdx.x] = __float2half(1.0f);
  gh[2 * threadIdx.x + 1] = __float2half(-2.0f);
  half* sh = (half*)s;
  sh[2 * threadIdx.x + 1] = __float2half(0.5f);
  sh[2 * threadIdx.x] = __float2half(0.25f);
  __syncthreads();
  g[4 + threadIdx.x] = s[threadIdx.x];
  gh[16 + 2 * threadIdx.x] = __float2half(3.0f);
}
int main() {
  uint32_t* g;
  cudaMalloc(&g, 48);
  k<<<1, 4>>>(g);
}
