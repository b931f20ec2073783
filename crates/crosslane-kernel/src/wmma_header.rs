//! `<mma.h>`: the CUDA C++ warp matrix functions (`nvcuda::wmma`, CUDA C++ Programming Guide,
//! "Warp Matrix Functions"), given as C++ source that the interpreter runs like the user's own.
//!
//! An `#include <mma.h>` line of a CUDA source is replaced, on that same line (so every other
//! line keeps its number), by [`header`]: the `fragment` class template with one
//! specialization per supported shape and type, and `fill_fragment`, `load_matrix_sync`,
//! `store_matrix_sync` and `mma_sync` as `__device__` function templates.
//!
//! What the Guide leaves unspecified, and what crosslane does instead:
//! - The mapping of matrix elements to lanes and to `x[]` ("the map of matrix elements into
//!   each thread's fragment is unspecified"): crosslane's fixed internal mapping puts element `e` of the
//!   logical matrix in row-major order (`e = row * cols + col`) in lane `e / E`, `x[e % E]`,
//!   with `E = rows * cols / 32` elements per lane (`num_elements`). It is no device's mapping:
//!   only operations applied to every element alike (`c.x[i] = alpha * c.x[i]`) give a
//!   result the Guide defines.
//! - `mma_sync`'s arithmetic: each product of two `half` (or `__nv_bfloat16`) elements is
//!   exact in `float` (11 × 11 significant bits fit in 24), and the sum runs in `float` from
//!   `C[i][j]` in increasing `k` order, rounded once more to a `half` accumulator. The
//!   device's order and intermediate precision are unspecified. Each of crosslane's `K` float
//!   additions is within half an ulp of its exact sum, so its result is within `K / 2` ulp (of
//!   the largest partial sum's magnitude) of the exact `A·B + C`; a device result obeys its own
//!   bound, not this order. Sums of small integers are exact on both.
//! - Warp-collective rule ("must be called by all threads in the warp"): every function reads
//!   `__crosslane_wmma_warp()` (`1` when the whole warp runs the call, else undefined with
//!   that rule and a warning) and multiplies each value it writes by it (exact: `x * 1`), so a
//!   call from a partial or diverged warp leaves undefined fragments or stored values with the
//!   rule as their reason. `mma_sync` exchanges the fragments with
//!   `__shfl_sync(0xffffffff, …)`, whose own rule also reports the missing lanes.
//!
//! - `precision::tf32` (m16n16k8): A and B are `float` elements (loaded from `float` memory)
//!   that "must be manually converted to tf32 precision" with `__float_to_tf32` (the Guide,
//!   "Alternate Floating Point"); crosslane's `__float_to_tf32` is the PTX conversion
//!   `cvt.rna.tf32.f32` (round to nearest, ties away; [`crate::ptx_tf32`]), since the Guide
//!   says only that its result "will be tf32 numerically". Products of two tf32 values are
//!   exact in `float` and summed as for `half`; an A or B element that is not a tf32 value
//!   leaves the D elements it reaches undefined with that rule as the reason.
//! - `double` (m8n8k4): "performed with the .rn (rounds to nearest even) rounding modifier"
//!   (the Guide, "Double Precision"): crosslane sums from `C[i][j]` in increasing `k` order,
//!   one `fma` per step, each rounded once to nearest even; the device's order is unspecified.
//!
//! Shapes: `m16n16k16`, `m32n8k16`, `m8n32k16` with `half` or `__nv_bfloat16` A/B, `float` or
//! `half` accumulators (the Guide lists `__nv_bfloat16` inputs with a `float` accumulator
//! only; crosslane does not refuse a `half` one); `m16n16k8` with `precision::tf32` A/B and a
//! `float` accumulator; `m8n8k4` with `double` A/B/accumulator.
//! Any other fragment is refused at its declaration as an incomplete type (the class template
//! is declared without a definition for it).

use std::borrow::Cow;

