//! The kernels the engine's speed is measured on, shared by the native criterion bench
//! (`benches/kernel_engine.rs`), the wasm bench page (`crosslane-web`'s `bench.rs`) and the
//! docs/benchmarks.md's figures, so that every figure runs the same source.

/// An arithmetic loop: a 32-bit LCG step per iteration (multiply, add, assign), unsigned so
/// that wrapping is defined (C11 6.2.5p9).
pub fn arith_loop(iterations: u32) -> String {
    format!(
        "__global__ void arith_loop(unsigned *out) {{
    unsigned a = threadIdx.x;
    for (int i = 0; i < {iterations}; i++) {{
        a = a * 1664525u + 1013904223u;
    }}
    out[threadIdx.x] = a;
}}
"
    )
}

/// A shuffle loop: a butterfly exchange per iteration (`__shfl_xor_sync` with lane mask 1, then
/// an add), unsigned so that wrapping is defined.
pub fn shuffle_loop(iterations: u32) -> String {
    format!(
        "__global__ void shfl_loop(unsigned *out) {{
    unsigned v = threadIdx.x;
    for (int i = 0; i < {iterations}; i++) {{
        v += __shfl_xor_sync(0xffffffff, v, 1);
    }}
    out[threadIdx.x] = v;
}}
"
    )
}

/// A hash loop around one shuffle: `acc = acc * 2654435761u + (__shfl_xor_sync(0xffffffff,
/// acc, K) ^ lane) + i`, with the lane mask `K` constant (`K = 5`, `varying` false) or new each
/// iteration (`K = i & 31`): the cost of a cross-lane call whose non-operand argument changes.
/// Unsigned, so that wrapping is defined (C11 6.2.5p9).
pub fn xor_hash_loop(iterations: u32, varying: bool) -> String {
    let k = if varying { "i & 31" } else { "5" };
    format!(
        "__global__ void xor_hash(unsigned *out) {{
    unsigned acc = threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    for (int i = 0; i < {iterations}; i++) {{
        int K = {k};
        acc = acc * 2654435761u + (__shfl_xor_sync(0xffffffff, acc, K) ^ lane) + i;
    }}
    out[threadIdx.x] = acc;
}}
"
    )
}

/// A warp reduction repeated `rounds` times: the butterfly `for (int o = 16; o > 0; o >>= 1)
/// v += __shfl_xor_sync(0xffffffff, v, o);`, whose lane mask changes every step.
pub fn butterfly_loop(rounds: u32) -> String {
    format!(
        "__global__ void butterfly(unsigned *out) {{
    unsigned v = threadIdx.x;
    for (int r = 0; r < {rounds}; r++) {{
        for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    }}
    out[threadIdx.x] = v;
}}
"
    )
}

/// Cells each thread of [`grid_stride_reduce`] sums.
pub const REDUCE_CELLS_PER_THREAD: usize = 8;

/// A grid-stride reduction: each thread sums the cells `i, i + stride, …` of `in` (the launch's
/// threads times [`REDUCE_CELLS_PER_THREAD`] cells, filled with their index), each warp adds its
/// lanes' sums by `__shfl_down_sync` (offsets 16, 8, 4, 2, 1), and lane 0 of each warp adds the
/// warp's sum to `out[0]` atomically. Unsigned, so that wrapping is defined.
pub fn grid_stride_reduce() -> String {
    format!(
        "__global__ void reduce(const unsigned *in, unsigned *out) {{
    unsigned sum = 0;
    unsigned n = gridDim.x * blockDim.x * {REDUCE_CELLS_PER_THREAD}u;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {{
        sum += in[i];
    }}
    for (int offset = 16; offset > 0; offset /= 2) {{
        sum += __shfl_down_sync(0xffffffff, sum, offset);
    }}
    if ((threadIdx.x & 31) == 0) {{
        atomicAdd(out, sum);
    }}
}}
"
    )
}
