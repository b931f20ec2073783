//! C++ shapes public inference kernels use that the front end once refused or ran wrong:
//! a `using` alias of a class template specialization in a function body, default template
//! arguments computed from earlier parameters, `reinterpret_cast` of a local array to a struct
//! pointer (vLLM / TensorRT-LLM topk softmax's vectorized load), calls and commas in a `for`
//! head, vector-typed scalar arguments, 64-bit fills at the ends of their range, `--entry` of a
//! namespaced or template kernel, and overload resolution by the best conversion. Every
//! expected value is derived beside its test, independently of the interpreter.

use crate::cells::cell_ints as ints;
use crate::support::floats;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

fn run_with(src: &str, config: LaunchConfig) -> KernelTrace {
    let t = run_kernel(src, config).expect("kernel parses and launches");
    assert_eq!(
        t.outcome,
        Some(Outcome::Finished),
        "{:?}: {:?}",
        t.outcome,
        t.merged_diagnostics
    );
    t
}

/// The topk-softmax input: row `r`, expert `j` holds `((7j + 5r) mod 32) · (r + 1) / 16`, so
/// each row is a permutation of `m · (r + 1) / 16`, m = 0..31 (7 is invertible mod 32), every
/// value exact in binary.
fn logit(r: usize, j: usize) -> f64 {
    ((7 * j + 5 * r) % 32) as f64 * (r + 1) as f64 / 16.0
}

#[test]
fn topk_softmax_with_vector_loads_through_an_aligned_array_alias_picks_each_rows_top_three() {
    let src = include_str!("../../../../tests/kernels/cuda/topk_softmax.cu");
    let (rows, experts, k) = (16usize, 32usize, 3usize);
    let input: Vec<String> = (0..rows * experts)
        .map(|i| format!("{}", logit(i / experts, i % experts)))
        .collect();
    let mut config = LaunchConfig::default();
    config.args.insert("logits".into(), input.join(","));
    config.args.insert("weights".into(), "zero".into());
    config.args.insert("experts".into(), "zero".into());
    config.args.insert("num_rows".into(), rows.to_string());
    config.args.insert("k".into(), k.to_string());
    config.buffer_len.insert("logits".into(), rows * experts);
    config.buffer_len.insert("weights".into(), rows * k);
    config.buffer_len.insert("experts".into(), rows * k);
    let t = run_with(src, config);
    // The host launch: 32 x 2 threads, (16 + 15) / 16 = 1 block; 16-byte loads of floats give
    // 4 floats a load, 8 values a lane (VPT = 2 loads), 32 / 8 = 4 lanes a row.
    assert_eq!(t.launch.block_dim, [32, 2, 1]);
    let w = floats(&t, "weights");
    let e = ints(t.buffer("experts").unwrap());
    for r in 0..rows {
        // Softmax in f64: the row's values are m·s (s = (r+1)/16), so p(m) = e^{(m-31)s} / Σ.
        let s = (r + 1) as f64 / 16.0;
        let sum: f64 = (0..32).map(|m| ((m as f64 - 31.0) * s).exp()).sum();
        for (round, m) in [31usize, 30, 29].into_iter().enumerate() {
            let want_p = ((m as f64 - 31.0) * s).exp() / sum;
            // The expert holding m: 7j + 5r ≡ m (mod 32), j = 23·(m − 5r) mod 32 (7·23 = 161
            // ≡ 1).
            let want_j = (23 * ((m + 32 * 4 - 5 * r % 32) % 32)) % 32;
            assert_eq!(logit(r, want_j), m as f64 * s, "derivation of row {r}");
            let got = w[r * k + round].expect("a weight");
            // expf within 2 ulp (CUDA Math API) and a few roundings of the sum and product:
            // well inside 1e-6 relative.
            assert!(
                (got - want_p).abs() <= 1e-6 * want_p,
                "row {r} round {round}: {got} vs {want_p}"
            );
            assert_eq!(
                e[r * k + round],
                Some(want_j as i128),
                "row {r} round {round}"
            );
        }
    }
}

#[test]
fn an_ambiguous_overload_is_refused_with_both_lines() {
    // int → long and int → double are both conversions ([conv.integral], [conv.fpint]):
    // neither is better, nvcc says "more than one instance of overloaded function".
    let src = "__device__ int p(long x) { return 1; }\n\
               __device__ int p(double x) { return 2; }\n\
               __global__ void k(int* out) { int n = 3; out[threadIdx.x] = p(n); }\n";
    let e = run_kernel(src, LaunchConfig::default()).expect_err("ambiguous");
    assert!(e.message.contains("ambiguous"), "{}", e.message);
    assert!(e.message.contains("lines 1, 2"), "{}", e.message);
}