/// The supported `(M, N, K)` shapes of `half` and `__nv_bfloat16` inputs (CUDA C++ Programming
/// Guide, "Element Types and Matrix Sizes", the `__half` row and the `__nv_bfloat16` row of
/// "Alternate Floating Point").
pub const SHAPES: [(u32, u32, u32); 3] = [(16, 16, 16), (32, 8, 16), (8, 32, 16)];

/// The `precision::tf32` shape (same table, "Alternate Floating Point": `precision::tf32`
/// inputs, a `float` accumulator, `m16n16k8`).
pub const TF32_SHAPE: (u32, u32, u32) = (16, 16, 8);

/// The `double` shape (same table, "Double Precision": `double` inputs and accumulator,
/// `m8n8k4`).
pub const F64_SHAPE: (u32, u32, u32) = (8, 8, 4);

/// Whether `line` is an `#include` of `<mma.h>` (or `"mma.h"`).
fn is_mma_include(line: &str) -> bool {
    is_include_of(line, &["<mma.h>", "\"mma.h\""])
}

/// Whether `line` is an `#include` whose target, as written, is one of `targets`
/// (`<mma.h>`, `"mma.h"`, `<cuda/barrier>`).
pub(crate) fn is_include_of(line: &str, targets: &[&str]) -> bool {
    let t = line.trim();
    let Some(rest) = t.strip_prefix('#') else {
        return false;
    };
    let Some(rest) = rest.trim_start().strip_prefix("include") else {
        return false;
    };
    targets.contains(&rest.trim())
}

/// `source` with each `#include <mma.h>` line replaced by [`header`] on that line; the source
/// itself when it has none.
pub fn expand(source: &str) -> Cow<'_, str> {
    replace_includes(source, is_mma_include, header, false)
}

/// `source` with each line `is_include` accepts replaced by `header()` on that line (with
/// `once`, the first such line only; later ones become empty lines), every line's ending kept
/// so that positions stay; `source` itself, and `header` not called, when it has none. The
/// headers crosslane writes for `<mma.h>` and `<cuda/barrier>` ([`crate::barrier_header`]).
pub(crate) fn replace_includes(
    source: &str,
    is_include: impl Fn(&str) -> bool,
    header: impl FnOnce() -> String,
    once: bool,
) -> Cow<'_, str> {
    if !source.lines().any(&is_include) {
        return Cow::Borrowed(source);
    }
    let header = header();
    let mut out = String::with_capacity(source.len() + header.len());
    let mut done = false;
    for piece in source.split_inclusive('\n') {
        let (line, end) = match piece.strip_suffix('\n') {
            Some(l) => (l, "\n"),
            None => (piece, ""),
        };
        let (line, cr) = match line.strip_suffix('\r') {
            Some(l) => (l, "\r"),
            None => (line, ""),
        };
        if is_include(line) {
            if !(once && done) {
                out.push_str(&header);
                done = true;
            }
        } else {
            out.push_str(line);
        }
        out.push_str(cr);
        out.push_str(end);
    }
    Cow::Owned(out)
}

/// One fragment family: its shape, the input type as the fragment names it, that type's
/// storage (`float` for `precision::tf32`), and the accumulator types it pairs with.
type Kind = (
    (u32, u32, u32),
    &'static str,
    &'static str,
    &'static [&'static str],
);

