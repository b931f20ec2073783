//! The C++ real CUDA kernels use (`tests/kernels/cuda/`, written for this project in the shapes
//! of public code), and C++17 arithmetic. Every expected value is derived by hand beside it.

use crate::cells::cell_ints as ints;
use crate::support::{floats, run_default as run};
use crosslane_kernel::{run_kernel, LaunchConfig, Outcome};

#[test]
fn switch_falls_through_breaks_and_defaults_per_lane() {
    let t = run(include_str!(
        "../../../../tests/kernels/cuda/switch_fallthrough.cu"
    ));
    let out = ints(t.buffer("out").unwrap());
    for lane in 0..32i128 {
        // lane % 4 = 0: r = 10, falls into case 1: 11; 1: 0 + 1 = 1; 2: 20; 3: default 30.
        let r = [11, 1, 20, 30][(lane % 4) as usize];
        // The loop's switch: i = 0, 1, 3 take default (+1 each), i = 2 adds 10; each `break`
        // leaves the switch only, so all four iterations run: 13.
        let acc = 13;
        // do … while runs its body before the test: n = lane % 3 + 1.
        let n = lane % 3 + 1;
        assert_eq!(
            out[lane as usize],
            Some(r + 100 * acc + 10000 * n),
            "lane {lane}"
        );
    }
}

#[test]
fn shared_memory_t_views_the_dynamic_shared_array() {
    // The host launch gives 64 threads and 64 ints of dynamic shared memory; its pointers
    // are never given memory, so the buffers are set here: the input 0..63, and the tree
    // reduction sums 0..63 = 63·64/2 = 2016 into g_odata[0].
    let config = LaunchConfig {
        args: [
            ("g_idata".to_string(), "index".to_string()),
            ("g_odata".to_string(), "index".to_string()),
        ]
        .into_iter()
        .collect(),
        ..LaunchConfig::default()
    };
    let t = run_kernel(
        include_str!("../../../../tests/kernels/cuda/shared_memory_reduce.cu"),
        config,
    )
    .unwrap();
    assert_eq!(t.outcome, Some(Outcome::Finished));
    assert_eq!(t.launch.block_dim, [64, 1, 1]);
    let out = ints(t.buffer("g_odata").unwrap());
    assert_eq!(out[0], Some(2016));
    assert_eq!(out[1], Some(1), "untouched: the fill set here");
}

#[test]
fn default_arguments_fill_the_width_and_the_mask() {
    let t = run(include_str!(
        "../../../../tests/kernels/cuda/default_args.cu"
    ));
    // An independent model of __shfl_down_sync over 32 lanes (CUDA C++ Programming Guide, Warp
    // Shuffle Functions): lane l reads lane l + d within its segment of `width`, else keeps
    // its own value.
    let shfl_down = |v: &[i128], d: usize, width: usize| -> Vec<i128> {
        (0..32)
            .map(|l| {
                if l % width + d < width {
                    v[l + d]
                } else {
                    v[l]
                }
            })
            .collect()
    };
    let mut v: Vec<i128> = (0..32).collect();
    for offset in [16, 8, 4, 2, 1] {
        let s = shfl_down(&v, offset, 32);
        v = v.iter().zip(&s).map(|(a, b)| a + b).collect();
    }
    assert_eq!(v[0], 496, "lane 0 holds 0 + 1 + … + 31");
    let out = ints(t.buffer("out").unwrap());
    assert_eq!(out, v.iter().map(|x| Some(*x)).collect::<Vec<_>>());
    let partial = ints(t.buffer("partial").unwrap());
    let want = shfl_down(&(0..32).collect::<Vec<_>>(), 4, 8);
    assert_eq!(partial, want.iter().map(|x| Some(*x)).collect::<Vec<_>>());
}

