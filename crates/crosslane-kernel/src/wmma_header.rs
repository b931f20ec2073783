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
//! Shapes: `m16n16k16`, `m32n8k16`, `m8n32k16`; `half` or `__nv_bfloat16` A/B, `float` or
//! `half` accumulators (the Guide lists `__nv_bfloat16` inputs with a `float` accumulator
//! only; crosslane does not refuse a `half` one).
//! Any other fragment is refused at its declaration as an incomplete type (the class template
//! is declared without a definition for it).

use std::borrow::Cow;

/// The supported `(M, N, K)` shapes (CUDA C++ Programming Guide, "Element Types and Matrix
/// Sizes", the `half` and `__nv_bfloat16` rows).
pub const SHAPES: [(u32, u32, u32); 3] = [(16, 16, 16), (32, 8, 16), (8, 32, 16)];

/// Whether `line` is an `#include` of `<mma.h>` (or `"mma.h"`).
fn is_mma_include(line: &str) -> bool {
    let t = line.trim();
    let Some(rest) = t.strip_prefix('#') else {
        return false;
    };
    let Some(rest) = rest.trim_start().strip_prefix("include") else {
        return false;
    };
    matches!(rest.trim(), "<mma.h>" | "\"mma.h\"")
}

/// `source` with each `#include <mma.h>` line replaced by [`header`] on that line; the source
/// itself when it has none.
pub fn expand(source: &str) -> Cow<'_, str> {
    if !source.lines().any(is_mma_include) {
        return Cow::Borrowed(source);
    }
    let mut out = String::with_capacity(source.len() + 8192);
    for piece in source.split_inclusive('\n') {
        let (line, end) = match piece.strip_suffix('\n') {
            Some(l) => (l, "\n"),
            None => (piece, ""),
        };
        let (line, cr) = match line.strip_suffix('\r') {
            Some(l) => (l, "\r"),
            None => (line, ""),
        };
        if is_mma_include(line) {
            out.push_str(&header());
        } else {
            out.push_str(line);
        }
        out.push_str(cr);
        out.push_str(end);
    }
    Cow::Owned(out)
}

/// The one-line C++ text that stands for `<mma.h>` (module doc).
pub fn header() -> String {
    let mut h = String::from(
        "namespace nvcuda { namespace wmma { \
         struct matrix_a {}; struct matrix_b {}; struct accumulator {}; \
         struct row_major {}; struct col_major {}; struct __crosslane_no_layout {}; \
         enum layout_t { mem_row_major, mem_col_major }; \
         template <typename Use, int M, int N, int K, typename T, typename L = __crosslane_no_layout> struct fragment; ",
    );
    for (m, n, k) in SHAPES {
        for t in ["half", "__nv_bfloat16"] {
            let e = m * k / 32;
            h.push_str(&format!("template <typename L> struct fragment<matrix_a, {m}, {n}, {k}, {t}, L> {{ {t} x[{e}]; int num_elements = {e}; }}; "));
            let e = k * n / 32;
            h.push_str(&format!("template <typename L> struct fragment<matrix_b, {m}, {n}, {k}, {t}, L> {{ {t} x[{e}]; int num_elements = {e}; }}; "));
        }
        for t in ["float", "half"] {
            let e = m * n / 32;
            h.push_str(&format!("template <> struct fragment<accumulator, {m}, {n}, {k}, {t}, __crosslane_no_layout> {{ {t} x[{e}]; int num_elements = {e}; }}; "));
        }
    }
    // Element `e` of a rows x cols matrix (row-major order) is in lane `e / E`, x[e % E].
    let lane_e = |count: &str| format!("int e = __lane_id() * ({count} / 32) + i;");
    h.push_str("template <typename Use, int M, int N, int K, typename T, typename L, typename V> __device__ void fill_fragment(fragment<Use, M, N, K, T, L>& f, const V& v) { int __crosslane_w = __crosslane_wmma_warp(); T tv = v; for (int i = 0; i < f.num_elements; i++) f.x[i] = (float)tv * (float)__crosslane_w; } ");
    for (usage, rows, cols) in [("matrix_a", "M", "K"), ("matrix_b", "K", "N")] {
        let count = format!("{rows} * {cols}");
        let e = lane_e(&count);
        h.push_str(&format!("template <int M, int N, int K, typename T> __device__ void load_matrix_sync(fragment<{usage}, M, N, K, T, row_major>& f, const T* p, unsigned ldm) {{ int __crosslane_w = __crosslane_wmma_warp(); for (int i = 0; i < {count} / 32; i++) {{ {e} f.x[i] = (float)p[e / {cols} * ldm + e % {cols}] * (float)__crosslane_w; }} }} "));
        h.push_str(&format!("template <int M, int N, int K, typename T> __device__ void load_matrix_sync(fragment<{usage}, M, N, K, T, col_major>& f, const T* p, unsigned ldm) {{ int __crosslane_w = __crosslane_wmma_warp(); for (int i = 0; i < {count} / 32; i++) {{ {e} f.x[i] = (float)p[e % {cols} * ldm + e / {cols}] * (float)__crosslane_w; }} }} "));
    }
    let e = lane_e("M * N");
    h.push_str(&format!("template <int M, int N, int K, typename T> __device__ void load_matrix_sync(fragment<accumulator, M, N, K, T>& f, const T* p, unsigned ldm, layout_t l) {{ int __crosslane_w = __crosslane_wmma_warp(); for (int i = 0; i < M * N / 32; i++) {{ {e} f.x[i] = (float)(l == mem_row_major ? p[e / N * ldm + e % N] : p[e % N * ldm + e / N]) * (float)__crosslane_w; }} }} "));
    h.push_str(&format!("template <int M, int N, int K, typename T> __device__ void store_matrix_sync(T* p, const fragment<accumulator, M, N, K, T>& f, unsigned ldm, layout_t l) {{ int __crosslane_w = __crosslane_wmma_warp(); for (int i = 0; i < M * N / 32; i++) {{ {e} if (l == mem_row_major) p[e / N * ldm + e % N] = (float)f.x[i] * (float)__crosslane_w; else p[e % N * ldm + e / N] = (float)f.x[i] * (float)__crosslane_w; }} }} "));
    // Each lane computes its own D elements: float products (exact for half / bf16 inputs)
    // summed from C in k order, each A and B element fetched from the lane holding it with one
    // `__shfl_sync` ([`mma_sync`]).
    for shape in SHAPES {
        h.push_str(&mma_sync(shape));
    }
    h.push_str("} }");
    h
}

