//! The examples menu: every seed kernel of `crosslane-kernel/examples_kernels/` (see its README for
//! where each comes from) and of `examples_wgsl/`. Their text is not in the page's first module
//! (the wasm the page fetches before its first render is budgeted: docs/benchmarks.md,
//! "WebAssembly size"): trunk copies the two folders to `examples/` (web/index.html's `copy-dir`
//! links) and the view fetches a kernel's text when it is chosen ([`url`]). Only the opening kernel ([`OPENING_SOURCE`]) is
//! embedded, so the view has a kernel before any fetch. A restored link finds its example by
//! the [`digest`] of its text, computed here at compile time, so the texts themselves stay out.
//! Faulty seeds are kept as printed; the page reports their faults (README, "Known faults").

/// One seed kernel.
pub struct Example {
    /// File name in `examples_kernels/`, also the `<option value>` of `#kernel-examples`.
    pub file: &'static str,
    /// Menu text: dialect, then the builtin or section it shows.
    pub label: &'static str,
    /// Path below `crates/crosslane-kernel/` (`examples_kernels/written/….cu`), which is also
    /// where the page serves it, below `examples/`.
    pub path: &'static str,
    /// [`digest`] of the kernel's text, verbatim.
    pub digest: u64,
}

/// FNV-1a, 64-bit, of `text`'s bytes: how a restored link's source is matched to an example
/// without the example's text in the module (a `const fn`, so `include_str!` is read only by
/// the compiler). Not a security measure: a match also needs the same length.
pub const fn digest(text: &str) -> u64 {
    let bytes = text.as_bytes();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        h ^= bytes[i] as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    h ^ (bytes.len() as u64).rotate_left(32)
}

/// One [`Example`]: its text is read at compile time for the digest only.
macro_rules! example {
    ($file:expr, $label:expr, $path:literal) => {
        Example {
            file: $file,
            label: $label,
            path: $path,
            digest: digest(include_str!(concat!(
                "../../../../crosslane-kernel/",
                $path
            ))),
        }
    };
}

/// The opening kernel's text (the first of [`EXAMPLES`]), the one example embedded.
pub const OPENING_SOURCE: &str =
    include_str!("../../../../crosslane-kernel/examples_kernels/ascend_shfl_down_reduce.cpp");

