//! The seed kernels, verbatim (crates/crosslane-kernel/examples_kernels/), run through the SIMT
//! executor: values the seeds state, the faults semantics.md lists, and the control-flow rules.

use crate::cells::cell_ints as ints;
use crosslane_core::Level;
use crosslane_kernel::{
    run_kernel, Executor, KVal, KernelTrace, LaunchConfig, Limits, Outcome, Resource,
};

fn run(src: &str) -> KernelTrace {
    run_kernel(src, LaunchConfig::default()).expect("kernel parses and launches")
}

fn defined(values: &[i128]) -> Vec<Option<i128>> {
    values.iter().map(|v| Some(*v)).collect()
}

#[test]
fn shfl_down_reduce_puts_496_in_lane_0() {
    let t = run(include_str!(
        "../../examples_kernels/ascend_shfl_down_reduce.cpp"
    ));
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let dst = ints(t.buffer("dst").unwrap());
    assert_eq!(dst[0], Some(496));
    // Every step was a whole warp; five shuffles ran.
    let ops: Vec<&str> = t
        .steps
        .iter()
        .flat_map(|s| s.ops.iter())
        .map(|o| o.op.as_str())
        .collect();
    assert_eq!(ops, vec!["asc_shfl_down"; 5]);
}

#[test]
fn shfl_down_reduce_matches_the_reference_vector() {
    let doc: serde_json::Value =
        serde_json::from_str(include_str!("../../../../tests/vectors/seed-examples.json")).unwrap();
    let case = doc["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "ascend-shfl-down-reduce")
        .unwrap();
    let t = run(case["snippet"].as_str().unwrap());
    let expected: Vec<Option<i128>> = case["expected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().map(i128::from))
        .collect();
    let got: Vec<Option<i128>> = (0..32)
        .map(|lane| {
            t.value_of(case["check"]["var"].as_str().unwrap(), 0, lane)
                .and_then(|v| v.as_ref().ok())
                .and_then(KVal::as_int)
        })
        .collect();
    assert_eq!(got, expected);
    assert_eq!(
        got[0],
        Some(case["check"]["value"].as_i64().unwrap() as i128)
    );
    // The same numbers from the full seed kernel, written to dst.
    let full = run(include_str!(
        "../../examples_kernels/ascend_shfl_down_reduce.cpp"
    ));
    assert_eq!(ints(&full.buffer("dst").unwrap()[..32]), expected);
}

#[test]
fn shfl_down_by_2_width_16_matches_the_seed_comment() {
    let t = run(include_str!("../../examples_kernels/ascend_shfl_down.cpp"));
    // The asc_vf_call comment sets 1024 threads: 32 warps.
    assert_eq!(t.launch.block_dim, [1024, 1, 1]);
    assert_eq!(t.launch.warps_per_block, 32);
    let dst = ints(t.buffer("dst").unwrap());
    let mut warp: Vec<i128> = (2..=15).collect();
    warp.extend([14, 15]);
    warp.extend(18..=31);
    warp.extend([30, 31]);
    assert_eq!(dst[..32], defined(&warp)[..]);
    assert_eq!(
        dst[992..1024],
        defined(&warp)[..],
        "every warp computes the same"
    );
}

#[test]
fn shfl_xor_1_width_16_matches_the_seed_comment() {
    let t = run(include_str!("../../examples_kernels/ascend_shfl_xor.cpp"));
    let dst = ints(t.buffer("dst").unwrap());
    let expected: Vec<i128> = (0..32).map(|i| i ^ 1).collect();
    assert_eq!(dst[..32], defined(&expected)[..]);
    assert_eq!(dst[32..64], defined(&expected)[..]);
}

#[test]
fn width_31_reduce_runs_and_is_undefined_with_the_warning_on_its_line() {
    let t = run(include_str!(
        "../../examples_kernels/ascend_shfl_xor_reduce_width31.cpp"
    ));
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let warn = t
        .all_diagnostics()
        .find(|d| d.message.contains("width 31 is not a power of two"))
        .expect("width warning");
    assert_eq!(warn.line, 8, "the first asc_shfl_xor(value, 1, 31)");
    assert_eq!(warn.level, Level::Warning);
    let dst = t.buffer("dst").unwrap();
    assert_eq!(dst.len(), 32, "no asc_vf_call comment: one warp");
    assert!(dst.iter().all(Option::is_none), "every lane undefined");
    let v = t.value_of("value", 0, 5).unwrap().as_ref().unwrap_err();
    assert_eq!(v.line, 8, "undefined since line 8");
}

#[test]
fn a_shuffle_from_the_other_branch_is_undefined_with_its_line() {
    let src = "\
__global__ void k(int* dst) {
  int lane = threadIdx.x;
  int v = -1;
  if (lane < 16) {
    v = asc_shfl_xor(lane, 16, 32);
  } else {
    v = lane * 10;
  }
  dst[lane] = v;
}";
    let t = run(src);
    let dst = t.buffer("dst").unwrap();
    assert!(
        dst[..16].iter().all(Option::is_none),
        "lanes 0-15 read inactive lanes 16-31"
    );
    assert_eq!(
        ints(&dst[16..32]),
        defined(&(16..32).map(|l| l * 10).collect::<Vec<_>>())
    );
    let d = t
        .all_diagnostics()
        .find(|d| d.message.contains("took the other path at line 4"))
        .expect("diagnostic naming the branch line");
    assert_eq!(d.line, 5);
    let why = &t.value_of("v", 0, 3).unwrap().as_ref().unwrap_err().why;
    assert!(why.contains("line 4"), "{why}");
    // The shuffle step ran with lanes 0-15 active.
    let step = t.steps.iter().find(|s| !s.ops.is_empty()).unwrap();
    assert_eq!(step.active.0, 0xffff);
}

#[test]
fn loops_and_divergence_reconverge() {
    // A shuffle reduction in a for loop, then an if/else whose lanes reconverge, a while loop
    // with break and continue per lane.
    let src = "\
__global__ void k(int* dst, int* cnt) {
  int lane = threadIdx.x;
  int v = lane;
  for (int off = 16; off > 0; off /= 2)
    v += asc_shfl_down(v, off, 32);
  int n = 0;
  int i = 0;
  while (1) {
    i++;
    if (i > lane) break;
    if (i % 2) continue;
    n += i;
  }
  dst[lane] = v;
  cnt[lane] = n;
}";
    let t = run(src);
    assert_eq!(t.outcome, Some(Outcome::Finished));
    assert_eq!(ints(t.buffer("dst").unwrap())[0], Some(496));
    let cnt = ints(t.buffer("cnt").unwrap());
    for lane in 0..32i128 {
        let expected: i128 = (1..=lane).filter(|i| i % 2 == 0).sum();
        assert_eq!(cnt[lane as usize], Some(expected), "lane {lane}");
    }
}

