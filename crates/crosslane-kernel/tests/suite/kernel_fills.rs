//! Buffer fills in the one fill grammar (decimals included) and host code's lengths and scalars
//! kept when the user types a fill. Expected values are derived by hand beside each test.

use crosslane_core::fill::GRAMMAR;
use crosslane_kernel::{run_kernel, KVal, LaunchConfig};

fn floats(t: &crosslane_kernel::KernelTrace, name: &str) -> Vec<Option<f64>> {
    t.buffer(name)
        .unwrap()
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64))
        .collect()
}

const COPY: &str = "\
__global__ void copy(const float* x, float* y) {
  y[threadIdx.x] = x[threadIdx.x];
}";

fn with_fill(fill: &str) -> LaunchConfig {
    let mut c = LaunchConfig::default();
    c.args.insert("x".into(), fill.into());
    c
}

#[test]
fn kernel_fill_decimal_ramps_are_exact_then_rounded_to_float() {
    // i*0.1: cell i is the decimal i/10 rounded to float (0.3 → 0.30000001192092896), the
    // model being Rust's correctly rounded parse of the decimal text.
    let t = run_kernel(COPY, with_fill("i*0.1")).unwrap();
    let y = floats(&t, "y");
    for (i, v) in y.iter().enumerate().take(8) {
        let want = f64::from(format!("{}", i as f64 / 10.0).parse::<f32>().unwrap());
        assert_eq!(*v, Some(want), "cell {i}");
    }
    // i*0.25+0.5: 0.5, 0.75, 1, 1.25 (exact in binary).
    let t = run_kernel(COPY, with_fill("i*0.25+0.5")).unwrap();
    assert_eq!(
        &floats(&t, "y")[..4],
        &[Some(0.5), Some(0.75), Some(1.0), Some(1.25)]
    );
    let t = run_kernel(COPY, with_fill("-1.5")).unwrap();
    assert!(floats(&t, "y").iter().all(|v| *v == Some(-1.5)));
    // i*0.001+1.5 at cell 2: 1.502 as float.
    let t = run_kernel(COPY, with_fill("i*0.001+1.5")).unwrap();
    assert_eq!(floats(&t, "y")[2], Some(f64::from(1.502f32)));
    // A list mixing integers and decimals; cells past its end are uninitialized.
    let t = run_kernel(COPY, with_fill("1,2.5,-3,0.125")).unwrap();
    let x = floats(&t, "x");
    assert_eq!(
        &x[..5],
        &[Some(1.0), Some(2.5), Some(-3.0), Some(0.125), None]
    );
}

#[test]
fn kernel_fill_error_names_the_fill_and_the_grammar_not_a_source_line() {
    let e = run_kernel(COPY, with_fill("i*zebra")).unwrap_err();
    assert_eq!(e.input.as_deref(), Some("x fill"));
    assert_eq!((e.line, e.col), (0, 0));
    assert!(e.message.contains(GRAMMAR), "{}", e.message);
    assert!(e.to_string().starts_with("x fill: "), "{e}");
    // A decimal in an int buffer: cell 1 of i*0.5 is 0.5, not a whole number.
    let src = "__global__ void k(int* x) { x[threadIdx.x] += 1; }";
    let e = run_kernel(src, with_fill("i*0.5")).unwrap_err();
    assert_eq!(e.input.as_deref(), Some("x fill"));
    assert!(e.message.contains("0.5 at cell 1"), "{}", e.message);
    // A whole-valued decimal ramp is fine in an int buffer: i*1.0+2 gives 2, 3, 4, and the
    // kernel adds 1.
    let t = run_kernel(src, with_fill("i*1.0+2")).unwrap();
    let x: Vec<_> = t.buffer("x").unwrap().iter().take(3).cloned().collect();
    assert_eq!(
        x,
        [2, 3, 4].map(|n| Some(KVal::int(crosslane_kernel::Scalar::I32, n + 1)))
    );
}

const HOST: &str = "\
__global__ void scale(float* x, int n) {
  int i = threadIdx.x;
  if (i < n) x[i] = x[i] * 2.0f;
}

int main() {
  float* x;
  cudaMalloc(&x, 64 * sizeof(float));
  int n = 64;
  scale<<<1, 32>>>(x, n);
  return 0;
}";

