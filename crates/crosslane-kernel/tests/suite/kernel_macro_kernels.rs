//! Kernels and statements that macros write (candle's and ggml's `CAST_OP`/`UNARY_OP` shape:
//! a whole `__global__` function per macro call). Every identifier of an expansion must bind
//! to its own variable or call; the expected values are derived by hand beside each test.

use crate::cells::cell_ints as ints;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

fn run(src: &str, threads: usize, args: &[(&str, &str)]) -> KernelTrace {
    let config = LaunchConfig {
        block_dim: Some([threads, 1, 1]),
        args: args
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).expect("kernel parses and launches");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

#[test]
fn a_kernel_defined_by_a_short_macro_name_keeps_its_parameters_apart() {
    // `OP` is two characters long: before, every identifier past the second of the body shared
    // one position, so `dst[i] = src[i]` bound both names to one buffer.
    let t = run(
        "#define OP(T) __global__ void kern(const T *src, unsigned *dst) \
         { dst[threadIdx.x] = src[threadIdx.x] * 2u + 1u; }\n\
         OP(unsigned)\n",
        4,
        &[],
    );
    // src is filled with the index by default (cell i = i): dst[i] = 2i + 1.
    assert_eq!(ints(t.buffer("dst").unwrap()), [1, 3, 5, 7].map(Some));
    assert_eq!(ints(t.buffer("src").unwrap()), [0, 1, 2, 3].map(Some));
}

#[test]
fn two_calls_of_one_function_in_one_expansion_are_two_calls() {
    let t = run(
        "__device__ int f(int x) { return x * 10; }\n\
         #define TWO f(1) + f(2)\n\
         __global__ void k(int *out) { out[threadIdx.x] = TWO + threadIdx.x; }\n",
        4,
        &[],
    );
    // f(1) + f(2) = 10 + 20 = 30, plus the thread index.
    assert_eq!(ints(t.buffer("out").unwrap()), [30, 31, 32, 33].map(Some));
}

#[test]
fn a_cast_kernel_family_from_one_macro_with_a_helper_template() {
    let t = run(
        "template <typename S, typename D>\n\
         __device__ void cast_(const unsigned numel, const S *inp, D *out) {\n\
           for (unsigned i = threadIdx.x; i < numel; i += blockDim.x) out[i] = (D)inp[i];\n\
         }\n\
         #define CAST_OP(S, D, FN) \\\n\
           extern \"C\" __global__ void FN(const unsigned numel, const S *inp, D *out) { \\\n\
             cast_<S, D>(numel, inp, out); \\\n\
           }\n\
         CAST_OP(float, int, cast_f32_i32)\n",
        4,
        &[("numel", "4"), ("inp", "i*1.5+0.25")],
    );
    // inp = 0.25, 1.75, 3.25, 4.75; the conversion to int truncates toward zero
    // ([conv.fpint]/1): 0, 1, 3, 4.
    assert_eq!(ints(t.buffer("out").unwrap()), [0, 1, 3, 4].map(Some));
}

#[test]
fn pasting_an_alternative_token_pastes_its_spelling() {
    // `xor` is `^` in every respect "except for its spelling" ([lex.digraph]/2), and `##`
    // joins spellings ([cpp.concat]/3): SHFL(xor) is `__shfl_xor`, and `#` makes "xor"
    // (3 bytes + NUL: sizeof 4). HIP, eight lanes of a wave64, v = t:
    //   __shfl_xor(v, 1) + __shfl_down(v, 2) = (t ^ 1) + (t + 2) for t < 6:
    //   1+2, 0+3, 3+4, 2+5, 5+6, 4+7 = 3 3 7 7 11 11.
    let src = r#"
#define SHFL(kind) __shfl_##kind
#define S_(x) #x
#define S(x) S_(x)
__global__ void k(const int* in, int* out, int* len) {
    int v = in[threadIdx.x];
    int r = SHFL(xor)(v, 1) + SHFL(down)(v, 2);
    if (threadIdx.x < 6) out[threadIdx.x] = r;
    if (threadIdx.x == 0) len[0] = sizeof(S(xor));
}
"#;
    let c = crate::support::launch(
        crosslane_core::op::Dialect::Hip,
        8,
        &[("in", 8, "index"), ("out", 6, "0"), ("len", 1, "0")],
    );
    let t = crate::support::run_finished(src, c);
    let want = [3, 3, 7, 7, 11, 11];
    assert_eq!(
        crate::support::ints(&t, "out"),
        want.iter().map(|&v| Some(v)).collect::<Vec<_>>()
    );
    assert_eq!(crate::support::ints(&t, "len"), vec![Some(4)]);
}
