// A primary function template only declared, called with arguments no explicit specialization
// covers: nvcc compiles the call and its device link fails (an unresolved extern function);
// refused at the declaration, naming the missing instance mul<int,int,int>.
template <typename Acc, typename A, typename B>
inline __device__ Acc mul(A a, B b);
template <>
inline __device__ float mul(float a, float b) { return a * b; }
__global__ void k(int *out) {
    out[threadIdx.x] = mul<int, int, int>(2, threadIdx.x);
}
