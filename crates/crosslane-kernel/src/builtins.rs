//! Calls inside a kernel: the cross-lane operations of every dialect (run through their
//! [`OpSpec`]), and the small set of kernel built-ins (`__lane_id`, barriers, memory fences,
//! math functions).
//!
//! A cross-lane call becomes one [`OpInput`] for the warp: the operand is the argument evaluated
//! in every active lane; the other arguments fill the op's parameters by position, from the op's
//! typed argument list ([`OpSpec::args`]); omitted trailing arguments take the parameter's
//! default. Each lane's own value is used where the vendor takes the argument per thread
//! ([`Thread::PerThread`]). Where the vendor requires one value (uniform, const-expression,
//! immediate) and the lanes disagree, the call's lanes are undefined with a warning citing the
//! rule — never the first lane's value quietly; a scalar-register operand ([`Thread::Scalar`])
//! takes the first active lane's value, as the hardware does, with a warning that says so.

use super::trace::{LaneVal, Undef};
use super::types::{KVal, Scalar, ValTy};
use crosslane_core::args::{Role, Thread};
use crosslane_core::lanes::LaneMask;
use crosslane_core::op::{all_ops, Dialect, OpInput, OpKind, OpSpec};
use crosslane_core::params::{
    default_param, ParamDefault, ParamKind, ParamSpec, ParamValue, Params,
};
use crosslane_core::result::{Level, Source};
use crosslane_core::trace::Step;
use crosslane_core::value::{Value, ValueType};

mod bind;
use bind::{launch_target, param_value, to_type, Bound, Note};

/// What a kernel built-in name is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// `__lane_id()`: the lane's index in its warp.
    LaneId,
    /// A block-wide barrier (`__syncthreads()`; `__builtin_mxc_barrier_ex(0..=2)`;
    /// `__builtin_mxc_barrier_and_wait*(1, …)`).
    Barrier,
    /// A call that only orders memory or wastes cycles here (fences, `arrive`, `nop`, a
    /// `barrier_ex(3)` or `barrier_and_wait*(0, …)`): runs as nothing, with a note.
    NoOp,
    /// A math function (`min`, `max`, `abs`, `sqrtf`, …).
    Math,
    /// An atomic on memory (`atomicAdd(&x[i], v)`, `atomicAdd_block`, `__atomic_fetch_add`,
    /// `__hip_atomic_load`, …): the table and its sources are in [`crate::atomics`].
    Atomic,
}

/// Classifies a called name that is a kernel built-in rather than a cross-lane operation.
pub fn builtin(name: &str) -> Option<Builtin> {
    Some(match name {
        "__lane_id" | "__laneid" => Builtin::LaneId,
        // `asc_syncthreads()`: Ascend C SIMT's block barrier (CANN API reference).
        // `__builtin_amdgcn_s_barrier()`: AMD's S_BARRIER alone, no memory fence (the
        // machine's note says so; semantics.md "AMD s_barrier").
        "__syncthreads"
        | "asc_syncthreads"
        | "__builtin_mxc_barrier_ex"
        | "__syncwarp"
        | "__builtin_amdgcn_s_barrier" => Builtin::Barrier,
        // `grid.sync()` of cooperative groups, run only in a grid of one block (the
        // semantic pass refuses it in a larger grid): that block's barrier (CUDA C++
        // Programming Guide, Cooperative Groups, Grid Synchronization: every thread of the
        // grid waits there, and the grid is this block).
        crate::parser::GRID_SYNC | crate::parser::GRID_SYNC_ANY => Builtin::Barrier,
        n if n.starts_with("__builtin_mxc_barrier_and_wait") => Builtin::Barrier,
        "__threadfence"
        | "__threadfence_block"
        | "__threadfence_system"
        // Sleeps: a wait of some time, no effect on any value (CUDA C++ Programming Guide,
        // "Nanosleep Function": "suspends the thread for a sleep duration of approximately
        // ns nanoseconds"; clang's AMDGPU builtins, `__builtin_amdgcn_s_sleep` is the
        // `S_SLEEP` instruction, AMD ISA: the wave sleeps about 64 × n clocks). Here no
        // time passes.
        | "__nanosleep"
        | "__builtin_amdgcn_s_sleep"
        | "asc_threadfence"
        | "asc_threadfence_block"
        // A compiler-only scheduling barrier within the wavefront: no instruction, no
        // effect on values (clang's AMDGPU builtins, `__builtin_amdgcn_wave_barrier`).
        | "__builtin_amdgcn_wave_barrier"
        // A fence, S_WAITCNT (clang AMDGPU builtins): memory completes at once here (amdgcn_ids).
        | "__builtin_amdgcn_fence"
        | "__builtin_amdgcn_s_waitcnt"
        // Scheduling hints to the compiler's instruction scheduler (clang's AMDGPU builtins:
        // `sched_barrier(mask)` says which instructions may cross it, `sched_group_barrier(mask,
        // size, sync_id)` orders groups, `iglp_opt(n)` picks a strategy): they emit no
        // instruction and change no value; the order they shape is not one a value shows.
        | "__builtin_amdgcn_sched_barrier"
        | "__builtin_amdgcn_sched_group_barrier"
        | "__builtin_amdgcn_iglp_opt"
        | "__builtin_mxc_nop"
        | "__builtin_mxc_arrive"
        | "__builtin_mxc_arrive_gvmcnt"
        | "__builtin_mxc_arrive_bsmcnt"
        | "printf"
        | ASSUME
        | UNREACHABLE
        | ASSERT => Builtin::NoOp,
        // Programmatic Dependent Launch (CUDA C++ Programming Guide, "Programmatic Dependent
        // Launch and Synchronization", compute capability 9.0; PTX ISA, griddepcontrol): no
        // launch read here is programmatic, so each starts after the work before it in its
        // stream has completed; the wait returns at once and the trigger only lets a later
        // launch start early. Neither changes a value of this kernel.
        n if PDL_CALLS.contains(&n) => Builtin::NoOp,
        // CUDA's and HIP's atomics, their `_block` / `_system` variants, GCC's `__atomic_*`
        // and clang's `__hip_atomic_*` builtins: one table (kernel::atomics).
        n if super::atomics::form(n).is_some() => Builtin::Atomic,
        "min" | "max" | "abs" | "fabs" | "fabsf" | "sqrt" | "sqrtf" | "floor" | "floorf"
        | "ceil" | "ceilf" | "fmin" | "fminf" | "fmax" | "fmaxf" | "__popc" | "__popcll"
        | "__clz" | "__ffs" | "__float_as_int" | "__int_as_float" | "__float_as_uint"
        | "__uint_as_float" => Builtin::Math,
        n if LANE_MATH.contains(&n) => Builtin::Math,
        VALID_ONLY => Builtin::Math,
        // The asynchronous copies' marks (kernel::machine::async_copy), run by `machine::call`.
        crate::machine::async_copy::ASYNC_COPY
        | crate::machine::async_copy::ASYNC_COMMIT
        | crate::machine::async_copy::ASYNC_WAIT => Builtin::Math,
        n if crate::machine::shared_window::is_call(n) => Builtin::Math,
        n if super::half::is_intrinsic(n)
            || super::fp8::is_intrinsic(n)
            || super::hip_fp8_cvt::is_intrinsic(n)
            || super::vector_types::constructor(n).is_some() =>
        {
            Builtin::Math
        }
        // A math function, or an extended vector's swizzle the parser lowered (ext_swizzle).
        n if super::mathlib::is_math(n) || super::ext_swizzle::is_call(n) => Builtin::Math,
        // A `cvt` of inline PTX `asm`, lowered by the parser (kernel::ptx_cvt).
        n if super::ptx_cvt::is_cvt(n) => Builtin::Math,
        // An arithmetic instruction of inline PTX `asm`, lowered by the parser (kernel::ptx_ops).
        n if super::ptx_ops::is_op(n) => Builtin::Math,
        // A union member or `memcpy` read as bytes, lowered by the parser (kernel::reinterpret).
        n if super::reinterpret::is_reinterpret(n) => Builtin::Math,
        // WGSL's built-in functions, called by the WGSL lowering (kernel::wgsl::math).
        #[cfg(feature = "wgsl")]
        n if n
            .strip_prefix(super::wgsl::math::PREFIX)
            .is_some_and(super::wgsl::math::is_builtin) =>
        {
            Builtin::Math
        }
        _ => return None,
    })
}

