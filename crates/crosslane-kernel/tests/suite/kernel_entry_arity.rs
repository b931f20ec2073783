//! `--entry` naming one of several kernels of one name by its parameter count after a `/`:
//! kernel templates overloaded by arity (rocPRIM's tests' `kernel(in, out)` beside
//! `kernel(in, out, valid)`), `'wsum<int, 8>/3'`, and plain overloads, `fill/2` (C++17
//! [over.load]: functions of one name may differ in their parameter count).
//!
//! Expected values (Python):
//! ```text
//! x = list(range(32)); W = 8
//! [sum(x[w*W:(w+1)*W]) for w in range(4)]          # 28 92 156 220
//! [sum(x[w*W:w*W+3]) for w in range(4)]            # 3 27 51 75 (valid = 3)
//! ```

use crate::support::{block, ints, refused, run_finished};
use crosslane_kernel::LaunchConfig;

const OVERLOADED: &str = "\
template <typename T, int W>
__global__ void wsum(const T* in, T* out) {
  T v = in[threadIdx.x];
  for (int o = W / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o, W);
  if (threadIdx.x % W == 0) out[threadIdx.x / W] = v;
}
template <typename T, int W>
__global__ void wsum(const T* in, T* out, int valid) {
  T v = (int)(threadIdx.x % W) < valid ? in[threadIdx.x] : T(0);
  for (int o = W / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o, W);
  if (threadIdx.x % W == 0) out[threadIdx.x / W] = v;
}
__global__ void fill(int* o) { o[threadIdx.x] = 1; }
__global__ void fill(int* o, int k) { o[threadIdx.x] = k * (int)threadIdx.x; }
";

fn cfg(entry: &str) -> LaunchConfig {
    let mut c = block(32);
    c.entry = Some(entry.into());
    c.args.insert("in".into(), "index".into());
    c.args.insert("out".into(), "zero".into());
    c.buffer_len.insert("out".into(), 4);
    c
}

fn some(v: &[i128]) -> Vec<Option<i128>> {
    v.iter().map(|&x| Some(x)).collect()
}

#[test]
fn a_template_kernel_is_chosen_among_overloads_by_its_parameter_count() {
    let t = run_finished(OVERLOADED, cfg("wsum<int, 8>/2"));
    assert_eq!(ints(&t, "out"), some(&[28, 92, 156, 220]));
    let mut c = cfg("wsum<int, 8>/3");
    c.args.insert("valid".into(), "3".into());
    let t = run_finished(OVERLOADED, c);
    assert_eq!(ints(&t, "out"), some(&[3, 27, 51, 75]));
}

#[test]
fn without_a_count_the_refusal_lists_the_choices() {
    let m = refused(OVERLOADED, cfg("wsum<int, 8>"));
    assert!(
        m.contains("--entry 'wsum<int, 8>/2'") && m.contains("--entry 'wsum<int, 8>/3'"),
        "{m}"
    );
    let m = refused(OVERLOADED, cfg("wsum<int, 8>/4"));
    assert!(
        m.contains("no template `wsum` takes 4 parameters (they take 2, 3)"),
        "{m}"
    );
}

#[test]
fn a_plain_kernel_is_chosen_among_overloads_by_its_parameter_count() {
    let mut c = block(4);
    c.entry = Some("fill/2".into());
    c.args.insert("o".into(), "zero".into());
    c.args.insert("k".into(), "5".into());
    let t = run_finished(OVERLOADED, c);
    assert_eq!(ints(&t, "o"), some(&[0, 5, 10, 15]));
    let mut c = block(4);
    c.entry = Some("fill/1".into());
    c.args.insert("o".into(), "zero".into());
    let t = run_finished(OVERLOADED, c);
    assert_eq!(ints(&t, "o"), some(&[1, 1, 1, 1]));
}
