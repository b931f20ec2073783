// snapshot: threads=8
// cuda::atomic_ref and cuda::std::atomic_ref on shared and global cells, one warp of 8
// threads; the emulator applies one statement's atomics in lane order 0..7.
// count = 0: fetch_add(2, relaxed) returns the value before: slot = 0 2 4 … 14, count = 16.
// fetch_min(t + 20): every t + 20 > 16, count stays 16; first = load(acquire) = 16 everywhere.
// total = 0.0: fetch_add(0.5 t) gives 0.5·(0 + … + 7) = 14: fsum = 14 everywhere.
// seen[0] starts 0 (the index fill): fetch_max(3t) -> 21; then exchange(t) in lane order:
//   lane 0 gets 21 and leaves 0, lane t > 0 gets t - 1: swapped = 21 0 1 2 3 4 5 6, and
//   seen[0] = 7 at the end (seen[1..7] keep 1..7).
// compare_exchange_strong(expected = 16, 100 + t) on count: lane 0 finds 16 and stores 100
//   (ok 1, expected stays 16); lanes 1..7 find 100 (ok 0, expected becomes 100):
//   cas_ok = 1 0 0 0 0 0 0 0, cas_seen = 16 100 100 100 100 100 100 100.
#include <cuda/atomic>
#include <cuda/std/atomic>
__global__ void members(int* slot, int* first, float* fsum, int* seen, int* swapped,
                        int* cas_ok, int* cas_seen) {
  __shared__ int count;
  __shared__ float total;
  int t = threadIdx.x;
  if (t == 0) { count = 0; total = 0.0f; }
  __syncthreads();
  cuda::atomic_ref<int, cuda::thread_scope_block> c(count);
  slot[t] = c.fetch_add(2, cuda::std::memory_order_relaxed);
  c.fetch_min(t + 20);
  cuda::std::atomic_ref<float> f{total};
  f.fetch_add(0.5f * t);
  __syncthreads();
  first[t] = c.load(cuda::memory_order_acquire);
  fsum[t] = f.load();
  cuda::atomic_ref<int, cuda::thread_scope_device> g(seen[0]);
  g.fetch_max(3 * t);
  swapped[t] = g.exchange(t);
  int expected = 16;
  bool ok = c.compare_exchange_strong(expected, 100 + t);
  cas_ok[t] = ok;
  cas_seen[t] = expected;
}
