// Unified memory sized by its element, `cudaMallocManaged(&x, N * sizeof(x[0]))` and
// `sizeof(*y) * N` ([expr.sizeof]/1: the operand's type, `float`, is 4 bytes; the operand is
// not evaluated), filled by a host loop and read back after cudaDeviceSynchronize() (CUDA C++
// Programming Guide, "Unified Memory Programming": one pointer on host and device). A 2-D
// literal list `float w[2][4]` gives the weights in row-major order ([dcl.array]/9), and the
// hexadecimal 0x80000000 is `unsigned int` ([lex.icon] table 7), so 0x80000000 >> 29 is 4.
// y[i] = x[i] * w[0][i % 4] + w[1][i % 4] with x[i] = 0.5 i:
//   i:   0    1    2    3    4    5    6    7
//   x:   0   0.5   1   1.5   2   2.5   3   3.5
//   w0:  1    2    3    4    1    2    3    4
//   w1: 10   20   30   40   10   20   30   40
//   y:  10   21   33   46   12   25   39   54
__global__ void axpb(const float* x, const float* w, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * w[i % 4] + w[4 + i % 4];
}
int main() {
    const int N = 8;
    float *x, *y, *dw;
    float w[2][4] = {{1, 2, 3, 4}, {10, 20, 30, 40}};
    cudaMallocManaged(&x, N * sizeof(x[0]));
    cudaMallocManaged(&y, sizeof(*y) * N);
    for (int i = 0; i < N; i++) x[i] = 0.5f * i;
    cudaMalloc(&dw, sizeof(w));
    cudaMemcpy(dw, w, sizeof(w), cudaMemcpyHostToDevice);
    axpb<<<N / (0x80000000 >> 29), 0x80000000 >> 29>>>(x, dw, y, N);
    cudaDeviceSynchronize();
    float total = 0;
    for (int i = 0; i < N; i++) total += y[i];
    cudaFree(x);
    cudaFree(y);
    cudaFree(dw);
    return 0;
}
