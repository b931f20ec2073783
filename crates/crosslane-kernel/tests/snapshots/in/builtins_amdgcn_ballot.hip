// snapshot: lanes=64
// clang's `__builtin_amdgcn_ballot_w64(pred)` on a wave64 target (gfx90a, the HIP default
// here): the 64-bit mask of the active lanes whose predicate is true (clang
// BuiltinsAMDGPU.def, "Ballot builtins").
// cnt[l]: lanes with l % 5 == 1 in 0..63 are 1, 6, ..., 61: (61 - 1) / 5 + 1 = 13.
// hi[l]: lanes 40..63 set bits 40..63; >> 32 leaves bits 8..31: 0xffffff00 = 4294967040.
// odd[l]: in the branch l < 16 only lanes 0..15 are active; the odd ones set bits 1,3,..,15:
// 0xaaaa = 43690 for l < 16; lanes 16..63 store 0 (the else branch).
__global__ void k(unsigned* cnt, unsigned* hi, unsigned long long* odd) {
  int l = threadIdx.x;
  cnt[l] = __popcll(__builtin_amdgcn_ballot_w64(l % 5 == 1));
  hi[l] = (unsigned)(__builtin_amdgcn_ballot_w64(l >= 40) >> 32);
  if (l < 16) {
    odd[l] = __builtin_amdgcn_ballot_w64(l & 1);
  } else {
    odd[l] = 0;
  }
}
