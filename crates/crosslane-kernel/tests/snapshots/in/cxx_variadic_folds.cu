// Variadic templates: packs deduced per argument, sizeof..., pack expansion in calls
// (g(xs)...), unary and binary folds, and recursion ended by if constexpr.
// a: (0 + ... + wsum(xs)) with xs = (lane, 1): 496 (0+…+31) + 32 = 528 in every lane.
// b: left fold (... - xs) of (100, lane, 1) = (100 - lane) - 1 = 99 - lane, times 1000, plus
//    right fold (xs - ...) = 100 - (lane - 1) = 101 - lane: 99101 - 1001 * lane.
// c: sizeof...(xs) of three = 3, plus first_plus(lane, 10, 100) = lane + 110: lane + 113.
// d: ((xs > 0) && ...) of (lane, 1) is lane > 0; of nothing it is true: 1 (lane 0), else 2.
template <typename T> __device__ T wsum(T v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}
template <typename... Ts> __device__ int sum_all(Ts... xs) { return (0 + ... + wsum(xs)); }
template <typename... Ts> __device__ int sub_left(Ts... xs) { return (... - xs); }
template <typename... Ts> __device__ int sub_right(Ts... xs) { return (xs - ...); }
template <typename... Ts> __device__ int n_of(Ts... xs) { return sizeof...(xs); }
template <typename T, typename... Rest> __device__ T first_plus(T a, Rest... r) {
    if constexpr (sizeof...(Rest) > 0) {
        return a + first_plus(r...);
    } else {
        return a;
    }
}
template <typename... Ts> __device__ int all_pos(Ts... xs) { return ((xs > 0) && ...); }

__global__ void k(int *a, int *b, int *c, int *d) {
    int i = threadIdx.x;
    a[i] = sum_all(i, 1);
    b[i] = sub_left(100, i, 1) * 1000 + sub_right(100, i, 1);
    c[i] = n_of(i, i, i) + first_plus(i, 10, 100);
    d[i] = all_pos(i, 1) + all_pos();
}