#[test]
fn explicit_specializations_replace_the_primary_template() {
    let t = run(include_str!(
        "../../../../tests/kernels/cuda/specializations.cu"
    ));
    // ints[t] = Combine<int>::apply(t, 1) + scale<int>(t) = (t + 1) + 3t (the specialization,
    // not the primary's 2t).
    let got = ints(t.buffer("ints").unwrap());
    assert_eq!(got, (0..32).map(|t| Some(4 * t + 1)).collect::<Vec<_>>());
    // floats[t] = max(1.5, t) (Combine<float>) + scale<float>(0.25) = max(1.5, t) + 0.5.
    let f = floats(&t, "floats");
    for (k, x) in f.iter().enumerate() {
        assert_eq!(*x, Some((k as f64).max(1.5) + 0.5), "lane {k}");
    }
}

#[test]
fn launch_bounds_in_each_position_and_static_kernels() {
    let src = include_str!("../../../../tests/kernels/cuda/launch_bounds_static.cu");
    let with = |entry: &str, threads: usize| {
        run_kernel(
            src,
            LaunchConfig {
                entry: Some(entry.into()),
                block_dim: Some([threads, 1, 1]),
                ..LaunchConfig::default()
            },
        )
    };
    // __launch_bounds__(128, 2) between `void` and the name bounds `between` at 128 threads.
    let e = with("between", 256).unwrap_err();
    assert!(e.message.contains("__launch_bounds__(128)"), "{e}");
    assert_eq!(e.line, 5);
    let t = with("between", 128).unwrap();
    assert_eq!(ints(t.buffer("out").unwrap())[127], Some(2));
    assert!(with("before", 512).unwrap_err().message.contains("(256)"));
    let t = with("internal", 64).unwrap();
    assert_eq!(ints(t.buffer("out").unwrap())[63], Some(3));
}

#[test]
fn cstdint_climits_and_numeric_limits_have_the_lp64_values() {
    let t = run(include_str!(
        "../../../../tests/kernels/cuda/cstdint_limits.cu"
    ));
    let i32s = ints(t.buffer("i32").unwrap());
    // INT_MAX = 2^31 - 1, INT_MIN = -2^31, CHAR_BIT = 8, lowest<int> = -2^31,
    // min<int8_t> = -128, max<uint16_t> = 2^16 - 1.
    assert_eq!(
        i32s[..6],
        [
            Some(2147483647),
            Some(-2147483648),
            Some(8),
            Some(-2147483648),
            Some(-128),
            Some(65535)
        ]
    );
    let u32s = ints(t.buffer("u32").unwrap());
    // UINT_MAX = max<uint32_t> = 2^32 - 1; uint8_t 255 + 1 converts back to 0 (modulo 2^8,
    // C++17 [conv.integral]/2).
    assert_eq!(u32s[..3], [Some(4294967295), Some(4294967295), Some(0)]);
    let i64s = ints(t.buffer("i64").unwrap());
    assert_eq!(
        i64s[..3],
        [
            Some(-(1i128 << 63)),
            Some((1i128 << 63) - 1),
            Some(1i128 << 31)
        ]
    );
    let f = floats(&t, "f32");
    // binary32: max = (2 - 2^-23)·2^127, lowest = -max, min normal = 2^-126, epsilon = 2^-23.
    let max = (2.0 - 2f64.powi(-23)) * 2f64.powi(127);
    assert_eq!(f[0], Some(max));
    assert_eq!(f[1], Some(-max));
    assert_eq!(f[2], Some(2f64.powi(-126)));
    assert_eq!(f[3], Some(2f64.powi(-23)));
    assert_eq!(f[4], Some(f64::INFINITY));
    assert!(f[5].is_some_and(f64::is_nan));
}

#[test]
fn asm_reads_the_documented_special_registers() {
    let t = run(include_str!(
        "../../../../tests/kernels/cuda/asm_special_registers.cu"
    ));
    let col = |n: &str| ints(t.buffer(n).unwrap());
    for l in 0..32i128 {
        let lane = l as usize;
        // PTX ISA, Special Registers: lanemask_lt has the bits below the lane, le those at or
        // below, gt = ~le, ge = ~lt, eq the lane's own bit (32-bit masks).
        let lt = (1i128 << l) - 1;
        let le = (2i128 << l) - 1;
        assert_eq!(col("lane")[lane], Some(l));
        assert_eq!(col("lt")[lane], Some(lt));
        assert_eq!(col("le")[lane], Some(le));
        assert_eq!(col("gt")[lane], Some(0xffff_ffff & !le));
        assert_eq!(col("ge")[lane], Some(0xffff_ffff & !lt));
        assert_eq!(col("eq")[lane], Some(1i128 << l));
    }
}

