// snapshot: threads=32
// Top-2 over a warp with a key/index struct template ordered by its member `operator<` (a tie
// on the key ranks the smaller index higher), `operator>` written as `o < *this` and
// `operator==`; a butterfly merges each lane's sorted pair with its partner's. Lane t's key is
// ((13 t) mod 32) / 2 (integer division), so the largest key 15 is held by the lanes with
// 13 t mod 32 in {30, 31}: 13^-1 = 5 (mod 32, 13 * 5 = 65), so t = 150 mod 32 = 22 and
// t = 155 mod 32 = 27. Every lane ends with first = 22 (the tie's smaller index), second = 27,
// key 15; `same` is 1 on lane 22, 2 on lane 27, 0 elsewhere.
template <typename K>
struct KV {
  K key;
  int idx;
  // Ordered by key, a tie by the smaller index ranking higher.
  __device__ bool operator<(const KV& o) const {
    return key < o.key || (key == o.key && idx > o.idx);
  }
  __device__ bool operator>(const KV& o) const { return o < *this; }
  __device__ bool operator==(const KV& o) const { return key == o.key && idx == o.idx; }
};
__device__ KV<float> shfl_kv(KV<float> v, int off) {
  KV<float> r;
  r.key = __shfl_xor_sync(0xffffffffu, v.key, off);
  r.idx = __shfl_xor_sync(0xffffffffu, v.idx, off);
  return r;
}
__global__ void k(int* first, int* second, float* key, int* same) {
  int t = threadIdx.x;
  KV<float> a1{(float)(((t * 13) % 32) / 2), t};
  KV<float> a2{-1.0f, 99};
  for (int off = 16; off > 0; off >>= 1) {
    KV<float> b1 = shfl_kv(a1, off);
    KV<float> b2 = shfl_kv(a2, off);
    if (a1 < b1) {
      a2 = (b2 > a1) ? b2 : a1;
      a1 = b1;
    } else {
      a2 = (a2 < b1) ? b1 : a2;
    }
  }
  first[t] = a1.idx;
  second[t] = a2.idx;
  key[t] = a2.key;
  KV<float> mine{(float)(((t * 13) % 32) / 2), t};
  int rank = 0;
  if (mine == a1) rank = 1;
  if (mine == a2) rank = 2;
  same[t] = rank;
}
