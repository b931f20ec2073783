// Warp argmax with a plain-data struct: each field shuffled on its own (CUDA C++ Programming
// Guide, "Warp Shuffle Functions": __shfl_down_sync reads lane + delta, or keeps its own value
// past the warp's end), the pair combined by a device function that returns a struct, and the
// winner written to a buffer of structs.
#include <cstdio>

struct Pair {
    float v;
    int idx;
};

// The larger value wins; on a tie, the smaller index.
__device__ Pair better(Pair a, Pair b) {
    if (b.v > a.v || (b.v == a.v && b.idx < a.idx)) return b;
    return a;
}

__global__ void warp_argmax(const float* in, Pair* out) {
    int lane = threadIdx.x % 32;
    Pair p{in[threadIdx.x], (int)threadIdx.x};
    for (int offset = 16; offset > 0; offset /= 2) {
        Pair o;
        o.v = __shfl_down_sync(0xffffffff, p.v, offset);
        o.idx = __shfl_down_sync(0xffffffff, p.idx, offset);
        p = better(p, o);
    }
    if (lane == 0) out[threadIdx.x / 32] = p;
}

int main() {
    float h_in[64];
    for (int i = 0; i < 64; ++i) h_in[i] = (float)((i * 37) % 23);
    float* d_in;
    Pair* d_out;
    cudaMalloc(&d_in, sizeof(h_in));
    cudaMalloc(&d_out, 2 * sizeof(Pair));
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    warp_argmax<<<1, 64>>>(d_in, d_out);
    return 0;
}
