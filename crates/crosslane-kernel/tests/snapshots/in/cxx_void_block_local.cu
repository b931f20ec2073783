// snapshot: threads=32
// ggml's getrows shape: a template over a `dequantize_kernel_t` function pointer, whose
// `const void *` block argument is a `const void *` local copied from the kernel's parameter
// ([dcl.init]/17.6.3: the copy points where the parameter does; [expr.static.cast]/13: the
// callee's cast reads the same blocks). The kernel first writes two `block_q8_0` blocks
// through the same `void *` (blocks of 16 here, so that two fit the 32-cell buffers of a
// 32-thread run; threads 0-15 work): block ib = t / 8, pair iqs = (t % 8) * 2,
// qs[iqs] = iqs - 8, qs[iqs + 1] = iqs - 7, d = ib + 0.5; then reads them back dequantized:
// dst[2t] = (iqs - 8) * (ib + 0.5), dst[2t + 1] = (iqs - 7) * (ib + 0.5).
// t = 0: -4, -3.5; t = 7 (iqs 14): 3, 3.5; t = 8 (ib 1): -12, -10.5; t = 15: 9, 10.5.
#include <stdint.h>
#define QK8_0 16
typedef struct {
    float d;
    int8_t qs[QK8_0];
} block_q8_0;
typedef void (*dequantize_kernel_t)(const void * vx, const int64_t ib, const int iqs, float2 & v);

static __device__ void dequantize_q8_0(const void * vx, const int64_t ib, const int iqs, float2 & v) {
    const block_q8_0 * x = (const block_q8_0 *) vx;
    const float d = x[ib].d;
    v.x = x[ib].qs[iqs + 0] * d;
    v.y = x[ib].qs[iqs + 1] * d;
}

static __device__ void fill_q8_0(void * vx, const int64_t ib, const int iqs) {
    block_q8_0 * x = (block_q8_0 *) vx;
    x[ib].qs[iqs + 0] = iqs - 8;
    x[ib].qs[iqs + 1] = iqs - 7;
    if (iqs == 0) {
        x[ib].d = ib + 0.5f;
    }
}

template <int qk, dequantize_kernel_t dequantize_kernel>
static __device__ void get_row_pair(const void * src0, float * dst, int t) {
    const void * src0_row = src0;
    float2 v;
    dequantize_kernel(src0_row, t / (qk / 2), (t % (qk / 2)) * 2, v);
    dst[2 * t + 0] = v.x;
    dst[2 * t + 1] = v.y;
}

__global__ void k_get_rows(void * src0, float * dst) {
    const int t = threadIdx.x;
    if (t < QK8_0) {
        fill_q8_0(src0, t / (QK8_0 / 2), (t % (QK8_0 / 2)) * 2);
    }
    __syncthreads();
    if (t < QK8_0) {
        get_row_pair<QK8_0, dequantize_q8_0>(src0, dst, t);
    }
}
