//! The CUDA samples' `helper_math.h` operators on integer vectors (`int2`/`int4`/`uint4` with
//! vectors and scalars, compound assignment, `dot`), which passed the old bound of 16
//! overloads per operator once the float ones were declared. Expected values are computed here
//! component by component (C++ integer arithmetic: `/` truncates toward zero, [expr.mul]/4;
//! `unsigned` wraps modulo 2^32, [basic.fundamental]/4).

use crate::support::{ints, launch, run_finished};
use crosslane_core::op::Dialect;

/// `int4` arithmetic with a vector and scalars, `int2 * int2`, `uint4 + 5u`, `+=`, `dot` and
/// unary `-`, each lane from its own `in` values, then a `shfl_down` of the sum (lane 31 keeps
/// its own).
#[test]
fn integer_vector_operators_of_helper_math_compute_componentwise() {
    let src = "#include \"helper_math.h\"
__global__ void k(const int* in, int* out) {
  int t = threadIdx.x;
  int4 a = make_int4(in[t], in[t] + 1, in[t] + 2, in[t] + 3);
  int4 b = a * 2 + make_int4(1, 2, 3, 4);
  b = b - 1;
  b = b / 2;
  int2 c = make_int2(a.x, a.y) * make_int2(3, 4);
  uint4 u = make_uint4(a.x, a.y, a.z, a.w) + 5u;
  int4 d = -a;
  d += b;
  int s = b.x + b.y + b.z + b.w + c.x + c.y + (int)(u.x + u.w) + dot(d, make_int4(1, 1, 1, 1));
  s += __shfl_down_sync(0xffffffff, s, 1);
  out[t] = s;
}";
    let t = run_finished(
        src,
        launch(
            Dialect::Cuda,
            32,
            &[("in", 32, "i*3-40"), ("out", 32, "zero")],
        ),
    );
    let s: Vec<i128> = (0..32i128)
        .map(|t| {
            let x = 3 * t - 40;
            let a = [x, x + 1, x + 2, x + 3];
            // Truncating division, as C++'s `/` on int.
            let div = |p: i128, q: i128| {
                let r = p.abs() / q.abs();
                if (p < 0) != (q < 0) {
                    -r
                } else {
                    r
                }
            };
            let b: Vec<i128> = (0..4)
                .map(|j| div(a[j] * 2 + (j as i128 + 1) - 1, 2))
                .collect();
            let c = [a[0] * 3, a[1] * 4];
            let u = |v: i128| (v + 5).rem_euclid(1 << 32);
            let d: i128 = (0..4).map(|j| -a[j] + b[j]).sum();
            let uu = (u(a[0]) + u(a[3])).rem_euclid(1 << 32);
            let uu = if uu >= 1 << 31 { uu - (1 << 32) } else { uu };
            b.iter().sum::<i128>() + c[0] + c[1] + uu + d
        })
        .collect();
    let want: Vec<Option<i128>> = (0..32)
        .map(|t| Some(s[t] + s[if t < 31 { t + 1 } else { t }]))
        .collect();
    assert_eq!(ints(&t, "out"), want);
}
