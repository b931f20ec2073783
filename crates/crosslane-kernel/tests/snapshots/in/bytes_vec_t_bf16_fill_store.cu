// snapshot: threads=2
// FlashInfer-shaped `vec_t<__nv_bfloat16, 8>`: one `uint4 data;` filled element by element
// through `((__nv_bfloat16*)(&data))[i]` (never loaded first), then stored with one
// `*(uint4*)p = data`. After the eight element writes every byte of `data` is written, so the
// uint4 has a value (C++17 [basic.types]/4) and the store writes it whole.
//
// Thread t writes v[i] = bf16(8t + i): out[8t + i] = 8t + i, out = 0, 1, …, 15 (exact in
// bfloat16, whose 8-bit significand holds integers up to 256).
// bits[t] = v.data.x, elements 0 (low) and 1 (high); bf16 is a float's high 16 bits:
// t = 0: bf16(0) = 0x0000, bf16(1) = 0x3F80 → 0x3F800000 = 1065353216;
// t = 1: bf16(8) = 0x4100, bf16(9) = 0x4110 → 0x41104100 = 1091584256
// (Python: struct.unpack('<I', struct.pack('<f', x))[0] >> 16).
#include <cuda_bf16.h>
template <typename T, size_t N> struct vec_t;
template <> struct vec_t<__nv_bfloat16, 8> {
  uint4 data;
  __device__ __nv_bfloat16& operator[](size_t i) { return ((__nv_bfloat16*)(&data))[i]; }
  __device__ void store(__nv_bfloat16* ptr) const { *((uint4*)ptr) = data; }
};
__global__ void k(__nv_bfloat16* out, unsigned* bits) {
  vec_t<__nv_bfloat16, 8> v;
#pragma unroll
  for (size_t i = 0; i < 8; ++i) v[i] = __float2bfloat16((float)(8 * threadIdx.x + i));
  v.store(out + 8 * threadIdx.x);
  bits[threadIdx.x] = v.data.x;
}
int main() {
  __nv_bfloat16* out; unsigned* bits;
  cudaMalloc(&out, 32); cudaMalloc(&bits, 8);
  k<<<1, 2>>>(out, bits);
}
