// One query row of attention with online softmax (the flash-attention recurrence): head
// dimension warpSize (lane d owns q[d], k[j][d], v[j][d]); for each of 8 keys the score
// q . k_j / sqrt(D) is reduced with XOR butterflies, the running max m and sum l are updated,
// and the accumulator is rescaled by expf(m_old - m_new). out[d] = acc / l. Launch: 1 warp.
__global__ void flash_attn_row(float* out, float* lse) {
  int d = threadIdx.x;
  float scale = rsqrtf((float)warpSize);
  float q = (float)((d * 37 + 11) % 29 - 14) * 0.125f;
  float m = -INFINITY, l = 0.0f, acc = 0.0f;
  for (int j = 0; j < 8; ++j) {
    float k = (float)(((j * 64 + d) * 53 + 7) % 23 - 11) * 0.125f;
    float v = (float)((j * 5 + d * 3) % 13 - 6) * 0.25f;
    float s = q * k;
    for (int o = warpSize / 2; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
    s *= scale;
    float m_new = fmaxf(m, s);
    float corr = expf(m - m_new);
    float p = expf(s - m_new);
    l = l * corr + p;
    acc = acc * corr + p * v;
    m = m_new;
  }
  out[d] = acc / l;
  if (d == 0) lse[0] = m + logf(l);
}