/// The one-line C++ text that stands for `<mma.h>` (module doc).
pub fn header() -> String {
    let mut h = String::from(
        "namespace nvcuda { namespace wmma { \
         struct matrix_a {}; struct matrix_b {}; struct accumulator {}; \
         struct row_major {}; struct col_major {}; struct __crosslane_no_layout {}; \
         namespace precision { struct tf32 {}; } \
         enum layout_t { mem_row_major, mem_col_major }; \
         template <typename Use, int M, int N, int K, typename T, typename L = __crosslane_no_layout> struct fragment; ",
    );
    // `__float_to_tf32` ([`crate::ptx_tf32`]): the PTX conversion with ties away.
    h.push_str(
        "__device__ float __float_to_tf32(float in) { unsigned int __crosslane_t; \
         asm(\"cvt.rna.tf32.f32 %0, %1;\" : \"=r\"(__crosslane_t) : \"f\"(in)); \
         return __uint_as_float(__crosslane_t); } ",
    );
    // (shape, input type as the fragment names it, its storage, accumulator types)
    let mut kinds: Vec<Kind> = Vec::new();
    for shape in SHAPES {
        kinds.push((shape, "half", "half", &["float", "half"]));
        kinds.push((shape, "__nv_bfloat16", "__nv_bfloat16", &["float", "half"]));
    }
    kinds.push((TF32_SHAPE, "precision::tf32", "float", &["float"]));
    kinds.push((F64_SHAPE, "double", "double", &["double"]));
    let mut accs: Vec<((u32, u32, u32), &str)> = Vec::new();
    for ((m, n, k), t, store, acc) in &kinds {
        let e = m * k / 32;
        h.push_str(&format!("template <typename L> struct fragment<matrix_a, {m}, {n}, {k}, {t}, L> {{ {store} x[{e}]; int num_elements = {e}; }}; "));
        let e = k * n / 32;
        h.push_str(&format!("template <typename L> struct fragment<matrix_b, {m}, {n}, {k}, {t}, L> {{ {store} x[{e}]; int num_elements = {e}; }}; "));
        for a in acc.iter() {
            if accs.contains(&((*m, *n, *k), a)) {
                continue;
            }
            accs.push(((*m, *n, *k), a));
            let e = m * n / 32;
            h.push_str(&format!("template <> struct fragment<accumulator, {m}, {n}, {k}, {a}, __crosslane_no_layout> {{ {a} x[{e}]; int num_elements = {e}; }}; "));
        }
    }
    // Element `e` of a rows x cols matrix (row-major order) is in lane `e / E`, x[e % E].
    // Values pass through `double` (exact for every element type here) times the warp check.
    let lane_e = |count: &str| format!("int e = __lane_id() * ({count} / 32) + i;");
    h.push_str("template <typename Use, int M, int N, int K, typename T, typename L, typename V> __device__ void fill_fragment(fragment<Use, M, N, K, T, L>& f, const V& v) { int __crosslane_w = __crosslane_wmma_warp(); for (int i = 0; i < f.num_elements; i++) { f.x[i] = v; f.x[i] = (double)f.x[i] * (double)__crosslane_w; } } ");
    let (tm, tn, tk) = TF32_SHAPE;
    for (usage, rows, cols, (tr, tc)) in [
        ("matrix_a", "M", "K", (tm, tk)),
        ("matrix_b", "K", "N", (tk, tn)),
    ] {
        // `precision::tf32` fragments load from `float` memory (the Guide's storage type):
        // plain functions of that one shape, beside the templates of the other types.
        let tf32_count = format!("{tr} * {tc}");
        for (head, count, cols) in [
            (format!("template <int M, int N, int K, typename T> __device__ void load_matrix_sync(fragment<{usage}, M, N, K, T, LAYOUT>& f, const T* p, unsigned ldm)"), format!("{rows} * {cols}"), cols.to_string()),
            (format!("__device__ void load_matrix_sync(fragment<{usage}, {tm}, {tn}, {tk}, precision::tf32, LAYOUT>& f, const float* p, unsigned ldm)"), tf32_count.clone(), tc.to_string()),
        ] {
            let e = lane_e(&count);
            let row = head.replace("LAYOUT", "row_major");
            let col = head.replace("LAYOUT", "col_major");
            h.push_str(&format!("{row} {{ int __crosslane_w = __crosslane_wmma_warp(); for (int i = 0; i < {count} / 32; i++) {{ {e} f.x[i] = (double)p[e / {cols} * ldm + e % {cols}] * (double)__crosslane_w; }} }} "));
            h.push_str(&format!("{col} {{ int __crosslane_w = __crosslane_wmma_warp(); for (int i = 0; i < {count} / 32; i++) {{ {e} f.x[i] = (double)p[e % {cols} * ldm + e / {cols}] * (double)__crosslane_w; }} }} "));
        }
    }
    let e = lane_e("M * N");
    h.push_str(&format!("template <int M, int N, int K, typename T> __device__ void load_matrix_sync(fragment<accumulator, M, N, K, T>& f, const T* p, unsigned ldm, layout_t l) {{ int __crosslane_w = __crosslane_wmma_warp(); for (int i = 0; i < M * N / 32; i++) {{ {e} f.x[i] = (double)(l == mem_row_major ? p[e / N * ldm + e % N] : p[e % N * ldm + e / N]) * (double)__crosslane_w; }} }} "));
    h.push_str(&format!("template <int M, int N, int K, typename T> __device__ void store_matrix_sync(T* p, const fragment<accumulator, M, N, K, T>& f, unsigned ldm, layout_t l) {{ int __crosslane_w = __crosslane_wmma_warp(); for (int i = 0; i < M * N / 32; i++) {{ {e} if (l == mem_row_major) p[e / N * ldm + e % N] = (double)f.x[i] * (double)__crosslane_w; else p[e % N * ldm + e / N] = (double)f.x[i] * (double)__crosslane_w; }} }} "));
    // Each lane computes its own D elements: products summed from C in k order, each A and B
    // element fetched from the lane holding it with one `__shfl_sync` ([`mma_sync`]).
    for shape in SHAPES {
        h.push_str(&mma_sync(shape, Arith::Half));
    }
    h.push_str(&mma_sync(TF32_SHAPE, Arith::Tf32));
    h.push_str(&mma_sync(F64_SHAPE, Arith::Double));
    h.push_str("} }");
    h
}

