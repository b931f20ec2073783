//! Types: qualifiers, base types (keyword combinations, aliases, vendor vectors), pointers.

use super::{const_int, edit_distance, PResult, Parser, MAX_SUGGESTIONS};
use crate::ast::{Span, Storage};
use crate::lexer::Tok;
use crate::types::{Scalar, Ty, ValTy};
use crate::KernelError;
use crosslane_core::result::Level;

pub(super) const QUALIFIERS: &[&str] = &[
    "const",
    "volatile",
    "static",
    "inline",
    "__inline__",
    // GNU C's alternate keyword for `inline` (GCC manual, "Alternate Keywords"), which glibc's
    // `__always_inline` expands to.
    "__inline",
    "__forceinline__",
    "__noinline__",
    "__device__",
    "__host__",
    "__global__",
    "__simt_vf__",
    "__vector__",
    "__aicore__",
    "__gm__",
    "__ubuf__",
    "__restrict__",
    "__restrict",
    "restrict",
    // CUDA C++ Programming Guide, "__grid_constant__": a `const`-qualified by-value kernel
    // parameter the kernel reads in place; it changes no value a lane sees.
    "__grid_constant__",
    "extern",
    "__shared__",
    "__constant__",
    "__launch_bounds__",
    "constexpr",
];

pub(super) const TYPE_WORDS: &[&str] = &[
    "void",
    "bool",
    "char",
    "short",
    "int",
    "long",
    "signed",
    "unsigned",
    "float",
    "double",
    "half",
    "__half",
    "_Float16",
    "half2",
    "__half2",
    "bfloat16_t",
    "__nv_bfloat16",
    "__bf16",
    "bfloat16x2_t",
    "__nv_bfloat162",
    "nv_bfloat16",
    "nv_bfloat162",
    "__hip_bfloat16",
    "__hip_bfloat162",
    // MetaX MACA's `maca_bfloat16.h` names (`__maca_bfloat16`, its typedef `maca_bfloat16`, the
    // pairs `__maca_bfloat162` / `maca_bfloat162`); MetaX's cu-bridge `cuda_bf16.h` is
    // `typedef maca_bfloat16 __nv_bfloat16; typedef struct __maca_bfloat162 __nv_bfloat162;`,
    // so they are CUDA's bfloat16 types under their native names.
    "__maca_bfloat16",
    "maca_bfloat16",
    "__maca_bfloat162",
    "maca_bfloat162",
    "__maca_bfloat16_raw",
    "__maca_bfloat162_raw",
    // cuda_fp8.h and hip/hip_fp8.h ([`crate::fp8`]).
    "__nv_fp8_e4m3",
    "__nv_fp8_e5m2",
    "__nv_fp8x2_e4m3",
    "__nv_fp8x2_e5m2",
    "__nv_fp8x4_e4m3",
    "__nv_fp8x4_e5m2",
    "__nv_fp8_storage_t",
    "__nv_fp8x2_storage_t",
    "__nv_fp8x4_storage_t",
    "__nv_saturation_t",
    "__nv_fp8_interpretation_t",
    "__half_raw",
    "__half2_raw",
    "__nv_bfloat16_raw",
    "__nv_bfloat162_raw",
    "__hip_fp8_e4m3",
    "__hip_fp8_e5m2",
    "__hip_fp8_e4m3_fnuz",
    "__hip_fp8_e5m2_fnuz",
    "__hip_fp8x2_e4m3",
    "__hip_fp8x2_e5m2",
    "__hip_fp8x2_e4m3_fnuz",
    "__hip_fp8x2_e5m2_fnuz",
    "__hip_fp8x4_e4m3",
    "__hip_fp8x4_e5m2",
    "__hip_fp8x4_e4m3_fnuz",
    "__hip_fp8x4_e5m2_fnuz",
    "__hip_fp8_storage_t",
    "__hip_fp8x2_storage_t",
    "__hip_fp8x4_storage_t",
    "size_t",
    "int8_t",
    "uint8_t",
    "int16_t",
    "uint16_t",
    "int32_t",
    "uint32_t",
    "int64_t",
    "uint64_t",
    "uint",
    "uintptr_t",
    "intptr_t",
    "ptrdiff_t",
    "dim3",
    // The rest of <cstdint> ([cstdint.syn]) and the character types ([basic.fundamental]/5).
    "int_least8_t",
    "int_least16_t",
    "int_least32_t",
    "int_least64_t",
    "uint_least8_t",
    "uint_least16_t",
    "uint_least32_t",
    "uint_least64_t",
    "int_fast8_t",
    "int_fast16_t",
    "int_fast32_t",
    "int_fast64_t",
    "uint_fast8_t",
    "uint_fast16_t",
    "uint_fast32_t",
    "uint_fast64_t",
    "intmax_t",
    "uintmax_t",
    "char8_t",
    "char16_t",
    "char32_t",
    "wchar_t",
    // GCC's and clang's 128-bit integers: known so that they are refused by name
    // ([`INT128_WORDS`]).
    "__int128",
    "__int128_t",
    "__uint128_t",
];

