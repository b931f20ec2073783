// Ballot compaction: __ballot_sync gives every lane the warp's votes as a bit mask; a lane's
// slot is the number of voting lanes below it (__popc of the lower bits), so the kept values
// land contiguously, in lane order, without atomics. Here: the multiples of 3.
__global__ void compactMultiplesOf3(const int* in, int* out, int* total) {
  int lane = threadIdx.x % 32;
  int x = in[threadIdx.x];
  bool keep = x % 3 == 0;
  unsigned votes = __ballot_sync(0xffffffff, keep);
  int slot = __popc(votes & ((1u << lane) - 1));
  if (keep) out[slot] = x;
  if (lane == 0) total[0] = __popc(votes);
}

int main() {
  int *in, *out, *total;
  cudaMalloc(&in, 32 * sizeof(int));
  // The input: in[i] = i, copied from the host (device memory from cudaMalloc is not cleared).
  int h[32];
  for (int i = 0; i < 32; i++) h[i] = i;
  cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMalloc(&out, 32 * sizeof(int));
  cudaMalloc(&total, sizeof(int));
  compactMultiplesOf3<<<1, 32>>>(in, out, total);
  return 0;
}
