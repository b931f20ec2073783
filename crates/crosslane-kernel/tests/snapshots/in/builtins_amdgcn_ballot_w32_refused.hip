// snapshot: lanes=64
// clang refuses `__builtin_amdgcn_ballot_w32` on a wave64 target: "needs target feature
// wavefrontsize32" (BuiltinsAMDGPU.def); refused here at the call, 8:9.
__global__ void k(unsigned* out) {
  int l = threadIdx.x;
  unsigned m = 0;
  if (l < 64)
    m = __builtin_amdgcn_ballot_w32(l < 4);
  out[l] = m;
}
