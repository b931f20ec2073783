// snapshot: threads=4
// Small vector structs in FlashInfer's `vec_t<T, N>` shape: `operator[]` returning an element
// of the member array seen as `T` cells, and load/store members (an element loop, or one
// float4 copy through casts), on local arrays. By hand (t = threadIdx.x, 0..3):
//   a: vec_t<float, 4> v; v[i] = (t + i) * 2 for i = 0..3, then a[t] = v[0] + v[3] =
//      2t + 2(t + 3) = 4t + 6: 6, 10, 14, 18.
//   b: vec4_t<float, 4> (float4 data[1]): load from w = {t, t+1, t+2, t+3} by a float4 copy,
//      w2[1] += 10, stored back to w, b[t] = w[0] + w[1] + w[2] + w[3] = 4t + 6 + 10: 16, 20,
//      24, 28.
//   c: the const operator[] of a const reference: c[t] = v[2] = 2(t + 2): 4, 6, 8, 10.
template <typename T, size_t N> struct vec_t {
    T data[N];
    __device__ T& operator[](size_t i) { return ((T*)(&data))[i]; }
    __device__ const T& operator[](size_t i) const { return ((const T*)(&data))[i]; }
    __device__ void load(const T* ptr) {
        for (size_t i = 0; i < N; ++i) data[i] = ptr[i];
    }
    __device__ void store(T* ptr) const {
        for (size_t i = 0; i < N; ++i) ptr[i] = data[i];
    }
};
template <typename T, size_t N> struct vec4_t {
    float4 data[N / 4];
    __device__ T& operator[](size_t i) { return reinterpret_cast<T*>(&data)[i]; }
    __device__ void load(const T* ptr) { *((float4*)data) = *((const float4*)ptr); }
    __device__ void store(T* ptr) const { *((float4*)ptr) = *((const float4*)data); }
};
__device__ float third(const vec_t<float, 4>& v) { return v[2]; }
__global__ void k(float* a, float* b, float* c) {
    int t = threadIdx.x;
    vec_t<float, 4> v;
    for (int i = 0; i < 4; ++i) v[i] = (t + i) * 2.0f;
    a[t] = v[0] + v[3];
    float w[4];
    for (int i = 0; i < 4; ++i) w[i] = t + i;
    vec4_t<float, 4> w2;
    w2.load(w);
    w2[1] = w2[1] + 10.0f;
    w2.store(w);
    b[t] = w[0] + w[1] + w[2] + w[3];
    c[t] = third(v);
}
