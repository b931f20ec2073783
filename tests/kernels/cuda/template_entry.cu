// A template kernel no launch names: run it with --entry 'scaleBy<int, 3>'.
template <typename T, int K, bool kNegate = false>
__global__ void scaleBy(const T* in, T* out) {
    T v = in[threadIdx.x] * K;
    if constexpr (kNegate) {
        v = -v;
    }
    auto next = __shfl_down_sync(0xffffffff, v, 1);
    out[threadIdx.x] = next;
}
