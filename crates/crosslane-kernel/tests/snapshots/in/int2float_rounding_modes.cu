// The integer-to-float casting intrinsics of the CUDA Math API ("Type Casting Intrinsics"):
// _rn nearest even, _rz toward zero, _ru up, _rd down. Thread t converts v = 16777216 + t
// (2^24 + t): above 2^24 the floats are 2 apart, so an odd v lies between v - 1 and v + 1.
//   t = 0: v = 16777216 exact in every mode.
//   t = 1: v = 16777217: rn 16777216 (tie, even significand), rz 16777216, ru 16777218,
//          rd 16777216.
//   t = 3: v = 16777219: rn 16777220 (tie: 16777218 = 2·8388609 has an odd significand),
//          rz 16777218, ru 16777220, rd 16777218.
// neg[t] = __int2float_rd(-v): t = 1 gives -16777218, t = 3 gives -16777220.
// u[t] = __uint2float_rz(4294967295u - t): the float below 2^32 is 4294967040 (2^32 - 256), so
// 4294967040 for t = 0..3.
__global__ void k(float *rn, float *rz, float *ru, float *rd, float *neg, float *u) {
    int t = threadIdx.x;
    int v = 16777216 + t;
    rn[t] = __int2float_rn(v);
    rz[t] = __int2float_rz(v);
    ru[t] = __int2float_ru(v);
    rd[t] = __int2float_rd(v);
    neg[t] = __int2float_rd(-v);
    u[t] = __uint2float_rz(4294967295u - t);
}
int main() {
    float *rn, *rz, *ru, *rd, *neg, *u;
    cudaMalloc(&rn, 16); cudaMalloc(&rz, 16); cudaMalloc(&ru, 16);
    cudaMalloc(&rd, 16); cudaMalloc(&neg, 16); cudaMalloc(&u, 16);
    k<<<1, 4>>>(rn, rz, ru, rd, neg, u);
}