#[test]
fn an_endless_loop_hits_the_work_limit_with_a_clear_message() {
    let src = "__global__ void k(int* d) {\n  int x = 0;\n  while (1) {}\n}";
    let config = LaunchConfig {
        limits: Limits {
            max_work: 500,
            ..Limits::default()
        },
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).unwrap();
    let Some(Outcome::Limit(hit)) = &t.outcome else {
        panic!("{:?}", t.outcome)
    };
    assert_eq!(
        (hit.resource, hit.limit, hit.line),
        (Resource::Work, 500, 3)
    );
    let d = t
        .diagnostics
        .iter()
        .find(|d| d.message.contains("work limit of 500"))
        .unwrap();
    assert!(d.message.contains("line 3"), "{}", d.message);
    assert!(d.message.contains("--max-work"), "{}", d.message);
}

#[test]
fn a_parse_error_has_line_and_column() {
    let e = run_kernel(
        "__global__ void k(int* d) {\n  int x = 1\n  d[0] = x;\n}",
        LaunchConfig::default(),
    )
    .unwrap_err();
    assert_eq!((e.line, e.col), (3, 3));
    assert!(e.message.contains("expected `;`"), "{}", e.message);
}

#[test]
fn flattened_seed_text_fails_with_a_hint() {
    // Seed 001's examples lost their line breaks: the `//` comment swallows the rest.
    let e = run_kernel(
        include_str!("../../examples_kernels/ascend_shfl_down_flat.cpp"),
        LaunchConfig::default(),
    )
    .unwrap_err();
    assert_eq!(e.line, 2, "the end of input after the swallowed line");
    assert!(e.message.contains("lost its line breaks"), "{}", e.message);
}

