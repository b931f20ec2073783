//! `p->x` on a pointer to a vector type and `&v.y` of a local vector: C++ [expr.ref]/2 makes
//! `E1->E2` `(*(E1)).E2`, and the built-in vector types are structs of the members x, y, z, w
//! (CUDA C++ Programming Guide, "Built-in Vector Types"), so a component of a local `float4`
//! has an address ([expr.unary.op]/3) that a cast may view as `__half2*` (the shape of a
//! half-precision GEMV that loads a `float4` and reads its halves). Expected values from a
//! short Python model beside each test.

use crate::support::{floats, launch, run_finished};
use crosslane_core::Dialect;
use crosslane_kernel::KVal;

/// `p->y` and `(p + 1)->x` of a `float4*`: components 1 of element 0 and 0 of element 1.
/// With the fill `i` over the float components (component k of element e holds 4e + k):
/// 1 + 4 = 5 per thread; `p->w = 7` writes component 3 of element 0.
#[test]
fn arrow_on_a_vector_pointer_reads_the_component() {
    let t = run_finished(
        "__global__ void k(float4 *in, float *out) {\n\
           float4 *p = in;\n\
           out[threadIdx.x] = p->y + (p + 1)->x;\n\
           if (threadIdx.x == 0) p->w = 7.0f;\n\
         }\n",
        launch(Dialect::Cuda, 2, &[("in", 8, "index"), ("out", 2, "0")]),
    );
    assert_eq!(floats(&t, "out"), vec![Some(5.0); 2]);
    let in0 = &t.buffer("in").unwrap()[0];
    assert!(
        matches!(in0, Some(KVal::Vector { items, .. }) if items[3].as_f64() == Some(7.0)),
        "{in0:?}"
    );
}

/// A local `float4` viewed through `(const __half2*)&v.z`: halves 4 and 5 of its 16 bytes.
/// Thread t's float4 carries the halves `(8t + k) * 0.5`, k = 0..8 (a typed f16 fill), so
/// `a->x + a->y` is halves 4 + 5: 4.5 for thread 0, 12.5 for thread 1 (Python:
/// `[(t*8+4)*0.5 + (t*8+5)*0.5 for t in range(2)]`). `(__half2*)&v` reads halves 0 and 1:
/// 0.5 and 8.5.
#[test]
fn a_component_of_a_local_vector_has_an_address() {
    let halves: Vec<String> = (0..16).map(|i| format!("{}", f64::from(i) * 0.5)).collect();
    let fill = format!("f16:{}", halves.join(","));
    let t = run_finished(
        "#include <cuda_fp16.h>\n\
         __global__ void k(float4 *in, float *hi, float *lo) {\n\
           float4 v = in[threadIdx.x];\n\
           const __half2 *a = (const __half2 *)&v.z;\n\
           hi[threadIdx.x] = __half2float(a->x) + __half2float(a->y);\n\
           const __half2 *b = (__half2 *)&v;\n\
           lo[threadIdx.x] = __half2float(b->x) + __half2float(b->y);\n\
         }\n",
        launch(
            Dialect::Cuda,
            2,
            &[("in", 8, fill.as_str()), ("hi", 2, "0"), ("lo", 2, "0")],
        ),
    );
    assert_eq!(floats(&t, "hi"), vec![Some(4.5), Some(12.5)]);
    assert_eq!(floats(&t, "lo"), vec![Some(0.5), Some(8.5)]);
}
