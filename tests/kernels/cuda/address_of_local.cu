// `&x` of a local passed to a `T*` parameter: helpers that return a second result through a
// pointer, as reductions returning (value, index) pairs write them.
__device__ void add_and_count(int* acc, int* count, int v) {
    *acc += v;
    count[0] = count[0] + 1;
}

__global__ void accumulate(int* out) {
    int acc = 0;
    int count = 0;
    for (int i = 0; i <= (int)threadIdx.x % 4; i++) {
        add_and_count(&acc, &count, i + 1);
    }
    out[threadIdx.x] = acc * 100 + count;
}
