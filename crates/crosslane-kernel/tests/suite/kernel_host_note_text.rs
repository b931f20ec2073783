//! The source text host-code notes quote is written as the source writes it: the tokens with
//! the source's own spacing between them (`if (a && n >= 2)`, not `if (a&&n>=2)`), a space only
//! where C++ needs one where the tokens' positions do not tell (a macro's expansion:
//! `const bool` never `constbool`), and a floating literal with its point and suffix (`2.0f`,
//! not `2`). Each expected message is the note the reader writes, quoting the program's lines.

use crate::support::run_default;
use crosslane_core::result::Level;

/// Every diagnostic's message at `level`.
fn messages(src: &str, level: Level) -> Vec<String> {
    run_default(src)
        .all_diagnostics()
        .filter(|d| d.level == level)
        .map(|d| d.message.clone())
        .collect()
}

const KERNEL: &str = "__global__ void k(float* out, int n) { out[threadIdx.x] = n; }\n";

#[test]
fn a_host_condition_and_initializer_are_quoted_as_written() {
    let src = format!(
        "{KERNEL}int main() {{\n  const bool a = rand() > 5;\n  int n = 4;\n  float* d;\n  \
         cudaMalloc(&d, 32 * sizeof(float));\n  if (a && n >= 2) {{ n = n + 1; }}\n  \
         k<<<1, 32>>>(d, n);\n  return 0;\n}}\n"
    );
    let want = "argument `n` of this launch (`n`) is not a constant read here (`n` is unknown: \
                it is assigned under `if (a && n >= 2)` at line 7, whose condition has no \
                constant value in host code (`a` is unknown: `rand() > 5` at line 3 has no \
                constant value in host code)); set it (CLI: --arg n=VALUE)";
    let got = messages(&src, Level::Warning);
    assert!(got.iter().any(|m| m == want), "{got:#?}");
}

#[test]
fn a_host_loop_body_keeps_its_float_literals_and_spacing() {
    let src = format!(
        "{KERNEL}int main() {{\n  float f = rand() % 7;\n  float* d;\n  \
         cudaMalloc(&d, 32 * sizeof(float));\n  float h[32];\n  \
         for (int i = 0; i < 32; ++i) h[i] = f / 2.0f;\n  \
         cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);\n  k<<<1, 32>>>(d, 3);\n  \
         return 0;\n}}\n"
    );
    let want = "the host loop at line 7 is not evaluated: `h[i] = f / 2.0f` has no constant \
                value (`f` is unknown: `rand() % 7` at line 3 has no constant value in host \
                code); `h` has no value after it";
    let got = messages(&src, Level::Info);
    assert!(got.iter().any(|m| m == want), "{got:#?}");
}

#[test]
fn a_macro_expansion_is_spaced_where_cpp_needs_it() {
    // `POS(-m)` expands at one source position, so its tokens' positions tell no spacing: they
    // are written with a space only where C++ needs one, here between `-` and `-` (`--m` would
    // read as a decrement).
    let src = format!(
        "#define POS(v) v > 0 && -v < 9\n{KERNEL}int main() {{\n  int m = rand();\n  int n = 1;\n  \
         if (POS(-m)) {{ n = 2; }}\n  float* d;\n  cudaMalloc(&d, 32 * sizeof(float));\n  \
         k<<<1, 32>>>(d, n);\n  return 0;\n}}\n"
    );
    let want = "argument `n` of this launch (`n`) is not a constant read here (`n` is unknown: \
                it is assigned under `if (-m>0&&- -m<9)` at line 6, whose condition has no \
                constant value in host code (`m` is unknown: `rand()` at line 4 has no constant \
                value in host code)); set it (CLI: --arg n=VALUE)";
    let got = messages(&src, Level::Warning);
    assert!(got.iter().any(|m| m == want), "{got:#?}");
}
