// snapshot: lanes=64
// HIP's __match_any_sync / __match_all_sync on a 64-lane wavefront (ROCm
// amd_warp_sync_functions.h: __match_any_sync(m, v) = __match_any(v) & m, the executing lanes
// holding the caller's value; __match_all_sync(m, v, pred) = m with *pred = 1 when every lane
// calling with mask m holds the same value, else 0 with *pred = 0). One wave of 64 lanes.
// - any: value t / 16, so lane t matches the 16 lanes of its quarter: 0xFFFF << (16 * q):
//   q = 0: 65535; 1: 4294901760; 2: 281470681743360; 3: 18446462598732840960.
// - all: lanes 0-31 call with mask 0x00000000FFFFFFFF and value 9 (all equal): result
//   4294967295, pred 1; lanes 32-63 call with mask 0xFFFFFFFF00000000 and value t % 2 (two
//   values): result 0, pred 0. Before this, both calls were refused on wave64, and pred was
//   never written on wave32.
__global__ void k(unsigned long long *any, unsigned long long *all, int *pr) {
    int t = threadIdx.x;
    any[t] = __match_any_sync(~0ull, t / 16);
    unsigned long long m = t < 32 ? 0x00000000FFFFFFFFull : 0xFFFFFFFF00000000ull;
    int v = t < 32 ? 9 : t % 2;
    int p = 7;
    all[t] = __match_all_sync(m, v, &p);
    pr[t] = p;
}
