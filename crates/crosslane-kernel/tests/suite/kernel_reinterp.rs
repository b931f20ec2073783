//! Memory seen through a pointer of another type: atomics that act on a cell's bytes as the
//! pointer's type (`machine/atomic_view.rs`), the `double` bit-cast intrinsics, and
//! FlashInfer's `vec_t` whose one `uint4` member is read and written as 16-bit elements.
//!
//! Expected values are IEEE 754 encodings derived by hand (or by the Python line given beside
//! them); memory is little-endian on every NVIDIA and AMD GPU.

use crate::support::{floats as nums, has, launch};
use crosslane_core::{Dialect, Level};
use crosslane_kernel::{run_kernel, KVal};

const SPLIT_MAX: &str = "\
__device__ __forceinline__ float fmax_bits(float* a, float v) {
  return (v >= 0) ? __int_as_float(atomicMax((int*)a, __float_as_int(v)))
                  : __uint_as_float(atomicMin((unsigned int*)a, __float_as_uint(v)));
}
__global__ void k(const float* x, float* out) {
  fmax_bits(&out[threadIdx.x % 2], x[threadIdx.x]);
}";

#[test]
fn reinterp_split_float_max_keeps_the_largest_float_in_each_cell() {
    // Lanes 0, 2, 4, 6 into out[0] (starting at -1): 1.5, 3.25, -7, 0.5; lanes 1, 3, 5, 7
    // into out[1] (starting at -9): -2, -0.125, -4, -8. Maxima: 3.25 and -0.125. For out[1]
    // the unsigned bits: -9 0xC1100000, -2 0xC0000000, -0.125 0xBE000000, -4 0xC0800000,
    // -8 0xC1000000: the least is 0xBE000000 = -0.125.
    let t = run_kernel(
        SPLIT_MAX,
        launch(
            Dialect::Cuda,
            8,
            &[
                ("x", 8, "1.5,-2,3.25,-0.125,-7,-4,0.5,-8"),
                ("out", 2, "-1,-9"),
            ],
        ),
    )
    .unwrap();
    assert_eq!(nums(&t, "out"), [Some(3.25), Some(-0.125)]);
    // An atomic from several lanes is no write race.
    assert!(!has(&t, Level::Warning, "several lanes write"));
    // The same kernel as HIP: the same functions, the same bytes.
    let t = run_kernel(
        SPLIT_MAX,
        launch(
            Dialect::Hip,
            8,
            &[
                ("x", 8, "1.5,-2,3.25,-0.125,-7,-4,0.5,-8"),
                ("out", 2, "-1,-9"),
            ],
        ),
    )
    .unwrap();
    assert_eq!(nums(&t, "out"), [Some(3.25), Some(-0.125)]);
}

#[test]
fn reinterp_atomics_return_the_old_bits_and_keep_undefined_cells_undefined() {
    let src = "\
__global__ void k(float* u, int* o) {
  o[0] = atomicExch((int*)u, __float_as_int(2.5f));
  o[1] = atomicMax((int*)(u + 1), 5);
  o[2] = atomicMax((int*)(u + 2), 5);
  o[3] = atomicAdd((unsigned*)(u + 3), 1u);
}";
    let t = run_kernel(
        src,
        launch(
            Dialect::Cuda,
            1,
            &[("u", 4, "-1,undef,nan,1"), ("o", 4, "zero")],
        ),
    )
    .unwrap();
    let o = nums(&t, "o");
    // -1.0f is 0xBF800000, as int -1082130432; the cell then holds 2.5 (0x40200000).
    assert_eq!(o[0], Some(-1_082_130_432.0));
    // A cell never written: the old value and the new one are undefined.
    assert_eq!(o[1], None);
    // A NaN's bits are not kept: undefined, with that reason.
    assert_eq!(o[2], None);
    assert!(has(&t, Level::Warning, "NaN"));
    // 1.0f is 0x3F800000 = 1065353216; plus one is 0x3F800001, the next float up:
    // 1 + 2^-23 = 1.00000011920928955078125.
    assert_eq!(o[3], Some(1_065_353_216.0));
    let u = nums(&t, "u");
    assert_eq!(u[0], Some(2.5));
    assert_eq!(u[1], None);
    assert_eq!(u[2], None);
    assert_eq!(u[3], Some(1.0 + f64::powi(2.0, -23)));
}

