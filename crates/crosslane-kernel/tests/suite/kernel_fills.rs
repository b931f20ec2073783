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
