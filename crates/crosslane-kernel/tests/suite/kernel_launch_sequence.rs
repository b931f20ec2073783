//! Several launches in host code run in order, as the device runs launches on one stream
//! (CUDA C++ Programming Guide, "Streams": commands issued to a stream execute in order), on
//! device memory that persists between them: the launches before the traced one run first, those
//! after it when it finishes, and a launch in a host loop once per iteration. Each expected value
//! is derived by hand (or by the Python written beside it) from the kernels' own arithmetic.

use crate::support::{ints, said};
use crosslane_core::Level;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Limits, Outcome};

use crate::support::ints_at_launch;

fn run_entry(src: &str, entry: Option<&str>) -> KernelTrace {
    let config = LaunchConfig {
        entry: entry.map(str::to_string),
        ..LaunchConfig::default()
    };
    run_kernel(src, config).unwrap_or_else(|e| panic!("{e}"))
}

const CHAIN: &str = "\
__global__ void seti(int* d) { int i = threadIdx.x; d[i] = i; }
__global__ void twice(int* d) { int i = threadIdx.x; d[i] = 2 * d[i]; }
__global__ void addk(int* d, int k) { int i = threadIdx.x; d[i] = d[i] + k; }
int main() {
  int *d;
  cudaMalloc(&d, 8 * sizeof(int));
  seti<<<1, 8>>>(d);
  twice<<<1, 8>>>(d);
  addk<<<1, 8>>>(d, 100);
  twice<<<1, 8>>>(d);
  return 0;
}
";

#[test]
fn a_launch_in_the_middle_finds_what_the_earlier_ones_left_and_ends_as_the_device_does() {
    // seti: d = i; twice: 2i; addk(100): 2i + 100; twice: 4i + 200.
    let t = run_entry(CHAIN, Some("addk"));
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let at_launch: Vec<Option<i128>> = (0..8).map(|i| Some(2 * i)).collect();
    assert_eq!(ints_at_launch(&t, "d"), at_launch);
    let end: Vec<Option<i128>> = (0..8).map(|i| Some(4 * i + 200)).collect();
    assert_eq!(ints(&t, "d"), end);
    let notes = said(&t, Level::Info);
    assert!(
        notes.iter().any(|m| m.contains(
            "`seti(d)` launched at line 7, then `twice(d)` launched at line 8 left in it"
        )),
        "{notes:?}"
    );
    assert!(
        notes
            .iter()
            .any(|m| m.contains("`twice(d)` launched at line 10; they run after it")),
        "{notes:?}"
    );
    // The first launch traced: fresh memory at launch (undefined), the same end.
    let t = run_entry(CHAIN, None);
    assert_eq!(ints_at_launch(&t, "d"), vec![None; 8]);
    assert_eq!(ints(&t, "d"), end);
}

#[test]
fn a_single_launch_runs_the_traced_launch_alone() {
    // --single-launch: addk(100) alone on fresh memory (undefined, CUDA Runtime API,
    // cudaMalloc: not cleared) gives undefined d, and nothing runs after it.
    let config = LaunchConfig {
        entry: Some("addk".into()),
        single_launch: true,
        ..LaunchConfig::default()
    };
    let t = run_kernel(CHAIN, config).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ints(&t, "d"), vec![None; 8]);
    let w = said(&t, Level::Warning);
    assert!(
        w.iter()
            .any(|m| m.contains("which did not run here (--single-launch")),
        "{w:?}"
    );
}

#[test]
fn the_second_kernel_of_a_two_pass_reduction_reduces_the_partials_the_first_wrote() {
    // in[i] = i for i in 0..128; partial sums per block of 32 (Python):
    // [sum(range(32 * b, 32 * b + 32)) for b in range(4)] = [496, 1520, 2544, 3568];
    // the second kernel sums the 4 partials: 8128 = sum(range(128)).
    let src = "\
__global__ void partial_sums(const int* in, int* part) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  if (threadIdx.x == 0) part[blockIdx.x] = v;
}
__global__ void final_sum(const int* part, int* out, int n) {
  int v = threadIdx.x < n ? part[threadIdx.x] : 0;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  if (threadIdx.x == 0) out[0] = v;
}
int main() {
  int h[128];
  for (int i = 0; i < 128; i++) h[i] = i;
  int *d_in, *d_part, *d_out;
  cudaMalloc(&d_in, 128 * sizeof(int)); cudaMalloc(&d_part, 4 * sizeof(int)); cudaMalloc(&d_out, sizeof(int));
  cudaMemcpy(d_in, h, sizeof(h), cudaMemcpyHostToDevice);
  partial_sums<<<4, 32>>>(d_in, d_part);
  final_sum<<<1, 32>>>(d_part, d_out, 4);
  return 0;
}
";
    let t = run_entry(src, Some("final_sum"));
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let partials = vec![Some(496), Some(1520), Some(2544), Some(3568)];
    assert_eq!(ints_at_launch(&t, "part"), partials);
    assert_eq!(ints(&t, "out"), vec![Some(8128)]);
}

