// memcpy/memset in device code (C17 7.24.2.1 and 7.24.6.1 via C++17 [cstring.syn]; CUDA C++
// Programming Guide, "Dynamic Global Memory Allocation and Operations"): bytes copied, read as
// the destination's type (GCC/Clang/nvcc define that read; [basic.types]/2–3). `q` holds the
// bytes 0, 1, 2, … (the index fill of a `uint8_t` buffer). Lane L (0..31):
//   scale[L] = ggml's e8m0 shape: bits = x << 23 with x = L + 120, memcpy'd into a float: the
//              binary32 2^(x − 127) = 2^(L − 7). L = 0: 2^-7 = 0.0078125, L = 7: 1, L = 8: 2.
//   word[L]  = 4 bytes of q from byte 4·(L mod 4), little-endian: for m = 4·(L mod 4) it is
//              m + (m+1)·2^8 + (m+2)·2^16 + (m+3)·2^24: L mod 4 = 0 → 0x03020100 = 50462976,
//              1 → 0x07060504 = 117835012, 2 → 0x0b0a0908 = 185207048, 3 → 0x0f0e0d0c =
//              252579084.
//   blk[L]   = `struct Blk { uint16_t d; uint8_t q[2]; }` (4 bytes: d at 0, q at 2, [class.mem]
//              with [basic.align]) from q's first 4 bytes: d = 0x0100 = 256, q = {2, 3};
//              1000·d + 10·q[0] + q[1] = 256023.
//   clear[L] = memset(&z, 0, sizeof(z)) then z.d + z.q[0] + z.q[1], plus a struct copied whole
//              by memcpy from blk (w.q[1] = 3): 0 + 3 = 3.
//   partial[L] = memcpy of the 2 bytes of `bits16` (a uint16_t, 0xbf80) into `&hi[1]` of
//              `uint16_t hi[2]` with hi[0] = 0, then the 4 bytes of hi read as a float:
//              little-endian hi = {0x0000, 0xbf80} is 0xbf800000 = -1.0.
#include <cstdint>

struct Blk {
    uint16_t d;
    uint8_t q[2];
};

__device__ float e8m0_to_fp32(uint8_t x) {
    uint32_t bits = (uint32_t)x << 23;
    float result;
    memcpy(&result, &bits, sizeof(float));
    return result;
}

__global__ void k(const uint8_t* q, float* scale, unsigned* word, int* blk, int* clear,
                  float* partial) {
    int L = threadIdx.x;
    scale[L] = e8m0_to_fp32(L + 120);
    uint32_t aux;
    memcpy(&aux, q + 4 * (L % 4), sizeof(aux));
    word[L] = aux;
    Blk b;
    memcpy(&b, q, sizeof(b));
    blk[L] = 1000 * b.d + 10 * b.q[0] + b.q[1];
    Blk z;
    memset(&z, 0, sizeof(z));
    Blk w;
    memcpy(&w, &b, sizeof(Blk));
    clear[L] = z.d + z.q[0] + z.q[1] + w.q[1];
    uint16_t bits16 = 0xbf80;
    uint16_t hi[2];
    hi[0] = 0;
    memcpy(&hi[1], &bits16, 2);
    float f;
    memcpy(&f, hi, 4);
    partial[L] = f;
}
