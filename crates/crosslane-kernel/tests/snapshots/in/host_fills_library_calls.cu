// Host code fills its arrays by library calls, then copies them to the device: each is read as
// the buffer's fill (C++17 [numeric.iota]: iota writes 3, 4, 5, …; [alg.fill]: fill_n writes N
// copies; C11 7.24.6.1: memset to 0 zeroes every byte). The kernel adds 10 to each cell: a =
// 13, 14, …, 20; b = 12 in all 8 cells; c = 10 in all 8. d's host loop calls rand(): not read,
// so a warning names `d` and its cells are undefined (never the index fill): d[t] += 10 reads
// undefined cells, said, and d stays undefined.
#define N 8
__global__ void add10(int *a, int *b, int *c, float *d) {
    int t = threadIdx.x;
    a[t] += 10; b[t] += 10; c[t] += 10; d[t] += 10.0f;
}
int main() {
    int ha[N]; int hb[N]; int hc[N]; float hd[N];
    std::iota(ha, ha + N, 3);
    std::fill_n(hb, N, 2);
    memset(hc, 0, sizeof(hc));
    for (int i = 0; i < N; i++) hd[i] = (float)rand();
    int *a, *b, *c; float *d;
    cudaMalloc(&a, N * sizeof(int)); cudaMalloc(&b, N * sizeof(int));
    cudaMalloc(&c, N * sizeof(int)); cudaMalloc(&d, N * sizeof(float));
    cudaMemcpy(a, ha, N * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(b, hb, N * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(c, hc, N * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d, hd, N * sizeof(float), cudaMemcpyHostToDevice);
    add10<<<1, N>>>(a, b, c, d);
    return 0;
}
