// Non-static member function templates of a struct (the CUTLASS-style fragment shape), called
// as obj.get<N>(), obj.template get<N>(), on a const reference, with a deduced functor
// argument, and through this-> with a warp shuffle inside. Lane t fills v = {4t, 4t+1, 4t+2,
// 4t+3}, then scale<0>(3) makes v[0] = 12t, so (derived by hand):
// at2[t] = v[2] = 4t+2 (2, 6, …, 126); at0[t] = v[0] = 12t (0, 12, …, 372);
// mx[t] = max(12t, 4t+1, 4t+2, 4t+3) = 3 for lane 0, else 12t;
// xs[t] = s(t) + s(t^1) with s = v[0]+v[3] = 16t+3: for lanes 2m, 2m+1 it is
// 16(4m+1) + 6 = 64m+22 (22, 22, 86, 86, …, 982, 982).
struct MaxOp {
    __device__ float operator()(float a, float b) const { return a > b ? a : b; }
};
struct Frag {
    float v[4];
    template <int N> __device__ float get() const { return v[N]; }
    template <typename Op> __device__ float reduce(Op op) const {
        float r = v[0];
        for (int i = 1; i < 4; ++i) r = op(r, v[i]);
        return r;
    }
    template <int OFF> __device__ float xor_sum() const {
        float s = this->get<0>() + this->template get<3>();
        return s + __shfl_xor_sync(0xffffffffu, s, OFF);
    }
    template <int N> __device__ void scale(float k) { v[N] *= k; }
};
__global__ void k(float *at2, float *at0, float *mx, float *xs) {
    int t = threadIdx.x;
    Frag f;
    for (int i = 0; i < 4; ++i) f.v[i] = t * 4 + i;
    f.scale<0>(3.0f);
    const Frag &c = f;
    at2[t] = c.get<2>();
    at0[t] = c.template get<0>();
    mx[t] = f.reduce(MaxOp{});
    xs[t] = f.xor_sum<1>();
}
