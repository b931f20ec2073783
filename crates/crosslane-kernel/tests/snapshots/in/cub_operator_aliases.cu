// snapshot: threads=64
// CUB reductions whose operator is named through an alias, as vLLM's MoE top-k softmax writes
// `using MaxOp = cuda::maximum<>;` at file scope: `using` and `typedef` of cuda::maximum<>,
// cub::Min and cuda::std::plus<int>, at file scope and in the kernel, constructed with `()` or
// `{}`. Thread t (0..63) holds x = (37t mod 64) + 1, a permutation of 1..64 (37 is odd, so
// invertible mod 64): max 64, min 1, sum 64·65/2 = 2080. Only thread 0 holds a block result.
#include <cub/cub.cuh>
#include <cuda/std/functional>
using MaxOp = cuda::maximum<>;
typedef cub::Min MinOp;
__global__ void k(int *out) {
  using SumOp = cuda::std::plus<int>;
  using BlockReduce = cub::BlockReduce<int, 64>;
  __shared__ typename BlockReduce::TempStorage tmp;
  int x = (37 * threadIdx.x) % 64 + 1;
  int hi = BlockReduce(tmp).Reduce(x, MaxOp());
  __syncthreads();
  int lo = BlockReduce(tmp).Reduce(x, MinOp{});
  __syncthreads();
  int sum = BlockReduce(tmp).Reduce(x, SumOp());
  if (threadIdx.x == 0) {
    out[0] = hi;
    out[1] = lo;
    out[2] = sum;
  }
}
