// snapshot: define=WIDTH=8 define=EXTRA undefine=EXTRA
// --define WIDTH=8 and --define EXTRA then --undefine EXTRA: the width is 8 and EXTRA is not
// defined. __shfl_xor_sync(…, lane, 1, 8) swaps neighbours: lane i reads lane i ^ 1.
// Expected: out[lane] = lane ^ 1 (1, 0, 3, 2, …, 31, 30).
__global__ void k(int *out) {
    int lane = threadIdx.x;
#ifdef EXTRA
    lane = 1000;
#endif
    out[lane] = __shfl_xor_sync(0xffffffff, lane, 1, WIDTH);
}
