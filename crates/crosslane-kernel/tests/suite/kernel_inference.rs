//! Inference kernels (`tests/kernels/inference/`, written for this project in the shapes
//! inference libraries use: warp and block softmax, online softmax, RMSNorm, LayerNorm with
//! Welford's merge, argmax, top-k, MoE routing, q8 quantization, paged-attention partials;
//! log-sum-exp, block LayerNorm, float4 RMSNorm and softmax, block cumsum, MoE alignment and
//! biased sigmoid routing, q8 dot, q4 packing, half2 SwiGLU and axpy, GELU, RoPE, a
//! flash-attention row, the split-K attention reduce, block argmax, a warp bitonic sort, L2
//! norm, per-token int8 quantization, fused residual-add RMSNorm, vLLM's RMSNorm shape with
//! `cub::BlockReduce` / `hipcub::BlockReduce`; llama.cpp's struct blocks: a q8_0 round trip
//! and a q4_0 x q8_1 dot product with `__dp4a`; vLLM's
//! `act_and_mul_kernel<float, silu_kernel<float>>` with a function pointer template argument)
//! run on CUDA (32 lanes), HIP wave64 and HIP wave32. Each expected buffer comes from the
//! independent model `tests/kernels/inference/model.py` (exact arithmetic, Python's standard
//! library; regenerate `expected.json` with `python3 model.py > expected.json`), compared
//! within the float error the CUDA Math API's ulp table allows (`tol_ulp` in the file, its
//! derivation in the model's docstring); integer results compare exactly. Cells stored from
//! an inexact function's value must carry a bound no tighter than the function's own
//! (`ulp_note`; the carried bound widens through the arithmetic after the function).

use std::path::PathBuf;

use crosslane_core::Dialect;
use crosslane_kernel::{run_kernel, KVal, LaunchConfig, Outcome};
use serde_json::Value;

fn dir() -> PathBuf {
    [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "..",
        "tests",
        "kernels",
        "inference",
    ]
    .iter()
    .collect()
}

fn expected() -> Value {
    let text = std::fs::read_to_string(dir().join("expected.json")).expect("expected.json");
    serde_json::from_str(&text).expect("expected.json is JSON")
}

const KERNELS: &[&str] = &[
    "warp_softmax",
    "block_softmax",
    "online_softmax",
    "rmsnorm",
    "layernorm_welford",
    "argmax",
    "warp_topk",
    "moe_topk_routing",
    "q8_quantize",
    "paged_attention_partials",
    "warp_logsumexp",
    "layernorm_block",
    "rmsnorm_float4",
    "block_cumsum",
    "moe_align_count",
    "q8_dot",
    "q4_quantize_pack",
    "silu_mul_half2",
    "gelu_tanh",
    "rope_rotary",
    "flash_attn_row",
    "paged_attention_reduce",
    "argmax_block",
    "bitonic_sort_warp",
    "l2norm",
    "dynamic_int8_quant",
    "half2_axpy",
    "softmax_float4",
    "moe_sigmoid_topk",
    "fused_add_rmsnorm",
    "rmsnorm_cub",
    "q8_0_roundtrip",
    "q4_0_q8_1_dot",
    "act_and_mul",
];

/// Runs `name` in `dialect` on `lanes`-lane warps and checks every expected buffer; returns
/// the failures as text.
fn check(name: &str, dialect: Dialect, lanes: usize, want: &Value) -> Vec<String> {
    let ext = if dialect == Dialect::Cuda {
        "cu"
    } else {
        "hip"
    };
    let path = dir().join(format!("{name}.{ext}"));
    let src = std::fs::read_to_string(&path).expect("kernel source");
    let warps = want["warps"].as_u64().unwrap_or(1) as usize;
    let mut config = LaunchConfig {
        dialect: Some(dialect),
        lanes: Some(lanes),
        block_dim: Some([warps * lanes, 1, 1]),
        ..LaunchConfig::default()
    };
    if let Some(lens) = want["len"].as_object() {
        for (b, n) in lens {
            config
                .buffer_len
                .insert(b.clone(), n.as_u64().unwrap_or(0) as usize);
        }
    }
    let label = format!("{name}.{ext} on {lanes} lanes");
    let t = match run_kernel(&src, config) {
        Ok(t) => t,
        Err(e) => return vec![format!("{label}: {e}")],
    };
    let mut bad = Vec::new();
    if t.outcome != Some(Outcome::Finished) {
        bad.push(format!("{label}: outcome {:?}", t.outcome));
    }
    let tol_ulp = want["tol_ulp"].as_f64().unwrap_or(0.0);
    let abs_floor = want["abs"].as_f64().unwrap_or(0.0);
    let ulp = 2f64.powi(-23);
    for (buf, cells) in want["expect"].as_object().into_iter().flatten() {
        let Some(got) = t.buffer(buf) else {
            bad.push(format!("{label}: no buffer `{buf}`"));
            continue;
        };
        // HIP kernels carry HIP's own table's bound (HIP math API), CUDA's the CUDA one.
        let notes = if dialect == Dialect::Hip {
            "ulp_note_hip"
        } else {
            "ulp_note"
        };
        // A null note: the vendor states no bound for this argument.
        let note = want[notes].get(buf).map(Value::as_u64);
        for (i, e) in cells.as_array().into_iter().flatten().enumerate() {
            let g = got.get(i).and_then(Option::as_ref);
            let ok = match (g, e.as_i64(), e.as_f64()) {
                (Some(k @ KVal::Int { .. }), Some(n), _) => k.as_int() == Some(i128::from(n)),
                (Some(k), _, Some(x)) => k.as_f64().is_some_and(|y| {
                    (y - x).abs() <= tol_ulp * ulp * (x.abs() + abs_floor) || y == x
                }),
                _ => false,
            };
            if !ok {
                bad.push(format!("{label}: {buf}[{i}] = {g:?}, want {e}"));
            }
            if let (Some(n), Some(k)) = (note, g) {
                // The cell's bound is the function's own, carried through the arithmetic
                // after it: never below the function's (`n`, the model's figure).
                let a = k.approx();
                let ok = match n {
                    // A zero from an exact zero input (rmsnorm's x = 0 times the scale) is
                    // exact on the device too: no note.
                    Some(n) => match a {
                        Some(a) => a.ulp().is_some_and(|u| u >= n as u32),
                        None => k.as_f64() == Some(0.0),
                    },
                    None => a.is_some_and(|a| a.ulp().is_none()),
                };
                if !ok {
                    bad.push(format!("{label}: {buf}[{i}] should carry ulp {n:?}: {k:?}"));
                }
            }
        }
    }
    bad
}

