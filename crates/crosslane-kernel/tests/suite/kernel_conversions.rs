//! Conversion functions (C++17 [class.conv.fct]): a class object used where a scalar is needed
//! converts through its `operator T()`, whether it is a variable, a braced temporary, a
//! struct-returning call, or an argument of a function or built-in that takes a scalar
//! ([over.match.oper]/7, [over.ics.user], [expr.static.cast]/4). Each expected value is
//! derived by hand beside its test.

use crate::support::{ints, launch, run_finished};
use crosslane_core::op::Dialect;

#[test]
fn temporaries_and_arguments_convert_through_their_conversion_function() {
    // CK's `Number<N>` and a struct with `operator int()` (3 v) and one with `operator
    // float()` (2 v). Thread t (two threads), eight cells each:
    //   n * 2 + t               = 10 + t
    //   Number<3>{} + t          = 3 + t
    //   w * 2, w = W{t+1}        = 6 (t + 1)
    //   W{t+1} * 1               = 3 (t + 1)
    //   (int)sqrtf(f), f = 2(t+2) = floor(sqrt(4)) = 2, floor(sqrt(6)) = 2
    //   (int)(f * 10)            = 40, 60
    //   static_cast<int>(W{t+2}) = 3 (t + 2) = 6, 9
    //   int a = w                = 3, 6
    let src = r#"
template <int X> struct Number { __host__ __device__ constexpr operator int() const { return X; } };
struct W { int v; __device__ operator int() const { return v * 3; } };
struct Fl { float v; __device__ operator float() const { return v * 2.0f; } };
__global__ void k(int* out) {
    const int t = threadIdx.x;
    Number<5> n;
    W w{t + 1};
    Fl f{t + 2.0f};
    out[t * 8 + 0] = n * 2 + t;
    out[t * 8 + 1] = Number<3>{} + t;
    out[t * 8 + 2] = w * 2;
    out[t * 8 + 3] = W{t + 1} * 1;
    out[t * 8 + 4] = (int)sqrtf(f);
    out[t * 8 + 5] = (int)(f * 10.0f);
    out[t * 8 + 6] = static_cast<int>(W{t + 2});
    int a = w;
    out[t * 8 + 7] = a;
}
"#;
    let t = run_finished(src, launch(Dialect::Hip, 2, &[("out", 16, "-1")]));
    let want = [10, 3, 6, 3, 2, 40, 6, 3, 11, 4, 12, 6, 2, 60, 9, 6];
    assert_eq!(
        ints(&t, "out"),
        want.iter().map(|&v| Some(v)).collect::<Vec<_>>()
    );
}

#[test]
fn a_class_argument_reaches_a_scalar_parameter_through_its_conversion() {
    // `take(v)` with `int take(int)` and `V{t, 2}` converting to 10 t + 2: take gives
    // 10 t + 3, so 3 and 13. A struct-valued call converts where a scalar is needed, a
    // parameter of the class keeps the object, and a discarded temporary (`W{t};`) is not
    // converted. Thread t, six cells each:
    //   five() returns Number<5>{}: 5 + t
    //   h.twice() + 100, twice = W{2 (t + 1)} → 3 · 2 (t + 1) + 100 = 106, 112
    //   take(Number<7>{}) = 8
    //   pick(W{t + 4}) reads the member: t + 4
    //   max(W{t}, Number<2>{}) = max(3 t, 2) = 2, 3
    //   W{t} < 2 ? 1 : 0 = (3 t < 2) = 1, 0
    let src = r#"
template <int X> struct Number { __host__ __device__ constexpr operator int() const { return X; } };
struct V { int x, y; __device__ operator int() const { return x * 10 + y; } };
struct W { int v; __device__ operator int() const { return v * 3; } };
struct H { int k; __device__ W twice() const { return W{2 * k}; } };
__device__ int five() { return Number<5>{}; }
__device__ int take(int v) { return v + 1; }
__device__ int pick(W w) { return w.v; }
__global__ void k(int* out, int* got) {
    const int t = threadIdx.x;
    V v{t, 2};
    got[t] = take(v);
    W{t};
    H h{t + 1};
    out[t * 6 + 0] = five() + t;
    out[t * 6 + 1] = h.twice() + 100;
    out[t * 6 + 2] = take(Number<7>{});
    out[t * 6 + 3] = pick(W{t + 4});
    out[t * 6 + 4] = max(W{t}, Number<2>{});
    out[t * 6 + 5] = W{t} < 2 ? 1 : 0;
}
"#;
    let t = run_finished(
        src,
        launch(Dialect::Hip, 2, &[("out", 12, "-1"), ("got", 2, "-1")]),
    );
    assert_eq!(ints(&t, "got"), vec![Some(3), Some(13)]);
    let want = [5, 106, 8, 4, 2, 1, 6, 112, 8, 5, 3, 0];
    assert_eq!(
        ints(&t, "out"),
        want.iter().map(|&v| Some(v)).collect::<Vec<_>>()
    );
}
