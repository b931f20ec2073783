//! Shapes from a fresh look at public kernels (round fresh22), each written here in the same
//! shape: `__builtin_unreachable()` in a switch's `default:` over a template enumeration
//! parameter, device-side `malloc`/`free` refused by name, and page-locked host memory
//! (`cudaMallocHost`, `hipHostMalloc`, `cudaHostAlloc`) given to a launch. Expected values are
//! worked out by hand beside each test.

use crate::support::{ints, refused, said};
use crosslane_core::Level;
use crosslane_kernel::{run_kernel, LaunchConfig, Outcome};

fn entry(name: &str, single: bool) -> LaunchConfig {
    LaunchConfig {
        entry: Some(name.into()),
        single_launch: single,
        ..LaunchConfig::default()
    }
}

/// One template kernel over an enumeration, a `switch` on the template parameter whose
/// `default:` is `__builtin_unreachable()` (never reached for a listed enumerator), launched
/// once per operation with a `cpu` check in host code.
const REDUCE_OPS: &str = "\
enum Op { SUM, MAXV, BITOR };
template <Op O>
__global__ void red(const int *in, int *res) {
  int v = in[threadIdx.x];
  switch (O) {
  case SUM:
    *res = __reduce_add_sync(__activemask(), v);
    break;
  case MAXV:
    *res = __reduce_max_sync(__activemask(), v);
    break;
  case BITOR:
    *res = __reduce_or_sync(__activemask(), v);
    break;
  default:
    __builtin_unreachable();
  }
}
int main() {
  int h[32];
  for (int i = 0; i < 32; i++) h[i] = 3 * i + 1;
  int *d, *r;
  cudaMalloc(&d, 32 * sizeof(int));
  cudaMalloc(&r, sizeof(int));
  cudaMemcpy(d, h, 32 * sizeof(int), cudaMemcpyHostToDevice);
  red<Op::SUM><<<1, 32>>>(d, r);
  red<Op::MAXV><<<1, 32>>>(d, r);
  red<Op::BITOR><<<1, 32>>>(d, r);
  return 0;
}
";

#[test]
fn builtin_unreachable_not_reached_changes_nothing() {
    // in[i] = 3i + 1 for i in 0..32: sum = 3 * 496 + 32 = 1520; max = 94; OR of 1, 4, …, 94:
    // Python `functools.reduce(operator.or_, [3*i+1 for i in range(32)])` = 127.
    for (name, want) in [
        ("red<Op::SUM>", 1520),
        ("red<Op::MAXV>", 94),
        ("red<Op::BITOR>", 127),
    ] {
        let t = run_kernel(REDUCE_OPS, entry(name, true)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            t.outcome,
            Some(Outcome::Finished),
            "{name}: {:?}",
            t.outcome
        );
        assert_eq!(ints(&t, "res"), vec![Some(want)], "{name}");
    }
    // Every launch in host order: the final value is the last launch's (BITOR).
    let t = run_kernel(REDUCE_OPS, entry("red<Op::SUM>", false)).unwrap();
    assert_eq!(ints(&t, "res"), vec![Some(127)]);
}

#[test]
fn builtin_unreachable_reached_stops_the_run_as_undefined() {
    // Lanes 0..3 reach the call: the behaviour is undefined from there (Clang Language
    // Extensions, __builtin_unreachable), so the run ends with an error naming them.
    let src = "\
__global__ void k(int *out) {
  int t = threadIdx.x;
  if (t < 4) __builtin_unreachable();
  out[t] = t;
}
";
    let t = run_kernel(src, LaunchConfig::default()).expect("launches");
    assert!(
        matches!(t.outcome, Some(Outcome::Error(_))),
        "{:?}",
        t.outcome
    );
    let text = format!("{:?}", t.merged_diagnostics);
    assert!(
        text.contains("`__builtin_unreachable()` reached in block 0, thread 0 (lane(s) 0-3"),
        "{text}"
    );
}

#[test]
fn device_heap_malloc_is_refused_by_name() {
    let src = "\
__global__ void k(int *out) {
  int *tmp = (int *)malloc(4 * sizeof(int));
  tmp[0] = threadIdx.x;
  out[threadIdx.x] = tmp[0];
  free(tmp);
}
";
    let msg = refused(src, LaunchConfig::default());
    assert!(
        msg.contains("`malloc` in device code uses the device heap")
            && msg.contains("use a local array"),
        "{msg}"
    );
    assert!(!msg.contains("is not declared"), "{msg}");
}