/// `mma_sync` for one shape, as C++ text. In every supported shape the `x[]` slot of
/// `A[r][k]` is `k % EA` in every lane (a row holds a whole number of lanes' slots), so one
/// shuffle of `x[k % EA]` from lane `(r·K + k) / EA` fetches it. The slot of `B[k][c]` is
/// `(g + s) % EB` for D slot `s`, where `g = (lane·EC mod N) mod EB` takes one value per shape
/// except m8n32k16 (0 or 8): each value of `g` gets its own shuffle, and a lane keeps the one
/// of its own `g`.
fn mma_sync((m, n, k): (u32, u32, u32)) -> String {
    let (ea, eb, ec) = (m * k / 32, k * n / 32, m * n / 32);
    let mut gs: Vec<u32> = (0..32).map(|l| (l * ec % n) % eb).collect();
    gs.sort_unstable();
    gs.dedup();
    let fetch_b: String = gs
        .iter()
        .map(|g| {
            format!(
                "{{ float v = __shfl_sync(0xffffffff, (float)b.x[({g} + s) % {eb}], (k * {n} + cc) / {eb}); if (g == {g}) bv = v; }} "
            )
        })
        .collect();
    format!(
        "template <typename TA, typename LA, typename LB, typename TC, typename TD> __device__ void mma_sync(fragment<accumulator, {m}, {n}, {k}, TD>& d, const fragment<matrix_a, {m}, {n}, {k}, TA, LA>& a, const fragment<matrix_b, {m}, {n}, {k}, TA, LB>& b, const fragment<accumulator, {m}, {n}, {k}, TC>& c) {{ \
         int __crosslane_w = __crosslane_wmma_warp(); int g = __lane_id() * {ec} % {n} % {eb}; \
         for (int s = 0; s < {ec}; s++) {{ int e = __lane_id() * {ec} + s; int r = e / {n}; int cc = e % {n}; float acc = (float)c.x[s]; \
         for (int k = 0; k < {k}; k++) {{ float av = __shfl_sync(0xffffffff, (float)a.x[k % {ea}], (r * {k} + k) / {ea}); float bv = 0.0f; {fetch_b}acc += av * bv; }} \
         d.x[s] = acc * (float)__crosslane_w; }} }} "
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
    format!(
        "; crosslane's `<mma.h>` has the `nvcuda::wmma` fragments of shapes {} (M, N, K as the \
         fragment's 2nd-4th arguments) with `half` or `__nv_bfloat16` matrix_a / matrix_b \
         (`row_major` or `col_major`) and `float` or `half` accumulators (no layout argument); \
         other shapes and types (`precision::tf32`, `double`, integer and sub-byte fragments) \
         are not run",
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
