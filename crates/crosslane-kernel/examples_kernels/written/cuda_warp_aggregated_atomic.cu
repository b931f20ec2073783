// Warp-aggregated atomic: the threads that keep a value elect a leader (lowest set bit of
// __activemask()), the leader makes one atomicAdd for the whole group, __shfl_sync hands the
// base to the group, and each thread's rank among the lower lanes gives its own slot.
__global__ void keepOdd(const int* in, int* out, int* count) {
  int lane = threadIdx.x % 32;
  int x = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (x % 2 == 1) {
    unsigned group = __activemask();
    int leader = __ffs(group) - 1;
    int base = 0;
    if (lane == leader) base = atomicAdd(count, __popc(group));
    base = __shfl_sync(group, base, leader);
    int rank = __popc(group & ((1u << lane) - 1));
    out[base + rank] = x;
  }
}

int main() {
  int *in, *out, *count;
  cudaMalloc(&in, 32 * sizeof(int));
  // The input: in[i] = i, copied from the host (device memory from cudaMalloc is not cleared).
  int h[32];
  for (int i = 0; i < 32; i++) h[i] = i;
  cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMalloc(&out, 32 * sizeof(int));
  cudaMalloc(&count, sizeof(int));
  cudaMemset(count, 0, sizeof(int));
  keepOdd<<<1, 32>>>(in, out, count);
  return 0;
}
