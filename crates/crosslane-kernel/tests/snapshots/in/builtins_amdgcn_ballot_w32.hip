// snapshot: arch=gfx1100
// On a wave32 target (gfx1100: RDNA3, 32 lanes) `__builtin_amdgcn_ballot_w32(pred)` is the
// ballot as an `unsigned int` (clang BuiltinsAMDGPU.def: "Uib", feature wavefrontsize32), so
// `~` complements 32 bits: ~0xf = 0xfffffff0 = 4294967280 in every lane (lanes 0..3 have
// l < 4). `__builtin_amdgcn_ballot_w64` there is the same ballot in 64 bits, upper half 0:
// 0xf, and its complement is 2^64 - 16 = 18446744073709551600.
__global__ void k(unsigned long long* n32, unsigned long long* n64) {
  int l = threadIdx.x;
  n32[l] = ~__builtin_amdgcn_ballot_w32(l < 4);
  n64[l] = ~__builtin_amdgcn_ballot_w64(l < 4);
}
