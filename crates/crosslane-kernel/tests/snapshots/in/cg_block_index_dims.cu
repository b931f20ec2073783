// thread_block's group_index(), thread_index() and dim_threads() (CUDA C++ Programming Guide,
// Cooperative Groups, "Thread Block Group": the block's 3-D index in the grid, the thread's
// 3-D index in the block, the block's dimensions in threads), i.e. blockIdx, threadIdx and
// blockDim. Two blocks of 32: o[i] = group_index().x * dim_threads().x + thread_index().x = i,
// and d[i] = dim_threads().x * 10 + group_index().y = 320 for every thread.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *o, int *d) {
    cg::thread_block b = cg::this_thread_block();
    int i = b.group_index().x * b.dim_threads().x + b.thread_index().x;
    o[i] = i;
    d[i] = b.dim_threads().x * 10 + b.group_index().y;
}
int main() {
    int *o, *d;
    cudaMalloc(&o, 64 * sizeof(int));
    cudaMalloc(&d, 64 * sizeof(int));
    k<<<2, 32>>>(o, d);
}
