//! Which headers `__has_include` finds. crosslane reads no header, but it knows by name what
//! the vendors' and the C++ standard library's headers declare (the builtins, the Math API,
//! the vector and half types, cooperative groups, CUB/hipCUB, `<cstdint>`, `<cfloat>`,
//! `<type_traits>`, `std::numeric_limits`), so `__has_include` answers as the real toolchain
//! does for those: true for a C++17 standard header ([headers] tables 16 and 17, C++17) and for
//! a header the compiler of the dialect ships (nvcc: the CUDA Toolkit's `include/`; hipcc:
//! ROCm's), false for any other — a project's own header, which crosslane cannot read.
//! Which toolkit is present is read from the predefined macros: `__CUDACC__` (nvcc, CUDA C++
//! Programming Guide, "NVCC compiler macros") or `__HIPCC__` (HIP Programming Guide,
//! "Identifying HIP Target Platform"). Measured: `__has_include(<cuda_fp16.h>)` is true under
//! nvcc 13.0 (an NVIDIA H200 run, 2026-12-04, docs/benchmarks.md "On real silicon").

/// C++17 library headers and the C headers C++ provides ([headers]/2–3, tables 16 and 17;
/// the `.h` forms per [depr.c.headers]).
const STANDARD: &[&str] = &[
    "algorithm",
    "any",
    "array",
    "atomic",
    "bitset",
    "cassert",
    "cctype",
    "cerrno",
    "cfenv",
    "cfloat",
    "charconv",
    "chrono",
    "cinttypes",
    "climits",
    "clocale",
    "cmath",
    "complex",
    "condition_variable",
    "csetjmp",
    "csignal",
    "cstdarg",
    "cstddef",
    "cstdint",
    "cstdio",
    "cstdlib",
    "cstring",
    "ctime",
    "cuchar",
    "cwchar",
    "cwctype",
    "deque",
    "exception",
    "execution",
    "filesystem",
    "forward_list",
    "fstream",
    "functional",
    "future",
    "initializer_list",
    "iomanip",
    "ios",
    "iosfwd",
    "iostream",
    "istream",
    "iterator",
    "limits",
    "list",
    "locale",
    "map",
    "memory",
    "memory_resource",
    "mutex",
    "new",
    "numeric",
    "optional",
    "ostream",
    "queue",
    "random",
    "ratio",
    "regex",
    "scoped_allocator",
    "set",
    "shared_mutex",
    "sstream",
    "stack",
    "stdexcept",
    "streambuf",
    "string",
    "string_view",
    "system_error",
    "thread",
    "tuple",
    "type_traits",
    "typeindex",
    "typeinfo",
    "unordered_map",
    "unordered_set",
    "utility",
    "valarray",
    "variant",
    "vector",
    "assert.h",
    "ctype.h",
    "errno.h",
    "fenv.h",
    "float.h",
    "inttypes.h",
    "limits.h",
    "locale.h",
    "math.h",
    "setjmp.h",
    "signal.h",
    "stdarg.h",
    "stddef.h",
    "stdint.h",
    "stdio.h",
    "stdlib.h",
    "string.h",
    "time.h",
    "uchar.h",
    "wchar.h",
    "wctype.h",
];

/// Headers of the CUDA Toolkit whose declarations crosslane knows (a prefix ending in `/`
/// stands for the folder: `cub/`, `cooperative_groups/`, `cuda/std/`).
const CUDA: &[&str] = &[
    "cuda.h",
    "cuda_runtime.h",
    "cuda_runtime_api.h",
    "device_launch_parameters.h",
    "device_functions.h",
    "cuda_fp16.h",
    "cuda_fp16.hpp",
    "cuda_bf16.h",
    "cuda_bf16.hpp",
    "cuda_fp8.h",
    "cuda_fp8.hpp",
    "vector_types.h",
    "vector_functions.h",
    "math_constants.h",
    "math_functions.h",
    "sm_30_intrinsics.h",
    "sm_32_intrinsics.h",
    "sm_60_atomic_functions.h",
    "cooperative_groups.h",
    "cooperative_groups/",
    "cub/",
    "cuda/std/",
    "thrust/",
];

