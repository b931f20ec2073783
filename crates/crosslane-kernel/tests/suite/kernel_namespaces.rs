//! Kernels of one name in two namespaces: ISO C++ [basic.namespace] makes `a::k` and `b::k`
//! different functions, so `--entry a::k`, `--entry b::k` and a host launch `b::k<<<…>>>` each
//! choose their own, and the trace's `launch.entry` names the one that ran. Every expected
//! value is derived by hand beside its test (the snapshots `namespace_same_kernel_*.cu` hold
//! the plain cases).

use crosslane_kernel::{run_kernel, LaunchConfig};

use crate::support::{block, ints, run_finished};

/// One block of 4 threads with a 4-cell `out`, `--entry entry`.
fn entry(entry: &str) -> LaunchConfig {
    let mut c = block(4);
    c.buffer_len.insert("out".into(), 4);
    c.entry = Some(entry.into());
    c
}

/// a's `k` writes t + 100, b's writes 2t + 1.
const TWO: &str = r#"
namespace a {
__global__ void k(int* out) { out[threadIdx.x] = threadIdx.x + 100; }
}
namespace b {
__global__ void k(int* out) { out[threadIdx.x] = 2 * threadIdx.x + 1; }
}
"#;

#[test]
fn each_qualified_entry_runs_its_own_namespaces_kernel() {
    // a: t + 100 for t = 0..3; b: 2t + 1.
    let t = run_finished(TWO, entry("a::k"));
    assert_eq!(t.launch.entry, "a::k");
    assert_eq!(ints(&t, "out"), [100, 101, 102, 103].map(Some));
    let t = run_finished(TWO, entry("b::k"));
    assert_eq!(t.launch.entry, "b::k");
    assert_eq!(ints(&t, "out"), [1, 3, 5, 7].map(Some));
    // A leading `::` names the same kernel from the global namespace ([namespace.qual]).
    let t = run_finished(TWO, entry("::b::k"));
    assert_eq!(ints(&t, "out"), [1, 3, 5, 7].map(Some));
}

#[test]
fn the_bare_name_of_two_namespaces_kernels_names_neither() {
    // `k` alone is ambiguous between a::k and b::k ([namespace.udir] aside, an unqualified
    // name outside both namespaces finds neither): the error lists both.
    let e = run_kernel(TWO, entry("k"))
        .expect_err("`k` is ambiguous")
        .to_string();
    assert!(e.contains("a::k") && e.contains("b::k"), "{e}");
}

/// Nested namespaces, and a kernel launched from host code by its full name: `o::b::k` writes
/// 3t, `o::a::k` writes -t; the launch `o::b::k<<<1, 4>>>` runs the first: 0, 3, 6, 9.
#[test]
fn a_launch_by_a_nested_qualified_name_runs_that_kernel() {
    let src = r#"
namespace o {
namespace a {
__global__ void k(int* out) { out[threadIdx.x] = -(int)threadIdx.x; }
}
namespace b {
__global__ void k(int* out) { out[threadIdx.x] = 3 * threadIdx.x; }
}
}
int main() {
  int* out;
  cudaMalloc(&out, 4 * sizeof(int));
  o::b::k<<<1, 4>>>(out);
  return 0;
}
"#;
    let t = run_finished(src, LaunchConfig::default());
    assert_eq!(t.launch.entry, "o::b::k");
    assert_eq!(ints(&t, "out"), [0, 3, 6, 9].map(Some));
    let t = run_finished(src, entry("o::a::k"));
    assert_eq!(ints(&t, "out"), [0, -1, -2, -3].map(Some));
}

/// Template kernels of one name in two namespaces: `a::k<N>` writes N + t, `b::k<N>` writes
/// N - t; `--entry 'b::k<10>'` gives 10, 9, 8, 7.
#[test]
fn a_template_kernel_instance_is_chosen_by_its_qualified_name() {
    let src = r#"
namespace a {
template <int N> __global__ void k(int* out) { out[threadIdx.x] = N + threadIdx.x; }
}
namespace b {
template <int N> __global__ void k(int* out) { out[threadIdx.x] = N - (int)threadIdx.x; }
}
"#;
    let t = run_finished(src, entry("b::k<10>"));
    assert_eq!(ints(&t, "out"), [10, 9, 8, 7].map(Some));
    let t = run_finished(src, entry("a::k<10>"));
    assert_eq!(ints(&t, "out"), [10, 11, 12, 13].map(Some));
}

/// Inside namespace `a`, the unqualified `k` of a host helper's launch is a's own
/// ([basic.lookup.unqual]: the enclosing namespace is searched first): `a::run` launches
/// `a::k`, which writes 7 - t: 7, 6, 5, 4 (b's would write 70 + t).
#[test]
fn an_unqualified_launch_inside_a_namespace_runs_that_namespaces_kernel() {
    let src = r#"
namespace a {
__global__ void k(int* out) { out[threadIdx.x] = 7 - (int)threadIdx.x; }
void run(int* d) { k<<<1, 4>>>(d); }
}
namespace b {
__global__ void k(int* out) { out[threadIdx.x] = 70 + threadIdx.x; }
}
int main() {
  int* out;
  cudaMalloc(&out, 4 * sizeof(int));
  a::run(out);
  return 0;
}
"#;
    let t = run_finished(src, LaunchConfig::default());
    assert_eq!(t.launch.entry, "a::k");
    assert_eq!(ints(&t, "out"), [7, 6, 5, 4].map(Some));
}

/// A qualifier chain of 20 000 names before a clashing kernel's name is read once from its
/// start, not again from each of its names: the run is refused (no namespace `x` holds a `k`)
/// or runs, but promptly.
#[test]
fn a_long_qualifier_chain_is_read_once() {
    let chain = "x::".repeat(20_000);
    let src = format!("{TWO}\n__global__ void g(int* out) {{ {chain}k<<<1, 1>>>(out); }}\n");
    let start = std::time::Instant::now();
    let _ = run_kernel(&src, entry("a::k"));
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}