#[test]
fn a_host_copy_after_a_launch_is_what_the_next_launch_finds() {
    // k1 writes d = 7, then host code copies h (3i) over d: k2 sees 3i (the copy is the newest
    // write; CUDA Runtime API, cudaMemcpy on the default stream is ordered after the launch), so
    // o = 3i + 1, and k1 need not run first.
    let src = "\
__global__ void k1(int* d) { d[threadIdx.x] = 7; }
__global__ void k2(const int* d, int* o) { o[threadIdx.x] = d[threadIdx.x] + 1; }
int main() {
  int h[32];
  for (int i = 0; i < 32; i++) h[i] = 3 * i;
  int *d, *o;
  cudaMalloc(&d, 32 * sizeof(int)); cudaMalloc(&o, 32 * sizeof(int));
  k1<<<1, 32>>>(d);
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  k2<<<1, 32>>>(d, o);
  return 0;
}
";
    let t = run_entry(src, Some("k2"));
    let want: Vec<Option<i128>> = (0..32).map(|i| Some(3 * i + 1)).collect();
    assert_eq!(ints(&t, "o"), want);
    assert!(
        !said(&t, Level::Info)
            .iter()
            .any(|m| m.contains("left in it")),
        "{:?}",
        said(&t, Level::Info)
    );
}

#[test]
fn cells_an_earlier_launch_left_unwritten_stay_undefined() {
    // evens writes d[i] only for even i on fresh cudaMalloc memory (not cleared, CUDA Runtime
    // API, cudaMalloc), so use finds d[i] = i at even i and undefined cells at odd i: o = d + 1.
    let src = "\
__global__ void evens(int* d) { int i = threadIdx.x; if (i % 2 == 0) d[i] = i; }
__global__ void use(const int* d, int* o) { int i = threadIdx.x; o[i] = d[i] + 1; }
int main() {
  int *d, *o;
  cudaMalloc(&d, 32 * sizeof(int)); cudaMalloc(&o, 32 * sizeof(int));
  evens<<<1, 32>>>(d);
  use<<<1, 32>>>(d, o);
  return 0;
}
";
    let t = run_entry(src, Some("use"));
    let want: Vec<Option<i128>> = (0..32).map(|i| (i % 2 == 0).then_some(i + 1)).collect();
    assert_eq!(ints(&t, "o"), want);
}

#[test]
fn an_error_in_an_earlier_launch_stops_the_run_naming_that_launch() {
    // bad branches on fresh cudaMalloc memory (not cleared: undefined), an error that stops
    // the run before the traced launch starts; the error names `bad(d)` and its host line (6).
    let src = "\
__global__ void bad(int* d) { if (d[threadIdx.x] > 0) d[threadIdx.x] = 1; }
__global__ void good(int* d) { d[threadIdx.x] += 1; }
int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  bad<<<1, 32>>>(d);
  good<<<1, 32>>>(d);
  return 0;
}
";
    let t = run_entry(src, Some("good"));
    match &t.outcome {
        Some(Outcome::Error(e)) => {
            assert!(
                e.message
                    .contains("the earlier launch `bad(d)` launched at line 6"),
                "{e:?}"
            );
            assert_eq!(e.line, 1);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(t.stats.steps, 0, "the traced launch does not start");
}

#[test]
fn a_warning_of_an_earlier_launch_is_said_naming_it() {
    // oob writes d[i + 32] of a 32-cell buffer: out of bounds, nothing written (a warning); the
    // traced launch still runs, and the warning names `oob(d)` at host line 6. d was memset to
    // 0, so good gives d = 1.
    let src = "\
__global__ void oob(int* d) { d[threadIdx.x + 32] = 1; }
__global__ void good(int* d) { d[threadIdx.x] += 1; }
int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int)); cudaMemset(d, 0, 32 * sizeof(int));
  oob<<<1, 32>>>(d);
  good<<<1, 32>>>(d);
  return 0;
}
";
    let t = run_entry(src, Some("good"));
    assert_eq!(ints(&t, "d"), vec![Some(1); 32]);
    let w = said(&t, Level::Warning);
    assert!(
        w.iter().any(
            |m| m.starts_with("in the earlier launch `oob(d)` launched at line 6")
                && m.contains("outside")
        ),
        "{w:?}"
    );
}