/// Every seed kernel, Ascend C first (the reduce-sum example is the page's opening kernel), then
/// the CUDA and HIP kernels written for this menu (`examples_kernels/written/`: the patterns a
/// CUDA or HIP engineer knows, inference kernels among them, each label a one-line description),
/// then MetaX MACA by section number.
pub const EXAMPLES: &[Example] = &[
    example!(
        "ascend_shfl_down_reduce.cpp",
        "Ascend C · asc_shfl_down reduce-sum",
        "examples_kernels/ascend_shfl_down_reduce.cpp"
    ),
    example!(
        "cuda_warp_reduce_shfl_down.cu",
        "CUDA · warp reduction: __shfl_down_sync halves the distance, lane 0 gets the sum",
        "examples_kernels/written/cuda_warp_reduce_shfl_down.cu"
    ),
    example!(
        "cuda_block_reduce_shared.cu",
        "CUDA · block reduction: warp sums through shared memory, then warp 0",
        "examples_kernels/written/cuda_block_reduce_shared.cu"
    ),
    example!(
        "cuda_warp_aggregated_atomic.cu",
        "CUDA · warp-aggregated atomic: one atomicAdd per warp, ranks by __popc",
        "examples_kernels/written/cuda_warp_aggregated_atomic.cu"
    ),
    example!(
        "cuda_ballot_compaction.cu",
        "CUDA · ballot compaction: __ballot_sync votes give each kept value its slot",
        "examples_kernels/written/cuda_ballot_compaction.cu"
    ),
    example!(
        "hip_wave64_reduce.hip",
        "HIP · wave64 reduction: six __shfl_down steps over 64 lanes",
        "examples_kernels/written/hip_wave64_reduce.hip"
    ),
    example!(
        "cuda_cg_tile_reduce.cu",
        "CUDA · cooperative groups: tiled_partition<16> tiles reduce with tile.shfl_down",
        "examples_kernels/written/cuda_cg_tile_reduce.cu"
    ),
    example!(
        "cuda_warp_softmax.cu",
        "CUDA · warp softmax: row max, then the sum of expf(x - max), by __shfl_xor_sync butterflies",
        "examples_kernels/written/cuda_warp_softmax.cu"
    ),
    example!(
        "cuda_rmsnorm.cu",
        "CUDA · RMSNorm: a warp sums squares by __shfl_xor_sync, then scales by rsqrtf(mean + eps)",
        "examples_kernels/written/cuda_rmsnorm.cu"
    ),
    example!(
        "cuda_moe_topk_router.cu",
        "CUDA · MoE top-2 router: a warp softmax over experts, then two __shfl_xor_sync argmax rounds",
        "examples_kernels/written/cuda_moe_topk_router.cu"
    ),
    example!(
        "cuda_warp_argmax.cu",
        "CUDA · warp argmax: (value, index) pairs meet in __shfl_xor_sync, ties keep the first",
        "examples_kernels/written/cuda_warp_argmax.cu"
    ),
    example!(
        "ascend_shfl_down.cpp",
        "Ascend C · asc_shfl_down",
        "examples_kernels/ascend_shfl_down.cpp"
    ),
    example!(
        "ascend_shfl_xor.cpp",
        "Ascend C · asc_shfl_xor",
        "examples_kernels/ascend_shfl_xor.cpp"
    ),
    example!(
        "ascend_shfl_xor_reduce_width31.cpp",
        "Ascend C · asc_shfl_xor reduce-sum (width 31, as printed)",
        "examples_kernels/ascend_shfl_xor_reduce_width31.cpp"
    ),
    example!(
        "ascend_shfl_down_flat.cpp",
        "Ascend C · asc_shfl_down (flattened, as printed)",
        "examples_kernels/ascend_shfl_down_flat.cpp"
    ),
    example!(
        "ascend_shfl_down_reduce_flat.cpp",
        "Ascend C · asc_shfl_down reduce-sum (flattened, as printed)",
        "examples_kernels/ascend_shfl_down_reduce_flat.cpp"
    ),
    example!(
        "maca_3_1_1_ldg_predicator.cpp",
        "MetaX MACA · 3.1.1 ldg_predicator",
        "examples_kernels/maca_3_1_1_ldg_predicator.cpp"
    ),
    example!(
        "maca_3_1_2_stg_predicator.cpp",
        "MetaX MACA · 3.1.2 stg_predicator",
        "examples_kernels/maca_3_1_2_stg_predicator.cpp"
    ),
    example!(
        "maca_3_1_3_ldg_predicator_ret.cpp",
        "MetaX MACA · 3.1.3 ldg_predicator_ret",
        "examples_kernels/maca_3_1_3_ldg_predicator_ret.cpp"
    ),
    example!(
        "maca_3_1_4_ldg_bsm.cpp",
        "MetaX MACA · 3.1.4 ldg_bsm",
        "examples_kernels/maca_3_1_4_ldg_bsm.cpp"
    ),
    example!(
        "maca_3_1_5_load_shared_trans.cpp",
        "MetaX MACA · 3.1.5 load_shared_trans",
        "examples_kernels/maca_3_1_5_load_shared_trans.cpp"
    ),
    example!(
        "maca_3_1_6_arrive.cpp",
        "MetaX MACA · 3.1.6 arrive",
        "examples_kernels/maca_3_1_6_arrive.cpp"
    ),
    example!(
        "maca_3_1_7_arrive_gvmcnt.cpp",
        "MetaX MACA · 3.1.7 arrive_gvmcnt",
        "examples_kernels/maca_3_1_7_arrive_gvmcnt.cpp"
    ),
    example!(
        "maca_3_1_8_arrive_bsmcnt.cpp",
        "MetaX MACA · 3.1.8 arrive_bsmcnt",
        "examples_kernels/maca_3_1_8_arrive_bsmcnt.cpp"
    ),
    example!(
        "maca_3_1_9_barrier_ex.cpp",
        "MetaX MACA · 3.1.9 barrier_ex",
        "examples_kernels/maca_3_1_9_barrier_ex.cpp"
    ),
    example!(
        "maca_3_1_10_barrier_and_wait.cpp",
        "MetaX MACA · 3.1.10 barrier_and_wait",
        "examples_kernels/maca_3_1_10_barrier_and_wait.cpp"
    ),
    example!(
        "maca_3_2_1_uicmp.cpp",
        "MetaX MACA · 3.2.1 uicmp",
        "examples_kernels/maca_3_2_1_uicmp.cpp"
    ),
    example!(
        "maca_3_2_2_sicmp.cpp",
        "MetaX MACA · 3.2.2 sicmp",
        "examples_kernels/maca_3_2_2_sicmp.cpp"
    ),
    example!(
        "maca_3_2_3_fcmp.cpp",
        "MetaX MACA · 3.2.3 fcmp",
        "examples_kernels/maca_3_2_3_fcmp.cpp"
    ),
    example!(
        "maca_3_3_1_cvt_f32totf32.cpp",
        "MetaX MACA · 3.3.1 cvt_f32totf32",
        "examples_kernels/maca_3_3_1_cvt_f32totf32.cpp"
    ),
    example!(
        "maca_3_3_2_cvt_pk_f32tou8.cpp",
        "MetaX MACA · 3.3.2 cvt_pk_f32tou8",
        "examples_kernels/maca_3_3_2_cvt_pk_f32tou8.cpp"
    ),
    example!(
        "maca_3_3_3_b_cast_to_f32.cpp",
        "MetaX MACA · 3.3.3 b_cast_to_f32",
        "examples_kernels/maca_3_3_3_b_cast_to_f32.cpp"
    ),
    example!(
        "maca_3_4_1_mov_shfl.cpp",
        "MetaX MACA · 3.4.1 mov_shfl",
        "examples_kernels/maca_3_4_1_mov_shfl.cpp"
    ),
    example!(
        "maca_3_4_2_update_shfl.cpp",
        "MetaX MACA · 3.4.2 update_shfl",
        "examples_kernels/maca_3_4_2_update_shfl.cpp"
    ),
    example!(
        "maca_3_4_3_bsm_bpermute.cpp",
        "MetaX MACA · 3.4.3 bsm_bpermute",
        "examples_kernels/maca_3_4_3_bsm_bpermute.cpp"
    ),
    example!(
        "maca_3_4_4_bsm_permute.cpp",
        "MetaX MACA · 3.4.4 bsm_permute",
        "examples_kernels/maca_3_4_4_bsm_permute.cpp"
    ),
    example!(
        "maca_3_4_5_byte_perm.cpp",
        "MetaX MACA · 3.4.5 byte_perm",
        "examples_kernels/maca_3_4_5_byte_perm.cpp"
    ),
    example!(
        "maca_3_5_1_pk_fma_f32.cpp",
        "MetaX MACA · 3.5.1 pk_fma_f32",
        "examples_kernels/maca_3_5_1_pk_fma_f32.cpp"
    ),
    example!(
        "maca_3_5_2_pk_fma_bf16.cpp",
        "MetaX MACA · 3.5.2 pk_fma_bf16",
        "examples_kernels/maca_3_5_2_pk_fma_bf16.cpp"
    ),
    example!(
        "maca_3_5_3_pk_fma_f16.cpp",
        "MetaX MACA · 3.5.3 pk_fma_f16",
        "examples_kernels/maca_3_5_3_pk_fma_f16.cpp"
    ),
    example!(
        "maca_3_5_4_fma_bf16.cpp",
        "MetaX MACA · 3.5.4 fma_bf16",
        "examples_kernels/maca_3_5_4_fma_bf16.cpp"
    ),
    example!(
        "maca_3_6_1_mma_16x16x16f16.cpp",
        "MetaX MACA · 3.6.1 mma_16x16x16f16",
        "examples_kernels/maca_3_6_1_mma_16x16x16f16.cpp"
    ),
    example!(
        "maca_3_6_2_mma_16x16x4f32.cpp",
        "MetaX MACA · 3.6.2 mma_16x16x4f32",
        "examples_kernels/maca_3_6_2_mma_16x16x4f32.cpp"
    ),
    example!(
        "maca_3_6_3_mma_16x16x16i8.cpp",
        "MetaX MACA · 3.6.3 mma_16x16x16i8",
        "examples_kernels/maca_3_6_3_mma_16x16x16i8.cpp"
    ),
    example!(
        "maca_3_6_4_mma_16x16x32i8.cpp",
        "MetaX MACA · 3.6.4 mma_16x16x32i8",
        "examples_kernels/maca_3_6_4_mma_16x16x32i8.cpp"
    ),
    example!(
        "maca_3_6_5_mma_16x16x16bf16.cpp",
        "MetaX MACA · 3.6.5 mma_16x16x16bf16",
        "examples_kernels/maca_3_6_5_mma_16x16x16bf16.cpp"
    ),
    example!(
        "maca_3_6_6_mma_16x16x4f64.cpp",
        "MetaX MACA · 3.6.6 mma_16x16x4f64",
        "examples_kernels/maca_3_6_6_mma_16x16x4f64.cpp"
    ),
    example!(
        "maca_3_6_7_mma_16x16x8tf32.cpp",
        "MetaX MACA · 3.6.7 mma_16x16x8tf32",
        "examples_kernels/maca_3_6_7_mma_16x16x8tf32.cpp"
    ),
    example!(
        "maca_3_7_1_mad_wide_i32_u32.cpp",
        "MetaX MACA · 3.7.1 mad_wide_i32_u32",
        "examples_kernels/maca_3_7_1_mad_wide_i32_u32.cpp"
    ),
    example!(
        "maca_3_7_2_pk_mul_f32.cpp",
        "MetaX MACA · 3.7.2 pk_mul_f32",
        "examples_kernels/maca_3_7_2_pk_mul_f32.cpp"
    ),
    example!(
        "maca_3_7_3_pk_add_f32.cpp",
        "MetaX MACA · 3.7.3 pk_add_f32",
        "examples_kernels/maca_3_7_3_pk_add_f32.cpp"
    ),
    example!(
        "maca_3_7_4_ubfe.cpp",
        "MetaX MACA · 3.7.4 ubfe",
        "examples_kernels/maca_3_7_4_ubfe.cpp"
    ),
    example!(
        "maca_3_7_5_sbfe.cpp",
        "MetaX MACA · 3.7.5 sbfe",
        "examples_kernels/maca_3_7_5_sbfe.cpp"
    ),
    example!(
        "maca_3_7_6_alignbit.cpp",
        "MetaX MACA · 3.7.6 alignbit",
        "examples_kernels/maca_3_7_6_alignbit.cpp"
    ),
    example!(
        "maca_3_7_9_rcp.cpp",
        "MetaX MACA · 3.7.9 rcp",
        "examples_kernels/maca_3_7_9_rcp.cpp"
    ),
    example!(
        "maca_3_7_10_sqrt.cpp",
        "MetaX MACA · 3.7.10 sqrt",
        "examples_kernels/maca_3_7_10_sqrt.cpp"
    ),
    example!(
        "maca_3_7_11_rsq.cpp",
        "MetaX MACA · 3.7.11 rsq",
        "examples_kernels/maca_3_7_11_rsq.cpp"
    ),
    example!(
        "maca_3_7_12_log_clampf.cpp",
        "MetaX MACA · 3.7.12 log_clampf",
        "examples_kernels/maca_3_7_12_log_clampf.cpp"
    ),
    example!(
        "maca_3_8_1_get_time.cpp",
        "MetaX MACA · 3.8.1 get_time",
        "examples_kernels/maca_3_8_1_get_time.cpp"
    ),
    example!(
        "maca_3_8_2_read_xmsk.cpp",
        "MetaX MACA · 3.8.2 read_xmsk",
        "examples_kernels/maca_3_8_2_read_xmsk.cpp"
    ),
    example!(
        "maca_3_8_3_readfirstlane.cpp",
        "MetaX MACA · 3.8.3 readfirstlane",
        "examples_kernels/maca_3_8_3_readfirstlane.cpp"
    ),
    example!(
        "maca_3_8_4_readlane.cpp",
        "MetaX MACA · 3.8.4 readlane",
        "examples_kernels/maca_3_8_4_readlane.cpp"
    ),
    example!(
        "maca_3_8_5_writelane.cpp",
        "MetaX MACA · 3.8.5 writelane",
        "examples_kernels/maca_3_8_5_writelane.cpp"
    ),
    example!(
        "maca_3_8_6_nop.cpp",
        "MetaX MACA · 3.8.6 nop",
        "examples_kernels/maca_3_8_6_nop.cpp"
    ),
    example!(
        "reduce_scan.wgsl",
        "WGSL · subgroupAdd reduction and scans",
        "examples_wgsl/reduce_scan.wgsl"
    ),
    example!(
        "min_max_mul.wgsl",
        "WGSL · subgroupMul/Min/Max and multiplicative scans",
        "examples_wgsl/min_max_mul.wgsl"
    ),
    example!(
        "ballot_compaction.wgsl",
        "WGSL · ballot compaction",
        "examples_wgsl/ballot_compaction.wgsl"
    ),
    example!(
        "ballot_broadcast_shuffle.wgsl",
        "WGSL · ballot, broadcast, shuffles, subgroupElect",
        "examples_wgsl/ballot_broadcast_shuffle.wgsl"
    ),
    example!(
        "quad.wgsl",
        "WGSL · quad swaps and quadBroadcast",
        "examples_wgsl/quad.wgsl"
    ),
    example!(
        "transpose.wgsl",
        "WGSL · workgroup-memory transpose",
        "examples_wgsl/transpose.wgsl"
    ),
    example!(
        "atomics.wgsl",
        "WGSL · atomics",
        "examples_wgsl/atomics.wgsl"
    ),
    example!(
        "divergence.wgsl",
        "WGSL · divergence inside a subgroup",
        "examples_wgsl/divergence.wgsl"
    ),
    example!(
        "partial_subgroup.wgsl",
        "WGSL · partial last subgroup",
        "examples_wgsl/partial_subgroup.wgsl"
    ),
    example!(
        "f16.wgsl",
        "WGSL · f16",
        "examples_wgsl/f16.wgsl"
    ),
];

