//! Which dialect a kernel source is written in, and why, when nobody chose one: the marks each
//! vendor's code carries (its header, its launch, its builtins), first match wins.

use crosslane_core::Dialect;

/// Marks, in order of precedence: (text in the source, dialect, why).
const MARKS: &[(&str, Dialect, &str)] = &[
    (
        "__simt_vf__",
        Dialect::Ascend,
        "`__simt_vf__` (Ascend C SIMT entry)",
    ),
    (
        "__simt_callee__",
        Dialect::Ascend,
        "`__simt_callee__` (Ascend C SIMT helper)",
    ),
    (
        "__gm__",
        Dialect::Ascend,
        "`__gm__` (Ascend C global memory)",
    ),
    ("asc_", Dialect::Ascend, "an `asc_` builtin (Ascend C)"),
    (
        "__builtin_mxc",
        Dialect::Maca,
        "a `__builtin_mxc` builtin (MetaX MACA)",
    ),
    ("mcMalloc", Dialect::Maca, "`mcMalloc` (MetaX MACA runtime)"),
    ("mc_runtime.h", Dialect::Maca, "the MACA runtime header"),
    (
        "_sync_16(",
        Dialect::Maca,
        "a MetaX 16-lane shuffle (`__shfl_*_sync_16`, MACA)",
    ),
    // MetaX-only names a source written for mxcc / cucc carries: mxcc's own macros
    // (`#if defined(__MACA__)`, [`crate::pp`]'s MACA table), MetaX's MACA type and header
    // names (`__maca_bfloat16`, `maca_fp16.h`), its runtime's stream and copies, its CUTLASS
    // (`mctlass::`), and the `USE_MACA` switch of MetaX's vLLM / mcoplib sources.
    (
        "__MACA",
        Dialect::Maca,
        "`__MACA__` (mxcc's macro, MetaX MACA)",
    ),
    (
        "USE_MACA",
        Dialect::Maca,
        "`USE_MACA` (MetaX's MACA build switch)",
    ),
    ("__maca_", Dialect::Maca, "a `__maca_` type (MetaX MACA)"),
    (
        "maca_fp16",
        Dialect::Maca,
        "the MACA half header (`maca_fp16.h`)",
    ),
    (
        "maca_bfloat16",
        Dialect::Maca,
        "the MACA bfloat16 header (`maca_bfloat16.h`)",
    ),
    (
        "mcStream_t",
        Dialect::Maca,
        "`mcStream_t` (MetaX MACA runtime)",
    ),
    ("mcMemcpy", Dialect::Maca, "`mcMemcpy` (MetaX MACA runtime)"),
    ("mctlass", Dialect::Maca, "`mctlass` (MetaX's CUTLASS)"),
    ("hip/hip_runtime", Dialect::Hip, "the HIP runtime header"),
    (
        "hipLaunchKernelGGL",
        Dialect::Hip,
        "`hipLaunchKernelGGL` (HIP launch)",
    ),
    (
        "__builtin_amdgcn_",
        Dialect::Hip,
        "an `__builtin_amdgcn_` builtin (AMD GPUs, HIP)",
    ),
    ("__lane_id(", Dialect::Hip, "`__lane_id()` (HIP)"),
    ("hipMalloc", Dialect::Hip, "`hipMalloc` (HIP runtime)"),
    ("cuda_runtime", Dialect::Cuda, "the CUDA runtime header"),
    (
        "cooperative_groups",
        Dialect::Cuda,
        "cooperative groups (CUDA)",
    ),
    (
        "_sync(",
        Dialect::Cuda,
        "a `_sync(` warp intrinsic (CUDA 9+)",
    ),
    ("cudaMalloc", Dialect::Cuda, "`cudaMalloc` (CUDA runtime)"),
    ("<<<", Dialect::Cuda, "a `<<<…>>>` launch (CUDA)"),
    ("hip", Dialect::Hip, "the word `hip`"),
];

/// The dialect the source's marks name, and why (`"inferred from …"`); CUDA when it has none.
pub fn infer_dialect(source: &str) -> (Dialect, String) {
    for (mark, dialect, why) in MARKS {
        if source.contains(mark) {
            return (*dialect, format!("inferred from {why}"));
        }
    }
    (
        Dialect::Cuda,
        "no dialect mark in the source: CUDA by default".to_string(),
    )
}
