// GELU with the tanh approximation, elementwise over 2 * warpSize values (2 per lane), as
// activation kernels write it: 0.5 x (1 + tanhf(sqrt(2 / pi) (x + 0.044715 x^3))).
// Launch: 1 warp.
__global__ void gelu_tanh(float* out) {
  int lane = threadIdx.x;
  const float kBeta = 0.7978845608f;
  const float kKappa = 0.044715f;
  for (int k = lane; k < 2 * warpSize; k += warpSize) {
    float x = (float)((k * 37 + 11) % 29 - 14) * 0.25f;
    float inner = kBeta * (x + kKappa * x * x * x);
    out[k] = 0.5f * x * (1.0f + tanhf(inner));
  }
}
