//! The macros each vendor's compiler predefines for device code, per dialect and target: one
//! table, documented in docs/kernels.md ("Predefined macros per dialect").

use crosslane_core::Dialect;

/// The CUDA architecture assumed when none is given: sm_90 (Hopper), so `__CUDA_ARCH__` is 900
/// and every `#if __CUDA_ARCH__ >= 700` (Volta and newer) path is the one taken.
pub const DEFAULT_CUDA_ARCH: &str = "sm_90";

/// The lanes of a warp when `--lanes` is not given: HIP (and AMD GCN/RDNA) on a processor with
/// the wave32 feature — GFX10, GFX11 and GFX12 (RDNA) — compiles for 32-lane waves unless
/// `-mwavefrontsize64` is given, so `warpSize` and `__AMDGCN_WAVEFRONT_SIZE__` are 32 there
/// (clang's AMDGPU target, `WavefrontSize = FEATURE_WAVE32 ? 32 : 64`, and its driver's
/// `isWave64`; ROCm HIP documentation, "Hardware implementation": RDNA runs wave32 by
/// default); GFX9 and CDNA (`gfx90a`, `gfx942`) are wave64 only. Without an `--arch`, or for
/// another dialect, the dialect's default ([`Dialect::default_lanes`]).
pub fn default_lanes(dialect: Dialect, arch: Option<&str>) -> usize {
    let wave32 = matches!(dialect, Dialect::Hip | Dialect::Amdgcn)
        && arch
            .and_then(|a| crosslane_core::dialect::amdgcn::arch::parse(a).ok())
            .is_some_and(|t| t.is_gfx10_plus());
    if wave32 {
        32
    } else {
        dialect.default_lanes()
    }
}

/// The AMD target a HIP or AMD GCN run without `--arch` runs its AMD operations as, on 64-lane
/// waves: gfx942 (CDNA3, MI300), a wave64-only target, so the lane count and the target agree
/// (the GFX9/CDNA DPP controls such as `row_bcast:15` run; the GFX10+ ones such as `row_xmask`
/// and the RDNA permlanes are refused, naming the targets that have them).
pub const DEFAULT_AMD_WAVE64: &str = "gfx942";

/// The same on 32-lane waves (`--lanes 32` without `--arch`): the registry's default target,
/// gfx1030 (RDNA2), which runs wave32 ([`crosslane_core::dialect::amdgcn::arch::DEFAULT`]).
pub const DEFAULT_AMD_WAVE32: &str = crosslane_core::dialect::amdgcn::arch::DEFAULT;

/// The AMD target a run of `dialect` on `lanes`-lane warps runs its AMD operations as, and where
/// it came from: `--arch` when given, else [`DEFAULT_AMD_WAVE64`] or [`DEFAULT_AMD_WAVE32`] by
/// the lane count, so that the target always runs waves of the run's size. `None` for a
/// dialect that is not HIP or AMD GCN. The predefined `__gfxNNN__` and `__GFXN__` are this
/// target's ([`predefined`]; docs/kernels.md), with or without `--arch`.
pub fn amd_target(
    dialect: Dialect,
    arch: Option<&str>,
    lanes: usize,
) -> Option<(String, &'static str)> {
    if !matches!(dialect, Dialect::Hip | Dialect::Amdgcn) {
        return None;
    }
    Some(match arch {
        Some(a) => (a.trim().to_ascii_lowercase(), "--arch"),
        None if lanes == 32 => (
            DEFAULT_AMD_WAVE32.to_string(),
            "the default for 32 lanes without --arch",
        ),
        None => (
            DEFAULT_AMD_WAVE64.to_string(),
            "the default for 64 lanes without --arch",
        ),
    })
}

/// glibc's `<sys/cdefs.h>` (which `<stdio.h>` and every other C library header include, and
/// which nvcc and hipcc bring in through their host headers on Linux): `#define __always_inline
/// __inline __attribute__ ((__always_inline__))`, written on device functions
/// (`__device__ __always_inline int f(…)`). An inlining hint; it changes no value.
const GLIBC_ALWAYS_INLINE: (&str, &str) = (
    "__always_inline",
    "__inline __attribute__((__always_inline__))",
);

