// Host arrays initialized by a brace list shorter than the array: the elements past the list
// are value-initialized, i.e. zero (C++17 [dcl.init.aggr]/5.2, [dcl.init]/8). So
// `int ha[8] = {};` is 0 0 0 0 0 0 0 0, `bool hb[8] = {};` is all false and `int hc[8] = {5, 6};`
// is 5 6 0 0 0 0 0 0. The kernel adds the thread index: a = t, b = !b (all true), c = hc + t,
// i.e. c = 5 7 2 3 4 5 6 7.
__global__ void k(int* a, bool* b, int* c) {
    int t = threadIdx.x;
    a[t] += t;
    b[t] = !b[t];
    c[t] += t;
}
int main() {
    int ha[8] = {};
    bool hb[8] = {};
    int hc[8] = {5, 6};
    int *a, *c;
    bool* b;
    cudaMalloc(&a, 8 * sizeof(int));
    cudaMalloc(&b, 8 * sizeof(bool));
    cudaMalloc(&c, 8 * sizeof(int));
    cudaMemcpy(a, ha, 8 * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(b, hb, 8 * sizeof(bool), cudaMemcpyHostToDevice);
    cudaMemcpy(c, hc, 8 * sizeof(int), cudaMemcpyHostToDevice);
    k<<<1, 8>>>(a, b, c);
}