/// The device side of Programmatic Dependent Launch (CUDA C++ Programming Guide,
/// "Programmatic Dependent Launch and Synchronization"; CUDA Runtime API, Device functions:
/// `cudaGridDependencySynchronize`, `cudaTriggerProgrammaticLaunchCompletion`) and the PTX
/// instructions they are (PTX ISA, griddepcontrol: `griddepcontrol.wait`,
/// `griddepcontrol.launch_dependents`, inline `asm` lowered to these names). CUDA only, compute
/// capability 9.0 or higher (`legacy::arch_gate` refuses them below).
pub const PDL_CALLS: &[&str] = &[
    "cudaGridDependencySynchronize",
    "cudaTriggerProgrammaticLaunchCompletion",
    "griddepcontrol.wait",
    "griddepcontrol.launch_dependents",
];

/// Device-side `assert` as the preprocessor's `assert(e)` macro writes it
/// (`__crosslane_assert((e), "e")`, `pp::headers::assert_macro`): `machine::assert` stops the
/// run where the condition is false or undefined in a thread.
pub const ASSERT: &str = "__crosslane_assert";

/// Clang's `__builtin_assume(e)` (Clang Language Extensions, "__builtin_assume": "the
/// optimizer may assume that the expression is true; if it is false at run time, the behavior
/// is undefined"; nvcc since CUDA 11.1 and hipcc accept it): no effect on values;
/// `machine::assert` reports a thread where `e` is false, as the undefined behaviour it is.
pub const ASSUME: &str = "__builtin_assume";

/// Clang's (and GCC's) `__builtin_unreachable()` (Clang Language Extensions,
/// "__builtin_unreachable": "the behavior is undefined if control flow reaches the call";
/// nvcc and hipcc accept it in device code): where no thread reaches it, nothing happens;
/// `machine::assert` ends the run with an error naming the threads that reach it, as no
/// result after it is defined.
pub const UNREACHABLE: &str = "__builtin_unreachable";

/// The front end's marker of a collective whose result the vendor defines in some threads
/// only: `__crosslane_valid_only(value, keep, "reason")` is `value` where `keep` is true and
/// undefined with `reason` elsewhere (never a number picked for those threads). The library
/// lowerings (`parser::cub`: CUB's and hipCUB's reductions, "the aggregate is returned to
/// lane 0 / thread 0") call it; `machine::call` runs it.
pub const VALID_ONLY: &str = "__crosslane_valid_only";

/// The size check of `tiled_partition(block, n)` with a runtime `n` (`parser::cg_any`):
/// `__crosslane_tile_size(n, wave)` is `n` when it is a power of two up to `wave` (CUDA C++
/// Programming Guide, Cooperative Groups, "tiled_partition": "limited to power-of-2 sizes" of
/// at most 32; HIP: up to the wavefront), else an error that stops the run (`machine::call`).
pub const DYN_TILE_SIZE: &str = "__crosslane_tile_size";

/// Per-lane built-ins added for real kernels: bit reversal and 64-bit bit counts
/// (CUDA Math API, "Integer Intrinsics"), conversions among float, half and bfloat16 (CUDA Math
/// API, "Half Precision Conversion and Data Movement" and "Bfloat16 Precision Conversion":
/// round to nearest even), and AMD's `mbcnt` (AMD CDNA3 ISA, `V_MBCNT_LO_U32_B32` /
/// `V_MBCNT_HI_U32_B32`: `base` plus the set bits of `mask` at lanes below this one, the low
/// and the high 32 lanes). Run by [`math_lane`].
pub const LANE_MATH: &[&str] = &[
    "__brev",
    "__brevll",
    "__clzll",
    "__ffsll",
    "__float2half",
    "__float2half_rn",
    "__half2float",
    "__float2bfloat16",
    "__float2bfloat16_rn",
    "__bfloat162float",
    "__builtin_amdgcn_mbcnt_lo",
    "__builtin_amdgcn_mbcnt_hi",
    "__fns",
    "__fns32",
    "__fns64",
    "__cg_fns_own",
    "__cg_pack",
    "__cg_tile_of",
    "__cg_side",
    DYN_TILE_SIZE,
];