/// CUDA's pipeline primitives as the copies they complete into (see [`predefined`]).
const PIPELINE_MACROS: [(&str, &str); 3] = [
    (
        "__pipeline_memcpy_async(dst, src, size)",
        "(memcpy(dst, src, size), __crosslane_async_copy(dst, size, 2))",
    ),
    ("__pipeline_commit()", "__crosslane_async_commit()"),
    ("__pipeline_wait_prior(n)", "__crosslane_async_wait(n)"),
];

/// The macros predefined for device code of `dialect` on `lanes`-wide warps for target `arch`
/// (CUDA `sm_XX` / `compute_XX`; HIP or AMDGCN an LLVM AMD processor `gfxNNN`), as
/// `(name, replacement)`.
///
/// Sources: CUDA — NVCC documentation, "NVCC Identification Macro" (`__NVCC__`, `__CUDACC__`)
/// and "Virtual Architecture Macros" (`__CUDA_ARCH__` = 100 × major + 10 × minor of the
/// architecture compiled for); HIP — HIP Programming Guide, "HIP-Clang Compilation"
/// (`__HIPCC__`, `__HIP__`, `__HIP_PLATFORM_AMD__`, `__HIP_DEVICE_COMPILE__`) and clang's AMDGPU
/// target (`__AMDGCN__`, `__AMDGCN_WAVEFRONT_SIZE__` and its older spelling
/// `__AMDGCN_WAVEFRONT_SIZE`, `__gfxNNN__`, `__GFXN__` of the run's target ([`amd_target`]:
/// `--arch`, else gfx942 on 64 lanes and gfx1030 on 32), and for HIP the memory scopes
/// `__HIP_MEMORY_SCOPE_SINGLETHREAD` (1) … `__HIP_MEMORY_SCOPE_SYSTEM` (5)). Both compile C++17
/// by default (`__cplusplus` 201703L, \[cpp.predefined\]/1), and both get GCC's and clang's
/// memory orders `__ATOMIC_RELAXED` (0) … `__ATOMIC_SEQ_CST` (5) (GCC manual, "Built-in
/// Functions for Memory Model Aware Atomic Operations"; nvcc preprocesses with the host
/// compiler, which predefines them) for the `__atomic_*` builtins ([`crate::atomics`]). Ascend C: CANN's headers' `LAUNCH_BOUND(n)`
/// (= `__launch_bounds__(n)`), which every Ascend C source gets from `kernel_operator.h`, and
/// the qualifier `__simt_callee__` (= `__device__`). MACA:
/// mxcc's `__MACA__`, `__MACACC__` and `__MACA_ARCH__` (the table `MACA_MACROS`).
///
/// # Errors
/// A message naming the accepted forms when `arch` does not belong to the dialect.
pub fn predefined(
    dialect: Dialect,
    lanes: usize,
    arch: Option<&str>,
) -> Result<Vec<(String, String)>, String> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut def = |n: &str, v: String| out.push((n.to_string(), v));
    match dialect {
        Dialect::Cuda => {
            let sm = arch.unwrap_or(DEFAULT_CUDA_ARCH);
            def("__CUDACC__", "1".into());
            def("__NVCC__", "1".into());
            def("__CUDA_ARCH__", cuda_arch(sm)?.to_string());
            def("__cplusplus", "201703L".into());
            // The toolkit modelled: CUDA 12.4. nvcc predefines its own version ("NVCC
            // Identification Macro": `__CUDACC_VER_MAJOR__` …) and force-includes
            // `cuda_runtime.h`, whose `cuda_runtime_api.h` defines `CUDART_VERSION` (1000 ×
            // major + 10 × minor); `CUDA_VERSION` (`cuda.h`) is the same number, defined here too
            // because code gates on either (`#if CUDART_VERSION >= 9000`).
            for (n, v) in CUDA_VERSION_MACROS {
                def(n, v.to_string());
            }
            for (k, n) in crate::atomics::ORDERS.iter().enumerate() {
                def(n, k.to_string());
            }
            // The pipeline primitives of `cuda_pipeline_primitives.h` (CUDA C++ Programming
            // Guide, "Pipeline Primitives Interface"): `__pipeline_memcpy_async` copies at
            // once and marks the destination not yet complete, the commit closes a batch and
            // `__pipeline_wait_prior(N)` completes all but the newest N batches
            // (`machine::async_copy`), so a read before the wait is undefined and the
            // destination holds the data after it.
            for (n, v) in PIPELINE_MACROS {
                def(n, v.to_string());
            }
            def(GLIBC_ALWAYS_INLINE.0, GLIBC_ALWAYS_INLINE.1.into());
        }
        Dialect::Hip | Dialect::Amdgcn => {
            def("__HIPCC__", "1".into());
            def("__HIP__", "1".into());
            def("__HIP_PLATFORM_AMD__", "1".into());
            def("__HIP_DEVICE_COMPILE__", "1".into());
            def("__AMDGCN__", "1".into());
            def("__AMDGCN_WAVEFRONT_SIZE__", lanes.to_string());
            def("__AMDGCN_WAVEFRONT_SIZE", lanes.to_string());
            def("__cplusplus", "201703L".into());
            // The ROCm modelled: 6.2 (`hip/hip_version.h`: HIP_VERSION = major × 10^7 +
            // minor × 10^5 + patch).
            for (n, v) in HIP_VERSION_MACROS {
                def(n, v.to_string());
            }
            for (k, n) in crate::atomics::ORDERS.iter().enumerate() {
                def(n, k.to_string());
            }
            for (k, n) in crate::atomics::SCOPES.iter().enumerate() {
                def(n, (k + 1).to_string());
            }
            def(GLIBC_ALWAYS_INLINE.0, GLIBC_ALWAYS_INLINE.1.into());
            if dialect == Dialect::Hip {
                // hip_runtime.h's legacy spellings of the built-in index variables.
                for (prefix, var) in HIP_INDEX_MACROS {
                    for c in ["x", "y", "z"] {
                        def(&format!("{prefix}_{c}"), format!("{var}.{c}"));
                    }
                }
                // hip_runtime.h's dynamic shared memory declaration, kept "for compatibility
                // with old HIP applications" (`hip/amd_detail/amd_hip_runtime.h`: `#define
                // HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];`, the `;`
                // included, so sources write it without one) and its attribute, defined empty
                // beside it.
                def(
                    "HIP_DYNAMIC_SHARED(type, var)",
                    "extern __shared__ type var[];".into(),
                );
                def("HIP_DYNAMIC_SHARED_ATTRIBUTE", String::new());
            }
            // The target's macros are those of the target the run names: `--arch`, else the
            // default for the lane count ([`amd_target`]), so that a run reported as gfx942
            // takes the `#if defined(__GFX9__)` paths hipcc would compile for gfx942.
            if let Some((target, _)) = amd_target(dialect, arch, lanes) {
                let (proc_macro, family) = gfx_macros(&target)?;
                def(&proc_macro, "1".into());
                def(&family, "1".into());
            }
        }
        Dialect::Ascend | Dialect::Maca | Dialect::Wgsl => {
            if dialect == Dialect::Ascend {
                // CANN's kernel headers (`kernel_operator.h`, asc-devkit `LAUNCH_BOUND`):
                // `#define LAUNCH_BOUND(n) __launch_bounds__(n)`.
                def("LAUNCH_BOUND(n)", "__launch_bounds__(n)".into());
                // The execution-space qualifier of a helper that SIMT code calls: a device
                // function (CANN API reference, SIMD与SIMT混合编程, "函数执行空间限定符":
                // `__simt_callee__` is "SIMT VF的子函数", called inside a SIMT VF, and may use
                // the SIMT built-in variables), read as `__device__`; asc-devkit's headers
                // declare the SIMT API functions with it.
                def("__simt_callee__", "__device__".into());
                // CANN's `kernel_operator.h` (asc-devkit): `#define GM_ADDR __gm__ uint8_t*`,
                // the global-memory address a kernel takes and casts (`(__gm__ float*)x`).
                def("GM_ADDR", "__gm__ uint8_t*".into());
            }
            if dialect == Dialect::Maca {
                // mxcc's device pass ([`MACA_MACROS`]).
                for (n, v) in MACA_MACROS {
                    def(n, v.to_string());
                }
            }
            if let Some(a) = arch {
                return Err(format!(
                    "--arch `{a}` means nothing for {}: only CUDA (sm_XX) and HIP (gfxNNN) take one",
                    dialect.name()
                ));
            }
        }
    }
    // The integer limits and sizes clang and GCC predefine on an LP64 target (clang's
    // `__LONG_LONG_MAX__`, `__INT_MAX__`, `__SIZEOF_LONG__`, …; hipcc is clang, nvcc's host
    // compiler GCC; the AMDGPU device target is LP64 too), which `<climits>` builds on and code
    // names directly (hip-tests' `static_cast<uint64_t>(__LONG_LONG_MAX__) + 1`).
    if matches!(dialect, Dialect::Cuda | Dialect::Hip | Dialect::Amdgcn) {
        for (n, v) in LIMIT_MACROS {
            out.push((n.to_string(), v.to_string()));
        }
    }
    Ok(out)
}