#[test]
fn an_earlier_launch_spends_the_same_work_budget_and_a_limit_names_it() {
    // spin runs 100000 iterations per thread: far beyond a budget of 20000 units of work, so the
    // run ends at the work limit, in the earlier launch, which the limit names.
    let src = "\
__global__ void spin(int* d) { int s = 0; for (int k = 0; k < 100000; k++) s += k; d[threadIdx.x] = s; }
__global__ void after(int* d) { d[threadIdx.x] += 1; }
int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  spin<<<1, 32>>>(d);
  after<<<1, 32>>>(d);
  return 0;
}
";
    let config = LaunchConfig {
        entry: Some("after".into()),
        limits: Limits {
            max_work: 20_000,
            ..Limits::default()
        },
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).unwrap_or_else(|e| panic!("{e}"));
    match &t.outcome {
        Some(Outcome::Limit(hit)) => {
            assert!(
                hit.what
                    .contains("the earlier launch `spin(d)` launched at line 6"),
                "{hit:?}"
            );
            assert_eq!(hit.limit, 20_000);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_later_launch_that_fails_ends_the_run_naming_it() {
    // The traced first launch finishes; the later one branches on a read out of bounds
    // (undefined), an error: the run's outcome is that error, naming the later launch (line 7).
    let src = "\
__global__ void first(int* d) { d[threadIdx.x] = 1; }
__global__ void second(int* d) { if (d[threadIdx.x + 32] > 0) d[threadIdx.x] = 2; }
int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  first<<<1, 32>>>(d);
  second<<<1, 32>>>(d);
  return 0;
}
";
    let t = run_entry(src, None);
    match &t.outcome {
        Some(Outcome::Error(e)) => assert!(
            e.message
                .contains("the later launch `second(d)` launched at line 7"),
            "{e:?}"
        ),
        other => panic!("{other:?}"),
    }
    assert!(t.stats.steps > 0, "the traced launch ran");
}

#[test]
fn a_bitonic_sort_launched_per_stage_from_nested_host_loops_sorts() {
    // 64 ints, one block: stages k = 2..64, j = k/2..1: 1 + 2 + … + 6 = 21 launches. h[i] =
    // (37 i + 11) % 64 is a permutation of 0..63 (37 is odd), so the sorted result is 0..63.
    let src = "\
__global__ void step(int* d, int j, int k) {
  unsigned i = threadIdx.x, p = i ^ j;
  if (p > i) {
    bool up = (i & k) == 0;
    int a = d[i], b = d[p];
    if ((a > b) == up) { d[i] = b; d[p] = a; }
  }
}
int main() {
  const int n = 64;
  int h[n];
  for (int i = 0; i < n; i++) h[i] = (37 * i + 11) % 64;
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  for (int k = 2; k <= n; k *= 2)
    for (int j = k / 2; j > 0; j /= 2)
      step<<<1, n>>>(d, j, k);
  return 0;
}
";
    let t = run_entry(src, None);
    assert_eq!(t.outcome, Some(Outcome::Finished));
    let sorted: Vec<Option<i128>> = (0..64).map(Some).collect();
    assert_eq!(ints(&t, "d"), sorted);
    let notes = said(&t, Level::Info);
    assert!(
        notes
            .iter()
            .any(|m| m.contains("runs 6 times here, and the 21 kernel launch(es)")),
        "{notes:?}"
    );
    // The traced launch is the first stage (j = 1, k = 2): its own arguments.
    assert!(
        notes.iter().any(|m| m.contains("j = 1, k = 2")),
        "{notes:?}"
    );
}

