//! Device function pointers chosen at run time (CUDA C++ Programming Guide, "Function
//! Pointers": a `__device__` function's address may be taken and called in device code): a
//! function pointer parameter, a local chosen per lane (lanes of one warp calling different
//! functions, each group running its callee), `using`/`typedef` aliases, a file-scope table
//! indexed at run time, `(*f)(x)`, a `void` target, a null pointer called (an error naming its
//! line), and the refusals. Expected values by hand, beside each test.

use crate::support::floats_or_nan as floats;
use crosslane_core::Dialect;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

fn run(src: &str, dialect: Dialect) -> KernelTrace {
    let c = LaunchConfig {
        dialect: Some(dialect),
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, c).unwrap_or_else(|e| panic!("{e}\n{src}"));
    assert_eq!(
        t.outcome,
        Some(Outcome::Finished),
        "{src}\n{:?}",
        t.merged_diagnostics
    );
    t
}

const FNS: &str = "\
__device__ float twice(float x) { return 2.0f * x; }
__device__ float neg(float x) { return -x; }
";

#[test]
fn a_function_pointer_parameter_calls_the_function_given() {
    // Lane i: twice(i) + neg(1) = 2i - 1; lane 0: -1, lane 5: 9, lane 31: 61.
    let src = format!(
        "{FNS}__device__ float apply(float (*op)(float), float x) {{ return op(x); }}
__global__ void k(float* o) {{
  float v = (float)threadIdx.x;
  o[threadIdx.x] = apply(twice, v) + apply(&neg, 1.0f);
}}
"
    );
    for d in [Dialect::Cuda, Dialect::Hip] {
        let o = floats(&run(&src, d), "o");
        assert_eq!((o[0], o[5], o[31]), (-1.0, 9.0, 61.0));
    }
}

#[test]
fn lanes_of_one_warp_call_different_functions() {
    // Odd lanes twice(i) = 2i, even lanes neg(i) = -i: lane 4 -> -4, lane 7 -> 14.
    let src = format!(
        "{FNS}__global__ void k(float* o) {{
  int lane = threadIdx.x;
  float (*f)(float) = (lane & 1) ? twice : neg;
  o[lane] = f((float)lane);
}}
"
    );
    let t = run(&src, Dialect::Cuda);
    let o = floats(&t, "o");
    assert_eq!((o[4], o[7], o[0], o[31]), (-4.0, 14.0, 0.0, 62.0));
    // The ids in source order, named in a note at the first address taken (line 5).
    let note = t
        .merged_diagnostics
        .iter()
        .find(|d| d.message.contains("function pointers hold ids"))
        .expect("the id note");
    assert!(
        note.message.contains("1 = `twice`, 2 = `neg`"),
        "{}",
        note.message
    );
    assert_eq!(note.line, 5);
}

#[test]
fn each_target_runs_for_its_own_lanes() {
    // The indirect call diverges by target: lanes 0-7 run `few` together (8 lanes active),
    // lanes 8-31 run `many` (24 active): `__activemask()` inside each callee counts its group.
    let src = "\
__device__ float few(float x) { return (float)__popc(__activemask()); }
__device__ float many(float x) { return 100.0f + (float)__popc(__activemask()); }
__global__ void k(float* o) {
  int lane = threadIdx.x;
  float (*f)(float) = lane < 8 ? few : many;
  o[lane] = f(0.0f);
}
";
    let o = floats(&run(src, Dialect::Cuda), "o");
    assert_eq!((o[0], o[7], o[8], o[31]), (8.0, 8.0, 124.0, 124.0));
}