#[test]
fn an_overload_of_a_vector_type_is_not_viable_for_a_scalar() {
    // No conversion from float to float2 (a struct type): f(float) is the only viable one,
    // whichever is defined first.
    let src = "__device__ int f(float2 x) { return 2; }\n\
               __device__ int f(float x) { return 1; }\n\
               __global__ void k(int* out) { float v = 0.5f; out[threadIdx.x] = f(v) + 10 * f(make_float2(v, v)); }\n";
    let t = run_with(src, LaunchConfig::default());
    // f(v) = 1, f(float2) = 2: 1 + 20 = 21.
    assert!(ints(t.buffer("out").unwrap())
        .iter()
        .all(|v| *v == Some(21)));
}

const ENTRIES: &str = "namespace ns {\n\
    template <int N> __global__ void kernel(int* out) { out[threadIdx.x] = N * 100 + threadIdx.x; }\n\
    namespace inner { __global__ void plain(int* out) { out[threadIdx.x] = -7; } }\n\
    }\n\
    template <typename T, int M> __global__ void kernel2(T* out) { out[threadIdx.x] = (T)M + (T)0.5f; }\n";

fn entry_run(entry: &str) -> KernelTrace {
    let config = LaunchConfig {
        entry: Some(entry.into()),
        ..LaunchConfig::default()
    };
    run_with(ENTRIES, config)
}

#[test]
fn entry_names_a_namespaced_kernel_and_a_template_instantiation() {
    // `ns::kernel<2>`: N = 2, lane L writes 200 + L.
    let t = entry_run("ns::kernel<2>");
    let want: Vec<Option<i128>> = (0..32).map(|l| Some(200 + l)).collect();
    assert_eq!(ints(t.buffer("out").unwrap()), want);
    // A leading `::` and spaces: the same kernel with N = 3.
    let t = entry_run(" ::ns::kernel< 3 >");
    assert_eq!(ints(t.buffer("out").unwrap())[5], Some(305));
    // Two namespaces deep, not a template: -7.
    let t = entry_run("ns::inner::plain");
    assert_eq!(ints(t.buffer("out").unwrap())[0], Some(-7));
    // `kernel2<float, 4>`: T = float, 4 + 0.5 = 4.5 in each cell.
    let t = entry_run("kernel2<float, 4>");
    assert!(floats(&t, "out").iter().all(|v| *v == Some(4.5)));
    // A namespace the source does not declare stays in the name, which names no function.
    let e = run_kernel(
        ENTRIES,
        LaunchConfig {
            entry: Some("other::plain".into()),
            ..LaunchConfig::default()
        },
    )
    .expect_err("no such function");
    assert!(
        e.message.contains("no function `other::plain`"),
        "{}",
        e.message
    );
}

#[test]
fn calls_and_commas_in_a_for_head_run_in_order() {
    // The snapshot `cxx_for_head_calls.cu` derives these values in its comments.
    let src = include_str!("../snapshots/in/cxx_for_head_calls.cu");
    let t = run_with(src, LaunchConfig::default());
    let sum = ints(t.buffer("sum").unwrap());
    let count = ints(t.buffer("count").unwrap());
    for l in 0..32usize {
        assert_eq!(sum[l], Some([26, 18, 32, 19][l % 4]), "lane {l}");
        assert_eq!(count[l], Some([4, 2, 2, 1][l % 4]), "lane {l}");
    }
    assert!(ints(t.buffer("t_out").unwrap())
        .iter()
        .all(|v| *v == Some(123)));
}