#[test]
fn asm_warpid_and_shfl_run_and_other_instructions_are_refused_before_the_run() {
    // %warpid is the warp's index in its block (PTX ISA, Special Registers): with one warp of
    // 32, every lane reads 0.
    let warpid = "__global__ void k(unsigned* o) {\n  unsigned w;\n  asm(\"mov.u32 %0, %%warpid;\" : \"=r\"(w));\n  o[threadIdx.x] = w + 7;\n}";
    let t = run_kernel(warpid, LaunchConfig::default()).unwrap();
    let o = &t.memory.buffers[0].cells;
    assert!(o
        .iter()
        .all(|c| c.as_ref().and_then(|v| v.as_int()) == Some(7)));
    // shfl.sync.bfly with c = 31 (width 32, clamp 0x1f) and member mask -1 (all lanes):
    // lane l reads lane l ^ 1's value, which is l ^ 1.
    let shfl = "__global__ void k(int* o) {\n  int v = threadIdx.x;\n  asm volatile(\"shfl.sync.bfly.b32 %0, %1, 1, 31, -1;\" : \"=r\"(v) : \"r\"(v));\n  o[threadIdx.x] = v;\n}";
    let t = run_kernel(shfl, LaunchConfig::default()).unwrap();
    let o = &t.memory.buffers[0].cells;
    for (l, c) in o.iter().enumerate() {
        assert_eq!(c.as_ref().and_then(|v| v.as_int()), Some((l ^ 1) as i128));
    }
    let vote = "__global__ void k(int* o) {\n  int v = 1;\n  asm volatile(\"vote.sync.ballot.b32 %0, 1, -1;\" : \"=r\"(v));\n  o[0] = v;\n}";
    let e = run_kernel(vote, LaunchConfig::default()).unwrap_err();
    assert_eq!(e.line, 3);
    assert!(
        e.message.contains("`vote.sync.ballot.b32` is not emulated"),
        "{e}"
    );
}

#[test]
fn cxx17_shifts_division_and_remainder() {
    let mut config = LaunchConfig::default();
    config.args.insert("s".into(), "1".into());
    let t = run_kernel(
        include_str!("../../../../tests/kernels/cuda/cxx17_arithmetic.cu"),
        config,
    )
    .unwrap();
    let out = ints(t.buffer("out").unwrap());
    // 1 << 31: 2^31 fits unsigned int, converted to int: -2^31 (C++17 [expr.shift]/2).
    assert_eq!(out[0], Some(-2147483648));
    // 3 << 30 = 3·2^30 = 3221225472 < 2^32, converted: 3221225472 - 2^32 = -1073741824.
    assert_eq!(out[1], Some(-1073741824));
    // -7 / 2 truncates toward zero: -3; -7 % 2 = -7 - (-3·2) = -1 ([expr.mul]/4).
    assert_eq!(out[2..4], [Some(-3), Some(-1)]);
    // -1 << 1 (negative left operand), 1 << 32 (count = width), INT_MIN % -1 (quotient 2^31
    // does not fit): undefined, each with its clause.
    assert_eq!(out[4..7], [None, None, None]);
    assert_eq!(out[7], Some(2), "5u >> 1");
    let said = |needle: &str| t.all_diagnostics().any(|d| d.message.contains(needle));
    assert!(said("[expr.shift]/2"));
    assert!(said("[expr.shift]/1"));
    assert!(said("[expr.mul]/4"));
    assert!(!said("C11"), "no C rule for C++ code");
}

