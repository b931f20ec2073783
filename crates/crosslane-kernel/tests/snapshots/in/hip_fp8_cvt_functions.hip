// snapshot: threads=4
// hip_fp8.h's conversion functions (ROCm/clr amd_hip_fp8.h, internal::cast_to_f8 and
// cast_from_f8), t = 0..3. Bytes S.EEEE.MMM / S.EEEEE.MM; OCP E4M3 bias 7, E5M2 bias 15,
// FNUZ E4M3 bias 8, FNUZ E5M2 bias 16. Hand-derived:
// s: float → FNUZ E4M3, saturated: 1.0 = 0 1000 000 = 0x40 (64); -2.0 = 1 1001 000 = 0xC8
//    (200); 1000 > 240 saturates to 0 1111 111 = 0x7F (127); 0.3 = 1.2·2^-2 lies between
//    1.125 and 1.25 (·2^-2), nearer 1.25: 0 0110 010 = 0x32 (50).
// o: double → OCP E4M3 without saturation: 449 > 448 is E4M3's NaN 0x7F (127: cast_to_f8
//    compares with the largest value before rounding); -1e9 is the NaN with the sign, 0xFF
//    (255); 0.0625 = 2^-4 = 0 0011 000 = 0x18 (24); -0.0 = 0x80 (128).
// p: float2 (t, -0.5t) → OCP E5M2 pair, .x low, .y high: .x 0 = 0x00, 1 = 0 01111 00 = 0x3C,
//    2 = 0x40, 3 = 1.5·2 = 0 10000 10 = 0x42; .y lane 0 computes -0.5·0.0 = -0.0 = 0x80,
//    -0.5 = 0xB8, -1.0 = 0xBC, -1.5 = 0xBE. p = 0x8000, 0xB83C, 0xBC40, 0xBE42 =
//    32768, 47164, 48192, 48706.
// h: FNUZ E5M2 bytes decoded to half: 0x40 = 1.0; 0xC1 = 1 10000 01 = -1.25; 0x80 = NaN;
//    0x01 = 1·2^(1-16-2) = 2^-17 = 7.62939453125e-06.
// u: float → OCP E4M3, no saturation: 1.0 = 0x38 (56) on lanes 0..2; lane 3's 500 is past
//    448, which hip_fp8.h leaves to the gfx942/gfx12 instruction: undefined, with a warning.
#include <hip/hip_fp8.h>
__global__ void k(unsigned* s, unsigned* o, unsigned* p, float* h, unsigned* u) {
    int t = threadIdx.x;
    float xs[4] = {1.0f, -2.0f, 1000.0f, 0.3f};
    s[t] = __hip_cvt_float_to_fp8(xs[t], __HIP_SATFINITE, __HIP_E4M3_FNUZ);
    double ds[4] = {449.0, -1e9, 0.0625, -0.0};
    o[t] = __hip_cvt_double_to_fp8(ds[t], __HIP_NOSAT, __HIP_E4M3);
    p[t] = __hip_cvt_float2_to_fp8x2(make_float2(t, -0.5f * t), __HIP_SATFINITE, __HIP_E5M2);
    unsigned char bs[4] = {0x40, 0xC1, 0x80, 0x01};
    h[t] = __half2float(__hip_cvt_fp8_to_halfraw(bs[t], __HIP_E5M2_FNUZ));
    u[t] = __hip_cvt_float_to_fp8(t == 3 ? 500.0f : 1.0f, __HIP_NOSAT, __HIP_E4M3);
}
