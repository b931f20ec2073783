// snapshot: threads=8
// An element built a part at a time (C++17 [basic.types]/4: an object's value is its
// object representation, all its bytes; each byte is a memory location, [intro.memory]/3).
// `vec4h` is the vLLM/FlashInfer shape: a `uint2 data;` written as four halves through
// `((half*)(&data))[i]`, then stored whole with one `uint2` store.
//
// Thread t writes o[j] = half(4t + j), j = 0..3 (every byte of `o.data` is then written),
// so out[4t + j] = 4t + j: out = 0, 1, …, 31 (integers up to 2048 are exact in half).
// f is assembled from its bytes 00 00 80 3F (least significant first): the binary32
// 0x3F800000 = 1.0 (Python: struct.unpack('<f', bytes([0, 0, 0x80, 0x3f])) == (1.0,)),
// so out2 = 1.0 in every thread.
// g gets bytes 0 and 3 only: its value is undefined (bytes 1..=2 never written) and the
// warning at its read names them; out3 is undefined everywhere. Byte 0 of g was written
// (42 + t) and is read back through the same `unsigned char*`: out4[t] = 42 + t.
#include <cuda_fp16.h>
struct vec4h {
  uint2 data;
  __device__ half& operator[](int i) { return ((half*)(&data))[i]; }
};
__global__ void k(half* out, float* out2, float* out3, int* out4) {
  vec4h o;
  for (int j = 0; j < 4; ++j) o[j] = __float2half((float)(threadIdx.x * 4 + j));
  *reinterpret_cast<uint2*>(out + 4 * threadIdx.x) = o.data;
  float f;
  unsigned char* p = (unsigned char*)&f;
  p[0] = 0; p[1] = 0; p[2] = 0x80; p[3] = 0x3f;
  out2[threadIdx.x] = f;
  float g;
  unsigned char* q = (unsigned char*)&g;
  q[0] = 42 + threadIdx.x; q[3] = 0x3f;
  out3[threadIdx.x] = g;
  out4[threadIdx.x] = q[0];
}
int main() {
  half* o; float* o2; float* o3; int* o4;
  cudaMalloc(&o, 64); cudaMalloc(&o2, 32); cudaMalloc(&o3, 32); cudaMalloc(&o4, 32);
  k<<<1, 8>>>(o, o2, o3, o4);
}