/// How a shape's `mma_sync` computes (module doc).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Arith {
    /// `half` / `__nv_bfloat16` inputs: exact `float` products summed in `float`.
    Half,
    /// `precision::tf32` inputs: exact `float` products (11 × 11 significant bits) summed in
    /// `float`; an element that is not a tf32 value leaves the D elements it reaches
    /// undefined (the Guide: "the input matrices must be manually converted to tf32
    /// precision").
    Tf32,
    /// `double`: `acc = fma(a, b, acc)` in `double`, each step rounded once to nearest even
    /// (the Guide, "Double Precision": "performed with the .rn (rounds to nearest even)
    /// rounding modifier").
    Double,
}

/// Why a tf32 `mma_sync` element that is not a tf32 value is undefined.
const TF32_WHY: &str = "an element of a precision::tf32 matrix_a / matrix_b fragment is not a \
    tf32 value: the input matrices must be manually converted to tf32 precision with \
    __float_to_tf32 (CUDA C++ Programming Guide, Warp Matrix Functions, Alternate Floating \
    Point), and the precision the Tensor Cores read of any other float is implementation \
    defined";

/// The rule a tf32 input that is not a tf32 value breaks.
const TF32_RULE: &str =
    "CUDA C++ Programming Guide, Warp Matrix Functions, Alternate Floating Point";