#[test]
fn kernel_host_length_stays_when_a_fill_is_typed() {
    // cudaMalloc gives 64 floats at line 8; the launch (line 10) passes n = 64.
    let t = run_kernel(HOST, LaunchConfig::default()).unwrap();
    assert_eq!(t.buffer("x").unwrap().len(), 64);
    assert_eq!(
        t.launch.host_words.get("x").map(String::as_str),
        Some("64, from cudaMalloc at line 8")
    );
    assert_eq!(
        t.launch.host_words.get("n").map(String::as_str),
        Some("64, from the launch at line 10")
    );
    // A typed fill, length left on auto: still 64 cells (32 threads, but host code says 64).
    let mut c = LaunchConfig::default();
    c.args.insert("x".into(), "i*0.5".into());
    let t = run_kernel(HOST, c).unwrap();
    let x = floats(&t, "x");
    assert_eq!(x.len(), 64);
    // Threads 0..32 doubled i*0.5 → i; cells 32..64 untouched: i*0.5.
    assert_eq!(x[3], Some(3.0));
    assert_eq!(x[40], Some(20.0));
    assert_eq!(
        t.launch.host_words.get("x").map(String::as_str),
        Some("64, from cudaMalloc at line 8")
    );
    // A 64-item list fits the host length without a length typed.
    let list: Vec<String> = (0..64).map(|i| format!("{i}.5")).collect();
    let mut c = LaunchConfig::default();
    c.args.insert("x".into(), list.join(","));
    let t = run_kernel(HOST, c).unwrap();
    assert_eq!(floats(&t, "x")[63], Some(63.5));
    // A length the user types wins.
    let mut c = LaunchConfig::default();
    c.args.insert("x".into(), "1".into());
    c.buffer_len.insert("x".into(), 40);
    assert_eq!(run_kernel(HOST, c).unwrap().buffer("x").unwrap().len(), 40);
}

/// Host code that fills its arrays by library calls before copying them to the device: each
/// call read as the buffer's fill (C++17 [alg.fill] `fill_n(first, n, v)` writes n copies of v
/// and `fill(first, last, v)` every cell of [first, last); [numeric.iota] `iota(first, last, v)`
/// writes v, v + 1, …; C11 7.24.6.1 `memset(s, 0, n)` zeroes the bytes). A fill that cannot be
/// read (a loop over a math call) is said, naming the buffer, whose cells are then undefined
/// (never the index fill).
#[test]
fn host_fills_by_library_calls_are_read_and_an_unread_one_is_said() {
    let src = "\
#define N 16
__global__ void k(int *a, float *b, int *c, int *d, float *e) {
  int t = threadIdx.x;
  a[t] = a[t] * 2; b[t] = b[t] + 0.5f; c[t] = c[t] + 1; d[t] = d[t] - 1; e[t] = e[t];
}
int main() {
  int h_a[N]; float h_b[N]; int h_c[N]; int h_d[N]; float h_e[N];
  std::iota(h_a, h_a + N, 100);
  std::fill_n(h_b, N, 2.25f);
  std::fill(h_c, std::end(h_c), -3);
  memset(h_d, 0, sizeof(h_d));
  for (int i = 0; i < N; i++) h_e[i] = (float)rand();
  int *a; float *b; int *c; int *d; float *e;
  cudaMalloc(&a, N * sizeof(int)); cudaMalloc(&b, N * sizeof(float));
  cudaMalloc(&c, N * sizeof(int)); cudaMalloc(&d, N * sizeof(int)); cudaMalloc(&e, N * sizeof(float));
  cudaMemcpy(a, h_a, N * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(b, h_b, N * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(c, h_c, N * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d, h_d, N * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(e, h_e, N * sizeof(float), cudaMemcpyHostToDevice);
  k<<<1, N>>>(a, b, c, d, e);
}";
    let t = run_kernel(src, LaunchConfig::default()).unwrap();
    let ints = |n: &str| crate::cells::cell_ints(t.buffer(n).unwrap());
    // iota from 100, doubled: 200, 202, …
    let a: Vec<Option<i128>> = (0..16).map(|i| Some(2 * (100 + i))).collect();
    assert_eq!(ints("a"), a);
    assert_eq!(floats(&t, "b"), vec![Some(2.75); 16]);
    assert_eq!(ints("c"), vec![Some(-2); 16]);
    assert_eq!(ints("d"), vec![Some(-1); 16]);
    // e: rand() is not read (the host's generator); its cells are undefined (the index fill would give e[3] = 3),
    // and said.
    assert_eq!(floats(&t, "e"), vec![None; 16]);
    let said: Vec<&str> = t
        .merged_diagnostics
        .iter()
        .filter(|d| d.level == crosslane_core::Level::Warning)
        .map(|d| d.message.as_str())
        .collect();
    assert!(
        said.iter()
            .any(|m| m.starts_with("`e`: host code copies `h_e` into it")
                && m.contains("its cells are undefined here")),
        "{said:?}"
    );
    // Nothing else is warned about a, b, c or d.
    assert!(
        said.iter()
            .all(|m| !["`a`", "`b`", "`c`", "`d`"].iter().any(|n| m.contains(n))),
        "{said:?}"
    );
}
