//! Shapes the second inference-library corpus met (bitsandbytes' blockwise quantizer,
//! DeepSpeed's launchers, sglang's and vLLM's group quantizers, llama.cpp's cooperative
//! softmax): a conditional expression as a template argument. Kernels written here in those
//! shapes; each expected value is derived by hand in the comment beside it.

use crate::support::{ints, run_default};

#[test]
fn conditional_expression_is_a_template_argument() {
    // C++17 [temp.arg]/1: a non-type template argument is a constant-expression, and a
    // conditional-expression is one ([expr.const]/1). With PACK = 4:
    // `cub::BlockReduce<int, (PACK > 1) ? 32 : 64>` is a 32-thread reduce; the block's 32
    // lanes read in[i] = i (the host fill), so the sum is 0 + 1 + … + 31 = 496.
    // `twice<(PACK > 1) ? PACK / 2 : PACK + 5>()` is twice<2>() = 4; the right-grouped
    // `PACK == 2 ? 1 : PACK == 4 ? 3 : 9` ([expr.cond]) is 3, twice<3>() = 6: 4 + 6 = 10.
    let src = "\
#include <cub/cub.cuh>
template <int N> __device__ int twice() { return 2 * N; }
template <int PACK>
__global__ void k(const int *in, int *sum, int *o) {
  typedef cub::BlockReduce<int, (PACK > 1) ? 32 : 64> R;
  __shared__ typename R::TempStorage tmp;
  int s = R(tmp).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0) sum[0] = s;
  o[threadIdx.x] = twice<(PACK > 1) ? PACK / 2 : PACK + 5>() + twice<PACK == 2 ? 1 : PACK == 4 ? 3 : 9>();
}
int main() {
  int h[32];
  for (int i = 0; i < 32; i++) h[i] = i;
  int *in, *sum, *o;
  cudaMalloc(&in, 32 * sizeof(int));
  cudaMalloc(&sum, sizeof(int));
  cudaMalloc(&o, 32 * sizeof(int));
  cudaMemcpy(in, h, 32 * sizeof(int), cudaMemcpyHostToDevice);
  k<4><<<1, 32>>>(in, sum, o);
  return 0;
}
";
    let t = run_default(src);
    assert_eq!(ints(&t, "sum"), vec![Some(496)]);
    assert_eq!(ints(&t, "o"), vec![Some(10); 32]);
}
