// A header of the user's own (`#include "…"`) is not read: crosslane reads one file. A name it
// would declare (`warp_sum`) is unknown, and the error says which include was not read and what
// to do, before the run (the outcome is an error at line 6, column 12).
#include "common/reduce.cuh"
__global__ void k(float *o) {
    o[0] = warp_sum(o[threadIdx.x]);
}