/// The integer limit and size macros clang and GCC predefine for an LP64 target (see
/// [`predefined`]).
const LIMIT_MACROS: &[(&str, &str)] = &[
    ("__CHAR_BIT__", "8"),
    ("__SCHAR_MAX__", "127"),
    ("__SHRT_MAX__", "32767"),
    ("__INT_MAX__", "2147483647"),
    ("__LONG_MAX__", "9223372036854775807L"),
    ("__LONG_LONG_MAX__", "9223372036854775807LL"),
    ("__SIZEOF_SHORT__", "2"),
    ("__SIZEOF_INT__", "4"),
    ("__SIZEOF_LONG__", "8"),
    ("__SIZEOF_LONG_LONG__", "8"),
    ("__SIZEOF_FLOAT__", "4"),
    ("__SIZEOF_DOUBLE__", "8"),
    ("__SIZEOF_POINTER__", "8"),
];

/// CUDA 12.4's version macros: nvcc's own and the runtime header's (see [`predefined`]).
const CUDA_VERSION_MACROS: &[(&str, u32)] = &[
    ("__CUDACC_VER_MAJOR__", 12),
    ("__CUDACC_VER_MINOR__", 4),
    ("__CUDACC_VER_BUILD__", 131),
    ("CUDART_VERSION", 12040),
    ("CUDA_VERSION", 12040),
];