#[test]
fn reinterp_a_64_bit_cas_spans_two_float_cells() {
    // A (value, index) pair packed in one 64-bit word over two float cells: the low word is
    // f[0]. 7.0f is 0x40E00000, 0.5f 0x3F000000; the word 0x40E000003F000000 puts 0.5 in
    // f[0] and 7 in f[1]. The CAS compares the 8 bytes as one unsigned long long: the lane
    // that read 0 and 1 (0x3F80000000000000) before succeeds.
    let src = "\
__global__ void k(float* f, unsigned long long* old) {
  unsigned long long* p = (unsigned long long*)f;
  unsigned long long seen = *p;
  unsigned long long want = ((unsigned long long)__float_as_uint(7.0f) << 32) | __float_as_uint(0.5f);
  old[0] = atomicCAS(p, seen, want);
  old[1] = atomicCAS(p, seen, 0ull);
}";
    let t = run_kernel(
        src,
        launch(Dialect::Cuda, 1, &[("f", 2, "0,1"), ("old", 2, "zero")]),
    )
    .unwrap();
    assert_eq!(nums(&t, "f"), [Some(0.5), Some(7.0)]);
    let old: Vec<Option<i128>> = t
        .buffer("old")
        .unwrap()
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_int))
        .collect();
    // The first CAS found 0x3F800000_00000000 and stored; the second found the new word,
    // which differs from `seen`, so stored nothing and returned it.
    assert_eq!(
        old,
        [Some(0x3F80_0000_0000_0000), Some(0x40E0_0000_3F00_0000)]
    );
}

#[test]
fn reinterp_double_bit_casts() {
    // 0.1 is 0x3FB999999999999A: high word 0x3FB99999 = 1069128089, low 0x9999999A as int
    // = -1717986918; -2.5 is 0xC004000000000000 (as long long -4610560118520545280).
    let src = "\
__global__ void k(const double* x, long long* b, int* hl, double* y) {
  b[0] = __double_as_longlong(x[0]);
  b[1] = __double_as_longlong(x[1]);
  hl[0] = __double2hiint(x[0]);
  hl[1] = __double2loint(x[0]);
  y[0] = __hiloint2double(hl[0], hl[1]);
  y[1] = __longlong_as_double(0x4008000000000000ll);
}";
    let t = run_kernel(
        src,
        launch(
            Dialect::Cuda,
            1,
            &[
                ("x", 2, "0.1,-2.5"),
                ("b", 2, "zero"),
                ("hl", 2, "zero"),
                ("y", 2, "zero"),
            ],
        ),
    )
    .unwrap();
    let ints = |name: &str| -> Vec<Option<i128>> {
        t.buffer(name)
            .unwrap()
            .iter()
            .map(|c| c.as_ref().and_then(KVal::as_int))
            .collect()
    };
    assert_eq!(
        ints("b"),
        [
            Some(0x3FB9_9999_9999_999A),
            Some(-4_610_560_118_520_545_280)
        ]
    );
    assert_eq!(ints("hl"), [Some(1_069_128_089), Some(-1_717_986_918)]);
    assert_eq!(nums(&t, "y"), [Some(0.1), Some(3.0)]);
}

#[test]
fn reinterp_vector_atomic_over_other_cells_is_refused() {
    let src = "\
__global__ void k(int* o) {
  atomicAdd((float2*)o, make_float2(1.0f, 2.0f));
}";
    let t = run_kernel(src, launch(Dialect::Cuda, 1, &[("o", 2, "zero")])).unwrap();
    assert!(has(
        &t,
        Level::Error,
        "`atomicAdd` through a `float2*` into a buffer of `int`"
    ));
    assert_eq!(nums(&t, "o"), [Some(0.0), Some(0.0)]);
}

#[test]
fn reinterp_vec_t_uint4_member_as_halves_and_bf16() {
    // FlashInfer's shape: `uint4 data;` read as 8 halves through `((half*)(&data))[i]`, with
    // a const overload beside it. x holds the halves 0..7 (index fill); v[j] = v[j] + v[j]
    // doubles them; `.y` is then elements 2 (4.0 = 0x4400) and 3 (6.0 = 0x4600):
    // 0x46004400 = 1174422528 (Python: struct.pack('<ee', 4.0, 6.0) read as '<I').
    let src = "\
template <typename T, int N> struct vec_t;
template <> struct vec_t<half, 8> {
  uint4 data;
  __device__ half& operator[](size_t i) { return ((half*)(&data))[i]; }
  __device__ const half& operator[](size_t i) const { return ((const half*)(&data))[i]; }
  __device__ void load(const half* p) { data = *((const uint4*)p); }
  __device__ void store(half* p) const { *((uint4*)p) = data; }
};
__global__ void k(const half* x, half* y, unsigned* w) {
  vec_t<half, 8> v;
  v.load(x);
  for (int j = 0; j < 8; ++j) v[j] = v[j] + v[j];
  v.store(y);
  w[0] = v.data.y;
}";
    for d in [Dialect::Cuda, Dialect::Hip] {
        let t = run_kernel(
            src,
            launch(
                d,
                1,
                &[("x", 8, "index"), ("y", 8, "zero"), ("w", 1, "zero")],
            ),
        )
        .unwrap();
        let want: Vec<Option<f64>> = (0..8).map(|i| Some(f64::from(2 * i))).collect();
        assert_eq!(nums(&t, "y"), want, "{d:?}");
        assert_eq!(nums(&t, "w"), [Some(1_174_422_528.0)], "{d:?}");
    }
}

