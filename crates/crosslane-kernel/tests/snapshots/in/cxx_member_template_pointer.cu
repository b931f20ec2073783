// Member function templates called through a struct pointer parameter: `(p + t)->pick<1>()`,
// `p[t].template pick<0>()`, and `p[t].sum(2)` with `T` deduced as `int` from the literal.
// The harness fills each leaf buffer with its index (p.a[i] = p.b[i] = i), so (by hand):
// out[t] = p[t].b + p[t].a = 2t (0, 2, …, 62); o2[t] = int(a + b) * 2 = 4t (0, 4, …, 124).
// A member template of a class template sees the class's parameter: Tile<2> with v = {t, 1}
// gives o3[t] = v[0] * 2 + v[1] * 2 = 2t + 2 (2, 4, …, 64).
struct P2 {
    float a, b;
    template <int N> __device__ float pick() const { return N == 0 ? a : b; }
    template <typename T> __device__ T sum(T k) const { return (T)(a + b) * k; }
};
template <int M> struct Tile {
    float v[M];
    template <int N> __device__ float at() const { return v[N] * M; }
};
__global__ void k(P2 *p, float *out, int *o2, float *o3) {
    int t = threadIdx.x;
    out[t] = (p + t)->pick<1>() + p[t].template pick<0>();
    o2[t] = p[t].sum(2);
    Tile<2> tile;
    tile.v[0] = t;
    tile.v[1] = 1.0f;
    o3[t] = tile.at<0>() + tile.template at<1>();
}
