// labeled_partition(tile, label) (CUDA C++ Programming Guide, Cooperative Groups): within each
// tile of 8 lanes, the lanes with the same label (t % 2) form a coalesced group of 4, ranked in
// lane order. out = size * 100 + rank * 10 + the label group's shfl(t, 0) % 10, i.e. for lane
// t: 400 + (t % 8 / 2) * 10 + (first lane of its label in its tile) % 10. Lane 0: 400; lane 1:
// 401; lane 2: 410; lane 3: 411; lane 9: 400 + 0 + 9 = 409; lane 13: 400 + 20 + 9 = 429.
namespace cg = cooperative_groups;
__global__ void k(int *out) {
    int t = threadIdx.x;
    auto tile = cg::tiled_partition<8>(cg::this_thread_block());
    auto same = cg::labeled_partition(tile, t % 2);
    out[t] = same.size() * 100 + same.thread_rank() * 10 + same.shfl(t, 0) % 10;
}
