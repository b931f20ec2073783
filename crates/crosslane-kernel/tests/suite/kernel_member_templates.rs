//! Non-static member function templates called on an object (C++17 [temp.mem]): a bare call
//! from another member reads the same object, and a name the struct lacks is refused at its
//! line and column instead of being read as comparisons. Expected values derived beside each
//! test.

use crosslane_kernel::{run_kernel, KVal, LaunchConfig, Outcome};

#[test]
fn a_bare_member_template_call_in_a_member_reads_the_receiver() {
    // v = {1 + t, 2}: both() = get<0>() + get<1>() = 3 + t in lane t.
    let src = "\
struct F {
    float v[2];
    template <int N> __device__ float get() const { return v[N]; }
    __device__ float both() const { return get<0>() + get<1>(); }
};
__global__ void k(float *out) {
    F f;
    f.v[0] = 1 + threadIdx.x;
    f.v[1] = 2;
    out[threadIdx.x] = f.both();
}";
    let config = LaunchConfig {
        block_dim: Some([4, 1, 1]),
        buffer_len: [("out".to_string(), 4)].into(),
        ..LaunchConfig::default()
    };
    let t = run_kernel(src, config).expect("kernel parses and launches");
    assert_eq!(
        t.outcome,
        Some(Outcome::Finished),
        "{:?}",
        t.merged_diagnostics
    );
    let out: Vec<Option<f64>> = t
        .buffer("out")
        .expect("buffer")
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64))
        .collect();
    assert_eq!(out, vec![Some(3.0), Some(4.0), Some(5.0), Some(6.0)]);
}

#[test]
fn a_member_template_the_struct_lacks_is_refused_at_its_call() {
    let src = "\
struct F {
    float v[2];
    template <int N> static __device__ float one() { return N; }
};
__global__ void k(float *out) {
    F f;
    out[threadIdx.x] = f.nope<0>();
}";
    let e = run_kernel(src, LaunchConfig::default()).expect_err("refused");
    assert_eq!((e.line, e.col), (7, 24), "{}", e.message);
    assert!(
        e.message
            .contains("`F` has no member function template `nope`"),
        "{}",
        e.message
    );
    // A static member template named through an object: the hint names `S::one<…>(…)`.
    let e = run_kernel(&src.replace("nope", "one"), LaunchConfig::default()).expect_err("refused");
    assert!(
        e.message.contains("call it `F::one<…>(…)`"),
        "{}",
        e.message
    );
}