/// The macros MetaX's compiler mxcc predefines in a device compile, as a kernel run here is one:
/// `__MACA__` and `__MACACC__` (1, in the host and the device pass) and `__MACA_ARCH__`, the
/// target's family number, defined in the device pass only (1000 for `--offload-arch=xcore1000`).
/// The MACA documents this project holds (docs/seeds, the builtin manual) do not list the
/// compiler's macros; the source is code: a MACA port's compiler probe that prints them per
/// pass (MACA 3.7.0, mxcc through cu-bridge's `cucc`, `--offload-arch=xcore1000`: `__MACA__`
/// and `__MACACC__` both passes, `__MACA_ARCH__` = 1000 device pass only), and MetaX's own
/// libraries (mcSPARSE selects its MACA paths with `#if defined(__MACA__)`). The target is
/// xcore1000, the first one seed 002 names and the MACA builtins' default target below the
/// xcore1500 line. `__CUDACC__` / `__NVCC__` / `__CUDA_ARCH__`, which the same probe shows,
/// come from cu-bridge's CUDA adapter header (`cucc -imacros __macro_mxcc.h`), not from mxcc,
/// and are not defined.
const MACA_MACROS: &[(&str, u32)] = &[("__MACA__", 1), ("__MACACC__", 1), ("__MACA_ARCH__", 1000)];

/// ROCm 6.2's HIP version macros (`hip/hip_version.h`, included by `hip_runtime.h`).
const HIP_VERSION_MACROS: &[(&str, u32)] = &[
    ("HIP_VERSION_MAJOR", 6),
    ("HIP_VERSION_MINOR", 2),
    ("HIP_VERSION_PATCH", 41133),
    ("HIP_VERSION", 60_241_133),
];

