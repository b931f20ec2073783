//! The examples menu: every seed kernel of `crosslane-kernel/examples_kernels/` (see its README for
//! where each comes from), embedded verbatim so the page needs no fetch. Faulty seeds are kept as
//! printed; the page reports their faults (README, "Known faults").

/// One seed kernel.
pub struct Example {
    /// File name in `examples_kernels/`, also the `<option value>` of `#kernel-examples`.
    pub file: &'static str,
    /// Menu text: dialect, then the builtin or section it shows.
    pub label: &'static str,
    /// The kernel's text, verbatim.
    pub source: &'static str,
}

/// Every seed kernel, Ascend C first (the reduce-sum example is the page's opening kernel), then
/// the CUDA and HIP kernels written for this menu (`examples_kernels/written/`: the patterns a
/// CUDA or HIP engineer knows, inference kernels among them, each label a one-line description),
/// then MetaX MACA by section number.
pub const EXAMPLES: &[Example] = &[
    Example {
        file: "ascend_shfl_down_reduce.cpp",
        label: "Ascend C · asc_shfl_down reduce-sum",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/ascend_shfl_down_reduce.cpp"
        ),
    },
    Example {
        file: "cuda_warp_reduce_shfl_down.cu",
        label: "CUDA · warp reduction: __shfl_down_sync halves the distance, lane 0 gets the sum",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/written/cuda_warp_reduce_shfl_down.cu"
        ),
    },
    Example {
        file: "cuda_block_reduce_shared.cu",
        label: "CUDA · block reduction: warp sums through shared memory, then warp 0",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/written/cuda_block_reduce_shared.cu"
        ),
    },
    Example {
        file: "cuda_warp_aggregated_atomic.cu",
        label: "CUDA · warp-aggregated atomic: one atomicAdd per warp, ranks by __popc",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/written/cuda_warp_aggregated_atomic.cu"
        ),
    },
    Example {
        file: "cuda_ballot_compaction.cu",
        label: "CUDA · ballot compaction: __ballot_sync votes give each kept value its slot",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/written/cuda_ballot_compaction.cu"
        ),
    },
    Example {
        file: "hip_wave64_reduce.hip",
        label: "HIP · wave64 reduction: six __shfl_down steps over 64 lanes",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/written/hip_wave64_reduce.hip"
        ),
    },
    Example {
        file: "cuda_cg_tile_reduce.cu",
        label: "CUDA · cooperative groups: tiled_partition<16> tiles reduce with tile.shfl_down",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/written/cuda_cg_tile_reduce.cu"
        ),
    },
    Example {
        file: "cuda_warp_softmax.cu",
        label: "CUDA · warp softmax: row max, then the sum of expf(x - max), by __shfl_xor_sync butterflies",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/written/cuda_warp_softmax.cu"
        ),
    },
    Example {
        file: "cuda_rmsnorm.cu",
        label: "CUDA · RMSNorm: a warp sums squares by __shfl_xor_sync, then scales by rsqrtf(mean + eps)",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/written/cuda_rmsnorm.cu"
        ),
    },
    Example {
        file: "cuda_moe_topk_router.cu",
        label: "CUDA · MoE top-2 router: a warp softmax over experts, then two __shfl_xor_sync argmax rounds",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/written/cuda_moe_topk_router.cu"
        ),
    },
    Example {
        file: "cuda_warp_argmax.cu",
        label: "CUDA · warp argmax: (value, index) pairs meet in __shfl_xor_sync, ties keep the first",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/written/cuda_warp_argmax.cu"
        ),
    },
    Example {
        file: "ascend_shfl_down.cpp",
        label: "Ascend C · asc_shfl_down",
        source: include_str!("../../../../crosslane-kernel/examples_kernels/ascend_shfl_down.cpp"),
    },
    Example {
        file: "ascend_shfl_xor.cpp",
        label: "Ascend C · asc_shfl_xor",
        source: include_str!("../../../../crosslane-kernel/examples_kernels/ascend_shfl_xor.cpp"),
    },
    Example {
        file: "ascend_shfl_xor_reduce_width31.cpp",
        label: "Ascend C · asc_shfl_xor reduce-sum (width 31, as printed)",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/ascend_shfl_xor_reduce_width31.cpp"
        ),
    },
    Example {
        file: "ascend_shfl_down_flat.cpp",
        label: "Ascend C · asc_shfl_down (flattened, as printed)",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/ascend_shfl_down_flat.cpp"
        ),
    },
    Example {
        file: "ascend_shfl_down_reduce_flat.cpp",
        label: "Ascend C · asc_shfl_down reduce-sum (flattened, as printed)",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/ascend_shfl_down_reduce_flat.cpp"
        ),
    },
    Example {
        file: "maca_3_1_1_ldg_predicator.cpp",
        label: "MetaX MACA · 3.1.1 ldg_predicator",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_1_1_ldg_predicator.cpp"
        ),
    },
    Example {
        file: "maca_3_1_2_stg_predicator.cpp",
        label: "MetaX MACA · 3.1.2 stg_predicator",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_1_2_stg_predicator.cpp"
        ),
    },
    Example {
        file: "maca_3_1_3_ldg_predicator_ret.cpp",
        label: "MetaX MACA · 3.1.3 ldg_predicator_ret",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_1_3_ldg_predicator_ret.cpp"
        ),
    },
    Example {
        file: "maca_3_1_4_ldg_bsm.cpp",
        label: "MetaX MACA · 3.1.4 ldg_bsm",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_1_4_ldg_bsm.cpp"
        ),
    },
    Example {
        file: "maca_3_1_5_load_shared_trans.cpp",
        label: "MetaX MACA · 3.1.5 load_shared_trans",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_1_5_load_shared_trans.cpp"
        ),
    },
    Example {
        file: "maca_3_1_6_arrive.cpp",
        label: "MetaX MACA · 3.1.6 arrive",
        source: include_str!("../../../../crosslane-kernel/examples_kernels/maca_3_1_6_arrive.cpp"),
    },
    Example {
        file: "maca_3_1_7_arrive_gvmcnt.cpp",
        label: "MetaX MACA · 3.1.7 arrive_gvmcnt",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_1_7_arrive_gvmcnt.cpp"
        ),
    },
    Example {
        file: "maca_3_1_8_arrive_bsmcnt.cpp",
        label: "MetaX MACA · 3.1.8 arrive_bsmcnt",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_1_8_arrive_bsmcnt.cpp"
        ),
    },
    Example {
        file: "maca_3_1_9_barrier_ex.cpp",
        label: "MetaX MACA · 3.1.9 barrier_ex",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_1_9_barrier_ex.cpp"
        ),
    },
    Example {
        file: "maca_3_1_10_barrier_and_wait.cpp",
        label: "MetaX MACA · 3.1.10 barrier_and_wait",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_1_10_barrier_and_wait.cpp"
        ),
    },
    Example {
        file: "maca_3_2_1_uicmp.cpp",
        label: "MetaX MACA · 3.2.1 uicmp",
        source: include_str!("../../../../crosslane-kernel/examples_kernels/maca_3_2_1_uicmp.cpp"),
    },
    Example {
        file: "maca_3_2_2_sicmp.cpp",
        label: "MetaX MACA · 3.2.2 sicmp",
        source: include_str!("../../../../crosslane-kernel/examples_kernels/maca_3_2_2_sicmp.cpp"),
    },
    Example {
        file: "maca_3_2_3_fcmp.cpp",
        label: "MetaX MACA · 3.2.3 fcmp",
        source: include_str!("../../../../crosslane-kernel/examples_kernels/maca_3_2_3_fcmp.cpp"),
    },
    Example {
        file: "maca_3_3_1_cvt_f32totf32.cpp",
        label: "MetaX MACA · 3.3.1 cvt_f32totf32",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_3_1_cvt_f32totf32.cpp"
        ),
    },
    Example {
        file: "maca_3_3_2_cvt_pk_f32tou8.cpp",
        label: "MetaX MACA · 3.3.2 cvt_pk_f32tou8",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_3_2_cvt_pk_f32tou8.cpp"
        ),
    },
    Example {
        file: "maca_3_3_3_b_cast_to_f32.cpp",
        label: "MetaX MACA · 3.3.3 b_cast_to_f32",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_3_3_b_cast_to_f32.cpp"
        ),
    },
    Example {
        file: "maca_3_4_1_mov_shfl.cpp",
        label: "MetaX MACA · 3.4.1 mov_shfl",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_4_1_mov_shfl.cpp"
        ),
    },
    Example {
        file: "maca_3_4_2_update_shfl.cpp",
        label: "MetaX MACA · 3.4.2 update_shfl",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_4_2_update_shfl.cpp"
        ),
    },
    Example {
        file: "maca_3_4_3_bsm_bpermute.cpp",
        label: "MetaX MACA · 3.4.3 bsm_bpermute",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_4_3_bsm_bpermute.cpp"
        ),
    },
    Example {
        file: "maca_3_4_4_bsm_permute.cpp",
        label: "MetaX MACA · 3.4.4 bsm_permute",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_4_4_bsm_permute.cpp"
        ),
    },
    Example {
        file: "maca_3_4_5_byte_perm.cpp",
        label: "MetaX MACA · 3.4.5 byte_perm",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_4_5_byte_perm.cpp"
        ),
    },
    Example {
        file: "maca_3_5_1_pk_fma_f32.cpp",
        label: "MetaX MACA · 3.5.1 pk_fma_f32",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_5_1_pk_fma_f32.cpp"
        ),
    },
    Example {
        file: "maca_3_5_2_pk_fma_bf16.cpp",
        label: "MetaX MACA · 3.5.2 pk_fma_bf16",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_5_2_pk_fma_bf16.cpp"
        ),
    },
    Example {
        file: "maca_3_5_3_pk_fma_f16.cpp",
        label: "MetaX MACA · 3.5.3 pk_fma_f16",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_5_3_pk_fma_f16.cpp"
        ),
    },
    Example {
        file: "maca_3_5_4_fma_bf16.cpp",
        label: "MetaX MACA · 3.5.4 fma_bf16",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_5_4_fma_bf16.cpp"
        ),
    },
    Example {
        file: "maca_3_6_1_mma_16x16x16f16.cpp",
        label: "MetaX MACA · 3.6.1 mma_16x16x16f16",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_6_1_mma_16x16x16f16.cpp"
        ),
    },
    Example {
        file: "maca_3_6_2_mma_16x16x4f32.cpp",
        label: "MetaX MACA · 3.6.2 mma_16x16x4f32",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_6_2_mma_16x16x4f32.cpp"
        ),
    },
    Example {
        file: "maca_3_6_3_mma_16x16x16i8.cpp",
        label: "MetaX MACA · 3.6.3 mma_16x16x16i8",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_6_3_mma_16x16x16i8.cpp"
        ),
    },
    Example {
        file: "maca_3_6_4_mma_16x16x32i8.cpp",
        label: "MetaX MACA · 3.6.4 mma_16x16x32i8",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_6_4_mma_16x16x32i8.cpp"
        ),
    },
    Example {
        file: "maca_3_6_5_mma_16x16x16bf16.cpp",
        label: "MetaX MACA · 3.6.5 mma_16x16x16bf16",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_6_5_mma_16x16x16bf16.cpp"
        ),
    },
    Example {
        file: "maca_3_6_6_mma_16x16x4f64.cpp",
        label: "MetaX MACA · 3.6.6 mma_16x16x4f64",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_6_6_mma_16x16x4f64.cpp"
        ),
    },
    Example {
        file: "maca_3_6_7_mma_16x16x8tf32.cpp",
        label: "MetaX MACA · 3.6.7 mma_16x16x8tf32",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_6_7_mma_16x16x8tf32.cpp"
        ),
    },
    Example {
        file: "maca_3_7_1_mad_wide_i32_u32.cpp",
        label: "MetaX MACA · 3.7.1 mad_wide_i32_u32",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_7_1_mad_wide_i32_u32.cpp"
        ),
    },
    Example {
        file: "maca_3_7_2_pk_mul_f32.cpp",
        label: "MetaX MACA · 3.7.2 pk_mul_f32",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_7_2_pk_mul_f32.cpp"
        ),
    },
    Example {
        file: "maca_3_7_3_pk_add_f32.cpp",
        label: "MetaX MACA · 3.7.3 pk_add_f32",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_7_3_pk_add_f32.cpp"
        ),
    },
    Example {
        file: "maca_3_7_4_ubfe.cpp",
        label: "MetaX MACA · 3.7.4 ubfe",
        source: include_str!("../../../../crosslane-kernel/examples_kernels/maca_3_7_4_ubfe.cpp"),
    },
    Example {
        file: "maca_3_7_5_sbfe.cpp",
        label: "MetaX MACA · 3.7.5 sbfe",
        source: include_str!("../../../../crosslane-kernel/examples_kernels/maca_3_7_5_sbfe.cpp"),
    },
    Example {
        file: "maca_3_7_6_alignbit.cpp",
        label: "MetaX MACA · 3.7.6 alignbit",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_7_6_alignbit.cpp"
        ),
    },
    Example {
        file: "maca_3_7_9_rcp.cpp",
        label: "MetaX MACA · 3.7.9 rcp",
        source: include_str!("../../../../crosslane-kernel/examples_kernels/maca_3_7_9_rcp.cpp"),
    },
    Example {
        file: "maca_3_7_10_sqrt.cpp",
        label: "MetaX MACA · 3.7.10 sqrt",
        source: include_str!("../../../../crosslane-kernel/examples_kernels/maca_3_7_10_sqrt.cpp"),
    },
    Example {
        file: "maca_3_7_11_rsq.cpp",
        label: "MetaX MACA · 3.7.11 rsq",
        source: include_str!("../../../../crosslane-kernel/examples_kernels/maca_3_7_11_rsq.cpp"),
    },
    Example {
        file: "maca_3_7_12_log_clampf.cpp",
        label: "MetaX MACA · 3.7.12 log_clampf",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_7_12_log_clampf.cpp"
        ),
    },
    Example {
        file: "maca_3_8_1_get_time.cpp",
        label: "MetaX MACA · 3.8.1 get_time",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_8_1_get_time.cpp"
        ),
    },
    Example {
        file: "maca_3_8_2_read_xmsk.cpp",
        label: "MetaX MACA · 3.8.2 read_xmsk",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_8_2_read_xmsk.cpp"
        ),
    },
    Example {
        file: "maca_3_8_3_readfirstlane.cpp",
        label: "MetaX MACA · 3.8.3 readfirstlane",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_8_3_readfirstlane.cpp"
        ),
    },
    Example {
        file: "maca_3_8_4_readlane.cpp",
        label: "MetaX MACA · 3.8.4 readlane",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_8_4_readlane.cpp"
        ),
    },
    Example {
        file: "maca_3_8_5_writelane.cpp",
        label: "MetaX MACA · 3.8.5 writelane",
        source: include_str!(
            "../../../../crosslane-kernel/examples_kernels/maca_3_8_5_writelane.cpp"
        ),
    },
    Example {
        file: "maca_3_8_6_nop.cpp",
        label: "MetaX MACA · 3.8.6 nop",
        source: include_str!("../../../../crosslane-kernel/examples_kernels/maca_3_8_6_nop.cpp"),
    },
    // WGSL compute shaders (crosslane-kernel/examples_wgsl/, run through naga).
    Example {
        file: "reduce_scan.wgsl",
        label: "WGSL · subgroupAdd reduction and scans",
        source: include_str!("../../../../crosslane-kernel/examples_wgsl/reduce_scan.wgsl"),
    },
    Example {
        file: "min_max_mul.wgsl",
        label: "WGSL · subgroupMul/Min/Max and multiplicative scans",
        source: include_str!("../../../../crosslane-kernel/examples_wgsl/min_max_mul.wgsl"),
    },
    Example {
        file: "ballot_compaction.wgsl",
        label: "WGSL · ballot compaction",
        source: include_str!("../../../../crosslane-kernel/examples_wgsl/ballot_compaction.wgsl"),
    },
    Example {
        file: "ballot_broadcast_shuffle.wgsl",
        label: "WGSL · ballot, broadcast, shuffles, subgroupElect",
        source: include_str!(
            "../../../../crosslane-kernel/examples_wgsl/ballot_broadcast_shuffle.wgsl"
        ),
    },
    Example {
        file: "quad.wgsl",
        label: "WGSL · quad swaps and quadBroadcast",
        source: include_str!("../../../../crosslane-kernel/examples_wgsl/quad.wgsl"),
    },
    Example {
        file: "transpose.wgsl",
        label: "WGSL · workgroup-memory transpose",
        source: include_str!("../../../../crosslane-kernel/examples_wgsl/transpose.wgsl"),
    },
    Example {
        file: "atomics.wgsl",
        label: "WGSL · atomics",
        source: include_str!("../../../../crosslane-kernel/examples_wgsl/atomics.wgsl"),
    },
    Example {
        file: "divergence.wgsl",
        label: "WGSL · divergence inside a subgroup",
        source: include_str!("../../../../crosslane-kernel/examples_wgsl/divergence.wgsl"),
    },
    Example {
        file: "partial_subgroup.wgsl",
        label: "WGSL · partial last subgroup",
        source: include_str!("../../../../crosslane-kernel/examples_wgsl/partial_subgroup.wgsl"),
    },
    Example {
        file: "f16.wgsl",
        label: "WGSL · f16",
        source: include_str!("../../../../crosslane-kernel/examples_wgsl/f16.wgsl"),
    },
];

/// The example whose file name is `file`.
pub fn find(file: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|e| e.file == file)
}