/// Headers of ROCm's HIP whose declarations crosslane knows.
const HIP: &[&str] = &[
    "hip/hip_runtime.h",
    "hip/hip_runtime_api.h",
    "hip/hip_fp16.h",
    "hip/hip_bf16.h",
    "hip/hip_bfloat16.h",
    "hip/hip_fp8.h",
    "hip/hip_vector_types.h",
    "hip/hip_cooperative_groups.h",
    "hip/math_functions.h",
    "hip/amd_detail/",
    "hipcub/",
    "rocprim/",
];

/// Whether `__has_include(operand)` is true (`operand` as written: `<cuda_fp16.h>` or
/// `"cuda_fp16.h"`), given which toolkit the predefined macros say is present.
pub(super) fn has_include(operand: &str, cuda: bool, hip: bool) -> bool {
    let name = operand
        .trim()
        .trim_start_matches(['<', '"'])
        .trim_end_matches(['>', '"'])
        .trim();
    let listed = |list: &[&str]| {
        list.iter().any(|h| {
            if h.ends_with('/') {
                name.starts_with(h)
            } else {
                name == *h
            }
        })
    };
    listed(STANDARD) || (cuda && listed(CUDA)) || (hip && listed(HIP))
}

/// The definition of `assert` that `<assert.h>` / `<cassert>` give (C17 7.2.1.1, C++17
/// \[cassert.syn\]): with `NDEBUG` defined, `((void)0)`; otherwise a call of the engine's
/// [`crate::builtins::ASSERT`] with the condition and its text, which stops the run where the
/// condition is false in some thread (CUDA C++ Programming Guide, "Assertion": a failed
/// device-side `assert` stops the kernel and prints the condition; HIP the same,
/// HIP Programming Guide, "Assert").
pub(super) fn assert_macro(ndebug: bool) -> &'static str {
    if ndebug {
        "assert(e) ((void)0)"
    } else {
        "assert(e) __crosslane_assert((e), #e)"
    }
}

/// The platform macros ROCm hip-tests' `hip_test_common.hh` defines on an AMD target (its
/// "Platform check" and "OS Check": `__HIP_PLATFORM_AMD__` gives `HT_AMD 1`, `HT_NVIDIA 0`; a
/// Linux host `HT_LINUX 1`, `HT_WIN 0`), which its tests test with `#if HT_AMD`; none for
/// another header or without `__HIP_PLATFORM_AMD__`.
pub(super) fn hip_test_macros(operand: &str, amd: bool) -> &'static [&'static str] {
    let name = operand
        .trim()
        .trim_matches(|c| matches!(c, '<' | '>' | '"'));
    let base = name.rsplit('/').next().unwrap_or(name);
    if amd && base == "hip_test_common.hh" {
        &["HT_AMD 1", "HT_NVIDIA 0", "HT_LINUX 1", "HT_WIN 0"]
    } else {
        &[]
    }
}