/// HIP's legacy index macros and the built-in variable each stands for: `hipThreadIdx_x` is
/// `threadIdx.x`, and so on for `y`, `z` and the other three: HIP's runtime header
/// (`hip/hip_runtime.h`, through `hip/amd_detail/amd_hip_runtime.h`) defines `hipThreadIdx_x`
/// … `hipGridDim_z` as object-like macros over the built-in variables `threadIdx`, `blockIdx`,
/// `blockDim` and `gridDim`. Every HIP kernel source includes that header (headers are not
/// read here), so they are predefined for the HIP dialect only.
const HIP_INDEX_MACROS: [(&str, &str); 4] = [
    ("hipThreadIdx", "threadIdx"),
    ("hipBlockIdx", "blockIdx"),
    ("hipBlockDim", "blockDim"),
    ("hipGridDim", "gridDim"),
];

/// `__CUDA_ARCH__` of `sm_XY` / `compute_XY` (optionally with an `a`/`f` suffix): XY × 10.
fn cuda_arch(sm: &str) -> Result<u32, String> {
    let digits = sm
        .strip_prefix("sm_")
        .or_else(|| sm.strip_prefix("compute_"))
        .map(|d| d.trim_end_matches(['a', 'f']))
        .filter(|d| (2..=3).contains(&d.len()) && d.chars().all(|c| c.is_ascii_digit()));
    match digits.and_then(|d| d.parse::<u32>().ok()) {
        Some(n) => Ok(n * 10),
        None => Err(format!(
            "CUDA --arch `{sm}`: expected sm_XY or compute_XY (sm_70, sm_80, sm_90, sm_100a, …)"
        )),
    }
}