/// The 128-bit integer types (GCC manual, "128-bit Integers"; nvcc accepts them in device code
/// since CUDA 11.5). The engine's integer values are 64 bits wide ([`crate::types::KVal`]), so
/// a declaration or cast of one is refused before the run.
pub(super) const INT128_WORDS: &[&str] = &["__int128", "__int128_t", "__uint128_t"];

/// The type words that are keywords ([lex.key], with clang's `_Float16` and `__bf16`): they
/// combine with each other (`unsigned long long`) and no declaration can hide them. Every other
/// word of [`TYPE_WORDS`] is a header's typedef (`half` from cuda_fp16.h / hip_fp16.h, `size_t`,
/// `int8_t`, …): an ordinary name, which a variable of the same name hides in its scope
/// ([basic.scope.hiding]/2: `int half = n / 2;` declares a variable `half`), and which never
/// follows another type word in one type (`int half` is a type and a declarator).
pub(super) const KEYWORD_TYPES: &[&str] = &[
    "void", "bool", "char", "short", "int", "long", "signed", "unsigned", "float", "double",
    "_Float16", "__bf16", "char8_t", "char16_t", "char32_t", "wchar_t", "__int128",
];

/// A single-word type name (not combinations like `unsigned long`).
pub(super) fn word_type(w: &str) -> Option<ValTy> {
    let s = |x| Some(ValTy::scalar(x));
    match w {
        "bool" => s(Scalar::Bool),
        "char" | "int8_t" => s(Scalar::I8),
        "uint8_t" => s(Scalar::U8),
        "short" | "int16_t" => s(Scalar::I16),
        "uint16_t" => s(Scalar::U16),
        "int" | "int32_t" | "signed" => s(Scalar::I32),
        "unsigned" | "uint32_t" | "uint" => s(Scalar::U32),
        "long" | "int64_t" => s(Scalar::I64),
        "uint64_t" | "size_t" | "uintptr_t" => s(Scalar::U64),
        // <cstdint> / <cstddef> on the LP64 targets nvcc and hipcc compile for.
        "intptr_t" | "ptrdiff_t" => s(Scalar::I64),
        // The least-width and fast types and the widest ones as glibc's <stdint.h> defines
        // them for a 64-bit `__WORDSIZE` (x86-64 and aarch64 Linux), which nvcc's and hipcc's
        // device code take from the host's headers: the least types are the exact-width
        // ones, `int_fast8_t` is `signed char`, and the 16-, 32- and 64-bit fast types and
        // `intmax_t` are `long` (their unsigned forms `unsigned long`).
        "int_least8_t" | "int_fast8_t" => s(Scalar::I8),
        "uint_least8_t" | "uint_fast8_t" => s(Scalar::U8),
        "int_least16_t" => s(Scalar::I16),
        "uint_least16_t" => s(Scalar::U16),
        "int_least32_t" => s(Scalar::I32),
        "uint_least32_t" => s(Scalar::U32),
        "int_least64_t" | "int_fast16_t" | "int_fast32_t" | "int_fast64_t" | "intmax_t" => {
            s(Scalar::I64)
        }
        "uint_least64_t" | "uint_fast16_t" | "uint_fast32_t" | "uint_fast64_t" | "uintmax_t" => {
            s(Scalar::U64)
        }
        // [basic.fundamental]/5: `char16_t` and `char32_t` have the size, signedness and
        // alignment of `uint_least16_t` and `uint_least32_t`, C++20's `char8_t` those of
        // `unsigned char`; `wchar_t` is a signed 32-bit int on x86-64 Linux (System V AMD64
        // psABI, "Fundamental Types", the host ABI nvcc and hipcc follow).
        "char8_t" => s(Scalar::U8),
        "char16_t" => s(Scalar::U16),
        "char32_t" => s(Scalar::U32),
        "wchar_t" => s(Scalar::I32),
        "float" => s(Scalar::F32),
        "double" => s(Scalar::F64),
        "half" | "__half" | "_Float16" => s(Scalar::F16),
        "bfloat16_t" | "__nv_bfloat16" | "__bf16" | "nv_bfloat16" | "__hip_bfloat16"
        | "__maca_bfloat16" | "maca_bfloat16" => s(Scalar::Bf16),
        // The 8-bit floats, chosen by the type's name (crate::fp8): CUDA's and HIP's OCP
        // types share a format, HIP's `_fnuz` types are gfx942's FNUZ formats.
        "__nv_fp8_e4m3" | "__hip_fp8_e4m3" => s(Scalar::E4M3),
        "__nv_fp8_e5m2" | "__hip_fp8_e5m2" => s(Scalar::E5M2),
        "__hip_fp8_e4m3_fnuz" => s(Scalar::E4M3Fnuz),
        "__hip_fp8_e5m2_fnuz" => s(Scalar::E5M2Fnuz),
        // Their storage: `unsigned char`, `unsigned short`, `unsigned int` (CUDA Math API,
        // "FP8 Conversion and Data Movement", typedefs; hip_fp8.h the same).
        "__nv_fp8_storage_t" | "__hip_fp8_storage_t" => s(Scalar::U8),
        "__nv_fp8x2_storage_t" | "__hip_fp8x2_storage_t" => s(Scalar::U16),
        "__nv_fp8x4_storage_t" | "__hip_fp8x4_storage_t" => s(Scalar::U32),
        // The enums of the conversion functions' modes.
        "__nv_saturation_t" | "__nv_fp8_interpretation_t" => s(Scalar::I32),
        // The raw forms the conversion functions take and give, read as the values they
        // hold (their `.x` bits are not modelled as members).
        "__half_raw" => s(Scalar::F16),
        "__nv_bfloat16_raw" | "__maca_bfloat16_raw" => s(Scalar::Bf16),
        "__half2_raw" => Some(ValTy {
            scalar: Scalar::F16,
            lanes: 2,
        }),
        "__nv_bfloat162_raw" | "__maca_bfloat162_raw" => Some(ValTy {
            scalar: Scalar::Bf16,
            lanes: 2,
        }),
        w if crate::fp8::vector_type(w).is_some() => crate::fp8::vector_type(w),
        // CUDA's `dim3`: three `unsigned int`s (CUDA C++ Programming Guide, "dim3"), the
        // type of `blockDim` and `gridDim`; HIP's the same.
        "dim3" => Some(ValTy {
            scalar: Scalar::U32,
            lanes: 3,
        }),
        "half2" | "__half2" => Some(ValTy {
            scalar: Scalar::F16,
            lanes: 2,
        }),
        "bfloat16x2_t" | "__nv_bfloat162" | "nv_bfloat162" | "__hip_bfloat162"
        | "__maca_bfloat162" | "maca_bfloat162" => Some(ValTy {
            scalar: Scalar::Bf16,
            lanes: 2,
        }),
        _ => maca_vector(w).or_else(|| cuda_vector(w)),
    }
}