/// The configuration macros rocPRIM's `rocprim/config.hpp` and hipCUB's
/// `hipcub/config.hpp` (rocPRIM backend) define, for an `#include` of any `<rocprim/…>` or
/// `<hipcub/…>` header on an AMD target, unless the file defines them: the wave width as
/// `ROCPRIM_WAVEFRONT_SIZE` (rocPRIM: `__AMDGCN_WAVEFRONT_SIZE`), the launch-bound defaults
/// `ROCPRIM_DEFAULT_MAX_BLOCK_SIZE 256` / `ROCPRIM_DEFAULT_MIN_WARPS_PER_EU 1`, the two warp
/// sizes `ROCPRIM_WARP_SIZE_32` / `_64` and hipCUB's `HIPCUB_WARP_SIZE_32` / `_64`, and
/// hipCUB's `HIPCUB_WARP_THREADS` (`::rocprim::warp_size()`), `HIPCUB_DEVICE_WARP_THREADS`
/// (`::rocprim::device_warp_size()`) and `HIPCUB_HOST_WARP_THREADS`
/// (`::rocprim::host_warp_size()`, the device's wave width queried from the host) — each the
/// run's wave width here, the one device crosslane runs (`__AMDGCN_WAVEFRONT_SIZE__`); and
/// the two libraries' function and variable decorations (`ROCPRIM_DEVICE`, `ROCPRIM_INLINE`,
/// `ROCPRIM_SHARED_MEMORY`, `HIPCUB_HOST_DEVICE`, … as those headers spell them).
pub(super) fn rocprim_macros(operand: &str, amd: bool) -> &'static [&'static str] {
    let name = operand
        .trim()
        .trim_matches(|c| matches!(c, '<' | '>' | '"'));
    if amd && (name.starts_with("rocprim/") || name.starts_with("hipcub/")) {
        &[
            "ROCPRIM_WAVEFRONT_SIZE __AMDGCN_WAVEFRONT_SIZE__",
            "ROCPRIM_WARP_SIZE_32 32u",
            "ROCPRIM_WARP_SIZE_64 64u",
            "ROCPRIM_MAX_WARP_SIZE 64u",
            "ROCPRIM_DEFAULT_MAX_BLOCK_SIZE 256",
            "ROCPRIM_DEFAULT_MIN_WARPS_PER_EU 1",
            "HIPCUB_WARP_SIZE_32 32u",
            "HIPCUB_WARP_SIZE_64 64u",
            "HIPCUB_WARP_THREADS __AMDGCN_WAVEFRONT_SIZE__",
            "HIPCUB_DEVICE_WARP_THREADS __AMDGCN_WAVEFRONT_SIZE__",
            "HIPCUB_HOST_WARP_THREADS __AMDGCN_WAVEFRONT_SIZE__",
            "ROCPRIM_HOST __host__",
            "ROCPRIM_DEVICE __device__",
            "ROCPRIM_HOST_DEVICE __host__ __device__",
            "ROCPRIM_INLINE inline",
            "ROCPRIM_FORCE_INLINE __forceinline__",
            "ROCPRIM_SHARED_MEMORY __shared__",
            "ROCPRIM_KERNEL __global__",
            "HIPCUB_HOST __host__",
            "HIPCUB_DEVICE __device__",
            "HIPCUB_HOST_DEVICE __host__ __device__",
            "HIPCUB_FORCEINLINE __forceinline__",
            "HIPCUB_SHARED_MEMORY __shared__",
            "HIPCUB_RUNTIME_FUNCTION __host__",
        ]
    } else {
        &[]
    }
}

/// Whether the operand of an `#include` names `<assert.h>` or `<cassert>`.
pub(super) fn is_assert_header(operand: &str) -> bool {
    matches!(
        operand.trim(),
        "<assert.h>" | "<cassert>" | "\"assert.h\"" | "\"cassert\""
    )
}

#[cfg(test)]
mod tests {
    use super::has_include;

    #[test]
    fn toolkit_and_standard_headers_are_found() {
        assert!(has_include("<cuda_fp16.h>", true, false));
        assert!(has_include("\"cuda_fp16.h\"", true, false));
        assert!(has_include("<cub/block/block_reduce.cuh>", true, false));
        assert!(!has_include("<cuda_fp16.h>", false, true));
        assert!(has_include("<hip/hip_fp16.h>", false, true));
        assert!(has_include("<type_traits>", false, false));
        assert!(!has_include("\"my_kernels.h\"", true, false));
        assert!(!has_include("<cub_extra.h>", true, false));
    }
}
