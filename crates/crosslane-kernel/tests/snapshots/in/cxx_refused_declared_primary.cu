// A class template only declared, with a specialization for float alone: `vec_t<int, 4>`
// matches none, so it names an incomplete type (C++17 [temp.inst]/1; nvcc: "incomplete type
// is not allowed"). Refused before the run at the use, 8:5.
template <typename T, int N> struct vec_t;
template <int N> struct vec_t<float, N> { float data[N]; };

__global__ void k(int *out) {
    vec_t<int, 4> v;
    out[threadIdx.x] = 1;
}