/// The position of the n-th set bit of `mask` counted from bit `base` (PTX ISA, `fns`:
/// "find the n-th set bit"): `offset` > 0 searches upwards from `base` (`base` itself
/// included: offset 1 is the first set bit at or above `base`), `offset` < 0 downwards, and
/// `offset` 0 answers `base` when its bit is set; `None` when there is no such bit, or when
/// `base` is outside the mask's `bits`. CUDA's `__fns` (CUDA Math API, Integer Intrinsics) is
/// this over 32 bits; HIP's `__fns32` / `__fns64` (the helpers its cooperative groups use) over
/// 32 and 64. Bounded by `bits` (at most 64 steps).
pub fn find_nth_set(mask: u64, base: u32, offset: i64, bits: u32) -> Option<u32> {
    if base >= bits {
        return None;
    }
    let set = |p: u32| mask >> p & 1 == 1;
    if offset == 0 {
        return set(base).then_some(base);
    }
    let mut left = offset.unsigned_abs();
    let mut pos = i64::from(base);
    while (0..i64::from(bits)).contains(&pos) {
        let p = pos as u32;
        if set(p) {
            left -= 1;
            if left == 0 {
                return Some(p);
            }
        }
        pos += offset.signum();
    }
    None
}

/// Helpers of the cooperative-groups lowering (`parser::cg_lower`), per lane `lane`, over the
/// member mask `m` (a group's members, bit k = lane k):
/// - `__cg_fns_own(m, lane, off)`: the member `off` places from this lane ([`find_nth_set`]),
///   or this lane when there is none — the source lane of a coalesced group's `shfl_down` /
///   `shfl_up` ("a thread with no such member keeps its own value").
/// - `__cg_pack(m, bits)`: `bits` at the members' lanes, packed so that bit k is the member of
///   rank k — a coalesced group's `ballot` and `match_any` answer by rank.
/// - `__cg_tile_of(m, n)`: the members whose rank is in this lane's tile of `n` ranks,
///   `[n·⌊r/n⌋, n·⌊r/n⌋ + n)` — `tiled_partition(coalesced, n)`.
/// - `__cg_side(m, b)`: the members whose bit in `b` equals this lane's —
///   `binary_partition(g, pred)` with `b` the ballot of `pred`.
fn cg_helper(name: &str, m: u64, x: i128, y: Option<i128>, lane: usize) -> Option<KVal> {
    let lane = lane as u32;
    let ty = |wide: bool| if wide { Scalar::U64 } else { Scalar::U32 };
    let below = |l: u32| if l >= 64 { u64::MAX } else { (1u64 << l) - 1 };
    Some(match name {
        "__cg_fns_own" => {
            let off = y? as i64;
            let base = x as u32;
            let l = find_nth_set(m, base, off, 64).unwrap_or(base);
            KVal::int(Scalar::I32, i128::from(l))
        }
        "__cg_pack" => {
            let bits = x as u64;
            let mut out = 0u64;
            let mut k = 0;
            for l in 0..64 {
                if m >> l & 1 == 1 {
                    out |= (bits >> l & 1) << k;
                    k += 1;
                }
            }
            KVal::int(
                ty(m > u64::from(u32::MAX) || x > i128::from(u32::MAX)),
                out as i128,
            )
        }
        "__cg_tile_of" => {
            let n = (x as u64).clamp(1, 64) as u32;
            let rank = (m & below(lane)).count_ones();
            let first = rank / n * n;
            let mut out = 0u64;
            let mut r = 0;
            for l in 0..64 {
                if m >> l & 1 == 1 {
                    if (first..first + n).contains(&r) {
                        out |= 1 << l;
                    }
                    r += 1;
                }
            }
            KVal::int(ty(m > u64::from(u32::MAX)), out as i128)
        }
        "__cg_side" => {
            let b = x as u64;
            let mine = b >> lane & 1 == 1;
            let out = if mine { m & b } else { m & !b };
            KVal::int(ty(m > u64::from(u32::MAX)), out as i128)
        }
        _ => return None,
    })
}

/// Applies a per-lane built-in in lane `lane` of its warp: the [`LANE_MATH`] names here, every
/// other name by [`math`].
///
/// # Errors
/// As [`math`]; a conversion that overflows its type.
pub fn math_lane(name: &str, args: &[KVal], lane: usize) -> Result<KVal, String> {
    if let Some(r) = super::half::call(name, args) {
        return r;
    }
    if let Some(r) = super::fp8::call(name, args) {
        return r;
    }
    if let Some(r) = super::hip_fp8_cvt::call(name, args) {
        return r;
    }
    if let Some(r) = super::ptx_cvt::call(name, args) {
        return r;
    }
    if let Some(r) = super::ptx_ops::call(name, args) {
        return r;
    }
    if let Some(r) = super::reinterpret::call(name, args) {
        return r;
    }
    if let Some(ty) = super::vector_types::constructor(name) {
        return super::vector_types::construct(name, ty, args);
    }
    // The math library (CUDA Math API) before the older lane math: it carries the accuracy notes.
    if let Some(r) = super::mathlib::call(name, args) {
        return r.map(|c| c.value);
    }
    #[cfg(feature = "wgsl")]
    if let Some(n) = name.strip_prefix(super::wgsl::math::PREFIX) {
        return super::wgsl::math::eval(n, args);
    }
    if !LANE_MATH.contains(&name) {
        return math(name, args);
    }
    let Some(a) = args.first() else {
        return Err(format!("`{name}` takes at least 1 argument, got 0"));
    };
    let int = |v: &KVal| {
        v.as_int()
            .ok_or_else(|| format!("`{name}` needs an integer"))
    };
    let num = |v: &KVal| v.as_f64().ok_or_else(|| format!("`{name}` needs a number"));
    let to = |x: f64, from: Scalar, target: Scalar| {
        KVal::float(from, x)
            .convert(ValTy::scalar(target))
            .map_err(|e| e.message)
    };
    if name == DYN_TILE_SIZE {
        let n = int(a)?;
        let wave = args.get(1).map(int).transpose()?.unwrap_or(32);
        return if (1..=wave).contains(&n) && n & (n - 1) == 0 {
            Ok(KVal::int(Scalar::I32, n))
        } else {
            Err(format!(
                "tiled_partition(parent, {n}): the tile size must be a power of two up to the \
                 {wave}-lane warp (CUDA C++ Programming Guide, Cooperative Groups, \
                 tiled_partition)"
            ))
        };
    }
    if name.starts_with("__cg_") {
        let m = int(a)? as u64;
        let x = args.get(1).map(int).transpose()?.unwrap_or(0);
        let y = args.get(2).map(int).transpose()?;
        return cg_helper(name, m, x, y, lane).ok_or_else(|| format!("`{name}` takes 3 arguments"));
    }
    match name {
        "__fns" | "__fns32" | "__fns64" => {
            // (mask, base, offset): PTX `fns`; none found: CUDA's unsigned 0xffffffff,
            // HIP's int -1.
            let (Some(b), Some(o)) = (args.get(1), args.get(2)) else {
                return Err(format!("`{name}` takes 3 arguments (mask, base, offset)"));
            };
            let bits = if name == "__fns64" { 64 } else { 32 };
            let found = find_nth_set(int(a)? as u64, int(b)? as u32, int(o)? as i32 as i64, bits);
            Ok(if name == "__fns" {
                KVal::int(Scalar::U32, found.map_or(0xffff_ffff, i128::from))
            } else {
                KVal::int(Scalar::I32, found.map_or(-1, i128::from))
            })
        }
        "__brev" => Ok(KVal::int(
            Scalar::U32,
            (int(a)? as u32).reverse_bits() as i128,
        )),
        "__brevll" => Ok(KVal::int(
            Scalar::U64,
            (int(a)? as u64).reverse_bits() as i128,
        )),
        "__clzll" => Ok(KVal::int(
            Scalar::I32,
            (int(a)? as u64).leading_zeros() as i128,
        )),
        "__ffsll" => {
            let v = int(a)? as u64;
            Ok(KVal::int(
                Scalar::I32,
                if v == 0 {
                    0
                } else {
                    v.trailing_zeros() as i128 + 1
                },
            ))
        }
        "__float2half" | "__float2half_rn" => to(num(a)?, Scalar::F32, Scalar::F16),
        "__float2bfloat16" | "__float2bfloat16_rn" => to(num(a)?, Scalar::F32, Scalar::Bf16),
        "__half2float" | "__bfloat162float" => to(num(a)?, Scalar::F64, Scalar::F32),
        _ => {
            // mbcnt_lo / mbcnt_hi (mask, base).
            let mask = int(a)? as u32;
            let base = args.get(1).map(int).transpose()?.unwrap_or(0) as u32;
            let below: u64 = if lane >= 64 {
                u64::MAX
            } else {
                (1u64 << lane) - 1
            };
            let half = if name.ends_with("_lo") {
                below as u32
            } else {
                (below >> 32) as u32
            };
            Ok(KVal::int(
                Scalar::U32,
                base.wrapping_add((mask & half).count_ones()) as i128,
            ))
        }
    }
}

