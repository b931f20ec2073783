// A FlashInfer-shaped small vector: `operator[]` over the member array seen as `T` cells, and
// load/store members that copy one float4 (vec_t) or loop over N (vec_loop), on global memory.
// Each thread scales one row of 4: out[4t + i] = 2 in[4t + i] + i; first[t] = in[4t] + in[4t + 3].
template <typename T, size_t N> struct vec_t {
    float4 data[N / 4];
    __device__ T& operator[](size_t i) { return reinterpret_cast<T*>(&data)[i]; }
    __device__ void load(const T* ptr) { *((float4*)data) = *((const float4*)ptr); }
    __device__ void store(T* ptr) const { *((float4*)ptr) = *((const float4*)data); }
};
template <typename T, size_t N> struct vec_loop {
    T data[N];
    __device__ T& operator[](size_t i) { return ((T*)(&data))[i]; }
    __device__ void load(const T* ptr) {
#pragma unroll
        for (size_t i = 0; i < N; ++i) data[i] = ptr[i];
    }
};
__global__ void scale_rows(const float* in, float* out, float* first) {
    int t = threadIdx.x;
    vec_t<float, 4> v;
    v.load(in + 4 * t);
#pragma unroll
    for (int i = 0; i < 4; ++i) v[i] = v[i] * 2.0f + (float)i;
    v.store(out + 4 * t);
    vec_loop<float, 4> w;
    w.load(in + 4 * t);
    first[t] = w[0] + w[3];
}
