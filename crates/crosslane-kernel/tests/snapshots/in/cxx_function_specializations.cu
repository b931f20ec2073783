// Function template explicit specializations (C++17 [temp.expl.spec]) of primaries that are
// only declared, as vLLM's and Megatron's dtype headers write them: the arguments after the
// name, or deduced from the specialization's signature, return type included
// ([temp.deduct.decl]/1). A call reaches the specialization its arguments name; `twice` is
// declared before the kernel and defined after it. Lane t (0..31):
//   a = mul<float,float,float>(2, t)                         = 2t
//   b = sum(mul<float2,float,float2>(3, (t, 10)))             = 3t + 30
//   c = sum(mul<float2,float2,float2>((t, 1), (2, 3)))        = 2t + 3
//   d = twice(t) + sum(t)                                     = 3t
template <typename Acc, typename A, typename B>
inline __device__ Acc mul(A a, B b);
template <typename T>
inline __device__ float sum(T v);
template <typename T>
__device__ T twice(T v);

template <>
inline __device__ float mul<float, float, float>(float a, float b) { return a * b; }
template <>
inline __device__ float2 mul(float a, float2 b) { return make_float2(a * b.x, a * b.y); }
template <>
inline __device__ float2 mul(float2 a, float2 b) { return make_float2(a.x * b.x, a.y * b.y); }
template <>
inline __device__ float sum(float v) { return v; }
template <>
inline __device__ float sum(float2 v) { return v.x + v.y; }

__global__ void k(float *a, float *b, float *c, float *d) {
    float t = threadIdx.x;
    a[threadIdx.x] = mul<float, float, float>(2.0f, t);
    b[threadIdx.x] = sum(mul<float2, float, float2>(3.0f, make_float2(t, 10.0f)));
    c[threadIdx.x] = sum(mul<float2, float2, float2>(make_float2(t, 1.0f), make_float2(2.0f, 3.0f)));
    d[threadIdx.x] = twice(t) + sum(t);
}

template <typename T>
__device__ T twice(T v) { return v + v; }
