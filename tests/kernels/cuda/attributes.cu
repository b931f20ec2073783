// Attributes where real kernels put them: on a struct, a declaration, a statement.
struct __align__(8) Pair {
    int value;
    int index;
};

__global__ void __launch_bounds__(64) pick(int* out) {
    alignas(16) int lane = threadIdx.x;
    [[maybe_unused]] int unused = 0;
    Pair p;
    p.value = lane * 2;
    p.index = lane;
    if (lane >= 16) [[unlikely]] {
        out[lane] = p.value;
    } else {
        out[lane] = p.index;
    }
}
