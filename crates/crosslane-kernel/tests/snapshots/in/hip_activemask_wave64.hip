// snapshot: lanes=64
// HIP's __activemask() is __ballot(true) (ROCm amd_warp_functions.h): a 64-bit mask of the
// wavefront's active lanes. With threads 0-39 of 64 in the branch, it is 2^40 - 1 =
// 1099511627775 and __popcll of it is 40 (it was CUDA's 32-bit mask: 4294967295 and 32).
// Threads 40-63 write nothing: m and c keep their index fill there.
__global__ void k(unsigned long long *m, int *c) {
    if (threadIdx.x < 40) {
        m[threadIdx.x] = __activemask();
        c[threadIdx.x] = __popcll(__activemask());
    }
}
