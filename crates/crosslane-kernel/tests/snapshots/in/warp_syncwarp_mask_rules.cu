// snapshot: threads=32
// `__syncwarp(mask)` (CUDA C++ Programming Guide, Synchronization Functions): each calling
// thread must have its own bit in the mask, and all NON-EXITED threads named in the mask must
// execute a corresponding `__syncwarp` with the same mask, else the result is undefined.
// Lanes 24-31 return first. Line 13: lanes 0-23 call with the full mask; lanes 24-31 are named
// but have exited, which the rule allows: a note (lanes 24-31), no warning. Line 15: lanes
// 0-3 call `__syncwarp(0xf0)`, which does not name them: a warning for lanes 0-3.
// out[t] = t + 1 for t < 24 (every running lane writes); cells 24-31 keep their launch values.
__global__ void k(int *out) {
    int t = threadIdx.x;
    if (t >= 24) return;
    int v = t + 1;
    __syncwarp(0xffffffff);
    if (t < 4) {
        __syncwarp(0xf0);
    }
    out[t] = v;
}