#[test]
fn pinned_host_memory_is_a_buffer_of_its_allocated_length() {
    // `hipHostMalloc(&o, 96 * 4)`: 96 cells the kernel writes directly (HIP Runtime API,
    // hipHostMalloc; CUDA's cudaMallocHost the same). 3 blocks of 32: o[i] = 2i.
    for alloc in [
        "hipHostMalloc((void **)&o, n * sizeof(int), hipHostMallocDefault)",
        "cudaMallocHost((void **)&o, n * sizeof(int))",
        "cudaHostAlloc((void **)&o, n * sizeof(int), cudaHostAllocMapped)",
    ] {
        let src = format!(
            "\
__global__ void k(int *out) {{ int i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = 2 * i; }}
int main() {{
  int n = 96;
  int *o;
  {alloc};
  k<<<3, 32>>>(o);
  return 0;
}}
"
        );
        let t = run_kernel(&src, LaunchConfig::default()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            t.outcome,
            Some(Outcome::Finished),
            "{alloc}: {:?}",
            t.outcome
        );
        let want: Vec<Option<i128>> = (0..96).map(|i| Some(2 * i)).collect();
        assert_eq!(ints(&t, "out"), want, "{alloc}");
        let w = said(&t, Level::Warning);
        assert!(w.is_empty(), "{alloc}: {w:?}");
    }
}

#[test]
fn pinned_host_memory_written_by_the_host_is_what_the_launch_reads() {
    // The host fills pinned memory in a loop (h[i] = i + 5) and passes it to the kernel as
    // it would managed memory: out[i] = h[i] * 10.
    let src = "\
__global__ void k(const int *in, int *out) { int i = threadIdx.x; out[i] = in[i] * 10; }
int main() {
  int *h, *d;
  cudaMallocHost(&h, 32 * sizeof(int));
  for (int i = 0; i < 32; i++) h[i] = i + 5;
  cudaMalloc(&d, 32 * sizeof(int));
  k<<<1, 32>>>(h, d);
  return 0;
}
";
    let t = run_kernel(src, LaunchConfig::default()).unwrap_or_else(|e| panic!("{e}"));
    let want: Vec<Option<i128>> = (0..32).map(|i| Some((i + 5) * 10)).collect();
    assert_eq!(ints(&t, "out"), want);
}

#[test]
fn an_out_of_bounds_store_past_a_defaulted_length_says_the_length_is_the_default() {
    // Host code hands the kernel a pointer from a helper class the reading does not follow
    // (`holder.get()`), so `out` gets the default of one cell per thread (32); each thread
    // stores 2 cells (2t, 2t+1), so threads 16..31 store past 32. The warning says the length
    // is the default and how to give the real one; a host-allocated buffer of the same 32
    // cells keeps the plain message.
    let src = "\
struct holder { int *p; int *get() { return p; } };
__global__ void k(int *out) { out[2 * threadIdx.x] = 1; out[2 * threadIdx.x + 1] = 2; }
int main() {
  holder h;
  k<<<1, 32>>>(h.get());
  return 0;
}
";
    let t = run_kernel(src, LaunchConfig::default()).unwrap_or_else(|e| panic!("{e}"));
    let w = said(&t, Level::Warning).join("\n");
    assert!(
        w.contains("writes `out` outside its 32 cells")
            && w.contains("is the default of one cell per launched thread")
            && w.contains("--buffer out:LEN=FILL"),
        "{w}"
    );
    let allocated = "\
__global__ void k(int *out) { out[2 * threadIdx.x] = 1; out[2 * threadIdx.x + 1] = 2; }
int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  k<<<1, 32>>>(d);
  return 0;
}
";
    let t = run_kernel(allocated, LaunchConfig::default()).unwrap_or_else(|e| panic!("{e}"));
    let w = said(&t, Level::Warning).join("\n");
    assert!(w.contains("writes `out` outside its 32 cells"), "{w}");
    assert!(!w.contains("is the default"), "{w}");
}
