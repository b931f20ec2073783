// Explicit specializations of a class template and of a function template (C++17
// [temp.expl.spec]): the specialized instance replaces the primary template for its arguments.
template <typename T>
struct Combine {
    __device__ static T apply(T a, T b) { return a + b; }
};

template <>
struct Combine<float> {
    __device__ static float apply(float a, float b) { return a > b ? a : b; }
};

template <typename T>
__device__ T scale(T x) { return x * 2; }

template <>
__device__ int scale<int>(int x) { return x * 3; }

__global__ void combine(int* ints, float* floats) {
    int t = threadIdx.x;
    ints[t] = Combine<int>::apply(t, 1) + scale(t);
    floats[t] = Combine<float>::apply(1.5f, (float)t) + scale(0.25f);
}