#[test]
fn continue_in_a_switch_and_a_nested_case_are_refused_with_what_to_write() {
    let src = "__global__ void k(int* o) {\n  for (int i = 0; i < 2; i++) {\n    switch (i) {\n      case 0: continue;\n    }\n  }\n}";
    let e = run_kernel(src, LaunchConfig::default()).unwrap_err();
    assert_eq!(e.line, 4);
    assert!(e.message.contains("set a flag, `break`"), "{e}");
}

#[test]
fn the_address_of_a_local_passed_to_a_pointer_parameter_names_the_local() {
    let t = run(include_str!(
        "../../../../tests/kernels/cuda/address_of_local.cu"
    ));
    let out = ints(t.buffer("out").unwrap());
    for lane in 0..32i128 {
        // k = lane % 4 + 1 calls add 1 + 2 + … + k = k(k+1)/2 to acc and count k calls.
        let k = lane % 4 + 1;
        assert_eq!(
            out[lane as usize],
            Some(k * (k + 1) / 2 * 100 + k),
            "lane {lane}"
        );
    }
    // Any other use keeps the pointer to the local's one-element object ([expr.add]/4):
    // `p + 1` is its end, and writing there is out of bounds (undefined, said; `x` stays 0).
    let src = "__device__ void f(int* p) { p = p + 1; p[0] = 5; }\n__global__ void k(int* o) { int x = 0; f(&x); o[0] = x; }";
    let t = run_kernel(src, LaunchConfig::default()).expect("runs");
    assert!(t
        .all_diagnostics()
        .any(|d| d.message.contains("outside its 1 cells")));
    assert_eq!(ints(t.buffer("o").unwrap())[0], Some(0));
}

#[test]
fn attributes_in_any_position_change_nothing() {
    let t = run(include_str!("../../../../tests/kernels/cuda/attributes.cu"));
    // Lanes 16..31 store p.value = 2·lane, lanes 0..15 p.index = lane.
    let out = ints(t.buffer("out").unwrap());
    for lane in 0..32i128 {
        let want = if lane >= 16 { 2 * lane } else { lane };
        assert_eq!(out[lane as usize], Some(want), "lane {lane}");
    }
}

#[test]
fn using_and_typedef_inside_a_function_name_their_types() {
    let t = run(include_str!(
        "../../../../tests/kernels/cuda/local_aliases.cu"
    ));
    // in[i] = i (the index fill); Acc is long long, so i · 3·10^9 does not overflow:
    // lane 31 gives 93·10^9 (beyond int's 2^31 - 1).
    let out = ints(t.buffer("out").unwrap());
    for lane in 0..32i128 {
        assert_eq!(
            out[lane as usize],
            Some(lane * 3_000_000_000),
            "lane {lane}"
        );
    }
}

#[test]
fn a_template_kernel_with_launch_bounds_is_a_template_wherever_the_attribute_stands() {
    // CUDA C++ Programming Guide, "Launch Bounds": `__launch_bounds__(…)` qualifies the
    // kernel; its parenthesized arguments are not the kernel's parameter list.
    for src in [
        "template <int N> __launch_bounds__(64) __global__ void kk(int *o) { o[threadIdx.x] = N; }",
        "template <int N> __global__ void __launch_bounds__(64) kk(int *o) { o[threadIdx.x] = N; }",
        "template <int N> __global__ __launch_bounds__(64, 2) void kk(int *o) { o[threadIdx.x] = N; }",
    ] {
        let config = LaunchConfig {
            entry: Some("kk<7>".into()),
            ..LaunchConfig::default()
        };
        let t = run_kernel(src, config).expect("kernel parses and launches");
        assert_eq!(t.outcome, Some(Outcome::Finished), "{src}: {:?}", t.outcome);
        assert_eq!(ints(t.buffer("o").unwrap()), vec![Some(7); 32], "{src}");
    }
}

