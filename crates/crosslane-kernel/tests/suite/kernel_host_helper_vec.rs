//! A launch argument built by a host helper that computes a `uint3` in a loop and returns
//! `make_uint3(…)` (the "fast division" constants of a divisor: the shift L is the least with
//! 2^L >= d, the multiplier mp = floor(2^32 (2^L - d) / d) + 1): the helper is evaluated in
//! host code (C++17 [expr.call]/4, [stmt.while]) and the kernel gets the vector's components.
//! A helper whose loop does not end within the host reading's budget gives no value, said,
//! and every result computed from it stays undefined.

use crate::support::{has, ints, run_default};
use crosslane_core::Level;

fn source(helper_body: &str) -> String {
    format!(
        "\
static const uint3 div_consts(unsigned int d) {{
{helper_body}
}}
__global__ void k(const uint3 c, int* o) {{
  unsigned int n = threadIdx.x * 3u;
  unsigned int q = (__umulhi(n, c.x) + n) >> c.y;
  unsigned int r = n - q * c.z;
  o[threadIdx.x] = __shfl_xor_sync(0xffffffffu, (int)(q * 100u + r), 1);
}}
int main() {{
  int* o;
  cudaMalloc(&o, 32 * sizeof(int));
  const uint3 c = div_consts(7);
  k<<<1, 32>>>(c, o);
  return 0;
}}
"
    )
}

const LOOP: &str = "\
  unsigned int L = 0;
  while (L < 32 && (1u << L) < d) L++;
  unsigned int mp = (unsigned int)(((unsigned long long)1 << 32) * (((unsigned long long)1 << L) - d) / d + 1);
  return make_uint3(mp, L, d);";

#[test]
fn a_helper_with_a_loop_returning_a_uint3_gives_the_launch_its_components() {
    // d = 7: L = 3, mp = floor(2^32 * 1 / 7) + 1 = 613566757 (Python: ((1<<32)*((1<<3)-7))//7+1).
    // Lane i reads lane i^1's n = 3 (i^1): q = n / 7 (the fast division is exact here: Python
    // checked ((n*mp >> 32) + n) >> 3 == n // 7 for n < 96), r = n % 7, so 100 q + r.
    let t = run_default(&source(LOOP));
    assert!(has(&t, Level::Info, "c = 613566757,3,7"));
    let want: Vec<Option<i128>> = (0..32i128)
        .map(|i| {
            let n = 3 * (i ^ 1);
            Some(100 * (n / 7) + n % 7)
        })
        .collect();
    assert_eq!(ints(&t, "o"), want);
}

#[test]
fn a_helper_whose_loop_does_not_end_in_the_budget_gives_no_value() {
    // The loop never ends: no value is read, the launch says so, and the results are undefined.
    let spin = "\
  unsigned int L = 0;
  while (d > 0) L++;
  return make_uint3(0u, L, d);";
    let t = run_default(&source(spin));
    assert!(has(&t, Level::Warning, "--arg c=VALUE"));
    assert!(ints(&t, "o").iter().all(Option::is_none));
}
