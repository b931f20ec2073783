//! Launches host code makes in ways beyond straight-line `main`: inside a host helper function
//! (defined above `main` or below it, C++17 [expr.call]/4 binding its pointer parameter to
//! `main`'s buffer), in a `do … while` loop (C++17 [stmt.do]/1: the condition after each
//! iteration), and a later launch of a kernel chosen for the trace (`LaunchConfig::launch`).
//! The launches run in host code's order on memory that persists between them (CUDA C++
//! Programming Guide, "Streams"). Expected values are derived by hand from the kernels'
//! arithmetic.

use crate::support::{ints, said};
use crosslane_core::Level;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

use crate::support::ints_at_launch as at_launch;

fn run(src: &str, entry: &str, launch: Option<usize>) -> KernelTrace {
    let config = LaunchConfig {
        entry: Some(entry.to_string()),
        launch,
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

const KERNELS: &str = "\
__global__ void seti(int* d) { int i = threadIdx.x; d[i] = i; }
__global__ void twice(int* d) { int i = threadIdx.x; d[i] = 2 * d[i]; }
";

#[test]
fn a_launch_in_a_host_helper_writes_mains_buffer_wherever_the_helper_stands() {
    let above = format!(
        "{KERNELS}void fill(int* p) {{ seti<<<1, 8>>>(p); }}
int main() {{
  int* d;
  cudaMalloc(&d, 8 * sizeof(int));
  fill(d);
  twice<<<1, 8>>>(d);
  return 0;
}}
"
    );
    let below = format!(
        "{KERNELS}void fill(int* p);
int main() {{
  int* d;
  cudaMalloc(&d, 8 * sizeof(int));
  fill(d);
  twice<<<1, 8>>>(d);
  return 0;
}}
void fill(int* p) {{ seti<<<1, 8>>>(p); }}
"
    );
    // A host function template below `main`, the CUDA samples' `runTest<T>` shape.
    let template = format!(
        "{KERNELS}template <typename T> void fill(T* p);
int main() {{
  int* d;
  cudaMalloc(&d, 8 * sizeof(int));
  fill<int>(d);
  twice<<<1, 8>>>(d);
  return 0;
}}
template <typename T> void fill(T* p) {{ seti<<<1, 8>>>(p); }}
"
    );
    for src in [&above, &below, &template] {
        // twice finds seti's d = i and leaves 2i.
        let t = run(src, "twice", None);
        let i: Vec<Option<i128>> = (0..8).map(Some).collect();
        assert_eq!(at_launch(&t, "d"), i, "{src}");
        let two_i: Vec<Option<i128>> = (0..8).map(|i| Some(2 * i)).collect();
        assert_eq!(ints(&t, "d"), two_i, "{src}");
        let warnings = said(&t, Level::Warning);
        assert!(
            !warnings.iter().any(|m| m.contains("may write it")),
            "{warnings:?}"
        );
        // Traced from the helper's launch, the later `twice` runs after it: 2i at the end.
        let t = run(src, "seti", None);
        assert_eq!(ints(&t, "d"), two_i, "{src}");
    }
}

/// A halving reduction in a `do … while`: n = 16, 8, 4, 2, 1 (the body halves n before the
/// launch, the test after it), each launch adding d[i + n] into d[i] for i < n.
const DO_LOOP: &str = "\
__global__ void halve(int* d, int n) {
  int i = threadIdx.x;
  if (i < n) d[i] = d[i] + d[i + n];
}
int main() {
  int h[32];
  for (int i = 0; i < 32; i++) h[i] = i;
  int* d;
  cudaMalloc(&d, 32 * sizeof(int));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  int n = 32;
  do {
    n = n / 2;
    halve<<<1, 32>>>(d, n);
  } while (n > 1);
  return 0;
}
";

/// d after the halving launches with n = 16, 8, … down to `last` (by hand, as the kernel).
fn halved(last: usize) -> Vec<Option<i128>> {
    let mut d: Vec<i128> = (0..32).collect();
    let mut n = 32usize;
    while n > last {
        n /= 2;
        for i in 0..n {
            d[i] += d[i + n];
        }
    }
    d.into_iter().map(Some).collect()
}

#[test]
fn a_do_while_launch_loop_is_read_once_per_iteration() {
    let t = run(DO_LOOP, "halve", None);
    // Five launches: d[0] ends as 0 + 1 + … + 31 = 496.
    let end = halved(1);
    assert_eq!(end[0], Some(496));
    assert_eq!(ints(&t, "d"), end);
    let notes = said(&t, Level::Info);
    assert!(
        notes
            .iter()
            .any(|m| m.contains("`do` loop is read once per iteration: it runs 5 times")),
        "{notes:?}"
    );
}

#[test]
fn a_later_launch_of_a_kernel_can_be_traced() {
    // The third launch (n = 4) finds what n = 16 and n = 8 left: d[0] = 0 + 16 + 8 + 24 = 48.
    let t = run(DO_LOOP, "halve", Some(3));
    let before = halved(8);
    assert_eq!(before[0], Some(48));
    assert_eq!(at_launch(&t, "d"), before);
    // Its steps are n = 4's: four lanes add.
    assert!(t.steps.iter().any(|s| s.active.count() == 4));
    // The launches after it run after it: the end is the device's.
    assert_eq!(ints(&t, "d"), halved(1));
    // A launch past the last is refused, naming how many there are.
    let config = LaunchConfig {
        entry: Some("halve".into()),
        launch: Some(6),
        ..LaunchConfig::default()
    };
    let e = run_kernel(DO_LOOP, config).expect_err("no sixth launch");
    assert!(e.to_string().contains("launches it 5 time(s)"), "{e}");
}
