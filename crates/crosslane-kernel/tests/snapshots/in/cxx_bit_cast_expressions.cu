// snapshot: threads=4
// __builtin_bit_cast of calls and expressions, as FlashInfer's and CCCL's helpers write it.
// By hand (IEEE 754 binary32/binary64 encodings; t = threadIdx.x, lanes 0..3):
//   a[t] = bits of t * 0.5f: 0 -> 0, 0.5 = 0x3f000000 = 1056964608, 1.0 = 0x3f800000 =
//          1065353216, 1.5 = 0x3fc00000 = 1069547520 (through a device function call).
//   b[t] = bits of scale<float>(t) = t * 2.0f read as uint32 then back as float: 0, 2, 4, 6
//          (a template's call: its type is read when it runs).
//   c[t] = __builtin_bit_cast(float, __float_as_uint(t) ^ 0x80000000u): the sign flipped,
//          -t: -0.0, -1, -2, -3 (an expression over an intrinsic).
//   d[t] = high 32 bits of (double)(t + 1): 1.0 = 0x3ff00000_00000000 -> 1072693248,
//          2.0 = 0x40000000 -> 1073741824, 3.0 = 0x40080000 -> 1074266112,
//          4.0 = 0x40100000 -> 1074790400 (double -> uint64_t, then >> 32).
__device__ float half_of(float x) { return x * 0.5f; }
template <typename T> __device__ T scale(T x) { return x * (T)2; }
struct Box {
    float v;
    __device__ float get() const { return v; }
};
__global__ void k(unsigned* a, float* b, float* c, unsigned* d) {
    unsigned t = threadIdx.x;
    float x = t;
    a[t] = __builtin_bit_cast(uint32_t, half_of(x));
    Box bx{scale<float>(x)};
    b[t] = __builtin_bit_cast(float, __builtin_bit_cast(uint32_t, bx.get()));
    c[t] = __builtin_bit_cast(float, __float_as_uint(x) ^ 0x80000000u);
    double y = t + 1;
    d[t] = (unsigned)(__builtin_bit_cast(uint64_t, y) >> 32);
}