/// `__gfxNNN__` and `__GFXN__` of an AMD processor (`gfx942` → `__gfx942__`, `__GFX9__`;
/// `gfx1030` → `__gfx1030__`, `__GFX10__`), for the targets this project models.
fn gfx_macros(arch: &str) -> Result<(String, String), String> {
    let t =
        crosslane_core::dialect::amdgcn::arch::parse(arch).map_err(|e| format!("--arch: {e}"))?;
    let digits = t.name.trim_start_matches("gfx");
    // The major version is the digits before the last two (stepping and minor).
    let major = &digits[..digits.len().saturating_sub(2)];
    Ok((format!("__{}__", t.name), format!("__GFX{major}__")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(list: &[(String, String)], n: &str) -> Option<String> {
        list.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone())
    }

    #[test]
    fn cuda_arch_from_sm() {
        let d = predefined(Dialect::Cuda, 32, None).unwrap();
        assert_eq!(get(&d, "__CUDA_ARCH__").as_deref(), Some("900"));
        let d = predefined(Dialect::Cuda, 32, Some("sm_70")).unwrap();
        assert_eq!(get(&d, "__CUDA_ARCH__").as_deref(), Some("700"));
        let d = predefined(Dialect::Cuda, 32, Some("sm_100a")).unwrap();
        assert_eq!(get(&d, "__CUDA_ARCH__").as_deref(), Some("1000"));
        assert!(predefined(Dialect::Cuda, 32, Some("gfx942")).is_err());
    }

    #[test]
    fn rdna_defaults_to_wave32_and_gfx9_to_wave64() {
        // RDNA (GFX10/11/12) has the wave32 feature: 32 by default; GFX9/CDNA: 64.
        for a in ["gfx1030", "gfx1100", "gfx1150", "gfx1200"] {
            assert_eq!(default_lanes(Dialect::Hip, Some(a)), 32, "{a}");
        }
        for a in ["gfx908", "gfx90a", "gfx942"] {
            assert_eq!(default_lanes(Dialect::Hip, Some(a)), 64, "{a}");
        }
        assert_eq!(default_lanes(Dialect::Hip, None), 64);
        assert_eq!(default_lanes(Dialect::Cuda, Some("sm_80")), 32);
    }

    #[test]
    fn hip_wave_and_gfx() {
        let d = predefined(Dialect::Hip, 64, Some("gfx942")).unwrap();
        assert_eq!(get(&d, "__AMDGCN_WAVEFRONT_SIZE").as_deref(), Some("64"));
        assert_eq!(get(&d, "__gfx942__").as_deref(), Some("1"));
        assert_eq!(get(&d, "__GFX9__").as_deref(), Some("1"));
        let d = predefined(Dialect::Hip, 32, Some("gfx1100")).unwrap();
        assert_eq!(get(&d, "__AMDGCN_WAVEFRONT_SIZE__").as_deref(), Some("32"));
        assert_eq!(get(&d, "__GFX11__").as_deref(), Some("1"));
        assert!(get(&d, "__CUDA_ARCH__").is_none());
    }

    #[test]
    fn hip_without_arch_defines_the_default_targets_macros() {
        // No --arch: the run is gfx942 on 64 lanes and gfx1030 on 32 (amd_target), and the
        // macros are that target's, as `--arch gfx942` / `--arch gfx1030` give them.
        let d = predefined(Dialect::Hip, 64, None).unwrap();
        assert_eq!(get(&d, "__gfx942__").as_deref(), Some("1"));
        assert_eq!(get(&d, "__GFX9__").as_deref(), Some("1"));
        assert!(get(&d, "__GFX10__").is_none());
        let d = predefined(Dialect::Hip, 32, None).unwrap();
        assert_eq!(get(&d, "__gfx1030__").as_deref(), Some("1"));
        assert_eq!(get(&d, "__GFX10__").as_deref(), Some("1"));
        assert!(get(&d, "__GFX9__").is_none());
        // An --arch given wins over the lane count's default.
        let d = predefined(Dialect::Hip, 64, Some("gfx90a")).unwrap();
        assert_eq!(get(&d, "__gfx90a__").as_deref(), Some("1"));
        assert!(get(&d, "__gfx942__").is_none());
        // CUDA has none of them.
        let d = predefined(Dialect::Cuda, 32, None).unwrap();
        assert!(get(&d, "__GFX9__").is_none());
    }

    #[test]
    fn ascend_simt_callee_is_a_device_function() {
        let d = predefined(Dialect::Ascend, 32, None).unwrap();
        assert_eq!(get(&d, "__simt_callee__").as_deref(), Some("__device__"));
        let d = predefined(Dialect::Cuda, 32, None).unwrap();
        assert!(get(&d, "__simt_callee__").is_none());
    }

    #[test]
    fn maca_defines_mxccs_device_pass_macros() {
        let d = predefined(Dialect::Maca, 64, None).unwrap();
        assert_eq!(get(&d, "__MACA__").as_deref(), Some("1"));
        assert_eq!(get(&d, "__MACACC__").as_deref(), Some("1"));
        assert_eq!(get(&d, "__MACA_ARCH__").as_deref(), Some("1000"));
        // cu-bridge's adapter, not mxcc: no CUDA macros.
        assert!(get(&d, "__CUDACC__").is_none());
        for other in [Dialect::Cuda, Dialect::Hip, Dialect::Ascend] {
            let d = predefined(other, 32, None).unwrap();
            assert!(get(&d, "__MACA__").is_none(), "{other:?}");
        }
    }

    #[test]
    fn hip_legacy_index_macros_name_the_built_in_variables() {
        let d = predefined(Dialect::Hip, 64, None).unwrap();
        assert_eq!(get(&d, "hipThreadIdx_x").as_deref(), Some("threadIdx.x"));
        // ROCm 6.2: 6 × 10^7 + 2 × 10^5 + 41133.
        assert_eq!(get(&d, "HIP_VERSION").as_deref(), Some("60241133"));
        assert_eq!(get(&d, "hipBlockIdx_y").as_deref(), Some("blockIdx.y"));
        assert_eq!(get(&d, "hipBlockDim_z").as_deref(), Some("blockDim.z"));
        assert_eq!(get(&d, "hipGridDim_x").as_deref(), Some("gridDim.x"));
        // hip_runtime.h's, not the compiler's: no other dialect has them.
        for other in [Dialect::Cuda, Dialect::Amdgcn] {
            let d = predefined(other, 32, None).unwrap();
            assert!(get(&d, "hipThreadIdx_x").is_none(), "{other:?}");
        }
    }
}
