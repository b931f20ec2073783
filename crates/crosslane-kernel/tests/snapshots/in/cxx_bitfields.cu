// snapshot: threads=4
// Bit-fields (C++17 [class.bit]) in the shape of a per-thread work item: a valid flag, a
// 15-bit index and a 16-bit tag in one 32-bit word, a signed 4-bit delta.
// Lane t: item{1, 32760 + t, 65530 + 3t} — idx 32760 + t fits 15 bits (< 32768), tag
// 65530 + 3t is 65530, 65533, 65536 → 0, 65539 → 3 (mod 65536).
//   item.idx += 10: (32770 + t) mod 32768 = 2 + t.
//   d.delta = 6 - 4t: 6, 2, -2, -6 all fit 4 signed bits (-8..7); d.delta -= 3: 3, -1, -5,
//   and -9 → -9 + 16 = 7 in lane 3.
//   packed[t] = valid + 10·idx + 1000·tag + 100000·delta:
//   t0: 1 + 20 + 65530000 + 300000 = 65830021
//   t1: 1 + 30 + 65533000 - 100000 = 65433031
//   t2: 1 + 40 + 0 - 500000 = -499959
//   t3: 1 + 50 + 3000 + 700000 = 703051
// sizes[t] = sizeof(WorkItem) + 100·sizeof(Delta) = 4 + 100·1 = 104 (Delta is one
// `signed char` field of 4 bits: 1 byte).
#include <cstdint>
struct WorkItem {
    unsigned valid : 1;
    unsigned idx : 15;
    unsigned tag : 16;
};
struct Delta {
    int8_t delta : 4;
};
__global__ void pack(int* packed, int* sizes) {
    const unsigned t = threadIdx.x;
    WorkItem item{1, 32760 + t, 65530 + 3 * t};
    item.idx += 10;
    Delta d;
    d.delta = 6 - 4 * (int)t;
    d.delta -= 3;
    packed[t] = item.valid + 10 * item.idx + 1000 * item.tag + 100000 * d.delta;
    sizes[t] = sizeof(WorkItem) + 100 * sizeof(Delta);
}
