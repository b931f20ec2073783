// File-scope constants: constexpr and const with a constant value.
constexpr int kGroup = 4;
static const int kBias = 100;
__global__ void groupLeader(int* out) {
    int lane = threadIdx.x % 32;
    int leader = __shfl_sync(0xffffffff, lane + kBias, (lane / kGroup) * kGroup, 32);
    out[threadIdx.x] = leader;
}