#[test]
fn a_commented_out_statement_in_a_whole_file_gives_no_line_break_hint() {
    // `// out[i] = 0;` on a line of its own is a whole file's comment, not a flattened page:
    // the error in line 4 is reported without the lost-line-breaks hint.
    let e = run_kernel(
        "// out[i] = 0; }\n__global__ void k(int* d) {\n  // d[0] = 1;\n  int x = 1\n  d[0] = x;\n}\n",
        LaunchConfig::default(),
    )
    .unwrap_err();
    assert_eq!(e.line, 5);
    assert!(e.message.contains("expected `;`"), "{}", e.message);
    assert!(!e.message.contains("line breaks"), "{}", e.message);
}

#[test]
fn c_integer_rules() {
    let src = "\
__global__ void k(int* d) {
  int big = 2147483647;
  int over = big + 1;
  unsigned u = 0;
  u = u - 1;
  int neg = -7 / 2;
  int rem = -7 % 2;
  int tmp;
  int late = tmp + 1;
  d[0] = (int)u;
}";
    let t = run(src);
    let over = t.value_of("over", 0, 0).unwrap();
    assert!(over.is_err());
    let d = t
        .all_diagnostics()
        .find(|d| d.message.contains("signed overflow"))
        .unwrap();
    assert_eq!(d.line, 3);
    assert_eq!(
        t.value_of("u", 0, 0).unwrap().as_ref().unwrap().as_int(),
        Some(4294967295)
    );
    assert_eq!(
        t.value_of("neg", 0, 0).unwrap().as_ref().unwrap().as_int(),
        Some(-3)
    );
    assert_eq!(
        t.value_of("rem", 0, 0).unwrap().as_ref().unwrap().as_int(),
        Some(-1)
    );
    let d = t
        .all_diagnostics()
        .find(|d| d.message.contains("read uninitialized"))
        .unwrap();
    assert_eq!(d.line, 9);
    assert!(t.value_of("late", 0, 0).unwrap().is_err());
    assert_eq!(ints(t.buffer("d").unwrap())[0], Some(-1));
}

#[test]
fn executor_runs_in_slices_like_a_whole_run() {
    let src = include_str!("../../examples_kernels/ascend_shfl_down_reduce.cpp");
    let whole = run(src);
    let mut ex = Executor::new(src, LaunchConfig::default()).unwrap();
    let mut total = 0;
    loop {
        let n = ex.run_for(3);
        total += n;
        if n < 3 {
            break;
        }
    }
    assert!(ex.is_finished());
    assert_eq!(total, whole.steps.len());
    assert_eq!(ex.into_trace(), whole);
}

#[test]
fn memory_is_editable_before_running() {
    let src = "__global__ void k(int* dst, int* src) {\n  dst[threadIdx.x] = asc_shfl_xor(src[threadIdx.x], 1, 32);\n}";
    let mut ex = Executor::new(src, LaunchConfig::default()).unwrap();
    let buf = ex
        .memory()
        .buffers
        .iter()
        .position(|b| b.name == "src")
        .unwrap();
    ex.memory_mut().set_text(buf, 1, "100").unwrap();
    while ex.step().is_some() {}
    let t = ex.into_trace();
    assert_eq!(ints(t.buffer("dst").unwrap())[0], Some(100));
}

#[test]
fn several_blocks_and_per_lane_parameters() {
    let src = "__global__ void k(int* dst, int bias) {\n  int i = threadIdx.x + blockIdx.x * blockDim.x;\n  dst[i] = asc_shfl(bias, 0, 32) + i;\n}";
    let mut config = LaunchConfig {
        grid_dim: Some([2, 1, 1]),
        ..LaunchConfig::default()
    };
    config.args.insert("bias".into(), "lane*100".into());
    let t = run_kernel(src, config).unwrap();
    let dst = ints(t.buffer("dst").unwrap());
    assert_eq!(dst.len(), 64);
    // asc_shfl(…, 0, 32) broadcasts lane 0's bias (0).
    assert_eq!(dst, defined(&(0..64).collect::<Vec<_>>()));
}