/// Finds the operation a kernel calls by name: the preferred dialect first, then every other.
pub fn find_kernel_op(preferred: Dialect, name: &str) -> Option<&'static OpSpec> {
    all_ops()
        .filter(|op| op.dialect == preferred)
        .chain(all_ops().filter(|op| op.dialect != preferred))
        .find(|op| op.name == name)
        .or_else(|| {
            all_ops()
                .filter(|op| op.dialect == preferred)
                .chain(all_ops().filter(|op| op.dialect != preferred))
                .find(|op| op.is_named(name))
        })
}

/// Applies a math built-in to one lane's arguments.
///
/// # Errors
/// A message when the arguments are not numbers or are too few.
pub fn math(name: &str, args: &[KVal]) -> Result<KVal, String> {
    let need = |n: usize| {
        if args.len() < n {
            Err(format!(
                "`{name}` takes {n} argument(s), got {}",
                args.len()
            ))
        } else {
            Ok(())
        }
    };
    let f = |k: usize| args.get(k).and_then(KVal::as_f64).unwrap_or(f64::NAN);
    let i = |k: usize| args.get(k).and_then(KVal::as_int).unwrap_or(0);
    let single = |n: &str| n.ends_with('f');
    match name {
        "min" | "max" => {
            need(2)?;
            let ty = Scalar::common(args[0].val_ty().scalar, args[1].val_ty().scalar);
            let a = args[0].convert(ValTy::scalar(ty)).map_err(|e| e.message)?;
            let b = args[1].convert(ValTy::scalar(ty)).map_err(|e| e.message)?;
            let less = match (a.as_int(), b.as_int()) {
                (Some(x), Some(y)) => x < y,
                _ => a.as_f64().unwrap_or(f64::NAN) < b.as_f64().unwrap_or(f64::NAN),
            };
            Ok(if (name == "min") == less { a } else { b })
        }
        "abs" => {
            need(1)?;
            match &args[0] {
                KVal::Float { ty, x, approx } => Ok(KVal::approx_float(*ty, x.abs(), *approx)),
                v => {
                    let n = v.as_int().ok_or("`abs` needs a number")?;
                    let ty = v.val_ty().scalar.promote();
                    if ty.is_signed() && n == -(1i128 << (ty.bits() - 1)) {
                        return Err(
                            "abs of the most negative value overflows: undefined (C11 7.22.6.1)"
                                .into(),
                        );
                    }
                    Ok(KVal::int(ty, n.abs()))
                }
            }
        }
        "fabs" | "fabsf" | "sqrt" | "sqrtf" | "floor" | "floorf" | "ceil" | "ceilf" => {
            need(1)?;
            let x = f(0);
            let r = match name.trim_end_matches('f') {
                "fabs" => x.abs(),
                "sqrt" => x.sqrt(),
                "floor" => x.floor(),
                _ => x.ceil(),
            };
            let ty = if single(name) {
                Scalar::F32
            } else {
                Scalar::F64
            };
            Ok(KVal::float(ty, r))
        }
        "fmin" | "fminf" | "fmax" | "fmaxf" => {
            need(2)?;
            let (a, b) = (f(0), f(1));
            let r = if name.starts_with("fmin") {
                a.min(b)
            } else {
                a.max(b)
            };
            Ok(KVal::float(
                if single(name) {
                    Scalar::F32
                } else {
                    Scalar::F64
                },
                r,
            ))
        }
        "__popc" => {
            need(1)?;
            Ok(KVal::int(Scalar::I32, (i(0) as u32).count_ones() as i128))
        }
        "__popcll" => {
            need(1)?;
            Ok(KVal::int(Scalar::I32, (i(0) as u64).count_ones() as i128))
        }
        "__clz" => {
            need(1)?;
            Ok(KVal::int(
                Scalar::I32,
                (i(0) as u32).leading_zeros() as i128,
            ))
        }
        "__ffs" => {
            need(1)?;
            let v = i(0) as u32;
            Ok(KVal::int(
                Scalar::I32,
                if v == 0 {
                    0
                } else {
                    v.trailing_zeros() as i128 + 1
                },
            ))
        }
        "__float_as_int" | "__float_as_uint" => {
            need(1)?;
            let bits = (f(0) as f32).to_bits();
            Ok(if name.ends_with("uint") {
                KVal::int(Scalar::U32, bits as i128)
            } else {
                KVal::int(Scalar::I32, bits as i32 as i128)
            })
        }
        "__int_as_float" | "__uint_as_float" => {
            need(1)?;
            Ok(KVal::float(Scalar::F32, f32::from_bits(i(0) as u32) as f64))
        }
        _ => Err(format!("`{name}` is not a math built-in")),
    }
}