#[test]
fn aliases_and_a_table_indexed_at_run_time() {
    // `table[i % 2]` then `table[(i + 1) % 2]`: add1(i) + twice(i) = 3i + 1 in every lane
    // (lane 3: 10); `(*g)(i)` with g = twice adds 2i: lane 3 -> 16, lane 0 -> 1.
    for alias in [
        "using op_t = float (*)(float);",
        "typedef float (*op_t)(float);",
    ] {
        let src = format!(
            "{alias}
__device__ float add1(float x) {{ return x + 1.0f; }}
__device__ float twice(float x) {{ return 2.0f * x; }}
__device__ op_t table[] = {{add1, twice}};
__global__ void k(float* o) {{
  int i = threadIdx.x;
  op_t f = table[i % 2];
  op_t g = &twice;
  o[i] = f((float)i) + table[(i + 1) % 2]((float)i) + (*g)((float)i);
}}
"
        );
        let o = floats(&run(&src, Dialect::Cuda), "o");
        assert_eq!((o[0], o[3], o[4]), (1.0, 16.0, 21.0), "{alias}");
    }
}

#[test]
fn a_void_target_and_pointer_arguments() {
    // `w(o, i)` stores 7 in odd lanes' cells and i in even lanes'.
    let src = "\
__device__ void seven(float* p, int i) { p[i] = 7.0f; }
__device__ void same(float* p, int i) { p[i] = (float)i; }
__global__ void k(float* o) {
  int i = threadIdx.x;
  void (*w)(float*, int) = seven;
  if (i % 2 == 0) w = same;
  w(o, i);
}
";
    let o = floats(&run(src, Dialect::Cuda), "o");
    assert_eq!((o[0], o[1], o[4], o[5]), (0.0, 7.0, 4.0, 7.0));
}

#[test]
fn a_pointer_passed_on_and_a_prototyped_function() {
    // `twice` is declared by its prototype before `k` takes its address. Lanes 0-1: g = twice,
    // twice_then(g, 1) = apply(g, 2 * 1) = twice(2) = 4; other lanes: g = neg, neg(2) = -2.
    let src = "\
__device__ float twice(float x);
__device__ float neg(float x) { return -x; }
__device__ float apply(float (*op)(float), float x) { return op(x); }
__device__ float twice_then(float (*op)(float), float x) { return apply(op, 2.0f * x); }
__global__ void k(float* o) {
  float (*g)(float) = threadIdx.x < 2 ? twice : neg;
  o[threadIdx.x] = twice_then(g, 1.0f);
}
__device__ float twice(float x) { return 2.0f * x; }
";
    let o = floats(&run(src, Dialect::Cuda), "o");
    assert_eq!((o[0], o[1], o[2], o[31]), (4.0, 4.0, -2.0, -2.0));
}

#[test]
fn a_null_pointer_called_is_an_error_at_its_line() {
    let src = format!(
        "{FNS}__global__ void k(float* o) {{
  float (*f)(float) = nullptr;
  if (threadIdx.x == 3) f = twice;
  o[threadIdx.x] = f(1.0f);
}}
"
    );
    let c = LaunchConfig {
        dialect: Some(Dialect::Cuda),
        ..LaunchConfig::default()
    };
    let t = run_kernel(&src, c).expect("parses");
    assert_ne!(t.outcome, Some(Outcome::Finished));
    let json = serde_json::to_string(&t).expect("json");
    assert!(
        json.contains("calling a null function pointer is undefined"),
        "{json}"
    );
    assert!(json.contains("\"line\":6"), "{json}");
    assert!(json.contains("\"col\":20"), "{json}");
}

#[test]
fn what_stays_unsupported_is_refused_at_its_line() {
    for (src, line, needle) in [
        (
            "__global__ void g(float x) {}\n__global__ void k(float* o) {\n  void (*f)(float) = g;\n  f(1.0f);\n}",
            3,
            "is a `__global__` function",
        ),
        (
            "__device__ float twice(float x) { return 2.0f * x; }\n__global__ void k(float* o) {\n  float (*f)(float) = twice;\n  o[0] = f(1.0f, 2.0f);\n}",
            4,
            "takes 1 argument(s), got 2",
        ),
    ] {
        let e = run_kernel(src, LaunchConfig::default()).expect_err(src);
        assert_eq!(e.line, line, "{src}: {}", e.message);
        assert!(e.message.contains(needle), "{src}: {}", e.message);
    }
}