#[test]
fn every_seed_kernel_parses() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples_kernels");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.contains("_flat") || !name.ends_with(".cpp") {
            continue;
        }
        let src = std::fs::read_to_string(&path).unwrap();
        crosslane_kernel::parse(&src).unwrap_or_else(|e| panic!("{name}: {e}"));
        n += 1;
    }
    assert!(n >= 45, "{n} kernels");
}

#[test]
fn the_pk_fma_typo_is_reported_at_its_line() {
    // The seed's own typo (`f2f16`) is an unknown type in the kernel's parameter list: the
    // parse reports it at its line, naming the closest known type, and a run of that kernel
    // stops before it starts with it (docs/kernels.md, "Errors and outcomes"); a run of
    // another kernel of the file would not reach it.
    let src = include_str!("../../examples_kernels/maca_3_5_3_pk_fma_f16.cpp");
    let p = crosslane_kernel::parse(src).unwrap();
    let d = p
        .diagnostics
        .iter()
        .find(|d| d.message.contains("f2f16"))
        .expect("the typo's diagnostic");
    assert_eq!(d.line, 2);
    assert!(d.message.contains("v2f16"), "{}", d.message);
    let e = crate::support::refused(src, crosslane_kernel::LaunchConfig::default());
    assert!(e.contains("f2f16") && e.contains("v2f16"), "{e}");
}

#[test]
fn device_functions_are_inlined_with_their_own_returns() {
    let src = "\
__device__ int warpReduceSum(int v) {
  for (int off = 16; off > 0; off /= 2)
    v += asc_shfl_down(v, off, 32);
  return v;
}
__device__ int twice(int x) {
  if (x > 10) return x * 2;
  return x;
}
__global__ void k(int* dst) {
  int lane = threadIdx.x;
  int s = warpReduceSum(lane);
  int t = twice(lane) + twice(1);
  dst[lane] = lane == 0 ? s : t;
}";
    let t = run(src);
    assert_eq!(t.outcome, Some(Outcome::Finished));
    assert_eq!(t.launch.entry, "k");
    let dst = ints(t.buffer("dst").unwrap());
    assert_eq!(dst[0], Some(496));
    for l in 1..32i128 {
        let expected = if l > 10 { 2 * l } else { l } + 1;
        assert_eq!(dst[l as usize], Some(expected), "lane {l}");
    }
    // The steps walk through the function's own lines.
    assert!(t
        .steps
        .iter()
        .any(|s| s.line == 7 && s.text.starts_with("if (x > 10)")));
}

#[test]
fn unsupported_calls_are_errors_at_their_position() {
    // Recursion without end: inlined to the call-depth budget, then the run stops there
    // naming it (on a device the thread's stack would run out).
    let t = run_kernel(
        "__device__ int f(int x) { return f(x); }\n__global__ void k(int* d) {\n  d[0] = f(1);\n}",
        LaunchConfig::default(),
    )
    .unwrap();
    match &t.outcome {
        Some(Outcome::Limit(hit)) => {
            assert!(hit.message().contains("recursion"), "{}", hit.message());
            assert!(
                hit.message().contains("--max-call-depth"),
                "{}",
                hit.message()
            );
        }
        other => panic!("{other:?}"),
    }
    // A call inside `?:` runs where its operand is chosen; a condition with a side effect
    // (evaluated again to choose) is refused at the condition.
    let e = run_kernel(
        "__device__ int f(int x) { return x; }\n__global__ void k(int* d) {\n  int a = d[0]++ > 0 ? f(1) : 2;\n}",
        LaunchConfig::default(),
    )
    .unwrap_err();
    assert!(e.message.contains("side effect"), "{}", e.message);
    assert_eq!(e.line, 3, "the condition's line");
}

#[test]
fn a_per_thread_lane_mask_is_each_lanes_own() {
    // asc_shfl_xor takes laneMask per thread (SIMT, cann asc-devkit): even lanes xor 1, odd
    // lanes xor 2, so lane 0 reads 1, lane 1 reads 3, lane 2 reads 3, lane 3 reads 1.
    let src = "__global__ void k(int* dst) {\n  int lane = threadIdx.x;\n  dst[lane] = asc_shfl_xor(lane, lane % 2 + 1, 32);\n}";
    let t = run(src);
    assert!(
        !t.all_diagnostics().any(|d| d.message.contains("differs")),
        "a per-thread argument is not a uniformity problem"
    );
    let dst = ints(t.buffer("dst").unwrap());
    assert_eq!(dst[..4], [Some(1), Some(3), Some(3), Some(1)]);
}

