// Three launches of one kernel template, each instance with another activation, all reading
// `in` (16 floats, `cudaMalloc(&in, sizeof(h))`) and writing `out`. Every launch runs in order
// (docs/kernels.md, "Launches run in order"); the first is traced, the later two run after it
// on the same buffers, and a later instance's `in` is the whole 16-cell allocation (two blocks of
// 4 threads would be 8 cells by the one-cell-per-thread default). The last launch decides `out`:
// out[b*4 + i] = -x * y with x = in[b*8 + i], y = in[b*8 + 4 + i], in[k] = k + 1:
//   block 0: x = 1..4, y = 5..8   -> -5 -12 -21 -32
//   block 1: x = 9..12, y = 13..16 -> -117 -140 -165 -192
template <typename T> struct Same { __device__ T operator()(T v) const { return v; } };
template <typename T> struct Twice { __device__ T operator()(T v) const { return 2 * v; } };
template <typename T> struct Neg { __device__ T operator()(T v) const { return -v; } };
template <typename T, typename Act>
__global__ void act_mul(T* out, const T* in, int d) {
    int b = blockIdx.x;
    for (int i = threadIdx.x; i < d; i += blockDim.x) {
        out[b * d + i] = Act()(in[b * 2 * d + i]) * in[b * 2 * d + d + i];
    }
}
int main() {
    float h[16];
    for (int k = 0; k < 16; k++) h[k] = k + 1;
    float *in, *out;
    cudaMalloc(&in, sizeof(h));
    cudaMalloc(&out, 8 * sizeof(float));
    cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice);
    act_mul<float, Same<float>><<<2, 4>>>(out, in, 4);
    act_mul<float, Twice<float>><<<2, 4>>>(out, in, 4);
    act_mul<float, Neg<float>><<<2, 4>>>(out, in, 4);
}