#[test]
fn inference_kernels_match_the_model_on_cuda_and_hip_wave64_and_wave32() {
    let want = expected();
    let mut bad = Vec::new();
    for name in KERNELS {
        bad.extend(check(name, Dialect::Cuda, 32, &want["32"][name]));
        bad.extend(check(name, Dialect::Hip, 64, &want["64"][name]));
        bad.extend(check(name, Dialect::Hip, 32, &want["32"][name]));
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn a_softmax_lane_says_its_bound_in_the_json() {
    let src = std::fs::read_to_string(dir().join("warp_softmax.cu")).expect("kernel source");
    let config = LaunchConfig {
        block_dim: Some([64, 1, 1]),
        ..LaunchConfig::default()
    };
    let t = run_kernel(&src, config).expect("runs");
    let json = serde_json::to_value(&t).expect("serializes");
    let out = json["memory"]["buffers"]
        .as_array()
        .and_then(|b| b.iter().find(|b| b["name"] == "out"))
        .cloned()
        .unwrap_or(Value::Null);
    // out = e / sum: expf's own 2 ulp, carried through the warp sum and the division, is
    // wider in ulps of the quotient than 2; the note says which function and how many
    // operations followed (5 butterfly additions, then the division).
    assert!(out["ulp"][0].as_u64().is_some_and(|n| n > 2), "{}", out);
    assert!(out["accuracy"][0]
        .as_str()
        .is_some_and(|s| s.contains("(CUDA Math API, expf, then ") && s.contains(" operations)")));
    // The variable `e = expf(x - m)` carries the note in every lane of its step.
    let text = crosslane_kernel::report::render_text(&t, 1000);
    assert!(
        text.contains("≈ lanes 0-31: device may differ by ≤ 2 ulp (CUDA Math API, expf)"),
        "{text}"
    );
}

#[test]
fn fast_math_runs_expf_as_its_intrinsic_and_says_so() {
    let src = std::fs::read_to_string(dir().join("warp_softmax.cu")).expect("kernel source");
    let config = LaunchConfig {
        block_dim: Some([64, 1, 1]),
        use_fast_math: true,
        ..LaunchConfig::default()
    };
    let t = run_kernel(&src, config).expect("runs");
    assert!(t
        .all_diagnostics()
        .any(|d| d.message.starts_with("fast math (--use_fast_math)")));
    let out = t.buffer("out").expect("out");
    // Row 0's largest gap x - max is -3.5: __expf's bound there is 2 + floor(1.173 * 3.5) = 6
    // ulp (CUDA C++ Programming Guide, Intrinsic Functions); the row sum and the division
    // carry it on, wider in ulps of the quotient.
    let note = out[0].as_ref().and_then(KVal::approx).expect("a note");
    assert_eq!(note.name(), "__expf");
    assert!(note.ulp().is_some_and(|n| n > 6), "{note:?}");
}

#[test]
fn out_parameters_constants_and_integer_intrinsics_in_a_kernel() {
    // Values by hand: sincosf(0) = (0, 1); frexpf(12) = 0.75 * 2^4; FLT_MAX is
    // (2 - 2^-23) * 2^127; __umulhi(0x80000000, 6) = 3; __fadd_rz(1, 2^-30) = 1.
    let src = "\
__global__ void k(float* f, int* n) {
  float s, c;
  sincosf(0.0f, &s, &c);
  int e;
  float m = frexpf(12.0f, &e);
  f[0] = s; f[1] = c; f[2] = m; f[3] = FLT_MAX; f[4] = __fadd_rz(1.0f, 9.3132257e-10f);
  n[0] = e; n[1] = __umulhi(0x80000000u, 6u); n[2] = isnan(NAN);
}";
    let config = LaunchConfig {
        block_dim: Some([1, 1, 1]),
        buffer_len: [("f".to_string(), 5), ("n".to_string(), 3)].into(),
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).expect("runs");
    let f: Vec<Option<f64>> = t
        .buffer("f")
        .expect("f")
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64))
        .collect();
    let flt_max = (2.0 - 2f64.powi(-23)) * 2f64.powi(127);
    assert_eq!(
        f,
        vec![Some(0.0), Some(1.0), Some(0.75), Some(flt_max), Some(1.0)]
    );
    let n: Vec<Option<i128>> = t
        .buffer("n")
        .expect("n")
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_int))
        .collect();
    assert_eq!(n, vec![Some(4), Some(3), Some(1)]);
}