#[test]
fn sizeof_an_expression_and_auto_from_intrinsics_take_their_types() {
    // [expr.sizeof]/1: the operand's type, never evaluated; `auto` from the vote and bit
    // intrinsics' return types (CUDA C++ Programming Guide, "Warp Vote Functions": unsigned;
    // CUDA Math API: __popc returns int) and `warpSize` (an int).
    let t = run("#define UNUSED(x) (void)sizeof(x)\n\
         __global__ void k(int* o, const double* d) {\n\
           float a = 1.0f;\n\
           UNUSED(a);\n\
           (void)sizeof((a, 0));\n\
           unsigned long long m = 0;\n\
           auto b = __ballot_sync(0xffffffff, threadIdx.x < 3);\n\
           auto p = __popc(b);\n\
           constexpr auto W = warpSize;\n\
           o[threadIdx.x] = sizeof(a) * 1000 + sizeof a * 100 + sizeof(m) * 10 + sizeof(d[0])\n\
                            + p * 100000 + (sizeof(d) == 8) * 1000000 + W * 0;\n\
         }\n");
    // 4·1000 + 4·100 + 8·10 + 8 + popc(0b111)·100000 + 1·1000000 = 1304488.
    assert_eq!(ints(t.buffer("o").unwrap()), vec![Some(1_304_488); 32]);
}

#[test]
fn an_overload_whose_fixed_parameter_type_cannot_take_the_argument_drops_out() {
    // ggml's warp_reduce_sum shape: a float and a float2 overload of one template name. A
    // float argument cannot convert to float2 (no implicit conversion, [over.match.viable]/4),
    // so only the float one is viable, and the other way round.
    let t = run(
        "template <int width = 32> __device__ float red(float x) {\n\
           for (int o = width / 2; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffff, x, o, width);\n\
           return x;\n\
         }\n\
         template <int width = 32> __device__ float2 red(float2 a) {\n\
           for (int o = width / 2; o > 0; o >>= 1) {\n\
             a.x += __shfl_xor_sync(0xffffffff, a.x, o, width);\n\
             a.y += __shfl_xor_sync(0xffffffff, a.y, o, width);\n\
           }\n\
           return a;\n\
         }\n\
         __global__ void k(float* o, float* o2) {\n\
           o[threadIdx.x] = red((float)threadIdx.x);\n\
           float2 r = red(make_float2(threadIdx.x, 1.0f));\n\
           o2[threadIdx.x] = r.x + 1000.0f * r.y;\n\
         }\n",
    );
    // Σ 0..31 = 496 in every lane; the float2 sums (496, 32): 496 + 32000.
    assert_eq!(floats(&t, "o"), vec![Some(496.0); 32]);
    assert_eq!(floats(&t, "o2"), vec![Some(32_496.0); 32]);
}

#[test]
fn a_device_function_call_inside_the_conditional_operator_runs_only_where_chosen() {
    // [expr.cond]/1: only the chosen operand is evaluated, so `bump` (an atomic) runs in the
    // odd lanes only and `load` only below n.
    let config = LaunchConfig {
        block_dim: Some([8, 1, 1]),
        args: [("n", "5"), ("cnt", "zero")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        buffer_len: [("cnt".to_string(), 1)].into_iter().collect(),
        ..LaunchConfig::default()
    };
    let t = run_kernel(
        "__device__ float load(const float* p, int i) { return p[i] * 2.0f; }\n\
         __device__ int bump(int* c) { atomicAdd(c, 1); return 7; }\n\
         __global__ void k(const float* x, float* o, int* cnt, int n) {\n\
           int i = threadIdx.x;\n\
           o[i] = i < n ? load(x, i) : -1.0f;\n\
           int r = (i & 1) ? bump(cnt) : 0;\n\
           o[i] += r;\n\
         }\n",
        config,
    )
    .expect("kernel parses and launches");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    // x holds the index: 2i below 5, else -1; plus 7 in the odd lanes.
    let want = [0.0, 9.0, 4.0, 13.0, 8.0, 6.0, -1.0, 6.0]
        .map(Some)
        .to_vec();
    assert_eq!(floats(&t, "o"), want);
    assert_eq!(ints(t.buffer("cnt").unwrap()), vec![Some(4)]);
}