/// CUDA's built-in vector types (`float2`, `int4`, `uint3`, …): see
/// [`crate::vector_types::cuda_vector`]; and the words the front end gives clang's extended
/// vectors of 8 or 16 elements or 16-bit elements ([`crate::vector_types::ext_vector`]).
pub(super) fn cuda_vector(w: &str) -> Option<ValTy> {
    crate::vector_types::cuda_vector(w).or_else(|| crate::vector_types::ext_vector(w))
}

/// The CUDA and HIP runtime's host handle and status types, which host helpers name in their
/// signatures (`inline cudaError_t checkCuda(cudaError_t result)`, the NVIDIA developer blog's
/// error check; `void check(cudaError_t e);` declared before its definition in another file):
/// CUDA Runtime API, "Data types used by CUDA Runtime": `cudaError_t` is `enum cudaError` and
/// `cudaMemcpyKind` an enum (an `int`), `cudaStream_t` and `cudaEvent_t` are pointers to opaque
/// structs (`struct CUstream_st *`, `struct CUevent_st *`), read here as a 64-bit handle; HIP
/// Runtime API, "Data types": `hipError_t`, `hipMemcpyKind` enums and `hipStream_t`, `hipEvent_t`
/// pointers likewise. Device code never computes with them; host code is read, not run.
pub(super) fn runtime_handle(w: &str) -> Option<ValTy> {
    match w {
        "cudaError_t" | "cudaError" | "cudaMemcpyKind" | "hipError_t" | "hipMemcpyKind" => {
            Some(ValTy::scalar(Scalar::I32))
        }
        "cudaStream_t" | "cudaEvent_t" | "hipStream_t" | "hipEvent_t" => {
            Some(ValTy::scalar(Scalar::U64))
        }
        _ => None,
    }
}