#[test]
fn reinterp_int_view_of_a_float_buffer_reads_and_writes_bits() {
    // reinterpret_cast<int*>(x)[i]: 1.0f is 0x3F800000 = 1065353216, -2.0f 0xC0000000 =
    // -1073741824 as int; writing 0x3FC00000 + i stores 1.5 (i = 0) and 1.5 + 2^-23 (i = 1,
    // the next float up).
    let src = "\
__global__ void k(float* x, int* bits) {
  int i = threadIdx.x;
  bits[i] = reinterpret_cast<int*>(x)[i];
  reinterpret_cast<int*>(x)[i] = 0x3FC00000 + i;
}";
    let t = run_kernel(
        src,
        launch(Dialect::Cuda, 2, &[("x", 2, "1,-2"), ("bits", 2, "zero")]),
    )
    .unwrap();
    assert_eq!(
        nums(&t, "bits"),
        [Some(1_065_353_216.0), Some(-1_073_741_824.0)]
    );
    assert_eq!(nums(&t, "x"), [Some(1.5), Some(1.5 + f64::powi(2.0, -23))]);
}

#[test]
fn reinterp_address_of_a_vector_component_in_memory() {
    // acc (float4, index fill) is {0, 1, 2, 3} {4, 5, 6, 7}; p (float) 0..7.
    // Four lanes add 0.25 to acc[1].y: 5 + 1 = 6. acc[0].w = 9 through a float*. The
    // split-max form through (int*)&acc[0].x with 3.0: max(0, 3) = 3. p viewed as float4:
    // element 1's .z is p[6]: 6 + 4 lanes × 1 = 10.
    let src = "\
__global__ void k(float4* acc, float* p) {
  atomicAdd(&acc[1].y, 0.25f);
  if (threadIdx.x == 0) {
    float* q = &acc[0].w;
    *q = 9.0f;
  }
  atomicMax((int*)&acc[0].x, __float_as_int(3.0f));
  atomicAdd(&reinterpret_cast<float4*>(p)[1].z, 1.0f);
}";
    let t = run_kernel(
        src,
        launch(Dialect::Cuda, 4, &[("acc", 8, "index"), ("p", 8, "index")]),
    )
    .unwrap();
    let flat: Vec<Option<f64>> = t
        .buffer("acc")
        .unwrap()
        .iter()
        .flat_map(|c| match c {
            Some(KVal::Vector { items, .. }) => items.iter().map(KVal::as_f64).collect(),
            _ => vec![None; 4],
        })
        .collect();
    let want = [3.0, 1.0, 2.0, 9.0, 4.0, 6.0, 6.0, 7.0].map(Some);
    assert_eq!(flat, want);
    let want_p = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 10.0, 7.0].map(Some);
    assert_eq!(nums(&t, "p"), want_p);
    // A component of a local vector has an address too ([expr.unary.op]/3: the address of
    // the member subobject): `*q` reads `v.y`, 2, and a store through it changes `v.w`.
    let local = "\
__global__ void k(float* r) {
  float4 v = make_float4(1, 2, 3, 4);
  float* q = &v.y;
  r[0] = *q;
  *(&v.w) = 8.0f;
  r[1] = v.w;
}";
    let t = run_kernel(local, launch(Dialect::Cuda, 1, &[("r", 2, "zero")])).unwrap();
    assert!(!has(&t, Level::Error, "taking the address"));
    assert_eq!(nums(&t, "r"), [Some(2.0), Some(8.0)]);
}

#[test]
fn reinterp_vec_t_uint4_array_member_as_halves() {
    // `uint4 data[N / 8]` seen as N halves (FlashInfer's vec_t for N > 8): element i is bytes
    // 2i, 2i+1 of the array. The words 0x3C003C00 (halves 1, 1) fill data[0] and 0x40004000
    // (halves 2, 2) data[1]: the 16 halves sum to 8·1 + 8·2 = 24. Storing half 0.5 (0x3800)
    // as element 9 (the high half of data[1].x) makes that word 0x38004000 = 939540480.
    let src = "\
template <int N> struct hvec {
  uint4 data[N / 8];
  __device__ half& operator[](size_t i) { return ((half*)data)[i]; }
};
__global__ void k(const uint4* x, float* s, unsigned* w) {
  hvec<16> v;
  v.data[0] = x[0];
  v.data[1] = x[1];
  float acc = 0.f;
  for (int j = 0; j < 16; ++j) acc += __half2float(v[j]);
  s[0] = acc;
  v[9] = __float2half(0.5f);
  w[0] = v.data[1].x;
}";
    let t = run_kernel(
        src,
        launch(
            Dialect::Cuda,
            1,
            &[
                (
                    "x",
                    8,
                    "u32:0x3C003C00,0x3C003C00,0x3C003C00,0x3C003C00,0x40004000,0x40004000,0x40004000,0x40004000",
                ),
                ("s", 1, "zero"),
                ("w", 1, "zero"),
            ],
        ),
    )
    .unwrap();
    assert_eq!(nums(&t, "s"), [Some(24.0)]);
    assert_eq!(nums(&t, "w"), [Some(939_540_480.0)]);
}

