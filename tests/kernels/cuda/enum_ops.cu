// A warp all-reduce whose operator is an `enum class` value (an if chain picks it), and a plain
// enum for the lane roles: enumerators are integer constants, scoped ones named `Op::Max`.
enum class Op : int { Sum, Max, Min = 7 };
enum Role { LEADER, FOLLOWER = 4, OBSERVER };

__device__ int combine(int a, int b, Op op) {
    if (op == Op::Sum) return a + b;
    if (op == Op::Max) return a > b ? a : b;
    return a < b ? a : b;
}

__device__ int warp_all_reduce(int v, Op op) {
    for (int m = 16; m > 0; m >>= 1) {
        v = combine(v, __shfl_xor_sync(0xffffffff, v, m), op);
    }
    return v;
}

__global__ void reduceThree(const int* in, int* sum, int* mx, int* mn, int* role) {
    int lane = threadIdx.x % 32;
    int v = in[threadIdx.x];
    sum[threadIdx.x] = warp_all_reduce(v, Op::Sum);
    mx[threadIdx.x] = warp_all_reduce(v, Op::Max);
    mn[threadIdx.x] = warp_all_reduce(v, Op::Min);
    Role r = lane == 0 ? LEADER : (lane < 16 ? FOLLOWER : OBSERVER);
    role[threadIdx.x] = r + (int)Op::Min;
}