#[test]
fn a_loop_whose_condition_host_code_cannot_evaluate_is_read_once_as_before() {
    // `r < reps()`: a call's result, no constant in host code, so the loop is read once, noted.
    let src = "\
__global__ void k(int* d) { d[threadIdx.x] += 1; }
int reps();
int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  cudaMemset(d, 0, 32 * sizeof(int));
  for (int r = 0; r < reps(); r++) k<<<1, 32>>>(d);
  return 0;
}
";
    let t = run_entry(src, None);
    // One launch over zeros (cudaMemset 0): d = 1.
    assert_eq!(ints(&t, "d"), vec![Some(1); 32]);
    assert!(
        said(&t, Level::Info)
            .iter()
            .any(|m| m.contains("a launch inside a host loop is read once")),
        "{:?}",
        said(&t, Level::Info)
    );
}

#[test]
fn launches_under_an_if_host_code_cannot_decide_run_only_when_traced() {
    // `if (flag())`: no constant in host code, so the device runs a or b, not both. Traced a:
    // b does not run after it (d stays 1); c, given d after that `if`, runs after a, but what d
    // holds after the `if` is not known (b may have run instead), so c's input is said missing.
    // Traced c: neither a nor b runs first, so o is undefined (never a guessed branch).
    let src = "\
__global__ void a(int* d) { d[threadIdx.x] = 1; }
__global__ void b(int* d) { d[threadIdx.x] = 2; }
__global__ void c(const int* d, int* o) { o[threadIdx.x] = d[threadIdx.x] * 10; }
int flag();
int main() {
  int *d, *o;
  cudaMalloc(&d, 32 * sizeof(int)); cudaMalloc(&o, 32 * sizeof(int));
  if (flag()) a<<<1, 32>>>(d); else b<<<1, 32>>>(d);
  c<<<1, 32>>>(d, o);
  return 0;
}
";
    let t = run_entry(src, Some("a"));
    assert_eq!(ints(&t, "d"), vec![Some(1); 32]);
    let t = run_entry(src, Some("c"));
    assert_eq!(ints(&t, "o"), vec![None; 32]);
    let w = said(&t, Level::Warning);
    assert!(
        w.iter().any(|m| m.contains("which did not run here")),
        "{w:?}"
    );
}

#[test]
fn the_cases_of_a_switch_are_alternatives_not_a_sequence() {
    // `switch (mode())`: host code does not evaluate it; the device runs one case. Traced
    // `one` (the first): `two` must not run after it, so d stays 1 (not 2).
    let src = "\
__global__ void one(int* d) { d[threadIdx.x] = 1; }
__global__ void two(int* d) { d[threadIdx.x] = 2; }
int mode();
int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  switch (mode()) {
    case 0: one<<<1, 32>>>(d); break;
    default: two<<<1, 32>>>(d); break;
  }
  return 0;
}
";
    let t = run_entry(src, None);
    assert_eq!(ints(&t, "d"), vec![Some(1); 32]);
}

#[test]
fn the_buffers_kept_for_later_launches_count_against_the_memory_budget() {
    // 50 launches in a host loop over one buffer of 65536 ints: each launch run after the
    // traced one keeps a copy of the buffer for the launches after it, 65536 cells of at least
    // 16 bytes each (an `Option<KVal>`), at least 1 MiB a launch, so 50 copies pass a 16 MiB
    // budget (which the traced launch itself, about 8.4 MB with its trace, stays within) and the
    // run ends at the memory limit, naming a later launch, instead of holding them all.
    let src = "\
__global__ void inc(int* d) { d[blockIdx.x * blockDim.x + threadIdx.x] += 1; }
int main() {
  int *d;
  cudaMalloc(&d, 65536 * sizeof(int));
  cudaMemset(d, 0, 65536 * sizeof(int));
  for (int r = 0; r < 50; r++) inc<<<64, 1024>>>(d);
  return 0;
}
";
    let limits = Limits {
        max_memory: 16 << 20,
        max_work: 1 << 40,
        ..Limits::default()
    };
    let config = LaunchConfig {
        limits,
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).unwrap_or_else(|e| panic!("{e}"));
    match &t.outcome {
        Some(Outcome::Limit(hit)) => {
            assert!(hit.what.contains("the later launch `inc(d)`"), "{hit:?}");
            assert!(
                hit.what.contains("kept for the launches after them"),
                "{hit:?}"
            );
            assert_eq!(hit.limit, 16 << 20);
        }
        other => panic!("{other:?}"),
    }
}