#[test]
fn reinterp_bf16_view_of_a_float4_value() {
    // A bf16 is a float's high 16 bits: element 2k+1 of a float4 seen as bf16 is component k
    // truncated to bf16, element 2k its low 16 bits. {1.5, -3.0078125, 0.1, 2}: 1.5f =
    // 0x3FC00000 -> elements 0x0000 (0) and 0x3FC0 (1.5); -3.0078125 = -(3 + 2^-7) =
    // 0xC0408000 -> 0x8000 (-0.0) and 0xC040 (-3); 0.1f = 0x3DCCCCCD -> 0xCCCD and 0x3DCC
    // (0x3DCC as bf16: 1.59375·2^-4 = 0.099609375). Writing bf16 2.0 (0x4000) as element 6,
    // the low half of f.w (2.0f = 0x40000000), changes those two bytes only: 0x40004000.
    let src = "\
__global__ void k(float* y, float* z) {
  float4 f = make_float4(1.5f, -3.0078125f, 0.1f, 2.0f);
  const __nv_bfloat16* b = reinterpret_cast<const __nv_bfloat16*>(&f);
  for (int j = 0; j < 6; ++j) y[j] = __bfloat162float(b[j]);
  reinterpret_cast<__nv_bfloat16*>(&f)[6] = __float2bfloat16(2.0f);
  z[0] = f.w;
}";
    let t = run_kernel(
        src,
        launch(Dialect::Cuda, 1, &[("y", 6, "zero"), ("z", 1, "zero")]),
    )
    .unwrap();
    let y = nums(&t, "y");
    assert_eq!(y[0], Some(0.0));
    assert_eq!(y[1], Some(1.5));
    assert_eq!(y[2], Some(0.0));
    assert!(y[2].is_some_and(|v| v.is_sign_negative()));
    assert_eq!(y[3], Some(-3.0));
    // 0xCCCD as bf16: sign 1, exponent 0x99 = 153 (2^26), fraction 0x4D/128: -(1 + 77/128)·2^26.
    assert_eq!(y[4], Some(-(1.0 + 77.0 / 128.0) * f64::powi(2.0, 26)));
    assert_eq!(y[5], Some(0.099_609_375));
    // 0x40004000: 2 + 0x4000·2^-22 = 2 + 2^-8 = 2.00390625.
    assert_eq!(nums(&t, "z"), [Some(2.003_906_25)]);
}

/// CUDA C++ Programming Guide, Atomic Functions: `atomicMax(int*, int)` and
/// `atomicMin(int*, int)` compare signed whatever the memory held before; an `int*` over an
/// `unsigned` buffer is the same bytes ([conv.integral]/2), so the comparison is the
/// pointer's, and the old value comes back as an `int`.
#[test]
fn reinterp_signed_atomic_min_max_over_unsigned_cells_compare_signed() {
    let src = "\
__global__ void k(unsigned* u, int* o) {
  int v = (int)threadIdx.x - 2;
  atomicMax((int*)u, v);
  atomicMin((int*)(u + 1), v);
  if (threadIdx.x == 3) o[0] = atomicMax((int*)(u + 2), 0);
}";
    let t = run_kernel(
        src,
        launch(
            Dialect::Cuda,
            4,
            &[("u", 3, "0,0,4294967295"), ("o", 1, "zero")],
        ),
    )
    .unwrap();
    let u = nums(&t, "u");
    // v = -2, -1, 0, 1. Signed: max(0, …) = 1; min(0, …) = -2, held as 2^32 - 2. (An
    // unsigned comparison would keep 0xFFFFFFFF = -1 as the max and 0 as the min.)
    assert_eq!(u[0], Some(1.0));
    assert_eq!(u[1], Some(4_294_967_294.0));
    // u[2] = 0xFFFFFFFF is -1 as an int: max(-1, 0) stores 0 and returns -1.
    assert_eq!(u[2], Some(0.0));
    assert_eq!(nums(&t, "o"), vec![Some(-1.0)]);
}
