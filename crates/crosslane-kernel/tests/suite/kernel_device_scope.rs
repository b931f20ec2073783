//! Device-code forms of sample-shaped kernels that were refused: a device-function call on the
//! right of `&&` / `||` (short-circuit evaluation), file-scope `__device__` / `__managed__`
//! variables, HIP's `HIP_DYNAMIC_SHARED`, device recursion past 8 levels under the
//! `--max-call-depth` budget, and the memory-limit message's byte count. Every expected value
//! is derived by hand in the comment beside its test.

use crate::cells::cell_ints as ints;
use crosslane_core::op::Dialect;
use crosslane_kernel::budget::{Limits, Resource};
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

fn launch(dialect: Dialect, threads: usize, blocks: usize) -> LaunchConfig {
    LaunchConfig {
        dialect: Some(dialect),
        block_dim: Some([threads, 1, 1]),
        grid_dim: Some([blocks, 1, 1]),
        ..LaunchConfig::default()
    }
}

fn run(src: &str, config: LaunchConfig) -> KernelTrace {
    let t = run_kernel(src, config).expect("kernel parses and launches");
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

fn zero(config: &mut LaunchConfig, name: &str, len: usize) {
    config.args.insert(name.into(), "zero".into());
    config.buffer_len.insert(name.into(), len);
}

fn cells(t: &KernelTrace, name: &str) -> Vec<Option<i128>> {
    ints(
        t.buffer(name)
            .unwrap_or_else(|| panic!("no buffer `{name}`")),
    )
}

fn all(v: &[i128]) -> Vec<Option<i128>> {
    v.iter().map(|&x| Some(x)).collect()
}

const SHORT_CIRCUIT: &str = r#"
__device__ bool take(int* count, int v) { atomicAdd(count, 1); return v % 3 == 0; }
__global__ void k(int* o, int* q, int* count) {
  int i = threadIdx.x;
  o[i] = (i >= 8 || take(count, i)) ? 1 : 0;
  int j = 0;
  while (j < 5 && take(count + 1, j + i)) { j++; }
  q[i] = j;
}
"#;

/// C++17 [expr.log.or]/1: the second operand of `||` is not evaluated if the first is true;
/// [expr.log.and]/1: that of `&&` not if the first is false. 16 threads.
/// `o`: lanes 8..15 decide `i >= 8` true and never call `take`; lanes 0..7 call it once each
/// (count[0] = 8) and get `i % 3 == 0`: lanes 0, 3, 6. So o = 1 0 0 1 0 0 1 0, then eight 1s.
/// `while (j < 5 && take(…, j + i))` ([stmt.while]/1: the condition before each pass): with
/// j = 0 every lane calls take(i) (16 calls); lanes with i % 3 == 0 (0, 3, 6, 9, 12, 15: six)
/// pass, j = 1, and call take(1 + i) once more, false; the others stop at j = 0. So
/// q[i] = 1 where i % 3 == 0, else 0, and count[1] = 16 + 6 = 22.
#[test]
fn a_call_right_of_and_or_runs_only_where_the_left_leaves_it_undecided() {
    let mut c = launch(Dialect::Cuda, 16, 1);
    zero(&mut c, "count", 2);
    let t = run(SHORT_CIRCUIT, c);
    assert_eq!(
        cells(&t, "o"),
        all(&[1, 0, 0, 1, 0, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1])
    );
    let q: Vec<i128> = (0..16).map(|i| i128::from(i % 3 == 0)).collect();
    assert_eq!(cells(&t, "q"), all(&q));
    assert_eq!(cells(&t, "count"), all(&[8, 22]));
}

const SHORT_CIRCUIT_LANES: &str = r#"
__device__ unsigned mask_of() { return __activemask(); }
__device__ int up(int v) { return __shfl_down_sync(__activemask(), v, 1); }
__global__ void k(unsigned* m, int* p) {
  int i = threadIdx.x;
  unsigned seen = 0;
  bool t = (i % 4 == 0) && (seen = mask_of()) != 0;
  m[i] = seen;
  p[i] = (i < 4 && up(i * 10) > 0) ? 1 : 0;
}
"#;

/// A lane whose left operand decided is inactive for everything the call does, as in an `if`
/// (CUDA C++ Programming Guide, Warp Vote Functions: `__activemask()` returns the mask of the
/// warp's currently active threads). 16 threads: lanes 0, 4, 8, 12 call `mask_of`, so each
/// sees bits 0, 4, 8, 12: 0x1111 = 4369; the other lanes keep 0.
/// `up` runs in lanes 0..3 only (`i < 4`): `__shfl_down_sync(0xF, v, 1)` gives lane l the
/// value of lane l + 1, 10·(l + 1) > 0 for l = 0, 1, 2 (p = 1); lane 3's source, lane 4, did
/// not call, so its value is undefined (Warp Shuffle Functions: reading an inactive lane is
/// undefined), and p[3] is undefined. Lanes 4..15 decided false: p = 0.
#[test]
fn a_lane_the_left_operand_decided_is_inactive_inside_the_call() {
    let t = run(SHORT_CIRCUIT_LANES, launch(Dialect::Cuda, 16, 1));
    let m: Vec<i128> = (0..16)
        .map(|i| if i % 4 == 0 { 0x1111 } else { 0 })
        .collect();
    assert_eq!(cells(&t, "m"), all(&m));
    let p = cells(&t, "p");
    assert_eq!(&p[..3], &all(&[1, 1, 1])[..]);
    assert_eq!(p[3], None, "lane 3 read inactive lane 4");
    assert_eq!(&p[4..], &vec![Some(0); 12][..]);
}

const LEFT_ONCE: &str = r#"
__device__ bool take(int* count, int v) { atomicAdd(count, 1); return v % 3 == 0; }
__global__ void k(int* r, int* count) {
  int i = threadIdx.x;
  bool b = atomicAdd(&count[0], 1) < 3 && take(count + 1, 0);
  r[i] = b;
}
"#;

/// The left operand is evaluated once ([expr.log.and]/1: it is sequenced before the right).
/// 16 lanes each add 1 to count[0] once: 16 (twice would be 32). The old values are 0..15 in
/// some order, so exactly three lanes see `< 3` and call `take(…, 0)` (count[1] = 3), which
/// returns 0 % 3 == 0, true: three lanes get r = 1, whichever they are.
#[test]
fn the_left_operand_with_a_side_effect_runs_once() {
    let mut c = launch(Dialect::Cuda, 16, 1);
    zero(&mut c, "count", 2);
    let t = run(LEFT_ONCE, c);
    assert_eq!(cells(&t, "count"), all(&[16, 3]));
    let r = cells(&t, "r");
    assert_eq!(r.iter().map(|v| v.unwrap()).sum::<i128>(), 3, "{r:?}");
}

const IN_TERNARY_AND_RETURN: &str = r#"
__device__ bool big(int* c, int v) { atomicAdd(c, 1); return v > 10; }
__device__ int pick(int* c, int v) { return v < 2 || big(c, v); }
__global__ void k(int* o, int* c) {
  int i = threadIdx.x;
  o[i] = i % 2 ? pick(c, i) : (i > 12 && big(c + 1, i));
}
"#;

/// Short-circuiting inside a `?:` branch ([expr.cond]/1: only the chosen operand is
/// evaluated) and in a returned value. 16 threads. Odd i take `pick`: i = 1 is decided by
/// `v < 2` (1, no call); 3, 5, …, 15 call `big` (c[0] = 7) and get v > 10: 11, 13, 15 give 1,
/// 3..9 give 0. Even i take `i > 12 && big(c + 1, i)`: only 14 calls (c[1] = 1), 14 > 10: 1.
/// o = 0 1 0 0 0 0 0 0 0 0 0 1 0 1 1 1.
#[test]
fn short_circuit_inside_a_conditional_branch_and_a_return() {
    let mut c = launch(Dialect::Cuda, 16, 1);
    zero(&mut c, "c", 2);
    let t = run(IN_TERNARY_AND_RETURN, c);
    assert_eq!(
        cells(&t, "o"),
        all(&[0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1])
    );
    assert_eq!(cells(&t, "c"), all(&[7, 1]));
}

const COND_WITH_CALL: &str = r#"
__device__ bool is_odd(int x) { return (x & 1) != 0; }
__device__ int twice(int* c, int x) { atomicAdd(c, 1); return 2 * x; }
__global__ void k(const int* a, int* o, int* c) {
  int i = threadIdx.x;
  o[i] = (i < 10 && is_odd(a[i])) ? twice(c, a[i]) : -1;
}
"#;

/// A `?:` whose condition holds a `&&` with a device call, and a call in its chosen operand:
/// the condition's call ran once, so choosing reads its result again without repeating it
/// ([expr.cond]/1: the first operand is evaluated once). 16 threads, `a` the index fill:
/// the odd i below 10 (1, 3, 5, 7, 9) call `twice`: o = 2i there (c = 5 calls), −1 elsewhere.
#[test]
fn a_conditional_whose_condition_short_circuits_a_call() {
    let mut c = launch(Dialect::Cuda, 16, 1);
    zero(&mut c, "c", 1);
    let t = run(COND_WITH_CALL, c);
    let want: Vec<i128> = (0..16)
        .map(|i| if i < 10 && i % 2 == 1 { 2 * i } else { -1 })
        .collect();
    assert_eq!(cells(&t, "o"), all(&want));
    assert_eq!(cells(&t, "c"), all(&[5]));
}

const RETIREMENT: &str = r#"
__device__ unsigned int retirementCount = 0;
__device__ unsigned int arrivals = 10;
__device__ int counter;
__global__ void reduce(const int* in, int* partial, int* out) {
  __shared__ bool amLast;
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int k = 16; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) {
    partial[blockIdx.x] = s[0];
    __threadfence();
    atomicAdd(&arrivals, 1);
    unsigned int ticket = atomicInc(&retirementCount, gridDim.x);
    amLast = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (amLast && t == 0) {
    int sum = 0;
    for (int b = 0; b < gridDim.x; b++) sum += partial[b];
    out[0] = sum;
    retirementCount = 0;
  }
}
"#;

/// The threadFenceReduction shape: a `__device__` counter is global memory every block shares
/// (CUDA C++ Programming Guide, Variable Memory Space Specifiers, `__device__`: "accessible
/// from all the threads within the grid"). 4 blocks of 32, `in` the index fill 0..127.
/// partial[b] = sum of 32b..32b+31 = 1024b + 496: 496, 1520, 2544, 3568. The tickets of
/// `atomicInc(&retirementCount, 4)` are 0, 1, 2, 3 (old < 4 each time, so old + 1 is stored:
/// Atomic Functions, atomicInc), so exactly one block sees 3 = gridDim.x − 1, sums the partials
/// (127·128/2 = 8128) and sets the counter back to 0. `arrivals` starts at its initializer 10
/// and gains 1 per block: 14. `counter`, never used, is zero (C++17 [basic.start.static]/2).
#[test]
fn a_device_counter_is_shared_by_every_block() {
    let mut c = launch(Dialect::Cuda, 32, 4);
    zero(&mut c, "out", 1);
    let t = run(RETIREMENT, c);
    assert_eq!(
        &cells(&t, "partial")[..4],
        &all(&[496, 1520, 2544, 3568])[..]
    );
    assert_eq!(cells(&t, "out"), all(&[8128]));
    assert_eq!(cells(&t, "retirementCount"), all(&[0]));
    assert_eq!(cells(&t, "arrivals"), all(&[14]));
    assert_eq!(cells(&t, "counter"), all(&[0]));
    let kinds: Vec<(&str, &str)> = t
        .launch
        .params
        .iter()
        .map(|p| (p.name.as_str(), p.kind))
        .collect();
    assert!(kinds.contains(&("retirementCount", "device")), "{kinds:?}");
}

const TABLE_MANAGED: &str = r#"
__device__ float table[8] = {1.5f, 2.5f};
__device__ __managed__ int total;
__managed__ int hits = 5;
__device__ int n = 7;
__device__ int twice(int n) { return n * 2; }
__global__ void k(int* o) {
  int t = threadIdx.x;
  table[t] += 1.0f;
  atomicAdd(&total, t);
  if (t == 0) {
    hits++;
    o[0] = n;
    { int n = 3; o[1] = n; }
    o[2] = twice(5);
    o[3] = n + 1;
  }
}
"#;

/// A `__device__` array with a short initializer: the rest of its cells are zero
/// ([dcl.init.aggr]/8); 8 threads add 1 to their cell: 2.5 3.5 1 1 1 1 1 1. `__managed__`
/// (with or without `__device__`) is global memory too: `total` = 0+1+…+7 = 28, `hits` = 5 + 1.
/// A parameter or local named `n` hides the device variable ([basic.scope.block]/1):
/// o[0] = 7 (the variable), o[1] = 3 (the local), o[2] = twice(5) = 10 (the parameter),
/// o[3] = 7 + 1 = 8 (the variable again after the block).
#[test]
fn device_arrays_managed_variables_and_hiding_names() {
    let mut c = launch(Dialect::Cuda, 8, 1);
    zero(&mut c, "o", 4);
    let t = run(TABLE_MANAGED, c);
    let table: Vec<f64> = t
        .buffer("table")
        .unwrap()
        .iter()
        .map(|v| v.as_ref().and_then(|v| v.as_f64()).unwrap())
        .collect();
    assert_eq!(table, vec![2.5, 3.5, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]);
    assert_eq!(cells(&t, "total"), all(&[28]));
    assert_eq!(cells(&t, "hits"), all(&[6]));
    assert_eq!(cells(&t, "o"), all(&[7, 3, 10, 8]));
}

/// What stays refused, at its line, saying what to write.
#[test]
fn a_device_pointer_variable_stays_refused() {
    let src = "__device__ int* where;\n__global__ void k(int* o) { o[0] = 1; }\n";
    let e = run_kernel(src, LaunchConfig::default()).expect_err("refused");
    assert_eq!(e.line, 1, "{}", e.message);
    assert!(
        e.message.contains("pointer or a reference"),
        "{}",
        e.message
    );
    let src = "__global__ void k(int* o) { o[0] = v; }\n__device__ int v = o;\n";
    let e = run_kernel(src, LaunchConfig::default()).expect_err("refused");
    assert!(e.message.contains("must be a constant"), "{}", e.message);
}

const HIP_SHARED: &str = r#"
#include <hip/hip_runtime.h>
__global__ void rev(int* o) {
  HIP_DYNAMIC_SHARED(int, buf)
  int t = threadIdx.x;
  buf[t] = t * 3;
  __syncthreads();
  o[t] = buf[blockDim.x - 1 - t];
}
"#;

/// `HIP_DYNAMIC_SHARED(int, buf)` is `extern __shared__ int buf[];` (hip_runtime.h,
/// `hip/amd_detail/amd_hip_runtime.h`). 64 threads, one cell each of dynamic shared memory:
/// o[t] = buf[63 − t] = 3·(63 − t).
#[test]
fn hip_dynamic_shared_declares_the_extern_shared_array() {
    let t = run(HIP_SHARED, launch(Dialect::Hip, 64, 1));
    let want: Vec<i128> = (0..64).map(|t| 3 * (63 - t)).collect();
    assert_eq!(cells(&t, "o"), all(&want));
}

const FACT: &str = r#"
__device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
__device__ int depth(int n) { if (n == 0) return 0; return 1 + depth(n - 1); }
__global__ void k(int* o, int* d) {
  o[threadIdx.x] = fact(threadIdx.x % 12);
  d[threadIdx.x] = depth(threadIdx.x);
}
"#;

/// Device recursion (CUDA C++ Programming Guide, C++ Language Support: recursion is supported
/// on devices of compute capability 2.x and up). 32 threads: fact(t mod 12) = (t mod 12)!
/// (0! = 1, 11! = 39916800, fits an int); depth(t) = t, 32 nested calls at lane 31 (33 levels
/// with the kernel's call), within the default budget of 64.
#[test]
fn recursion_deeper_than_eight_runs() {
    let t = run(FACT, launch(Dialect::Cuda, 32, 1));
    let f = |n: i128| (1..=n).product::<i128>();
    let want: Vec<i128> = (0..32).map(|t| f(t % 12)).collect();
    assert_eq!(cells(&t, "o"), all(&want));
    assert_eq!(cells(&t, "d"), all(&(0..32).collect::<Vec<_>>()));
}

/// A recursion deeper than `--max-call-depth` stops the run naming the budget (a device's
/// stack would run out at some depth too); raising it lets the same run finish. depth(3t) for
/// t < 32 reaches 93 nested calls at t = 31: past 64, within 100.
#[test]
fn recursion_past_the_call_depth_budget_stops_naming_it() {
    let src = "__device__ int depth(int n) { if (n == 0) return 0; return 1 + depth(n - 1); }\n\
               __global__ void k(int* o) { o[threadIdx.x] = depth(threadIdx.x * 3); }\n";
    let t = run_kernel(src, launch(Dialect::Cuda, 32, 1)).expect("launches");
    match &t.outcome {
        Some(Outcome::Limit(hit)) => {
            assert_eq!(hit.resource, Resource::CallDepth);
            assert_eq!(hit.limit, 64);
            assert!(
                hit.message().contains("--max-call-depth"),
                "{}",
                hit.message()
            );
        }
        other => panic!("{other:?}"),
    }
    let mut c = launch(Dialect::Cuda, 32, 1);
    c.limits = Limits {
        max_call_depth: 100,
        ..Limits::default()
    };
    let t = run(src, c);
    let want: Vec<i128> = (0..32).map(|t| 3 * t).collect();
    assert_eq!(cells(&t, "o"), all(&want));
}

/// A function that calls itself twice doubles its inlined code per level: with the default
/// budget `fib` is refused by the code budget naming its two self-calls and saying to set
/// `--max-call-depth` to the run's deepest chain of calls; with
/// `--max-call-depth 12` fib(t mod 12) runs (fib(11) nests 11 calls below the kernel's):
/// 0 1 1 2 3 5 8 13 21 34 55 89 repeating.
#[test]
fn doubly_recursive_code_grows_and_the_message_says_which_budget_helps() {
    let src = "__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\n\
               __global__ void k(int* o) { o[threadIdx.x] = fib(threadIdx.x % 12); }\n";
    let e = run_kernel(src, launch(Dialect::Cuda, 32, 1)).expect_err("code budget");
    assert!(e.message.contains("--max-code"), "{}", e.message);
    assert!(
        e.message.contains("calls itself 2 times")
            && e.message
                .contains("Set --max-call-depth to the deepest chain"),
        "{}",
        e.message
    );
    let mut c = launch(Dialect::Cuda, 32, 1);
    c.limits = Limits {
        max_call_depth: 12,
        ..Limits::default()
    };
    let t = run(src, c);
    let fib = [0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89];
    let want: Vec<i128> = (0..32).map(|t| fib[t % 12]).collect();
    assert_eq!(cells(&t, "o"), all(&want));
}

/// Recursion through a function pointer, inlined per candidate the same way: down(x) for
/// x = t − 3 returns the first value > 0 of x, x + 1, …: 1 for t ≤ 4, else t − 3.
/// The same call inside `?:` is refused: a call through a pointer runs before its statement,
/// so there it would run in the lanes that do not choose it ([expr.cond]/1).
#[test]
fn recursion_through_a_function_pointer_runs_and_a_pointer_call_in_a_conditional_is_refused() {
    let src = "__device__ float down(float x) { float (*g)(float) = down; if (x > 0.0f) return x; return g(x + 1.0f); }\n\
               __global__ void k(float* o) { o[threadIdx.x] = down(threadIdx.x - 3.0f); }";
    let t = run(src, launch(Dialect::Cuda, 8, 1));
    let o: Vec<Option<f64>> = t
        .buffer("o")
        .unwrap()
        .iter()
        .map(|v| v.as_ref().and_then(|v| v.as_f64()))
        .collect();
    let want: Vec<Option<f64>> = (0..8)
        .map(|t| Some(if t <= 4 { 1.0 } else { f64::from(t - 3) }))
        .collect();
    assert_eq!(o, want);
    let src = "__device__ int bump(int* c) { atomicAdd(c, 1); return 5; }\n\
               __global__ void k(int* o, int* c) {\n  int (*g)(int*) = bump;\n  o[0] = threadIdx.x < 4 ? g(c) : 0;\n}";
    let e = run_kernel(src, LaunchConfig::default()).expect_err("refused");
    // `g` stands at column 28 of `  o[0] = threadIdx.x < 4 ? g(c) : 0;`.
    assert_eq!((e.line, e.col), (4, 28), "{}", e.message);
    assert!(
        e.message.contains("function pointer inside `?:`"),
        "{}",
        e.message
    );
}

/// The memory-limit message states the array's own size: 2^28 ints are 2^30 = 1073741824
/// bytes on a device; the emulator holds each cell in 32 bytes, which it says apart
/// (2^28 · 32 = 8589934592).
#[test]
fn the_memory_limit_message_states_the_arrays_real_size() {
    let src = "__global__ void k(int* o) { __shared__ int s[1<<28]; s[threadIdx.x] = 1; o[threadIdx.x] = s[0]; }";
    let t = run_kernel(src, launch(Dialect::Cuda, 32, 1)).expect("launches");
    let m = match &t.outcome {
        Some(Outcome::Limit(hit)) => hit.message(),
        Some(Outcome::Error(e)) => e.message.clone(),
        other => panic!("{other:?}"),
    };
    assert!(
        m.contains("268435456 cells of int: 1073741824 bytes"),
        "{m}"
    );
    assert!(m.contains("each cell in 32 bytes"), "{m}");
}
