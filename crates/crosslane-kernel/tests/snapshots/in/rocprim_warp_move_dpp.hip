// snapshot: arch=gfx942 lanes=64 threads=64
// A wave reduction in the shape AMD libraries write with rocPRIM's shuffles, the header not
// read: rocprim::detail::warp_move_dpp<T, CTRL[, ROW_MASK, BANK_MASK, BOUND_CTRL]> is
// __builtin_amdgcn_update_dpp((T)0, x, …) (a lane with no source keeps the zero `old`) and
// rocprim::warp_shuffle(x, src, width) is __shfl. v = lane l (0..63).
// quad_perm [1,0,3,2] then [2,3,0,1]: each lane holds its quad's sum, quad[l] = 16q + 6
// (q = l / 4). row_half_mirror then row_mirror: each lane holds its row's sum,
// row[l] = 256r + 120 (r = l / 16): 120, 376, 632, 888.
// row_bcast:15 adds the previous row's lane 15 (its sum) to rows 1..3, row 0 adding 0:
// 120, 496, 1008, 1520. row_bcast:31 adds lane 31 (496) to rows 2 and 3, rows 0 and 1
// adding 0: 120, 496, 1504, 2016. out[l] = lane 63's value = 2016 = 0 + 1 + … + 63.
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>
__global__ void wave_sum(int* out, int* quad, int* row)
{
    int v = threadIdx.x;
    v += rocprim::detail::warp_move_dpp<int, 0xb1>(v);
    v += rocprim::detail::warp_move_dpp<int, 0x4e>(v);
    quad[threadIdx.x] = v;
    v += rocprim::detail::warp_move_dpp<int, 0x141>(v);
    v += rocprim::detail::warp_move_dpp<int, 0x140>(v);
    row[threadIdx.x] = v;
    v += rocprim::detail::warp_move_dpp<int, 0x142>(v);
    v += rocprim::detail::warp_move_dpp<int, 0x143>(v);
    out[threadIdx.x] = rocprim::warp_shuffle(v, 63, 64);
}
