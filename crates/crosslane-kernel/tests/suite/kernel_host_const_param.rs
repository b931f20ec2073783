//! A host call given a device pointer through a parameter that is a pointer or reference to
//! const (`bool is_aligned(const void* p)`, `int const* p`) cannot write the cells through it
//! (C++17 [dcl.type.cv]/4; for the host reading, such a parameter is a read): the buffer keeps
//! what `cudaMemcpy` put there. A parameter that is not (`int* const p`, a prototype taking
//! `int*`), or a body that casts the const away, may write it, and the cells stay unknown.
//! Expected values are worked out by hand beside each test.

use crate::support::{has, ints};
use crosslane_core::Level;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig, Outcome};

use crate::support::ints_at_launch as at_launch;

fn run(src: &str) -> KernelTrace {
    let t = run_kernel(src, LaunchConfig::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.outcome, Some(Outcome::Finished), "{:?}", t.outcome);
    t
}

/// A copy of h[i] = 2i + 1, a host helper `HELPER` given `d`, then a swap of neighbours.
fn source(helper: &str, call: &str) -> String {
    format!(
        "\
#include <cstdint>
__global__ void k(const int *in, int *out) {{
    out[threadIdx.x] = __shfl_xor_sync(0xffffffff, in[threadIdx.x], 1);
}}
{helper}
int main() {{
    int h[8];
    for (int i = 0; i < 8; i++) h[i] = 2 * i + 1;
    int *d; int *o;
    cudaMalloc(&d, sizeof(h)); cudaMalloc(&o, sizeof(h));
    cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
    {call}
    k<<<1, 8>>>(d, o);
    return 0;
}}
"
    )
}

/// out[i] = h[i ^ 1] = 2 (i ^ 1) + 1: 3 1 7 5 11 9 15 13.
fn swapped() -> Vec<Option<i128>> {
    [3, 1, 7, 5, 11, 9, 15, 13]
        .iter()
        .map(|&v| Some(v))
        .collect()
}

#[test]
fn an_address_query_through_const_void_keeps_the_copied_cells() {
    let src = source(
        "static bool is_aligned(const void *p) { return (reinterpret_cast<std::uintptr_t>(p) & 15u) == 0u; }",
        "const bool a = is_aligned(d);",
    );
    let t = run(&src);
    assert_eq!(
        at_launch(&t, "in"),
        (1..16).step_by(2).map(Some).collect::<Vec<_>>()
    );
    assert_eq!(ints(&t, "out"), swapped());
    assert!(!has(&t, Level::Warning, "may write it"));
}

#[test]
fn an_east_const_prototype_and_a_second_argument_are_reads_too() {
    // Only declared (its body is elsewhere): `int const *` at position 1 still cannot write.
    let src = source(
        "long checksum(int n, int const *p);",
        "long s = checksum(8, d);",
    );
    let t = run(&src);
    assert_eq!(ints(&t, "out"), swapped());
}

#[test]
fn a_const_pointer_to_writable_cells_may_write_them() {
    // `int *const p`: the pointer is const, the cells are not.
    let src = source("void touch(int *const p);", "touch(d);");
    let t = run(&src);
    assert_eq!(at_launch(&t, "in"), vec![None; 8]);
    assert!(has(&t, Level::Warning, "may write it"));
}

#[test]
fn a_body_that_casts_the_const_away_may_write() {
    let src = source(
        "void scramble(int *q);\nvoid poke(const int *p) { int *q = (int *)p; scramble(q); }",
        "poke(d);",
    );
    let t = run(&src);
    assert_eq!(at_launch(&t, "in"), vec![None; 8]);
    assert!(has(&t, Level::Warning, "may write it"));
}
