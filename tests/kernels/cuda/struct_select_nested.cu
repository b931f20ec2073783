// Nested structs, aggregate initialization, whole-struct copies and `?:` between structs, a
// function returning a struct with `return {…};`, and a lambda returning a struct (`-> Best`)
// passed to a warp reduction: the per-warp minimum with the lane that holds it, every lane
// reading its partner through __shfl_xor_sync (CUDA C++ Programming Guide, "Warp Shuffle
// Functions").

struct Where {
    int lane;
    int warp;
};

struct Best {
    float v;
    Where at;
};

__device__ Best make_best(float v, int lane) {
    return {v, {lane, (int)(threadIdx.x / 32)}};
}

template <typename F>
__device__ Best reduce_best(Best b, F better) {
    for (int mask = 16; mask > 0; mask >>= 1) {
        Best o = {__shfl_xor_sync(0xffffffff, b.v, mask),
                  {__shfl_xor_sync(0xffffffff, b.at.lane, mask), b.at.warp}};
        b = better(b, o);
    }
    return b;
}

__global__ void warp_min(const float* in, float* vals, int* lanes, int* warps) {
    Best mine = make_best(in[threadIdx.x], threadIdx.x % 32);
    auto smaller = [](Best a, Best b) -> Best {
        return (b.v < a.v || (b.v == a.v && b.at.lane < a.at.lane)) ? b : a;
    };
    Best b = reduce_best(mine, smaller);
    Best copy = b;
    copy.at.warp += 10;
    vals[threadIdx.x] = copy.v;
    lanes[threadIdx.x] = copy.at.lane;
    warps[threadIdx.x] = copy.at.warp;
}
