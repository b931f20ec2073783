//! CUB's radix traits (`cub::Traits<T>`) and whole class objects read, compared and swapped
//! through a pointer parameter — the shapes of top-k helpers (a key packed from a float's
//! radix-ordered bits and an index; a bitonic compare-and-swap of whole elements), in kernels
//! of my own.
//!
//! - `cub::Traits<T>::TwiddleIn` / `TwiddleOut`, `UnsignedBits`, `LOWEST_KEY`, `MAX_KEY`,
//!   `CATEGORY`, `Max()`, `Lowest()` (CUB `cub/util_type.cuh`, `BaseTraits`): a float key's
//!   bits with a negative value's bits all flipped and a positive value's sign bit set, so that
//!   unsigned order is the value order; a signed integer's sign bit flipped. Before: "`cub::Traits`
//!   is not declared".
//! - `a[A] < a[B]` with `a` a `T*` to a class with `operator U() const`: each element converts
//!   through its conversion function ([class.conv.fct]/1, [over.match.oper]/7), and
//!   `T tmp = a[A]; a[A] = a[B]; a[B] = tmp;` copies whole objects. Before: "`a` points at
//!   structs (…): index it and use a member".
//! - A struct of N members of one scalar type viewed over a byte buffer
//!   (`reinterpret_cast<Half4*>(int8_ptr)`, `reinterpret_cast<V4*>(uint8_ptr + 16)`): its
//!   members read and written as the little-endian bytes at their offsets; a member at an
//!   address that is no multiple of its size is undefined (CUDA C++ Programming Guide, "Device
//!   Memory Accesses"). Before: "a cast to `V4*` needs a `V4*`, …".

use crate::support::{floats, ints, launch, run_finished};
use crosslane_core::op::Dialect;

#[test]
fn cub_traits_twiddle_a_float_into_radix_order_and_back() {
    let src = "\
#include <cub/cub.cuh>
template <typename T>
__device__ unsigned long long order_bits(T v) {
  typedef typename cub::Traits<T>::UnsignedBits B;
  return cub::Traits<T>::TwiddleIn(reinterpret_cast<B&>(v));
}
__global__ void k(const float *x, unsigned *in, float *back, unsigned *si,
                  unsigned long long *keys, float *lim) {
  int t = threadIdx.x;
  float v = x[t];
  unsigned b = cub::Traits<float>::TwiddleIn(
      reinterpret_cast<cub::Traits<float>::UnsignedBits&>(v));
  in[t] = b;
  unsigned o = cub::Traits<float>::TwiddleOut(b);
  back[t] = reinterpret_cast<float&>(o);
  si[t] = (unsigned)order_bits<int>(t - 4);
  if (t == 0) {
    keys[0] = cub::Traits<float>::LOWEST_KEY;
    keys[1] = cub::Traits<float>::MAX_KEY;
    keys[2] = cub::Traits<int>::LOWEST_KEY;
    keys[3] = cub::Traits<int>::MAX_KEY;
    keys[4] = cub::Traits<unsigned char>::MAX_KEY;
    keys[5] = order_bits<double>(-2.0);
    keys[6] = (cub::Traits<double>::CATEGORY == cub::FLOATING_POINT) ? 1 : 0;
    keys[7] = cub::Traits<unsigned>::TwiddleIn(12345u);
    lim[0] = cub::Traits<float>::Max();
    lim[1] = cub::Traits<float>::Lowest();
  }
}
";
    // Python model (struct.pack of each float's bits, then b ^ (0xffffffff if b >> 31 else
    // 0x80000000)):
    //   x  = -2.5, -1, -0.0, 0, 0.5, 1, 3, -1e30
    //   in = 1071644671, 1082130431, 2147483647, 2147483648, 3204448256, 3212836864,
    //        3225419776, 246811957   (sorted as unsigned: the floats' order, -0.0 below 0)
    //   si = ((t - 4) & 0xffffffff) ^ 0x80000000 = 2147483644 + t
    //   double -2.0: 0xc000000000000000 ^ ~0 = 4611686018427387903
    let c = launch(
        Dialect::Cuda,
        8,
        &[
            ("x", 8, "-2.5,-1,-0.0,0,0.5,1,3,-1e30"),
            ("in", 8, "zero"),
            ("back", 8, "zero"),
            ("si", 8, "zero"),
            ("keys", 8, "zero"),
            ("lim", 2, "zero"),
        ],
    );
    let t = run_finished(src, c);
    let want_in: Vec<Option<i128>> = [
        1071644671i128,
        1082130431,
        2147483647,
        2147483648,
        3204448256,
        3212836864,
        3225419776,
        246811957,
    ]
    .into_iter()
    .map(Some)
    .collect();
    assert_eq!(ints(&t, "in"), want_in);
    let back = floats(&t, "back");
    let xs = [-2.5, -1.0, -0.0, 0.0, 0.5, 1.0, 3.0, -1e30f32 as f64];
    for (g, w) in back.iter().zip(xs) {
        assert_eq!(g.map(f64::to_bits), Some(w.to_bits()));
    }
    let want_si: Vec<Option<i128>> = (0..8).map(|t| Some(2147483644 + t)).collect();
    assert_eq!(ints(&t, "si"), want_si);
    let want_keys: Vec<Option<i128>> = [
        0xffff_ffffi128,
        0x7fff_ffff,
        0x8000_0000,
        0x7fff_ffff,
        255,
        4611686018427387903,
        1,
        12345,
    ]
    .into_iter()
    .map(Some)
    .collect();
    assert_eq!(ints(&t, "keys"), want_keys);
    assert_eq!(
        floats(&t, "lim"),
        vec![Some(f32::MAX as f64), Some(f32::MIN as f64)]
    );
}

