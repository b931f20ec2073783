// snapshot: threads=16
// FlashInfer-shaped `vec_t<half, 8>` / `vec_t<__nv_bfloat16, 8>`: one `uint4 data;` member
// read and written as eight 16-bit elements through `((T*)(&data))[i]`. Element i is bytes
// 2i, 2i+1 of the uint4 (little-endian: elements 0 and 1 are the low and high halves of
// `.x`), so a store to v[i] changes those two bytes only.
//
// x, y (half), bits (unsigned), f (float) have the index fill.
// Lanes 0 and 1 load x[8t .. 8t+7] (the values 8t .. 8t+7), set v[j] = v[j]*0.5 + 1 (exact
// in half) and store them to y[8t ..]: y = 1, 1.5, 2, …, 8.5 (y[i] = i/2 + 1). bits[t] is then
// v.data.x, elements 0 (low) and 1 (high): lane 0 halves 1.0 = 0x3C00 and 1.5 = 0x3E00,
// 0x3E003C00 = 1040202752; lane 1 halves 5.0 = 0x4500 and 5.5 = 0x4580, 0x45804500 =
// 1166034176 (Python struct.pack('<e', x)).
// Lanes 0-3 build a bf16 vec from the words 0x3F80BF00, 0x40400000, 0, 0: elements 0-3 are
// 0xBF00 = -0.5, 0x3F80 = 1, 0x0000 = 0, 0x4040 = 3 (bf16 is a float's high 16 bits), so
// f[t] = -0.5, 1, 0, 3; lane 2 then stores b[5] = 2 (0x4000, the high half of .z) and
// writes .z: 0x40000000 = 1073741824 into bits[2].
// Lane 3 writes element 0 of a vec never loaded: the other 14 bytes have no value, so
// `.x` stays undefined (the read's warning names bytes 2..=15) and bits[3] is undefined.
// bits[4..15], f[4..15] keep their index values.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
template <typename T, size_t N> struct vec_t;
template <> struct vec_t<half, 8> {
    uint4 data;
    __device__ half& operator[](size_t i) { return ((half*)(&data))[i]; }
    __device__ void load(const half* ptr) { data = *((const uint4*)ptr); }
    __device__ void store(half* ptr) const { *((uint4*)ptr) = data; }
};
template <> struct vec_t<__nv_bfloat16, 8> {
    uint4 data;
    __device__ __nv_bfloat16& operator[](size_t i) { return ((__nv_bfloat16*)(&data))[i]; }
};
__global__ void k(const half* x, half* y, unsigned* bits, float* f) {
    unsigned t = threadIdx.x;
    if (t < 2) {
        vec_t<half, 8> v;
        v.load(x + t * 8);
#pragma unroll
        for (int j = 0; j < 8; ++j) v[j] = v[j] * __float2half(0.5f) + __float2half(1.0f);
        v.store(y + t * 8);
        bits[t] = v.data.x;
    }
    if (t < 4) {
        vec_t<__nv_bfloat16, 8> b;
        b.data = make_uint4(0x3F80BF00u, 0x40400000u, 0u, 0u);
        f[t] = __bfloat162float(b[t]);
        if (t == 2) {
            b[5] = __float2bfloat16(2.0f);
            bits[2] = b.data.z;
        }
    }
    if (t == 3) {
        vec_t<half, 8> u;
        u[0] = __float2half(1.0f);
        bits[3] = u.data.x;
    }
}
