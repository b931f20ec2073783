// snapshot: threads=128 entry=moeTopK<128>
// vLLM-style MoE top-k routing (k = 3) over 32 experts: a named `cub::ArgMax arg_max;` object
// both called directly and passed to BlockReduce<KeyValuePair<int, float>>::Reduce; experts
// already chosen are masked by reusing the thread's running pair. p_e = ((5·e) mod 16) / 16,
// written over the buffer first. Largest 15/16 at e = 3 and e = 19 (5·19 = 95 = 5·16 + 15):
// ArgMax keeps the smaller key on equal values (cub/thread/thread_operators.cuh), so round 0
// picks 3, round 1 (3 masked) picks 19; round 2: 14/16 at e = 6 (30 mod 16 = 14) and 22 → 6.
// So indices = 3, 19, 6 and weights 0.9375, 0.9375, 0.875. weights[3] is thread 1's copy of
// round 2's result: undefined (BlockReduce's result is valid in thread 0 only).
#include <cub/cub.cuh>
template <int TPB>
__global__ void moeTopK(float* probs, int* indices, float* weights) {
  using cub_kvp = cub::KeyValuePair<int, float>;
  using BlockReduce = cub::BlockReduce<cub_kvp, TPB>;
  __shared__ typename BlockReduce::TempStorage tmpStorage;
  const int num_experts = 32;
  const int k = 3;
  if (threadIdx.x < num_experts) probs[threadIdx.x] = (float)((5 * threadIdx.x) % 16) / 16.0f;
  __syncthreads();
  cub_kvp thread_kvp;
  cub::ArgMax arg_max;
  for (int k_idx = 0; k_idx < k; ++k_idx) {
    thread_kvp.key = 0;
    thread_kvp.value = -1.f;
    cub_kvp inp_kvp;
    for (int expert = threadIdx.x; expert < num_experts; expert += TPB) {
      inp_kvp.key = expert;
      inp_kvp.value = probs[expert];
      for (int prior_k = 0; prior_k < k_idx; ++prior_k) {
        if (indices[prior_k] == expert) inp_kvp = thread_kvp;
      }
      thread_kvp = arg_max(inp_kvp, thread_kvp);
    }
    const cub_kvp result_kvp = BlockReduce(tmpStorage).Reduce(thread_kvp, arg_max);
    if (threadIdx.x == 0) { indices[k_idx] = result_kvp.key; weights[k_idx] = result_kvp.value; }
    if (threadIdx.x == 1 && k_idx == 2) weights[3] = result_kvp.value;
    __syncthreads();
  }
}