#[test]
fn whole_objects_compare_by_conversion_and_swap_through_a_pointer_parameter() {
    let src = "\
struct Packed {
  unsigned long long bits;
  Packed() = default;
  __device__ Packed(int v, int idx) : bits(((unsigned long long)v << 16) | (65535 - idx)) {}
  __device__ operator unsigned long long() const { return bits; }
};
template <int A, int B, typename T>
__device__ void order_pair(T* a) {
  if (a[A] < a[B]) {
    T tmp = a[A];
    a[A] = a[B];
    a[B] = tmp;
  }
}
__global__ void k(unsigned long long *o, unsigned long long *s) {
  Packed r[3];
  for (int i = 0; i < 3; ++i) r[i] = Packed((threadIdx.x * 7 + i * 5) % 11, i);
  order_pair<0, 1>(r);
  order_pair<1, 2>(r);
  order_pair<0, 1>(r);
  for (int i = 0; i < 3; ++i) o[threadIdx.x * 3 + i] = r[i].bits;
  unsigned long long top = r[0];
  s[threadIdx.x] = top + r[2];
}
";
    // Python model: for t in 0..4, items (((7t + 5i) % 11) << 16 | (65535 - i)) for i in 0..3,
    // sorted descending by the packed value (three compare-and-swaps sort three items).
    //   t=0: v = 0, 5, 10 -> r = (10,i2), (5,i1), (0,i0)
    //   t=1: v = 7, 1, 6  -> (7,i0), (6,i2), (1,i1)
    //   t=2: v = 3, 8, 2  -> (8,i1), (3,i0), (2,i2)
    //   t=3: v = 10, 4, 9 -> (10,i0), (9,i2), (4,i1)
    let p = |v: i128, i: i128| (v << 16) | (65535 - i);
    let rows = [
        [(10, 2), (5, 1), (0, 0)],
        [(7, 0), (6, 2), (1, 1)],
        [(8, 1), (3, 0), (2, 2)],
        [(10, 0), (9, 2), (4, 1)],
    ];
    let c = launch(Dialect::Cuda, 4, &[("o", 12, "zero"), ("s", 4, "zero")]);
    let t = run_finished(src, c);
    let want_o: Vec<Option<i128>> = rows
        .iter()
        .flat_map(|r| r.iter().map(|&(v, i)| Some(p(v, i))))
        .collect();
    assert_eq!(ints(&t, "o"), want_o);
    let want_s: Vec<Option<i128>> = rows
        .iter()
        .map(|r| Some(p(r[0].0, r[0].1) + p(r[2].0, r[2].1)))
        .collect();
    assert_eq!(ints(&t, "s"), want_s);
}

#[test]
fn a_struct_of_one_scalar_type_reads_and_writes_the_bytes_of_a_byte_buffer() {
    let src = "\
#include <cuda_fp16.h>
struct V4 { float a, b, c, d; };
struct __align__(8) Half4 { __half x, y, z, w; };
__global__ void k(unsigned char *buf, const signed char *hb, float *o, float *h) {
  V4 *v = reinterpret_cast<V4*>(buf + 16);
  o[0] = v->b;
  v[1].c = 2.5f;
  V4 w = v[0];
  o[1] = w.a + w.d;
  const V4 *m = reinterpret_cast<const V4*>(buf + 2);
  o[2] = m->a;
  const Half4 *q = reinterpret_cast<const Half4*>(hb);
  Half4 e = q[threadIdx.x];
  h[threadIdx.x] = __half2float(e.x) + 10.0f * __half2float(e.y)
                 + 100.0f * __half2float(e.z) + 1000.0f * __half2float(e.w);
}
";
    // Python model: b = bytes(range(64)); f(o) = struct.unpack('<f', b[o:o + 4])[0]:
    //   o[0] = f(20) = 4.849421835080754e-25; o[1] = f(16) + f(28) (in float) =
    //   3.348188197080872e-20; o[2]: a float at byte 2 is misaligned: undefined.
    //   2.5f's bytes (little-endian) 0, 0, 32, 64 land at bytes 16 + 16 + 8 = 40..43.
    //   hb's halves: 0x3c00 = 1, 0x4000 = 2, 0x4200 = 3, 0x4400 = 4 -> 4321; then 0, 0xbc00 = -1,
    //   0, 0 -> -10.
    let c = launch(
        Dialect::Cuda,
        2,
        &[
            ("buf", 64, "index"),
            ("hb", 16, "0,60,0,64,0,66,0,68,0,0,0,-68,0,0,0,0"),
            ("o", 3, "zero"),
            ("h", 2, "zero"),
        ],
    );
    let t = run_finished(src, c);
    let o = floats(&t, "o");
    assert_eq!(o[0].map(|x| x as f32), Some(4.849_422e-25_f32));
    let sum = f32::from_le_bytes([16, 17, 18, 19]) + f32::from_le_bytes([28, 29, 30, 31]);
    assert_eq!(o[1].map(|x| x as f32), Some(sum));
    assert_eq!(o[2], None);
    let want: Vec<Option<i128>> = (0..64)
        .map(|i| {
            Some(match i {
                40 | 41 => 0,
                42 => 32,
                43 => 64,
                _ => i,
            })
        })
        .collect();
    assert_eq!(ints(&t, "buf"), want);
    assert_eq!(floats(&t, "h"), vec![Some(4321.0), Some(-10.0)]);
}
