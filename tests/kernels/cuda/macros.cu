// Function-like macros as warp helpers use them.
#define WARP_SIZE 32
#define LANE_ID(t) ((t) % WARP_SIZE)
#define SHFL_DOWN(v, d) __shfl_down_sync(0xffffffffu, (v), (d))
#define MIN2(a, b) ((a) < (b) ? (a) : (b))

__global__ void pairMin(const int* in, int* out) {
    int lane = LANE_ID(threadIdx.x);
    int v = in[threadIdx.x];
    int other = SHFL_DOWN(v, 1);
    out[threadIdx.x] = (lane % 2 == 0) ? MIN2(v, other) : v;
}
