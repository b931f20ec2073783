// A coalesced group made in a divergent branch (CUDA C++ Programming Guide, Cooperative
// Groups, coalesced_group): the members are the lanes active there, here the odd lanes
// 1, 3, …, 31 (16 members); lane 2k+1 has rank k. shfl(v, 15) reads rank 15 = lane 31, so
// first = 310 in every member; shfl_down(t, 1) reads the member one rank above (lane t + 2),
// and rank 15 (lane 31) has none and keeps its own: down = t + 2 for lanes 1..29, 31 for lane
// 31. ballot(t % 4 == 1) is by rank: lanes 1, 5, 9, … are ranks 0, 2, 4, …, so bits 0, 2, …, 14
// = 0x5555 = 21845. Even lanes keep their index fill.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *rank, int *first, int *down, unsigned *votes) {
    int t = threadIdx.x;
    if (t & 1) {
        cg::coalesced_group odd = cg::coalesced_threads();
        rank[t] = odd.thread_rank();
        first[t] = odd.shfl(t * 10, 15);
        down[t] = odd.shfl_down(t, 1);
        votes[t] = odd.ballot(t % 4 == 1);
    }
}