/// Where each argument of a call goes.
#[derive(Clone, Debug, PartialEq)]
pub enum Slot {
    /// The operand row.
    Operand,
    /// A parameter by its spec name.
    Param(&'static str),
    /// Not used by the emulation (the op ignores it).
    Ignored,
}

/// The positions of a call's arguments that fill a text parameter of `spec` (a DPP control
/// word, a MACA mode): a bare name there is the operation's own word, not a variable.
pub(crate) fn text_arg_positions(spec: &OpSpec, n_args: usize) -> Vec<usize> {
    arg_slots(spec, n_args)
        .iter()
        .enumerate()
        .filter(|(_, s)| match s {
            Slot::Param(name) => spec
                .params()
                .any(|p| p.name == *name && matches!(p.kind, ParamKind::Text)),
            _ => false,
        })
        .map(|(k, _)| k)
        .collect()
}

/// Where each argument of a call with `n_args` arguments goes, by position, from the op's typed
/// argument list ([`OpSpec::args`]); positions past the list are [`Slot::Ignored`] (the call is
/// then refused as having too many arguments).
pub fn arg_slots(spec: &OpSpec, n_args: usize) -> Vec<Slot> {
    let mut slots: Vec<Slot> = spec
        .args
        .iter()
        .map(|a| match (a.role, a.param) {
            (Role::Operand, _) => Slot::Operand,
            (_, Some(p)) => Slot::Param(p.name),
            (_, None) => Slot::Ignored,
        })
        .collect();
    slots.resize(n_args.max(slots.len()), Slot::Ignored);
    slots
}

/// What one cross-lane call produced.
#[derive(Clone, Debug)]
pub struct CallOutcome {
    /// One value per lane (lanes outside the active mask: undefined, unused).
    pub values: Vec<LaneVal>,
    /// The op's steps (for the page's lane diagram): one, or one per vector component.
    pub steps: Vec<Step>,
    /// Diagnostics: level, message, rule.
    pub diagnostics: Vec<(Level, String, String)>,
}

fn undef(line: u32, col: u32, why: impl Into<String>) -> Undef {
    Undef::at(crate::ast::Span { line, col }, why)
}

/// Runs a cross-lane operation for a warp.
///
/// `args[k][lane]` is argument `k` in `lane`; `idents[k]` is the argument's text when it is a
/// bare name no variable holds (an enum constant such as `MACA_ICMP_EQ`, passed to a
/// [`ParamKind::Text`] parameter). `(line, col)` is the call's position. `exited` holds the lanes
/// whose threads have exited (returned from the kernel, or never launched in a partial warp):
/// a CUDA op receives them as [`OpInput::exited`], so they do not break its sync rule; `absent`
/// the part of them that never held a thread (the lanes past a block smaller than its warp),
/// received as [`OpInput::absent`] so that the notes do not call them exited. `arch` is
/// the launch's target (`--arch`): an op with an `arch` setting of the same family (`gfx…`
/// for AMD, `xcore…` for MACA) runs by that target's rules instead of its default one.
#[allow(clippy::too_many_arguments)]
pub fn call_op(
    spec: &'static OpSpec,
    lanes: usize,
    active: LaneMask,
    exited: (LaneMask, LaneMask),
    args: &[Vec<LaneVal>],
    idents: &[Option<String>],
    (line, col): (u32, u32),
    arch: Option<&str>,
) -> CallOutcome {
    // Positions in values and notes are the user's ([`crate::ast::Span::shown`]).
    let col = crate::ast::Span { line, col }.shown().col;
    // A warp MMA reads each lane's registers as matrix elements by its layout.
    if let Some(mma) = crosslane_core::dialect::maca::mma::spec_of(spec.name) {
        let (values, steps, diagnostics) =
            crate::mma_call::call(mma, spec, lanes, active, args, (line, col));
        return CallOutcome {
            values,
            steps,
            diagnostics,
        };
    }
    // Lanes in disjoint groups, each passing its own sync mask: one call per group.
    if let Some(groups) = crate::mask_groups::groups(spec, lanes, active, args) {
        let parts = groups
            .iter()
            .map(|&g| call_op_components(spec, lanes, (g, exited), args, idents, (line, col), arch))
            .collect();
        return merge_groups(lanes, line, &groups, parts);
    }
    call_op_components(
        spec,
        lanes,
        (active, exited),
        args,
        idents,
        (line, col),
        arch,
    )
}

/// One outcome from the groups' outcomes (`parts[i]` ran with `groups[i]` active): each lane
/// takes its group's value (an inactive lane the first group's, which the caller does not
/// store); the groups' steps become one step whose lanes each show their own group's input and
/// result (where a part has several steps, a vector's components, they follow one another
/// labelled with their group's mask); each diagnostic appears once.
fn merge_groups(
    lanes: usize,
    line: u32,
    groups: &[LaneMask],
    parts: Vec<CallOutcome>,
) -> CallOutcome {
    let mut out = CallOutcome {
        values: Vec::with_capacity(lanes),
        steps: Vec::new(),
        diagnostics: Vec::new(),
    };
    for l in 0..lanes {
        let g = groups.iter().position(|g| g.contains(l)).unwrap_or(0);
        if let Some(v) = parts.get(g).and_then(|p| p.values.get(l)) {
            out.values.push(v.clone());
        }
    }
    let masks: Vec<String> = groups.iter().map(|g| g.to_hex(lanes)).collect();
    // One step per group, as the call's parts (a vector's components) are one step each: the
    // groups' steps become one, each lane's input and result from its own group's step, so the
    // drawing shows the whole warp's call.
    let one_step_each = parts.iter().all(|p| p.steps.len() == 1);
    let mut merged: Option<Step> = None;
    for (g, p) in groups.iter().zip(parts) {
        for mut st in p.steps {
            if !one_step_each {
                st.label = Some(format!(
                    "line {line}, the lanes of mask {}",
                    g.to_hex(lanes)
                ));
                out.steps.push(st);
                continue;
            }
            match &mut merged {
                None => {
                    let mut base = st;
                    let more = if masks.len() > 4 { ", …" } else { "" };
                    base.label = Some(format!(
                        "line {line}: {} groups of lanes, each passing its own mask ({}{more})",
                        groups.len(),
                        masks[..masks.len().min(4)].join(", ")
                    ));
                    merged = Some(base);
                }
                Some(base) => {
                    base.active = LaneMask(base.active.0 | st.active.0);
                    for l in g.iter().filter(|&l| l < lanes) {
                        if let (Some(r), Some(src)) = (base.results.get_mut(l), st.results.get(l)) {
                            *r = src.clone();
                        }
                        if let (Some(i), Some(src)) = (base.inputs.get_mut(l), st.inputs.get(l)) {
                            *i = *src;
                        }
                    }
                    push_new(&mut base.diagnostics, st.diagnostics);
                }
            }
        }
        push_new(&mut out.diagnostics, p.diagnostics);
    }
    out.steps.extend(merged);
    out
}

/// Appends each of `items` that `to` does not hold yet: a call's parts (groups, components)
/// often report the same diagnostic.
fn push_new<T: PartialEq>(to: &mut Vec<T>, items: Vec<T>) {
    for d in items {
        if !to.contains(&d) {
            to.push(d);
        }
    }
}

/// [`call_op`] for one set of active lanes: once, or once per component of a vector no core
/// type holds.
fn call_op_components(
    spec: &'static OpSpec,
    lanes: usize,
    (active, exited): (LaneMask, (LaneMask, LaneMask)),
    args: &[Vec<LaneVal>],
    idents: &[Option<String>],
    (line, col): (u32, u32),
    arch: Option<&str>,
) -> CallOutcome {
    // A vector no core type holds (`v2f32`): its components never interact in these ops, so
    // the op runs once per component (MACA pk_*_f32, seed 002 §3.5.1, §3.7.2-3.7.3).
    let width = args
        .iter()
        .flat_map(|a| active.iter().filter_map(move |l| a.get(l)))
        .find_map(|v| match v {
            Ok(k @ KVal::Vector { items, .. }) if items.len() > 1 && k.to_core().is_none() => {
                Some(items.len())
            }
            _ => None,
        });
    let Some(n) = width.filter(|_| spec.kind == OpKind::Lanes) else {
        return call_op_once(
            spec,
            lanes,
            (active, exited),
            args,
            idents,
            (line, col),
            arch,
        );
    };
    let parts: Vec<CallOutcome> = (0..n)
        .map(|k| {
            let comp: Vec<Vec<LaneVal>> = args
                .iter()
                .map(|a| {
                    a.iter()
                        .map(|v| match v {
                            Ok(KVal::Vector { items, .. }) => {
                                items.get(k).cloned().ok_or_else(|| {
                                    undef(line, col, "vector arguments of different sizes")
                                })
                            }
                            other => other.clone(),
                        })
                        .collect()
                })
                .collect();
            let mut part = call_op_once(
                spec,
                lanes,
                (active, exited),
                &comp,
                idents,
                (line, col),
                arch,
            );
            for st in &mut part.steps {
                st.label = Some(format!("line {line}, component {k}"));
            }
            part
        })
        .collect();
    let mut out = CallOutcome {
        values: Vec::with_capacity(lanes),
        steps: Vec::new(),
        diagnostics: Vec::new(),
    };
    for l in 0..lanes {
        let comps: Result<Vec<KVal>, Undef> = parts
            .iter()
            .map(|p| {
                p.values
                    .get(l)
                    .cloned()
                    .unwrap_or_else(|| Err(undef(line, col, "no value")))
            })
            .collect();
        out.values.push(comps.map(|items| KVal::Vector {
            ty: items.first().map_or(Scalar::F32, |c| c.val_ty().scalar),
            items,
        }));
    }
    for p in parts {
        out.steps.extend(p.steps);
        push_new(&mut out.diagnostics, p.diagnostics);
    }
    out
}

fn call_op_once(
    spec: &'static OpSpec,
    lanes: usize,
    (active, exited): (LaneMask, (LaneMask, LaneMask)),
    args: &[Vec<LaneVal>],
    idents: &[Option<String>],
    (line, col): (u32, u32),
    arch: Option<&str>,
) -> CallOutcome {
    let mut diagnostics = Vec::new();
    let fail = |why: String, mut diagnostics: Vec<(Level, String, String)>| {
        // An argument that is undefined in some lane makes the results undefined: a
        // diagnostic, as any read of an undefined value is. A call the operation cannot take
        // (too many arguments, a parameter out of range) is an error, which ends the run.
        let level =
            if why.contains(" is undefined in lane ") || why.contains(" has no value in lane ") {
                Level::Warning
            } else {
                Level::Error
            };
        diagnostics.push((level, why.clone(), spec.source.to_string()));
        CallOutcome {
            values: vec![Err(undef(line, col, why)); lanes],
            steps: Vec::new(),
            diagnostics,
        }
    };
    if spec.kind == OpKind::Scalar {
        return call_scalar(spec, lanes, active, args, idents, (line, col));
    }
    let slots = arg_slots(spec, args.len());
    if args.len() > spec.args.len() {
        return fail(
            format!(
                "{} takes at most {} arguments: {}",
                spec.name,
                spec.args.len(),
                spec.signature()
            ),
            diagnostics,
        );
    }
    // An op whose prototype has no operand (`__activemask()`) runs on a row of zeros.
    let zeros: Vec<LaneVal>;
    let operand = match slots.iter().position(|s| *s == Slot::Operand) {
        Some(k) => match args.get(k) {
            Some(a) => a,
            None => {
                return fail(
                    format!("{} needs its operand (argument {})", spec.name, k + 1),
                    diagnostics,
                )
            }
        },
        None => {
            let ty = spec.types.first().copied().unwrap_or(ValueType::I32);
            zeros = vec![Ok(KVal::from_core(Value::from_bits(ty, 0))); lanes];
            &zeros
        }
    };
    // An `int` predicate given a float converts to `int` first (`int_operand`).
    let converted: Vec<LaneVal>;
    let k = slots.iter().position(|s| *s == Slot::Operand);
    let operand = match super::int_operand::int_predicate(spec, k, operand, (line, col)) {
        Some(v) => {
            converted = v;
            &converted
        }
        None => operand,
    };
    // The operand type: the first defined active lane's.
    let ty = active
        .iter()
        .filter(|&l| l < lanes)
        .find_map(|l| {
            operand
                .get(l)
                .and_then(|v| v.as_ref().ok())
                .and_then(KVal::to_core)
        })
        .map(|v| v.ty);
    // Every operand undefined: run the op anyway in its first type, so its own rules and the
    // lane diagram still show; every lane that reads an operand is then undefined below.
    let Some(ty) = ty.or_else(|| spec.types.first().copied()) else {
        return fail(format!("{}: lists no value type", spec.name), diagnostics);
    };
    // C converts an argument to the parameter type; a float type that the op does not list
    // (the seed's `v2f16` handed to a bf16 builtin) converts by value, with a note.
    let ty = if spec.types.contains(&ty) {
        ty
    } else {
        let same_kind =
            |t: &&ValueType| t.is_float() == ty.is_float() && t.bit_width() == ty.bit_width();
        match spec
            .types
            .iter()
            .find(same_kind)
            .or_else(|| spec.types.first())
        {
            Some(t) => {
                if ty.is_float() || t.is_float() {
                    diagnostics.push((
                        Level::Info,
                        format!(
                            "{} takes {}, not {}: the argument is converted by value",
                            spec.name,
                            t.name(),
                            ty.name()
                        ),
                        spec.type_note.to_string(),
                    ));
                }
                *t
            }
            None => return fail(format!("{}: lists no value type", spec.name), diagnostics),
        }
    };
    let mut inputs: Vec<Option<Value>> = Vec::with_capacity(lanes);
    for l in 0..lanes {
        let v = if active.contains(l) {
            operand
                .get(l)
                .and_then(|v| v.as_ref().ok())
                .and_then(|v| to_type(v, ty))
        } else {
            None
        };
        inputs.push(v);
    }
    let values: Vec<Value> = inputs
        .iter()
        .map(|v| v.unwrap_or_else(|| Value::from_bits(ty, 0)))
        .collect();
    let mut params = Params::default();
    // Why every lane is undefined: an argument the vendor requires to be one value varied.
    let mut varied: Option<String> = None;
    for p in spec.params() {
        let arg = slots.iter().position(|s| *s == Slot::Param(p.name));
        let value = match arg.and_then(|k| args.get(k).map(|a| (k, a))) {
            Some((k, a)) => {
                let thread = spec.args.get(k).map_or(Thread::Immediate, |a| a.thread);
                let c_type = spec.args.get(k).map_or("", |a| a.ty);
                match param_value(
                    p.name,
                    p.kind,
                    (thread, c_type),
                    a,
                    idents.get(k).cloned().flatten(),
                    lanes,
                    active,
                    ty,
                ) {
                    Ok(Bound { value, note }) => {
                        match note {
                            Some(Note::Varies(why, rule)) => {
                                diagnostics.push((Level::Warning, why.clone(), rule));
                                varied.get_or_insert(why);
                            }
                            Some(Note::FirstLane(why, rule)) => {
                                diagnostics.push((Level::Warning, why, rule));
                            }
                            None => {}
                        }
                        value
                    }
                    Err(why) => return fail(why, diagnostics),
                }
            }
            None => match (launch_target(p, arch), default_param(p, lanes, active, ty)) {
                (Some(target), _) => ParamValue::Text(target.to_string()),
                (None, Ok(v)) => v,
                (None, Err(e)) => return fail(e.to_string(), diagnostics),
            },
        };
        params.0.insert(p.name.to_string(), value);
    }
    // Exited lanes are a CUDA lane state (OpRequest::exited); never one that is also active.
    let (exited, absent) = exited;
    let exited = if spec.dialect == Dialect::Cuda {
        LaneMask(exited.0 & !active.0).truncate(lanes)
    } else {
        LaneMask::default()
    };
    let input = OpInput {
        lanes,
        active,
        exited,
        absent: LaneMask(absent.0 & exited.0),
        ty,
        values,
        params,
    };
    let out = match (spec.run)(&input) {
        Ok(out) => out,
        Err(e) => return fail(format!("{}: {e}", spec.name), diagnostics),
    };
    for d in &out.diagnostics {
        diagnostics.push((d.level, d.message.clone(), d.rule.clone()));
    }
    let mut results = out.results;
    if let Some(why) = &varied {
        for (i, r) in results.iter_mut().enumerate() {
            if active.contains(i) {
                *r = crosslane_core::result::LaneResult::undefined(why.clone(), None);
            }
        }
    }
    // A lane that read (or kept) an operand which was itself undefined is undefined too.
    for (i, r) in results.iter_mut().enumerate() {
        if !active.contains(i) {
            continue;
        }
        if let (Source::Lane | Source::Own, Some(j)) = (r.source, r.from) {
            if inputs.get(j).is_some_and(Option::is_none) {
                let why = operand
                    .get(j)
                    .and_then(|v| v.as_ref().err())
                    .map(|u| format!("lane {j}'s operand is undefined ({})", u.why))
                    .unwrap_or_else(|| format!("lane {j}'s operand is undefined"));
                *r = crosslane_core::result::LaneResult::undefined(why, Some(j));
            }
        }
    }
    // A result computed from several lanes (a ballot, a vote, a reduction, a scan) is undefined
    // when an active lane's operand that it combines is: its bits or its sum depend on a value
    // nobody set, and taking that operand as 0 would pick a number (the first such lane is
    // named). The op's entry says which lanes each result combines (`OpSpec::combines`: all
    // the active lanes, or for a scan those below the lane).
    for (i, r) in results.iter_mut().enumerate() {
        if !active.contains(i) || r.source != Source::Computed {
            continue;
        }
        let Some(j) =
            (0..lanes).find(|&j| active.contains(j) && inputs[j].is_none() && spec.combines(i, j))
        else {
            continue;
        };
        let why = operand
            .get(j)
            .and_then(|v| v.as_ref().err())
            .map(|u| {
                format!(
                    "it combines lane {j}'s operand, which is undefined ({})",
                    u.why
                )
            })
            .unwrap_or_else(|| format!("it combines lane {j}'s operand, which is undefined"));
        *r = crosslane_core::result::LaneResult::undefined(why, Some(j));
    }
    let values = results
        .iter()
        .map(|r| match r.value {
            Some(v) => Ok(KVal::from_core(v)),
            None => Err(undef(
                line,
                col,
                format!(
                    "{}: {}",
                    spec.name,
                    r.why.clone().unwrap_or_else(|| "undefined".into())
                ),
            )),
        })
        .collect();
    let step = Step {
        dialect: spec.dialect,
        op: spec.name.to_string(),
        lanes,
        active,
        ty,
        inputs,
        params: input.params,
        results,
        diagnostics: out.diagnostics,
        scalar: false,
        label: Some(format!("line {line}")),
    };
    CallOutcome {
        values,
        steps: vec![step],
        diagnostics,
    }
}

/// A scalar op (byte_perm, ubfe…) runs once per active lane with that lane's arguments.
fn call_scalar(
    spec: &'static OpSpec,
    lanes: usize,
    active: LaneMask,
    args: &[Vec<LaneVal>],
    idents: &[Option<String>],
    (line, col): (u32, u32),
) -> CallOutcome {
    let slots = arg_slots(spec, args.len());
    let mut diagnostics: Vec<(Level, String, String)> = Vec::new();
    let mut values = vec![Err(undef(line, col, "inactive lane")); lanes];
    let mut results = vec![crosslane_core::result::LaneResult::inactive(); lanes];
    let mut ty_seen = ValueType::U32;
    for l in active.iter().filter(|&l| l < lanes) {
        let mut params = Params::default();
        let mut bad: Option<String> = None;
        for p in spec.params() {
            let arg = slots.iter().position(|s| *s == Slot::Param(p.name));
            let v = match arg.and_then(|k| args.get(k).map(|a| (k, a))) {
                Some((k, a)) => {
                    let one = LaneMask::none().with(l);
                    param_value(
                        p.name,
                        p.kind,
                        (
                            Thread::PerThread(crosslane_core::args::SCALAR_OP),
                            spec.args.get(k).map_or("", |a| a.ty),
                        ),
                        a,
                        idents.get(k).cloned().flatten(),
                        lanes,
                        one,
                        ValueType::U32,
                    )
                    .map(|b| b.value)
                }
                None => default_param(p, lanes, active, ValueType::U32).map_err(|e| e.to_string()),
            };
            match v {
                Ok(v) => {
                    params.0.insert(p.name.to_string(), v);
                }
                Err(e) => {
                    bad = Some(e);
                    break;
                }
            }
        }
        if let Some(why) = bad {
            values[l] = Err(undef(line, col, why.clone()));
            results[l] = crosslane_core::result::LaneResult::undefined(why.clone(), None);
            if !diagnostics.iter().any(|d| d.1 == why) {
                diagnostics.push((Level::Warning, why, spec.source.to_string()));
            }
            continue;
        }
        let input = OpInput {
            lanes: 1,
            active: LaneMask::all(1),
            exited: LaneMask::default(),
            absent: LaneMask::default(),
            ty: ValueType::U32,
            values: Vec::new(),
            params,
        };
        match (spec.run)(&input) {
            Ok(out) => {
                for d in out.diagnostics {
                    if !diagnostics.iter().any(|x| x.1 == d.message) {
                        diagnostics.push((d.level, d.message, d.rule));
                    }
                }
                let r = out.results.into_iter().next().unwrap_or_else(|| {
                    crosslane_core::result::LaneResult::undefined("no result", None)
                });
                if let Some(v) = r.value {
                    ty_seen = v.ty;
                }
                values[l] = match r.value {
                    Some(v) => Ok(KVal::from_core(v)),
                    None => Err(undef(line, col, r.why.clone().unwrap_or_default())),
                };
                results[l] = r;
            }
            Err(e) => {
                let why = format!("{}: {e}", spec.name);
                values[l] = Err(undef(line, col, why.clone()));
                // One lane's data the operation has no result for: that lane is undefined
                // with the reason, a diagnostic like other undefined behaviour of data.
                if !diagnostics.iter().any(|d| d.1 == why) {
                    diagnostics.push((Level::Warning, why, spec.source.to_string()));
                }
            }
        }
    }
    let step = Step {
        dialect: spec.dialect,
        op: spec.name.to_string(),
        lanes,
        active,
        ty: ty_seen,
        inputs: vec![None; lanes],
        params: Params::default(),
        results,
        diagnostics: Vec::new(),
        scalar: false,
        label: Some(format!("line {line} (scalar op, once per lane)")),
    };
    CallOutcome {
        values,
        steps: vec![step],
        diagnostics,
    }
}

/// `0-3, 5, 7-9` for a sorted lane list (written once in [`crosslane_core::lanes`]).
pub use crosslane_core::lanes::list_lanes;

/// LLVM's `ICmpInst` predicate numbers, which the `MACA_ICMP_*` enumerators are read as (an
/// inference: seed 002 names them without values; MetaX's compiler is LLVM-based).
pub fn maca_icmp(name: &str) -> Option<i128> {
    Some(match name {
        "MACA_ICMP_EQ" => 32,
        "MACA_ICMP_NE" => 33,
        "MACA_ICMP_UGT" => 34,
        "MACA_ICMP_UGE" => 35,
        "MACA_ICMP_ULT" => 36,
        "MACA_ICMP_ULE" => 37,
        "MACA_ICMP_SGT" => 38,
        "MACA_ICMP_SGE" => 39,
        "MACA_ICMP_SLT" => 40,
        "MACA_ICMP_SLE" => 41,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_bind_by_position_from_the_typed_list() {
        let spec = find_kernel_op(Dialect::Ascend, "asc_shfl").unwrap();
        assert_eq!(
            arg_slots(spec, 3),
            vec![Slot::Operand, Slot::Param("src_lane"), Slot::Param("width")]
        );
        // HIP names the argument `lane_delta`; it is parameter `delta`.
        let spec = find_kernel_op(Dialect::Hip, "__shfl_down").unwrap();
        assert_eq!(
            arg_slots(spec, 2),
            vec![Slot::Operand, Slot::Param("delta"), Slot::Param("width")]
        );
        assert_eq!(list_lanes(&[0, 1, 2, 5, 7, 8]), "0-2, 5, 7-8");
    }
}
