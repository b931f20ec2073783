// snapshot: threads=4
// Structured bindings (C++17 [dcl.struct.bind]): a struct returned by a device function, a
// CUDA vector's components (`float2` is `struct { float x; float y; }` in `vector_types.h`),
// and `auto&` naming a struct variable's members.
// `in` holds the index fill, in[i] = i. Lane t reads x[i] = in[(t + i) % 4], so the largest,
// 3, is at i = (3 - t) mod 4: idx = 3, 2, 1, 0 and val = 3 in lanes 0..3.
// g = (val, 2·idx), so gx + gy = 3 + 2·idx; `mi = idx` writes m.idx through the binding.
// out[t] = 3 + 2·idx + 10·idx = 3 + 12·idx: 39 27 15 3; where[t] = idx: 3 2 1 0.
struct MaxLoc {
    float val;
    int idx;
};
__device__ MaxLoc argmax4(const float* x) {
    MaxLoc m{x[0], 0};
    for (int i = 1; i < 4; ++i) {
        if (x[i] > m.val) {
            m.val = x[i];
            m.idx = i;
        }
    }
    return m;
}
__global__ void locate(const float* in, float* out, int* where) {
    float x[4];
    for (int i = 0; i < 4; ++i) x[i] = in[(threadIdx.x + i) % 4];
    auto [val, idx] = argmax4(x);
    float2 g = make_float2(val, 2.0f * idx);
    auto [gx, gy] = g;
    MaxLoc m{1.0f, 7};
    auto& [mv, mi] = m;
    mi = idx;
    out[threadIdx.x] = gx + gy + 10 * m.idx;
    where[threadIdx.x] = idx;
}
