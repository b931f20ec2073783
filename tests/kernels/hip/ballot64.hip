// A 64-bit ballot over the wavefront and its population count.
__global__ void evens(unsigned long long* mask, int* count) {
    unsigned long long m = __ballot(threadIdx.x % 2 == 0);
    if (threadIdx.x == 0) {
        mask[0] = m;
        count[0] = __popcll(m);
    }
}
