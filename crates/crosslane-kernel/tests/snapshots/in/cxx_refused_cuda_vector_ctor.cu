// CUDA's float2 is an aggregate without constructors (vector_types.h), so `float2 v(a, b)`
// does not compile under nvcc 13.0 ("too many initializer values"; HIP's float2 has a
// constructor). Refused before the run at the initializer, naming make_float2 and float2{…}.
__global__ void k(float *out) {
    float2 v(out[threadIdx.x], 0.5f);
    out[threadIdx.x] = v.x + v.y;
}
