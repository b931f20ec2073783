// Mixture-of-experts gating: a row of expert logits, its softmax, and the k largest
// probabilities with their experts, in the shape inference libraries write it (vLLM's and
// TensorRT-LLM's topk softmax): each row is read by a group of THREADS_PER_ROW lanes in
// 16-byte vector loads (a `using` alias of an aligned array struct, `reinterpret_cast` of the
// row pointer and of a local array), reduced across the group with `__shfl_xor_sync`, and the
// winner of each round cleared in the lane that holds it.
#define MAX_OF(a, b) ((a) > (b) ? (a) : (b))
#define MIN_OF(a, b) ((a) < (b) ? (a) : (b))

template <typename T, int N>
struct alignas(sizeof(T) * N) AlignedArray {
    T data[N];
};

// The launch's shape, each constant from the ones before it: a default template argument
// naming an earlier parameter, and static constexpr members computed from them.
template <int EXPERTS, int BYTES_PER_LDG = MIN_OF(16, sizeof(float) * EXPERTS)>
struct GatingShape {
    static constexpr int ELTS_PER_LDG = BYTES_PER_LDG / sizeof(float);
    static constexpr int VPT = 2 * ELTS_PER_LDG;
    static constexpr int THREADS_PER_ROW = EXPERTS / VPT;
    static constexpr int ROWS_PER_WARP = 32 / THREADS_PER_ROW;
    static constexpr int BYTES = BYTES_PER_LDG;
};

template <int VPT, int EXPERTS, int WARPS_PER_CTA, int BYTES_PER_LDG>
__device__ void gating_topk(const float* logits, float* weights, int* experts, int num_rows,
                            int k) {
    static constexpr int ELTS_PER_LDG = BYTES_PER_LDG / sizeof(float);
    static constexpr int LDG_PER_THREAD = VPT / ELTS_PER_LDG;
    static constexpr int THREADS_PER_ROW = EXPERTS / VPT;
    static constexpr int ROWS_PER_WARP = 32 / THREADS_PER_ROW;
    static constexpr int COLS_PER_GROUP_LDG = ELTS_PER_LDG * THREADS_PER_ROW;

    const int warp_first_row = (blockIdx.x * WARPS_PER_CTA + threadIdx.y) * ROWS_PER_WARP;
    const int row = warp_first_row + threadIdx.x / THREADS_PER_ROW;
    if (row >= num_rows) return;
    const int group_lane = threadIdx.x % THREADS_PER_ROW;
    const int first_col = group_lane * ELTS_PER_LDG;
    const float* my_first = logits + row * EXPERTS + first_col;

    // Vector loads: LDG_PER_THREAD aligned chunks of ELTS_PER_LDG floats, THREADS_PER_ROW
    // chunks apart, land in the local array through a struct pointer of the same bytes.
    using AccessType = AlignedArray<float, ELTS_PER_LDG>;
    float vals[VPT];
    AccessType* vals_vec = reinterpret_cast<AccessType*>(&vals);
    const AccessType* src_vec = reinterpret_cast<const AccessType*>(my_first);
#pragma unroll
    for (int ii = 0; ii < LDG_PER_THREAD; ++ii) {
        vals_vec[ii] = src_vec[ii * THREADS_PER_ROW];
    }

    float row_max = vals[0];
#pragma unroll
    for (int ii = 1; ii < VPT; ++ii) row_max = MAX_OF(row_max, vals[ii]);
#pragma unroll
    for (int mask = THREADS_PER_ROW / 2; mask > 0; mask /= 2)
        row_max = max(row_max, __shfl_xor_sync(0xffffffff, row_max, mask, THREADS_PER_ROW));

    float row_sum = 0.f;
#pragma unroll
    for (int ii = 0; ii < VPT; ++ii) {
        vals[ii] = expf(vals[ii] - row_max);
        row_sum += vals[ii];
    }
#pragma unroll
    for (int mask = THREADS_PER_ROW / 2; mask > 0; mask /= 2)
        row_sum += __shfl_xor_sync(0xffffffff, row_sum, mask, THREADS_PER_ROW);
    const float inv_sum = 1.f / row_sum;
#pragma unroll
    for (int ii = 0; ii < VPT; ++ii) vals[ii] = vals[ii] * inv_sum;

    for (int round = 0; round < k; ++round) {
        float best = vals[0];
        int best_expert = first_col;
        // Chunk `ldg` of this lane holds experts col .. col + ELTS_PER_LDG - 1.
        for (int ldg = 0, col = first_col; ldg < LDG_PER_THREAD; ++ldg, col += COLS_PER_GROUP_LDG) {
            for (int ii = 0; ii < ELTS_PER_LDG; ++ii) {
                const float v = vals[ldg * ELTS_PER_LDG + ii];
                if (v > best) {
                    best = v;
                    best_expert = col + ii;
                }
            }
        }
        // The group's winner; a tie goes to the lower expert.
        for (int mask = THREADS_PER_ROW / 2; mask > 0; mask /= 2) {
            const float other = __shfl_xor_sync(0xffffffff, best, mask, THREADS_PER_ROW);
            const int other_expert = __shfl_xor_sync(0xffffffff, best_expert, mask, THREADS_PER_ROW);
            if (other > best || (other == best && other_expert < best_expert)) {
                best = other;
                best_expert = other_expert;
            }
        }
        if (group_lane == 0) {
            weights[row * k + round] = best;
            experts[row * k + round] = best_expert;
        }
        // The lane holding the winner clears it for the next round.
        if (round + 1 < k) {
            const int chunk = best_expert / COLS_PER_GROUP_LDG;
            const int owner = (best_expert / ELTS_PER_LDG) % THREADS_PER_ROW;
            if (group_lane == owner) {
                vals[chunk * ELTS_PER_LDG + best_expert % ELTS_PER_LDG] = -10000.f;
            }
        }
    }
}

template <int EXPERTS, int WARPS_PER_CTA>
__global__ void topk_softmax(const float* logits, float* weights, int* experts, int num_rows,
                             int k) {
    using Shape = GatingShape<EXPERTS>;
    static constexpr int VPT = Shape::VPT;
    gating_topk<VPT, EXPERTS, WARPS_PER_CTA, Shape::BYTES>(logits, weights, experts, num_rows, k);
}

void launch_topk(const float* logits, float* weights, int* experts, int num_rows, int k,
                 cudaStream_t stream) {
    // 32 experts: 16-byte loads of 4 floats, 8 values a lane, 4 lanes a row, 8 rows a warp.
    dim3 block(32, 2);
    const int blocks = (num_rows + 15) / 16;
    topk_softmax<32, 2><<<blocks, block, 0, stream>>>(logits, weights, experts, num_rows, k);
}
