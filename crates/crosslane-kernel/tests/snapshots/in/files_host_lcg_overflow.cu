// A host fill by a linear congruential generator, as samples seed their inputs: in `int` the
// second step's product 1103527590 * 1103515245 is past INT_MAX (2147483647), a signed
// overflow, undefined behavior (C++17 [expr]/4), so only the cells computed from then on are
// undefined; in `unsigned` the same steps wrap modulo 2^32 ([basic.fundamental]/4). Python:
//   s, o = 1, []
//   for i in range(8): s = (s * 1103515245 + 12345) % 2**32; o.append(s % 100)
//   o == [90, 23, 84, 29, 22, 47, 0, 33]
//   (1 * 1103515245 + 12345) % 100 == 90   (the int fill's one defined cell)
// The kernel adds the two inputs: sum[0] = 90 + 90 = 180, sum[1..8] undefined (each read of
// `a[i]` names the host line of the overflow).
__global__ void add(const int* a, const unsigned* b, unsigned* sum) {
    int i = threadIdx.x;
    sum[i] = a[i] + b[i];
}
int main() {
    const int N = 8;
    int ha[N];
    unsigned hb[N];
    int s = 1;
    unsigned u = 1;
    for (int i = 0; i < N; i++) {
        s = s * 1103515245 + 12345;
        ha[i] = s % 100;
    }
    for (int i = 0; i < N; i++) {
        u = u * 1103515245 + 12345;
        hb[i] = u % 100;
    }
    int* a;
    unsigned *b, *sum;
    cudaMalloc(&a, sizeof(ha));
    cudaMalloc(&b, N * sizeof(hb[0]));
    cudaMalloc(&sum, N * sizeof(*sum));
    cudaMemcpy(a, ha, sizeof(ha), cudaMemcpyHostToDevice);
    cudaMemcpy(b, hb, sizeof(hb), cudaMemcpyHostToDevice);
    add<<<1, N>>>(a, b, sum);
    return 0;
}