#[test]
fn the_trace_serializes_for_the_page() {
    let t = run(include_str!("../../examples_kernels/ascend_shfl_xor.cpp"));
    let json = serde_json::to_value(&t).unwrap();
    assert_eq!(json["launch"]["lanes"], 32);
    assert_eq!(json["outcome"]["kind"], "finished");
    assert!(json["steps"][0]["text"]
        .as_str()
        .unwrap()
        .starts_with("int idx"));
}

#[test]
fn atomics_macros_and_printf() {
    let src = "\
#define N 4
#define TWICE_N (N * 2)
__global__ void k(int* sum, float* out) {
  int lane = threadIdx.x;
  atomicAdd(&sum[0], lane);
  int old = atomicMax(&sum[1], lane % TWICE_N);
  printf(\"%d\\n\", lane);
  if (lane < N) out[lane] = 1.5f;
}";
    let mut config = LaunchConfig::default();
    config.args.insert("sum".into(), "zero".into());
    let t = run_kernel(src, config).unwrap();
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let sum = ints(t.buffer("sum").unwrap());
    assert_eq!(sum[0], Some(496), "every lane's atomicAdd lands");
    assert_eq!(sum[1], Some(7), "max of lane % 8");
    // atomicMax returns the old value: lane 0 saw 0, lane 1 saw 0, lane 2 saw 1, …
    assert_eq!(
        t.value_of("old", 0, 2).unwrap().as_ref().unwrap().as_int(),
        Some(1)
    );
    let out = t.buffer("out").unwrap();
    assert_eq!(out[3].as_ref().and_then(KVal::as_f64), Some(1.5));
    assert_eq!(
        out[4].as_ref().and_then(KVal::as_f64),
        Some(4.0),
        "untouched: index fill"
    );
    // Device printf: every lane prints its own line (CUDA C++ Programming Guide, Formatted
    // Output), lane k printing "k\n".
    let printed: Vec<&str> = t.printf.iter().map(|p| p.text.as_str()).collect();
    let want: Vec<String> = (0..32).map(|k| format!("{k}\n")).collect();
    assert_eq!(printed, want);
    assert!(!t
        .all_diagnostics()
        .any(|d| d.message.contains("several lanes write")));
}

#[test]
fn vector_components_read_and_write() {
    let src = "\
__global__ void k(float* out) {
  float2 p;
  p.x = threadIdx.x;
  p.y = p.x * 2.0f;
  out[threadIdx.x] = p.y - p.x;
}";
    let t = run(src);
    let out = t.buffer("out").unwrap();
    assert_eq!(out[5].as_ref().and_then(KVal::as_f64), Some(5.0));
}

#[test]
fn state_after_any_step_for_the_slider() {
    let t = run(include_str!(
        "../../examples_kernels/ascend_shfl_down_reduce.cpp"
    ));
    // Steps 0-2 declare idx, laneId, value; after the first shuffle (step 3) lane 0 holds
    // 0 + 16, after the second 16 + (8 + 24).
    assert_eq!(t.steps[3].text, "value += asc_shfl_down(value, 16, 32);");
    let vars = t.vars_after(3, 0, 0);
    let value = vars.iter().find(|v| v.name == "value").unwrap();
    assert_eq!(value.values[0].as_ref().unwrap().as_int(), Some(16));
    let vars = t.vars_after(4, 0, 0);
    let value = vars.iter().find(|v| v.name == "value").unwrap();
    assert_eq!(value.values[0].as_ref().unwrap().as_int(), Some(48));
    let before = t.memory_after(7);
    let after = t.memory_after(t.steps.len() - 1);
    let dst = before.buffers.iter().position(|b| b.name == "dst").unwrap();
    // dst starts as its index fill; the last step writes the sums.
    assert_eq!(
        before.buffers[dst].cells[0],
        Some(KVal::int(crosslane_kernel::Scalar::I32, 0))
    );
    assert_eq!(
        after.buffers[dst].cells[0],
        Some(KVal::int(crosslane_kernel::Scalar::I32, 496))
    );
    assert_eq!(after, t.memory);
}