/// The example whose file name is `file`.
pub fn find(file: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|e| e.file == file)
}

/// The example whose text is `source` (by [`digest`]), as a restored link's kernel is shown in
/// the menu.
pub fn find_by_source(source: &str) -> Option<&'static Example> {
    let d = digest(source);
    EXAMPLES.iter().find(|e| e.digest == d)
}

/// Where the page serves `example`'s text, relative to the page (`scripts/build-web` copies
/// the folders; web/index.html's `copy-dir` links).
pub fn url(example: &Example) -> String {
    format!("examples/{}", example.path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every example's path names a file whose text has the example's digest, every file name
    /// is unique, and the first example is the embedded opening kernel.
    #[test]
    fn paths_digests_and_opening_agree() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../crosslane-kernel/");
        let mut seen = std::collections::BTreeSet::new();
        for e in EXAMPLES {
            let text = std::fs::read_to_string(format!("{root}{}", e.path)).unwrap();
            assert_eq!(digest(&text), e.digest, "{}", e.path);
            assert!(e.path.ends_with(e.file), "{} is not {}", e.path, e.file);
            assert!(seen.insert(e.file), "{} twice", e.file);
            assert_eq!(find_by_source(&text).map(|f| f.file), Some(e.file));
        }
        assert_eq!(EXAMPLES[0].digest, digest(OPENING_SOURCE));
        assert!(find_by_source("__global__ void k() {}").is_none());
    }

    /// FNV-1a's published test vectors (the empty string and "a", before the length fold,
    /// which adds nothing for the empty string).
    #[test]
    fn digest_is_fnv1a() {
        assert_eq!(digest(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(digest("a"), 0xaf63_dc4c_8601_ec8c ^ 1u64.rotate_left(32));
    }
}
