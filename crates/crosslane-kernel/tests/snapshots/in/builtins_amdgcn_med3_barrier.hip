// snapshot: threads=128
// clang's __builtin_amdgcn_fmed3f (AMD RDNA3 ISA, 16.12 VOP3, V_MED3_F32) and
// __builtin_amdgcn_s_barrier (S_BARRIER) on the default HIP launch: 64 lanes, two waves, target
// gfx942. t = 0..127.
// - m[t] = fmed3f(t, 40, 80): the median clamps t into [40, 80]: 40 for t <= 40, t up to 80,
//   80 above (max3 is t when t > 80 -> max(40, 80) = 80; max3 is 80 when t < 80 -> max(t, 40)).
// - q[t] = fmed3f(NaN, t, 100 - t): with a NaN operand min3 drops it: min(t, 100 - t), so t for
//   t <= 50 and 100 - t above (q[127] = -27).
// - s[t] = 3t in shared memory, then s_barrier, then r[t] = s[127 - t] = 3 * (127 - t): lanes of
//   wave 0 read wave 1's writes and back; a note says s_barrier is no memory fence.
__global__ void k(float *m, float *q, int *r) {
    __shared__ int s[128];
    int t = threadIdx.x;
    float nan = __int_as_float(0x7fc00000);
    m[t] = __builtin_amdgcn_fmed3f((float)t, 40.0f, 80.0f);
    q[t] = __builtin_amdgcn_fmed3f(nan, (float)t, 100.0f - t);
    s[t] = 3 * t;
    __builtin_amdgcn_s_barrier();
    r[t] = s[127 - t];
}
