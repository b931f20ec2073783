// vLLM-shaped gated activation: `act_and_mul_kernel<T, ACT_FN>` takes its activation as a
// function pointer template parameter `T (*ACT_FN)(const T&)` and is launched as
// `act_and_mul_kernel<float, silu_kernel<float>>`: out[i] = silu(x_i) * y_i for the d = 128
// values of one token, x_i = ((37 i + 11) mod 29 - 14) / 4 and y_i = (i mod 7) / 2 - 3/2,
// silu(x) = x / (1 + expf(-x)). The block's threads stride over the row. Launch: 1 warp.
template <typename T>
__device__ __forceinline__ T silu_kernel(const T& x) {
  return (T)(((float)x) / (1.0f + expf((float)-x)));
}

template <typename T, T (*ACT_FN)(const T&)>
__global__ void act_and_mul_kernel(T* __restrict__ out, const int d) {
  for (int idx = threadIdx.x; idx < d; idx += blockDim.x) {
    const T x = (T)((idx * 37 + 11) % 29 - 14) * 0.25f;
    const T y = (T)(idx % 7) * 0.5f - 1.5f;
    out[idx] = ACT_FN(x) * y;
  }
}

int main() {
  float* out;
  cudaMalloc(&out, 128 * sizeof(float));
  act_and_mul_kernel<float, silu_kernel<float>><<<1, 32>>>(out, 128);
  cudaFree(out);
}