#[test]
fn u64_fills_reach_2_to_the_64_and_i64_negatives_read_back_exactly() {
    let src = "__global__ void k(unsigned long long* x, long long* y, unsigned long long* z) {\n\
                   x[threadIdx.x] = x[threadIdx.x] - threadIdx.x;\n\
                   y[threadIdx.x] = y[threadIdx.x] - 1;\n\
                   z[threadIdx.x] = z[threadIdx.x] + 1;\n\
               }\n";
    let mut config = LaunchConfig {
        block_dim: Some([4, 1, 1]),
        ..LaunchConfig::default()
    };
    // 2^64 − 1 and 2^63 as decimal items; i64 values past 2^53 (no f64 holds them).
    config.args.insert(
        "x".into(),
        "18446744073709551615,9223372036854775808,9223372036854775807,5".into(),
    );
    config.args.insert(
        "y".into(),
        "-9223372036854775807,-1,-9007199254740993,7".into(),
    );
    // A typed fill: every cell's eight bytes are those of 2^64 − 2.
    config
        .args
        .insert("z".into(), "u64:18446744073709551614".into());
    for b in ["x", "y", "z"] {
        config.buffer_len.insert(b.into(), 4);
    }
    let t = run_with(src, config);
    let max = i128::from(u64::MAX);
    // x[i] − i: 2^64 − 1, 2^63 − 1, 2^63 − 3, 5 − 3 = 2.
    assert_eq!(
        ints(t.buffer("x").unwrap()),
        vec![Some(max), Some((1 << 63) - 1), Some((1 << 63) - 3), Some(2)]
    );
    // y − 1: −2^63 (the least i64, no overflow), −2, −(2^53 + 2), 6.
    assert_eq!(
        ints(t.buffer("y").unwrap()),
        vec![
            Some(-(1i128 << 63)),
            Some(-2),
            Some(-9007199254740994),
            Some(6)
        ]
    );
    // 2^64 − 2 + 1 = 2^64 − 1 in every cell.
    assert!(ints(t.buffer("z").unwrap()).iter().all(|v| *v == Some(max)));
}

#[test]
fn vector_arguments_and_dim3_values_pass_through_device_functions() {
    let src = "__device__ uint3 twice(uint3 v) { return make_uint3(v.x * 2, v.y * 2, v.z * 2); }\n\
               __device__ dim3 grow(dim3 d) { return dim3(d.x + 1, d.y); }\n\
               __global__ void k(int* out, int* geo, uint3 dims, int2 off, dim3 g) {\n\
                   uint3 t = twice(dims);\n\
                   dim3 e = grow(g);\n\
                   dim3 one(7);\n\
                   out[threadIdx.x] = t.x + 10 * t.y + 100 * t.z + 1000 * off.x + 10000 * off.y\n\
                       + 100000 * e.x + 1000000 * e.y + 10000000 * e.z + 100000000 * one.y;\n\
                   uint3 me = threadIdx;\n\
                   dim3 b = blockDim;\n\
                   geo[threadIdx.x] = twice(me).x + 1000 * b.x + 100000 * b.y;\n\
               }\n";
    let mut config = LaunchConfig::default();
    config.args.insert("dims".into(), "1,2,3".into());
    config.args.insert("off".into(), "4:5".into());
    config.args.insert("g".into(), "3,4,5".into());
    let t = run_with(src, config);
    // twice(1,2,3) = (2,4,6): 2 + 40 + 600; off (4,5): 4000 + 50000; grow(3,4,5) = dim3(4, 4)
    // = (4, 4, 1): the z left out is 1 (CUDA's dim3): 400000 + 4000000 + 10000000; dim3 one(7)
    // = (7, 1, 1): one.y = 1: 100000000. Sum 114454642.
    assert!(
        ints(t.buffer("out").unwrap())
            .iter()
            .all(|v| *v == Some(114_454_642)),
        "{:?}",
        ints(t.buffer("out").unwrap())
    );
    // threadIdx as a value: twice(me).x = 2·lane; blockDim = (32, 1, 1): 32000 + 100000.
    let geo = ints(t.buffer("geo").unwrap());
    for (l, v) in geo.iter().enumerate() {
        assert_eq!(*v, Some(2 * l as i128 + 132_000), "lane {l}");
    }
}

#[test]
fn a_vector_argument_may_differ_per_lane() {
    let src = "__global__ void k(int* out, int2 p) { out[threadIdx.x] = p.x * 10 + p.y; }\n";
    let mut config = LaunchConfig::default();
    // One `x:y` per lane: lane L gets (L, 2L).
    let items: Vec<String> = (0..32).map(|l| format!("{l}:{}", 2 * l)).collect();
    config.args.insert("p".into(), items.join(","));
    let t = run_with(src, config);
    let want: Vec<Option<i128>> = (0..32).map(|l| Some(l * 10 + 2 * l)).collect();
    assert_eq!(ints(t.buffer("out").unwrap()), want);
}