/// The MACA vector naming `v<N><i|u|f><bits>` (`v1u32`, `v2f16`, `v4i8`; seed 002), which the
/// pages use without always declaring it.
pub(super) fn maca_vector(w: &str) -> Option<ValTy> {
    let rest = w.strip_prefix('v')?;
    let split = rest.find(|c: char| !c.is_ascii_digit())?;
    let lanes: u8 = rest.get(..split)?.parse().ok()?;
    let kind = rest.get(split..split + 1)?;
    let bits: u32 = rest.get(split + 1..)?.parse().ok()?;
    let scalar = match (kind, bits) {
        ("i", 8) => Scalar::I8,
        ("u", 8) => Scalar::U8,
        ("i", 16) => Scalar::I16,
        ("u", 16) => Scalar::U16,
        ("i", 32) => Scalar::I32,
        ("u", 32) => Scalar::U32,
        ("i", 64) => Scalar::I64,
        ("u", 64) => Scalar::U64,
        ("f", 16) => Scalar::F16,
        ("f", 32) => Scalar::F32,
        ("f", 64) => Scalar::F64,
        _ => return None,
    };
    if !(1..=16).contains(&lanes) {
        return None;
    }
    Some(ValTy { scalar, lanes })
}

impl Parser<'_> {
    /// Qualifiers before or around a type: returns (entry, storage, launch bounds).
    pub(super) fn qualifiers(&mut self) -> PResult<(bool, Storage, Option<u64>)> {
        let mut entry = false;
        let mut storage = Storage::default();
        let mut bounds = None;
        while let Tok::Ident(w) = self.peek(0).clone() {
            if !QUALIFIERS.contains(&w.as_str()) {
                break;
            }
            self.bump();
            match w.as_str() {
                "__global__" | "__simt_vf__" | "__aicore__" => entry = true,
                "__shared__" => storage.shared = true,
                // Ascend C's Unified Buffer: an object declared `__ubuf__` in a SIMT kernel
                // lives in the block's UB, which all its threads share (asc-devkit SIMT
                // samples: `extern __ubuf__ float smem[];` sized by the launch's dynamic UB
                // bytes, `__ubuf__ uint32_t is_last;` "将is_last标志从0号线程广播到该block的所有
                // 线程"), as `__shared__` does; on a pointer's pointee (`__ubuf__ float* p`) it
                // is the pointee's address space and the pointer stays the thread's own.
                "__ubuf__" if !self.pointer_declarator_ahead() => storage.shared = true,
                "__device__" => self.q_device = true,
                "__host__" => self.q_host = true,
                "extern" => storage.external = true,
                "__launch_bounds__" => {
                    self.expect_punct("(")?;
                    let e = self.assign_expr()?;
                    bounds = const_int(&e).and_then(|v| u64::try_from(v).ok());
                    while self.eat(",") {
                        self.assign_expr()?;
                    }
                    self.expect_punct(")")?;
                }
                _ => {}
            }
        }
        Ok((entry, storage, bounds))
    }

    /// Whether the declaration whose type starts here declares a pointer or a reference: the
    /// first `*` or `&` after the type's words (qualifiers, `::`-qualified names, one
    /// `<…>` argument list) comes before the declared name. Looks ahead without reading;
    /// bounded by the tokens up to the next `;`, `{`, `(` or `)`.
    fn pointer_declarator_ahead(&self) -> bool {
        let mut k = 0usize;
        let mut depth = 0usize;
        loop {
            match self.peek(k) {
                Tok::Punct("<") => depth += 1,
                Tok::Punct(">") if depth > 0 => depth -= 1,
                Tok::Punct(">>") if depth > 0 => depth = depth.saturating_sub(2),
                Tok::Punct("*" | "&" | "&&") if depth == 0 => return true,
                Tok::Ident(_) | Tok::Punct("::" | ",") => {}
                Tok::Punct(_) if depth > 0 => {}
                Tok::Int { .. } if depth > 0 => {}
                _ => return false,
            }
            k += 1;
        }
    }

    /// Whether a type word at `k` is followed by `const` or `constexpr` (`static float
    /// constexpr HALF_FLT_MAX = 65504.F;` of TensorRT-LLM and FasterTransformer): the
    /// specifiers of a decl-specifier-seq come in any order ([dcl.spec]/1).
    pub(super) fn const_after_type(&self, k: usize) -> bool {
        matches!(self.peek(k), Tok::Ident(_))
            && matches!(self.peek(k + 1), Tok::Ident(w) if w == "const" || w == "constexpr")
    }

    /// The cv-qualifiers and restrict qualifiers after a declarator's `*` (C++17 [dcl.ptr]/1:
    /// `* cv-qualifier-seq`; nvcc's and clang's `__restrict__`/`__restrict`, CUDA C++
    /// Programming Guide, "__restrict__"; C99's `restrict`): none changes a value, so they are
    /// skipped.
    pub(super) fn eat_ptr_qualifiers(&mut self) {
        while matches!(self.peek(0), Tok::Ident(w) if matches!(w.as_str(), "const" | "volatile" | "__restrict__" | "__restrict" | "restrict"))
        {
            self.bump();
        }
    }

    /// A base type: keyword combination, alias, `__NATIVE_VECTOR__(N, T)`, or an unknown name
    /// (reported, replaced by the closest known type).
    pub(super) fn base_type(&mut self) -> PResult<Ty> {
        let start = self.span();
        if self.is_word("__NATIVE_VECTOR__") {
            return Ok(Ty::Val(self.native_vector()?));
        }
        if let Some(t) = self.trait_type()? {
            return Ok(t);
        }
        if let Some(t) = self.member_value_type()? {
            return Ok(t);
        }
        let mut words: Vec<String> = Vec::new();
        loop {
            // `const ::size_t n`: a leading `::` names the global scope (C++17
            // [basic.lookup.qual]/3 and [namespace.qual]/2) before a type's first name.
            if words.is_empty()
                && *self.peek(0) == Tok::Punct("::")
                && matches!(self.peek(1), Tok::Ident(_))
            {
                self.bump();
            }
            let Tok::Ident(w) = self.peek(0).clone() else {
                break;
            };
            if INT128_WORDS.contains(&w.as_str()) {
                let at = self.span();
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "`{w}` (a 128-bit integer, GCC manual \"128-bit Integers\"; nvcc takes \
                         it in device code since CUDA 11.5) is not supported: crosslane's \
                         integer values are at most 64 bits wide; split the value into two \
                         64-bit halves (`__umul64hi` gives the high half of a 64-bit product)"
                    ),
                ));
            }
            // A typedef name after a type word is the declarator (`int half = 2;`), and one a
            // variable hides is that variable ([`KEYWORD_TYPES`]).
            let hidden = !KEYWORD_TYPES.contains(&w.as_str())
                && (!words.is_empty() || self.var_type(&w).is_some());
            if TYPE_WORDS.contains(&w.as_str())
                && hidden
                && words.is_empty()
                && matches!(self.peek(1), Tok::Ident(_) | Tok::Punct("*" | "&"))
            {
                // `int half = 2; half h = …;`: `half` is the variable here, so this is not a
                // declaration ([basic.scope.hiding]/2); the compilers refuse it too.
                return Err(KernelError::new(
                    start.line,
                    start.col,
                    format!(
                        "`{w}` is a variable here, which hides the type `{w}` in its scope \
                         ([basic.scope.hiding]/2); rename the variable{}",
                        if matches!(w.as_str(), "half" | "half2") {
                            format!(" or write the type as `__{w}`")
                        } else {
                            String::new()
                        }
                    ),
                ));
            }
            if TYPE_WORDS.contains(&w.as_str()) && !hidden {
                self.bump();
                words.push(w);
                continue;
            }
            // `float constexpr x = …;`, `int const n`: the specifiers of a decl-specifier-seq
            // come in any order ([dcl.spec]/1). Ascend C's address spaces (`__gm__`,
            // `__ubuf__`) qualify the pointee where a type is read on its own (a cast's
            // `(__ubuf__ T*)`, a template argument); a declaration's `__ubuf__` object is read
            // with its storage before this.
            if matches!(
                w.as_str(),
                "const" | "constexpr" | "volatile" | "__restrict__" | "__gm__" | "__ubuf__"
            ) {
                self.bump();
                continue;
            }
            if words.is_empty() {
                // A type parameter bound to a pointer type (`PtrT w`, `PtrT p = q;`).
                if let Some(v) = self.ptr_aliases.get(&w).copied() {
                    self.bump();
                    return Ok(Ty::Ptr(v));
                }
                if let Some(t) = self
                    .aliases
                    .get(&w)
                    .copied()
                    .or_else(|| maca_vector(&w))
                    .or_else(|| cuda_vector(&w))
                    .or_else(|| runtime_handle(&w))
                {
                    self.bump();
                    return Ok(Ty::Val(t));
                }
                // An unknown name used as a type (followed by a name, `*` or `&`).
                if matches!(
                    self.peek(1),
                    Tok::Ident(_) | Tok::Punct("*") | Tok::Punct("&")
                ) {
                    self.bump();
                    return Ok(self.unknown_type(&w, start));
                }
            }
            break;
        }
        if words.is_empty() {
            // `rocprim::block_reduce<int, 256>`: a rocPRIM library class, whose header
            // (`<rocprim/…>`) is not read.
            if let (Tok::Ident(ns), Tok::Punct("::"), Tok::Ident(class)) =
                (self.peek(0), self.peek(1), self.peek(2))
            {
                if ns == "rocprim" || ns == super::rocprim_lib::UNKNOWN_NS {
                    let at = self.span();
                    return Err(crate::KernelError::new(
                        at.line,
                        at.col,
                        format!(
                            "`rocprim::{class}` is a rocPRIM library class (`<rocprim/…>`, a \
                             header not read here), which is not supported; {}",
                            super::rocprim_lib::REFUSAL
                        ),
                    ));
                }
            }
            return self.err("a type");
        }
        let has = |w: &str| words.iter().any(|x| x == w);
        let longs = words.iter().filter(|w| *w == "long").count();
        if has("void") {
            return Ok(Ty::Void);
        }
        let unsigned = has("unsigned");
        let scalar = if has("double") {
            Scalar::F64
        } else if has("char") {
            if unsigned {
                Scalar::U8
            } else {
                Scalar::I8
            }
        } else if has("short") {
            if unsigned {
                Scalar::U16
            } else {
                Scalar::I16
            }
        } else if longs > 0 {
            if unsigned {
                Scalar::U64
            } else {
                Scalar::I64
            }
        } else if has("unsigned") || has("signed") || has("int") {
            if unsigned {
                Scalar::U32
            } else {
                Scalar::I32
            }
        } else {
            return word_type(&words[0])
                .map(Ty::Val)
                .map_or_else(|| self.err("a type"), Ok);
        };
        Ok(Ty::Val(ValTy::scalar(scalar)))
    }

    pub(super) fn unknown_type(&mut self, name: &str, at: Span) -> Ty {
        // An alias whose declaration was refused ([`super::refused_alias`]): that refusal.
        if let Some(why) = self.refused_aliases.get(name) {
            let m = format!("unknown type `{name}`: {why}");
            self.diag(at, Level::Error, m, "");
            return Ty::Val(ValTy::scalar(Scalar::I32));
        }
        if self.suggestions >= MAX_SUGGESTIONS {
            self.diag(at, Level::Error, format!("unknown type `{name}`"), "");
            return Ty::Val(ValTy::scalar(Scalar::I32));
        }
        self.suggestions += 1;
        let mut known: Vec<String> = self.aliases.keys().cloned().collect();
        known.extend(TYPE_WORDS.iter().map(|s| s.to_string()));
        let best = known
            .iter()
            .map(|k| (edit_distance(name, k), k.clone()))
            .min();
        match best {
            Some((d, k)) if d <= 2 => {
                let ty = self
                    .aliases
                    .get(&k)
                    .copied()
                    .or_else(|| word_type(&k))
                    .unwrap_or(ValTy::scalar(Scalar::I32));
                self.diag(
                    at,
                    Level::Error,
                    format!("unknown type `{name}`; did you mean `{k}`?"),
                    "",
                );
                Ty::Val(ty)
            }
            _ => {
                self.diag(at, Level::Error, format!("unknown type `{name}`"), "");
                Ty::Val(ValTy::scalar(Scalar::I32))
            }
        }
    }

    pub(super) fn native_vector(&mut self) -> PResult<ValTy> {
        self.bump();
        self.expect_punct("(")?;
        let at = self.span();
        let n = self.assign_expr()?;
        self.expect_punct(",")?;
        let elem = self.base_type()?;
        self.expect_punct(")")?;
        let lanes = const_int(&n)
            .and_then(|v| u8::try_from(v).ok())
            .filter(|v| (1..=16).contains(v))
            .ok_or_else(|| {
                KernelError::new(at.line, at.col, "__NATIVE_VECTOR__ size must be 1..=16")
            })?;
        match elem {
            Ty::Val(ValTy { scalar, lanes: 1 }) => Ok(ValTy { scalar, lanes }),
            _ => Err(KernelError::new(
                at.line,
                at.col,
                "__NATIVE_VECTOR__ needs a scalar element type",
            )),
        }
    }

    /// `*`s and `&` after a base type: returns the type and whether it was a reference.
    pub(super) fn pointers(&mut self, base: Ty) -> PResult<(Ty, bool)> {
        let mut ty = base;
        let mut reference = false;
        loop {
            if self.is_punct("*") {
                let at = self.span();
                self.bump();
                ty = match ty {
                    Ty::Val(v) => Ty::Ptr(v),
                    Ty::Void => Ty::Ptr(ValTy::scalar(Scalar::I32)),
                    Ty::Ptr(_) => {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            "pointers to pointers are not supported",
                        ))
                    }
                };
            } else if self.is_punct("&") || self.is_punct("&&") {
                // `&&`: an rvalue or forwarding reference (`auto&& v = x;` binds an lvalue as
                // `auto&` does, [dcl.ref]/6, [temp.deduct.call]/3).
                self.bump();
                reference = true;
            } else if matches!(self.peek(0), Tok::Ident(w) if matches!(w.as_str(), "__restrict__" | "__restrict" | "restrict" | "const" | "__gm__" | "__ubuf__"))
            {
                self.bump();
            } else {
                break;
            }
        }
        Ok((ty, reference))
    }
}
