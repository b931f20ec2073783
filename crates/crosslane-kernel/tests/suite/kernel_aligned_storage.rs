//! `std::aligned_storage<sizeof(T), alignof(T)>::type` as storage for objects of `T` (C++17
//! [meta.trans.other], Table 50: storage "suitable for use as uninitialized storage for any
//! object whose size is at most Len and whose alignment is a divisor of Align"), the shape of a
//! block reduction that keeps one struct per warp in shared memory and reads it through
//! `reinterpret_cast<T*>`. Expected values come from the definition: warp w's slot holds the
//! sum and count of its lanes' values, and thread 0 adds the slots.

use crate::support::{floats, launch, refused, run_finished};
use crosslane_core::op::Dialect;

/// A kernel keeping a `Partial` per warp in storage declared as `decl` (`S` is its name),
/// `v = threadIdx.x + 1` summed over 32-lane warps with `__shfl_down_sync`.
fn kernel(decl: &str) -> String {
    format!(
        "#include <type_traits>
struct Partial {{ float sum; int count; }};
__global__ void k(float* out) {{
  {decl}
  Partial* slots = reinterpret_cast<Partial*>(S);
  float v = threadIdx.x + 1.0f;
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) {{
    Partial p;
    p.sum = v;
    p.count = 32;
    slots[threadIdx.x / 32] = p;
  }}
  __syncthreads();
  if (threadIdx.x == 0) {{
    float total = 0.0f;
    int n = 0;
    for (int w = 0; w < blockDim.x / 32; ++w) {{ total += slots[w].sum; n += slots[w].count; }}
    out[0] = total;
    out[1] = (float)n;
  }}
}}"
    )
}

#[test]
fn storage_of_a_struct_holds_the_struct() {
    // 128 threads: 1 + 2 + … + 128 = 8256 over 4 warps of 32 lanes.
    for decl in [
        "__shared__ typename std::aligned_storage<sizeof(Partial), alignof(Partial)>::type S[4];",
        "__shared__ std::aligned_storage_t<sizeof(Partial), alignof(Partial)> S[4];",
        "__shared__ std::aligned_storage<sizeof(Partial), alignof(Partial)>::type S[4];",
    ] {
        let t = run_finished(
            &kernel(decl),
            launch(Dialect::Cuda, 128, &[("out", 2, "0")]),
        );
        assert_eq!(floats(&t, "out"), vec![Some(8256.0), Some(128.0)], "{decl}");
    }
}

#[test]
fn storage_given_as_a_byte_count_is_refused_at_its_line() {
    // `aligned_storage<16, 8>` holds no type of its own here: refused with what to write.
    let e = refused(
        &kernel("__shared__ typename std::aligned_storage<16, 8>::type S[4];"),
        launch(Dialect::Cuda, 64, &[("out", 2, "0")]),
    );
    assert!(e.contains("aligned_storage<sizeof(T), alignof(T)>"), "{e}");
}
