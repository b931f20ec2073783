//! The kernels the engine's speed is measured on, shared by the native criterion bench
//! (`benches/kernel_engine.rs`), the wasm bench page (`crosslane-web`'s `bench.rs`) and the
//! README's figures, so that every figure runs the same source.

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
