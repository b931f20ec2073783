// A `const float *` passed where the callee's `const void *` parameter is read as a
// `block_q8_0 *` (its body casts it): the callee takes one buffer per member of the block in
// its place, so the argument is refused at line 19, column 25, naming the parameter and what to
// pass, rather than with the count of those buffers (before: "`first_q8_0` takes 3
// argument(s), got 2": `d`, `qs`, `ib`).
#include <stdint.h>
#define QK8_0 32
typedef struct {
    float d;
    int8_t qs[QK8_0];
} block_q8_0;

static __device__ float first_q8_0(const void * vx, const int64_t ib) {
    const block_q8_0 * x = (const block_q8_0 *) vx;
    return x[ib].qs[0] * x[ib].d;
}

__global__ void k(const float * f, float * dst) {
    dst[0] = first_q8_0(f, 0);
}
