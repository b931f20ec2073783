// A struct with an array member filled on the host and read by the kernel through a pointer.
// struct Particle { float pos[3]; int id; }: pos at 0 (12 bytes), id at 12, size 16, alignment
// 4 ([class.mem]/17-18, the System V x86-64 psABI), so cudaMalloc(&d, n * sizeof(Particle)) of
// n = 4 is 64 bytes: 4 structs; `p.pos` holds the 12 floats of p[0].pos, p[1].pos, … in turn.
// Host code writes p[i].pos[j] = i + 0.25 j and p[i].id = 100 + i; thread i writes
// out[i] = pos[0] + pos[1] + pos[2] + id = 3 i + 0.75 + 100 + i = 4 i + 100.75:
//   out = 100.75 104.75 108.75 112.75
struct Particle {
    float pos[3];
    int id;
};
__global__ void total(const Particle* p, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = p[i].pos[0] + p[i].pos[1] + p[i].pos[2] + p[i].id;
}
int main() {
    const int n = 4;
    Particle h[n];
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < 3; ++j) h[i].pos[j] = i + 0.25f * j;
        h[i].id = 100 + i;
    }
    Particle* d;
    float* out;
    cudaMalloc(&d, n * sizeof(Particle));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemcpy(d, h, n * sizeof(Particle), cudaMemcpyHostToDevice);
    total<<<1, n>>>(d, out, n);
    return 0;
}
