// Floating-point contraction: nvcc (--fmad=true, its default) computes a*b+c as one fma.
// With a = b = 1 + 2^-12 and c = -1: a*b = 1 + 2^-11 + 2^-24 exactly, so the fused result is
// 2^-11 + 2^-24 = 0.000488340854644775390625; with --fmad=false a*b rounds to 1 + 2^-11 (the
// 2^-24 is a tie that goes to even) and the sum is 2^-11 = 0.00048828125.
// (crates/crosslane-kernel/tests/suite/models/contract.py derives both with exact rationals.)
//   crosslane run fma_contraction.cu --arg a=1.000244140625 --arg b=1.000244140625 --arg c=-1
__global__ void fused(float* out, float a, float b, float c) {
    out[threadIdx.x] = a * b + c;
}
