// A class template only declared, then specialized (C++17 [temp.expl.spec], [temp.class.spec]):
// FlashInfer's `vec_t<T, N>` (a partial specialization for float) and the CUDA samples'
// `SharedMemory<T>` (an explicit one for float). One warp of 32.
// v.fill(lane) then v.sum() over 4 floats: 4 * lane; the warp's xor butterfly of it adds
// 4 * (0 + 1 + ... + 31) = 4 * 496 = 1984 in every lane. Shared memory through
// SharedMemory<float> holds the lanes' ids; lane L reads lane 31 - L's: out = 31 - L, plus 1984.
template <typename T, int N> struct vec_t;
template <int N> struct vec_t<float, N> {
    float data[N];
    __device__ void fill(float v) { for (int i = 0; i < N; ++i) data[i] = v; }
    __device__ float sum() const { float s = 0.f; for (int i = 0; i < N; ++i) s += data[i]; return s; }
};
template <typename T> struct SharedMemory;
template <> struct SharedMemory<float> {
    __device__ float *getPointer() { extern __shared__ float s_float[]; return s_float; }
};
__global__ void k(float *out) {
    vec_t<float, 4> v;
    v.fill((float)threadIdx.x);
    float s = v.sum();
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
    SharedMemory<float> shm;
    float *p = shm.getPointer();
    p[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s + p[31 - threadIdx.x];
}
