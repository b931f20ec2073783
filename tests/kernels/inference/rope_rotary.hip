// HIP form of rope_rotary.cu (the same kernel with HIP's shuffles without a mask; warpSize is 64 on wave64 and 32 on wave32).
// Rotary position embedding (GPT-NeoX layout): one warp per position pos = 1 + warp, head
// dimension 2 * warpSize; lane i rotates the pair (x[i], x[i + warpSize]) by the angle
// pos * 10000^(-i / warpSize), with powf, cosf and sinf. Launch: 2 warps.
__global__ void rope_rotary(float* out) {
  int i = threadIdx.x % warpSize;
  int pos = 1 + threadIdx.x / warpSize;
  int rot = warpSize;
  int base = (pos - 1) * 2 * rot;
  float x0 = (float)(((base + i) * 37 + 11) % 29 - 14) * 0.125f;
  float x1 = (float)(((base + i + rot) * 37 + 11) % 29 - 14) * 0.125f;
  float inv_freq = powf(10000.0f, -(float)i / (float)rot);
  float theta = (float)pos * inv_freq;
  float c = cosf(theta), s = sinf(theta);
  out[base + i] = x0 * c - x1 * s;
  out[base + i + rot] = x0 * s + x1 * c;
}
