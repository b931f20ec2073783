// snapshot: threads=64
// Per-token FP8 quantization in the shape vLLM's, TensorRT-LLM's and SGLang's dynamic
// per-token kernels take: one warp per token, a warp max of |x| by __shfl_xor_sync, the
// scale max / 448 (E4M3's largest finite value, OCP OFP8 Table 1), each element stored as
// __nv_fp8_e4m3(x / scale) (nearest even, __NV_SATFINITE: CUDA Math API, struct
// __nv_fp8_e4m3) and read back with float(q). The launch fills x[i] = i; token 0 (warp 0)
// takes v = (i - 40) · 0.25 (-10 … -2.25), token 1 (warp 1) v = (i - 40) · 3 (-24 … 69).
// Expected values, from this Python (E4M3 encoded on its own, every code enumerated):
//   import struct; f32 = lambda x: struct.unpack('f', struct.pack('f', x))[0]
//   G = [(m/8)*2.0**-6 if e == 0 else (1+m/8)*2.0**(e-7) for e in range(16) for m in range(8)][:127]
//   enc = lambda x: (-1 if x < 0 else 1) * G[min(range(127), key=lambda j: (abs(G[j]-min(abs(x), 448)), j % 2))]
//   for lo, mul in [(0, 0.25), (32, 3.0)]:
//       v = [f32(f32(i-40.0)*mul) for i in range(lo, lo+32)]; s = f32(max(map(abs, v))/448.0)
//       q = [enc(f32(a/s)) for a in v]; deq = [f32(a*s) for a in q]
// scales: 10/448 = 0.0223214291036129, 69/448 = 0.1540178507566452 (as float).
// q, token 0: -448 -448 -416 -416 -416 -384 -384 -384 -352 -352 -320 -320 -320 -288 -288 -288
//             -256 -256 -240 -240 -224 -208 -208 -192 -176 -160 -160 -144 -128 -120 -112 -104
// q, token 1: -160 -144 -120 -96 -80 -60 -40 -20 0 20 40 60 80 96 120 144
//             160 176 192 208 240 256 288 288 320 320 352 384 384 416 416 448
// deq = float(q) · scale: token 0 starts -10 -10 -9.285714149475098 …, token 1 ends … 69.
// bits: __nv_cvt_float_to_fp8 of the same quotient, the encoding: -448 = 1.1111.110 = 0xFE
// (254) for token 0's lane 0, 448 = 0x7E (126) for token 1's lane 31, 0 for 0.
#include <cuda_fp8.h>
__global__ void per_token_quant(const float* x, __nv_fp8_e4m3* q, float* scales, float* deq,
                                __nv_fp8_storage_t* bits) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int token = threadIdx.x / 32;
    float v = (x[i] - 40.0f) * (token == 0 ? 0.25f : 3.0f);
    float amax = fabsf(v);
    for (int offset = 16; offset > 0; offset >>= 1) {
        amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, offset));
    }
    const float scale = amax / 448.0f;
    __nv_fp8_e4m3 out = __nv_fp8_e4m3(v / scale);
    q[i] = out;
    deq[i] = static_cast<float>(out) * scale;
    bits[i] = __nv_cvt_float_to_fp8(v / scale, __NV_SATFINITE, __NV_E4M3);
    if (lane == 0) {
        scales[token] = scale;
    }
}