/// `mma_sync` for one shape, as C++ text. In every supported shape the `x[]` slot of
/// `A[r][k]` is `k % EA` in every lane (a row holds a whole number of lanes' slots), so one
/// shuffle of `x[k % EA]` from lane `(r·K + k) / EA` fetches it. The slot of `B[k][c]` is
/// `(g + s) % EB` for D slot `s`, where `g = (lane·EC mod N) mod EB` takes one value per shape
/// except m8n32k16 (0 or 8): each value of `g` gets its own shuffle, and a lane keeps the one
/// of its own `g`.
fn mma_sync((m, n, k): (u32, u32, u32), arith: Arith) -> String {
    let (ea, eb, ec) = (m * k / 32, k * n / 32, m * n / 32);
    let num = if arith == Arith::Double {
        "double"
    } else {
        "float"
    };
    let mut gs: Vec<u32> = (0..32).map(|l| (l * ec % n) % eb).collect();
    gs.sort_unstable();
    gs.dedup();
    let fetch_b: String = gs
        .iter()
        .map(|g| {
            format!(
                "{{ {num} v = __shfl_sync(0xffffffff, ({num})b.x[({g} + s) % {eb}], (k * {n} + cc) / {eb}); if (g == {g}) bv = v; }} "
            )
        })
        .collect();
    let check = if arith == Arith::Tf32 {
        format!(
            "av = __crosslane_valid_only(av, av == __float_to_tf32(av), \"{TF32_WHY}\", \"{TF32_RULE}\"); \
             bv = __crosslane_valid_only(bv, bv == __float_to_tf32(bv), \"{TF32_WHY}\", \"{TF32_RULE}\"); "
        )
    } else {
        String::new()
    };
    let step = if arith == Arith::Double {
        "acc = fma(av, bv, acc);"
    } else {
        "acc += av * bv;"
    };
    // The tf32 and double shapes take their one input and accumulator type (a template of
    // those would also be a candidate, of incomplete types, for the other shapes' calls).
    let head = match arith {
        Arith::Half => format!("template <typename TA, typename LA, typename LB, typename TC, typename TD> __device__ void mma_sync(fragment<accumulator, {m}, {n}, {k}, TD>& d, const fragment<matrix_a, {m}, {n}, {k}, TA, LA>& a, const fragment<matrix_b, {m}, {n}, {k}, TA, LB>& b, const fragment<accumulator, {m}, {n}, {k}, TC>& c)"),
        Arith::Tf32 | Arith::Double => {
            let (t, acc) = if arith == Arith::Tf32 { ("precision::tf32", "float") } else { ("double", "double") };
            format!("template <typename LA, typename LB> __device__ void mma_sync(fragment<accumulator, {m}, {n}, {k}, {acc}>& d, const fragment<matrix_a, {m}, {n}, {k}, {t}, LA>& a, const fragment<matrix_b, {m}, {n}, {k}, {t}, LB>& b, const fragment<accumulator, {m}, {n}, {k}, {acc}>& c)")
        }
    };
    format!(
        "{head} {{ \
         int __crosslane_w = __crosslane_wmma_warp(); int g = __lane_id() * {ec} % {n} % {eb}; \
         for (int s = 0; s < {ec}; s++) {{ int e = __lane_id() * {ec} + s; int r = e / {n}; int cc = e % {n}; {num} acc = ({num})c.x[s]; \
         for (int k = 0; k < {k}; k++) {{ {num} av = __shfl_sync(0xffffffff, ({num})a.x[k % {ea}], (r * {k} + k) / {ea}); {num} bv = 0; {fetch_b}{check}{step} }} \
         d.x[s] = acc * ({num})__crosslane_w; }} }} "
    )
}

/// What to write instead when `mangled` (a class template instance the parser could not
/// complete) is a `wmma::fragment` of a shape or type [`header`] does not have: the supported
/// list; empty for any other class.
pub fn unsupported_hint(mangled: &str) -> String {
    let is_fragment = ["matrix_a", "matrix_b", "accumulator"]
        .iter()
        .any(|u| mangled.starts_with(&format!("fragment<{u},")));
    if !is_fragment {
        return String::new();
    }
    let shapes: Vec<String> = SHAPES
        .iter()
        .map(|(m, n, k)| format!("m{m}n{n}k{k}"))
        .collect();
    let (tm, tn, tk) = TF32_SHAPE;
    let (dm, dn, dk) = F64_SHAPE;
    format!(
        "; crosslane's `<mma.h>` has the `nvcuda::wmma` fragments of shapes {} (M, N, K as the \
         fragment's 2nd-4th arguments) with `half` or `__nv_bfloat16` matrix_a / matrix_b \
         (`row_major` or `col_major`) and `float` or `half` accumulators (no layout argument), \
         m{tm}n{tn}k{tk} with `precision::tf32` matrix_a / matrix_b and a `float` accumulator, \
         and m{dm}n{dn}k{dk} with `double` ones; integer (`char`, `unsigned char`) and sub-byte \
         fragments are not run",
        shapes.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_is_replaced_on_its_own_line() {
        let src = "#include <cuda_fp16.h>\n  #include <mma.h>\nint x;\n";
        let out = expand(src);
        assert_eq!(out.lines().count(), 3);
        assert!(out.lines().nth(1).unwrap().starts_with("namespace nvcuda"));
        assert_eq!(out.lines().nth(2), Some("int x;"));
        assert!(matches!(expand("int y;\n"), Cow::Borrowed(_)));
    }
}