/// Shapes public inference kernels use that a new user's run met: a kernel template run with
/// its default arguments, a local `constexpr` as a template argument, and a 128-bit copy of
/// eight halves through `&reg` of a local array (the `LDST128BITS` macro shape).
#[test]
fn public_kernel_shapes_run_as_written() {
    // Block of 64 threads: warps = 64 / 32 = 2 (constexpr), each warp sums its 32 values
    // (x[i] = i) and warp 0 sums the 2 partials: 0 + … + 63 = 2016, exact in float.
    let src = "\
#define WS 32
template <int W = WS>
__device__ float wsum(float v) {
  for (int m = W >> 1; m >= 1; m >>= 1) v += __shfl_xor_sync(0xffffffff, v, m);
  return v;
}
template <int THREADS = 64>
__global__ void block_sum(const float* x, float* out) {
  constexpr int WARPS = THREADS / WS;
  __shared__ float part[WARPS];
  float v = wsum<WS>(x[threadIdx.x]);
  if (threadIdx.x % WS == 0) part[threadIdx.x / WS] = v;
  __syncthreads();
  if (threadIdx.x < WS) {
    float p = threadIdx.x < WARPS ? part[threadIdx.x] : 0.0f;
    p = wsum<WARPS>(p);
    if (threadIdx.x == 0) out[0] = p;
  }
}";
    let mut config = LaunchConfig {
        block_dim: Some([64, 1, 1]),
        ..LaunchConfig::default()
    };
    config.buffer_len.insert("x".into(), 64);
    config.args.insert("x".into(), "index".into());
    config.buffer_len.insert("out".into(), 1);
    let t = run_kernel(src, config).expect("runs with its default template argument");
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let out = t.buffer("out").expect("out");
    assert_eq!(out[0].as_ref().and_then(KVal::as_f64), Some(2016.0));

    // Eight halves in, doubled, eight halves out, through `&reg`: y[i] = 2 x[i] = 2 i
    // (exact in half below 2048).
    let src = "\
#define LD128(v) (reinterpret_cast<float4 *>(&(v))[0])
__global__ void twice(half* x, half* y) {
  int i = threadIdx.x * 8;
  half reg[8];
  LD128(reg) = LD128(x[i]);
  for (int k = 0; k < 8; ++k) reg[k] = __hadd(reg[k], reg[k]);
  LD128(y[i]) = LD128(reg);
}";
    let mut config = LaunchConfig {
        block_dim: Some([4, 1, 1]),
        ..LaunchConfig::default()
    };
    config.buffer_len.insert("x".into(), 32);
    config.args.insert("x".into(), "index".into());
    config.buffer_len.insert("y".into(), 32);
    let t = run_kernel(src, config).expect("runs");
    let y: Vec<Option<f64>> = t
        .buffer("y")
        .expect("y")
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64))
        .collect();
    assert_eq!(
        y,
        (0..32).map(|i| Some(f64::from(2 * i))).collect::<Vec<_>>()
    );

    // `__ldg(p)` reads `*p`; a specialization whose argument only the return type gives
    // (`template <> half clampv(const float)`): y = min(x, 2) as half, z = x.
    let src = "\
template <typename T> __device__ T clampv(const float x) { return x; }
template <> __device__ half clampv(const float x) { return __float2half(fminf(x, 2.0f)); }
__global__ void k(const float* x, half* y, float* z) {
  int t = threadIdx.x;
  y[t] = clampv<half>(__ldg(&x[t]));
  z[t] = clampv<float>(__ldg(x + t));
}";
    let mut config = LaunchConfig {
        block_dim: Some([4, 1, 1]),
        ..LaunchConfig::default()
    };
    for b in ["x", "y", "z"] {
        config.buffer_len.insert(b.into(), 4);
    }
    config.args.insert("x".into(), "index".into());
    let t = run_kernel(src, config).expect("runs");
    let cells = |b: &str| -> Vec<Option<f64>> {
        t.buffer(b)
            .expect("buffer")
            .iter()
            .map(|c| c.as_ref().and_then(KVal::as_f64))
            .collect()
    };
    assert_eq!(cells("y"), [Some(0.0), Some(1.0), Some(2.0), Some(2.0)]);
    assert_eq!(cells("z"), [Some(0.0), Some(1.0), Some(2.0), Some(3.0)]);
}
