// snapshot: threads=8
// A float maximum through integer atomics on the float cell's bits, in the two shapes
// inference kernels use. Each atomic acts on the cell's four bytes read as the pointer's
// type (`int`, `unsigned int`), and stores its result as those bytes.
// (1) The sign split (the shape of vLLM's quantization scale pass): for v >= 0, atomicMax on
//     the bits as `int` (non-negative floats order as their bits do, as signed integers);
//     for v < 0, atomicMin on the bits as `unsigned int` (a negative float's bits, unsigned,
//     grow with its magnitude, and every non-negative float's bits are below 0x80000000).
// (2) The atomicCAS loop over `(int*)` with fmaxf (CUDA C++ Programming Guide, Atomic
//     Functions: any atomic operation can be built on atomicCAS). This file used to end
//     with an error at that atomicCAS, when a reinterpreting atomic was not modelled.
//
// Lane t offers v = 0.75*t - 3: -3, -2.25, -1.5, -0.75, 0, 0.75, 1.5, 2.25 (all exact).
// Bits (Python struct.pack('<f', v)): -8 0xC1000000, -3 0xC0400000, -2.25 0xC0100000,
// -1.5 0xBFC00000, -0.75 0xBF400000, 0 0x00000000, 0.75 0x3F400000, 1.5 0x3FC00000,
// 2.25 0x40100000.
// m has the index fill (m[i] = i); lane 0 first stores m[1] = m[2] = -8.
// m[0] (0 at first), every v by the split: max(0, v...) = 2.25.
// m[1] (-8), the negative v only (lanes 0-3) by atomicMin on the unsigned bits: the least of
//   0xC1000000 0xC0400000 0xC0100000 0xBFC00000 0xBF400000 is 0xBF400000 = -0.75.
// m[2] (-8), every v by the CAS loop: 2.25. m[3..7] keep 3..7.
// Then lane 0 alone (after a barrier, so the values are those above whatever order the
// hardware applied the lanes in) checks what each form returns, the old value:
// r[0] = split(&m[0], 1.0): 1.0 (0x3F800000) < 2.25 as int: returns 2.25, m[0] kept;
// r[1] = split(&m[1], -0.5): -0.5 is 0xBF000000, below 0xBF400000 unsigned: returns -0.75
//   and m[1] becomes -0.5;
// r[2] = cas(&m[2], 4.0): fmaxf(4, 2.25) = 4: returns 2.25, m[2] becomes 4.
// Final m = 2.25 -0.5 4 3 4 5 6 7; r = 2.25 -0.75 2.25 3 4 5 6 7 (r[3..7] the index fill).
__device__ __forceinline__ float max_by_bits(float* addr, float v) {
    return v >= 0.0f
        ? __int_as_float(atomicMax(reinterpret_cast<int*>(addr), __float_as_int(v)))
        : __uint_as_float(atomicMin(reinterpret_cast<unsigned int*>(addr), __float_as_uint(v)));
}
__device__ float max_by_cas(float *address, float val) {
    int *address_as_i = (int *)address;
    int old = *address_as_i, assumed;
    do {
        assumed = old;
        old = atomicCAS(address_as_i, assumed, __float_as_int(fmaxf(val, __int_as_float(assumed))));
    } while (assumed != old);
    return __int_as_float(old);
}
__global__ void k(float *m, float *r) {
    if (threadIdx.x == 0) {
        m[1] = -8.0f;
        m[2] = -8.0f;
    }
    __syncthreads();
    float v = threadIdx.x * 0.75f - 3.0f;
    max_by_bits(&m[0], v);
    if (v < 0.0f) max_by_bits(&m[1], v);
    max_by_cas(&m[2], v);
    __syncthreads();
    if (threadIdx.x == 0) {
        r[0] = max_by_bits(&m[0], 1.0f);
        r[1] = max_by_bits(&m[1], -0.5f);
        r[2] = max_by_cas(&m[2], 4.0f);
    }
}
