// snapshot: threads=4
// Unions that reinterpret bytes, indexed through `operator[]` and at run time.
// A union held by its narrowest scalars ([`parser/structs/punning.rs`]): `h` holds `pack8`'s
// bytes and `u` reads them; `s` holds `words`'s bytes and `w` reads them.
//
// pack8: `operator[]` returns `data.h[i]`; thread t writes v[i] = half(i + t), then stores
// data.u: word k is h[2k] | h[2k+1] << 16 (element 2k in the low bytes). Python:
// h = lambda x: struct.unpack('<H', struct.pack('<e', x))[0]
// t = 0: halves 0, 0x3C00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600, 0x4700 →
//   {1006632960, 1107312640, 1157645312, 1191200256}
// t = 1: 0x3C00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600, 0x4700, 0x4800 →
//   {1073757184, 1140867584, 1174422784, 1207977728}
// t = 2: {1107312640, 1157645312, 1191200256, 1216366592}
// t = 3: {1140867584, 1174422784, 1207977728, 1224755328}
// words: `operator[]` returns `data.w[i]`, a view indexed at run time (n = 4 from the launch):
// x[i] = 0x10001 (t + i) for i < 4, then x[t] += 1. w[t] = x.data.w[(t + 1) % 4] =
// 0x10001 (t + (t + 1) % 4) (never the incremented word): 65537, 196611, 327685, 196611.
// w[4 + t] = x.data.s[2t], the low half of word t: 2t + 1 = 1, 3, 5, 7.
// A local union: u16[j] = 10t + j, read as u32[t]: t = 0: 0 | 1 << 16 = 65536; t = 1:
// u16[2] | u16[3] << 16 = 12 | 13 << 16 = 851980; t = 2, 3 index past u32's 2 elements
// (C++17 [expr.add]/4): w[10], w[11] undefined, with a warning naming the index.
#include <cuda_fp16.h>
struct pack8 {
  union { uint4 u; half h[8]; } data;
  __device__ half& operator[](int i) { return data.h[i]; }
};
struct words {
  union { uint16_t s[8]; uint32_t w[4]; } data;
  __device__ uint32_t& operator[](int i) { return data.w[i]; }
};
__global__ void k(uint4* out, unsigned* w, int n) {
  unsigned t = threadIdx.x;
  pack8 v;
  for (int i = 0; i < 8; ++i) v[i] = __float2half((float)(i + t));
  out[t] = v.data.u;
  words x;
  for (int i = 0; i < n; ++i) x[i] = 0x10001u * (t + i);
  x[t % 4] += 1u;
  w[t] = x.data.w[(t + 1) % 4];
  w[4 + t] = x.data.s[2 * t];
  union { uint32_t u32[2]; uint16_t u16[4]; } u;
  for (int j = 0; j < 4; ++j) u.u16[j] = 10 * t + j;
  w[8 + t] = u.u32[t];
}
int main() {
  uint4* out; unsigned* w;
  cudaMalloc(&out, 64); cudaMalloc(&w, 48);
  k<<<1, 4>>>(out, w, 4);
}
