//! A template kernel launched from host code with its trailing template arguments left to
//! deduction (`scale<4><<<1, 32>>>(d, 1)`, C++17 [temp.arg.explicit]/4 and
//! [temp.deduct.call]): the launch runs as the instance the arguments deduce, and a launch
//! whose instance cannot be read is said, never dropped. Each expected value is the kernels'
//! arithmetic done by hand.

use crate::support::{has, ints, refused, run_default};
use crosslane_core::Level;
use crosslane_kernel::LaunchConfig;

const SCALE: &str = "\
__global__ void init(int* d) { d[threadIdx.x] = 1 + threadIdx.x; }
template <int N, typename IndType>
__global__ void scale(IndType* d, int n) { d[threadIdx.x] = d[threadIdx.x] * N + n; }
int main() {
  int* d;
  cudaMalloc(&d, 8 * sizeof(int));
  init<<<1, 8>>>(d);
  scale<4><<<1, 8>>>(d, 1);
}
";

#[test]
fn a_launch_deduces_the_pointer_parameters_type_from_the_host_pointer() {
    // init: d[i] = 1 + i; scale<4, int>: d[i] = 4 (1 + i) + 1 = 4i + 5.
    let t = run_default(SCALE);
    let want: Vec<Option<i128>> = (0..8).map(|i| Some(4 * i + 5)).collect();
    assert_eq!(ints(&t, "d"), want);
    assert!(has(
        &t,
        Level::Info,
        "`scale<4,int>(d, 1)` launched at line 8"
    ));
}

#[test]
fn a_by_value_parameter_is_deduced_from_the_literal_or_the_int_variable() {
    // k<4, int>(d, n = 3): 4 * 3 + sizeof(int) = 16; then k<2, double>(d, 2.5): 2 * 2.5 + 8
    // = 13 converted to int.
    let src = "\
template <int N, typename T>
__global__ void k(int* o, T v) { o[threadIdx.x] = N * v + sizeof(T) + o[threadIdx.x] * 0; }
int main() {
  int* d;
  cudaMalloc(&d, 4 * sizeof(int));
  cudaMemset(d, 0, 4 * sizeof(int));
  int n = 3;
  k<4><<<1, 4>>>(d, n);
  k<2><<<1, 4>>>(d, 2.5);
}
";
    let t = run_default(src);
    assert_eq!(ints(&t, "o"), vec![Some(13); 4]);
    assert!(has(
        &t,
        Level::Info,
        "`k<2,double>(d, 2.5)` launched at line 9"
    ));
    let first = crosslane_kernel::run_kernel(
        src,
        LaunchConfig {
            single_launch: true,
            ..LaunchConfig::default()
        },
    )
    .unwrap();
    assert_eq!(ints(&first, "o"), vec![Some(16); 4]);
}

#[test]
fn a_launch_whose_instance_cannot_be_read_is_said_never_dropped() {
    // `short c`: the bare name of a narrower type is not taken for `int`, so `T` stays
    // unknown: the launch is named in a warning beside the one that runs.
    let src = "\
__global__ void init(int* d) { d[threadIdx.x] = 1; }
template <int N, typename T>
__global__ void k(int* o, T v) { o[threadIdx.x] = N * v; }
int main() {
  int* d;
  cudaMalloc(&d, 4 * sizeof(int));
  short c = 3;
  init<<<1, 4>>>(d);
  k<4><<<1, 4>>>(d, c);
}
";
    let t = run_default(src);
    assert!(has(
        &t,
        Level::Warning,
        "the launch `k<4><<<1, 4>>>(d, c)` is not read, so the run leaves it out: template \
         parameter `T` of `k` cannot be deduced"
    ));
    // With only that launch, the refusal names it.
    let alone = src
        .replace("  init<<<1, 4>>>(d);\n", "")
        .replace("__global__ void init(int* d) { d[threadIdx.x] = 1; }\n", "");
    let e = refused(&alone, LaunchConfig::default());
    assert!(
        e.contains("7:3: the launch `k<4><<<1, 4>>>(d, c)` is not read"),
        "{e}"
    );
}
