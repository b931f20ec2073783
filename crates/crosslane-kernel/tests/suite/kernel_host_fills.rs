//! Host code's fills that were silently wrong or refused: a signed overflow in a fill leaves
//! only the cells it computed undefined (C++17 [expr]/4), an unsigned one wraps
//! ([basic.fundamental]/4); `cudaMallocManaged(&p, N * sizeof(p[0]))` and its other spellings
//! size managed memory that a host loop fills; a 2-D literal list fills its array; an unsuffixed
//! hexadecimal literal past `INT_MAX` is `unsigned int` ([lex.icon] table 7); a struct with an
//! array member is laid out once, by the parser, for both `sizeof` and the kernel's buffers.
//! Each expected value is derived by hand or by the Python beside it.

use crate::support::{floats, has, ints};
use crosslane_core::Level;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig};

fn run(src: &str) -> KernelTrace {
    run_kernel(src, LaunchConfig::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// A kernel copying `in` to `out` (of type `T*`), launched on `h` as host code `fill` fills it.
fn copy_of(decl: &str, fill: &str) -> String {
    let t = if decl.starts_with("unsigned") {
        "unsigned"
    } else {
        "int"
    };
    format!(
        "\
typedef {t} T;
__global__ void copy(const T* in, T* out, int n) {{
  int i = threadIdx.x;
  if (i < n) out[i] = in[i];
}}
int main() {{
  const int N = 8;
  {decl}
  {fill}
  T *d_in, *d_out;
  cudaMalloc(&d_in, N * sizeof(T));
  cudaMalloc(&d_out, N * sizeof(T));
  cudaMemcpy(d_in, h, N * sizeof(T), cudaMemcpyHostToDevice);
  copy<<<1, N>>>(d_in, d_out, N);
  return 0;
}}
"
    )
}

#[test]
fn a_signed_overflow_in_an_lcg_fill_leaves_only_the_later_cells_undefined() {
    // `int s = 1; s = s * 1103515245 + 12345;`: the first step is 1103527590, within `int`
    // (2^31 - 1 = 2147483647), so h[0] = 1103527590 % 100 = 90. The second step's product
    // 1103527590 * 1103515245 is past `int`: undefined (C++17 [expr]/4), and so is `s` from
    // then on, so h[1..8] are undefined. Python:
    //   s = 1 * 1103515245 + 12345; s < 2**31 and s % 100 == 90
    //   s * 1103515245 > 2**31 - 1
    let src = copy_of(
        "int h[N]; int s = 1;",
        "for (int i = 0; i < N; i++) { s = s * 1103515245 + 12345; h[i] = s % 100; }",
    );
    let t = run(&src);
    let mut want = vec![None; 8];
    want[0] = Some(90);
    assert_eq!(ints(&t, "out"), want);
    // The launch says which cells and why; a read of one gives the host line (line 9).
    assert!(has(
        &t,
        Level::Warning,
        "cells 1–7 (signed overflow at host line 9)"
    ));
    assert!(has(
        &t,
        Level::Warning,
        "`in[1]` holds no value: host code's computation of it at line 9 is a signed overflow"
    ));
}

#[test]
fn a_signed_overflow_in_a_counter_fill_leaves_only_its_cells_undefined() {
    // `h[i] = i * 1103515245 + 12345` in `int`: i = 0 gives 12345, i = 1 gives 1103527590,
    // i = 2 gives 2207030490 > 2^31 - 1 (the product alone, 2207030490, already is): undefined
    // from i = 2 on ([expr]/4). Python:
    //   [i * 1103515245 + 12345 for i in range(3)] == [12345, 1103527590, 2207042835]
    //   2 * 1103515245 > 2**31 - 1
    let src = copy_of(
        "int h[N];",
        "for (int i = 0; i < N; i++) h[i] = i * 1103515245 + 12345;",
    );
    let t = run(&src);
    let mut want = vec![None; 8];
    want[0] = Some(12345);
    want[1] = Some(1103527590);
    assert_eq!(ints(&t, "out"), want);
    assert!(has(
        &t,
        Level::Warning,
        "cells 2–7 (signed overflow at host line 9)"
    ));
}

#[test]
fn an_unsigned_lcg_fill_wraps_modulo_two_to_the_32() {
    // `unsigned s`: the arithmetic is modulo 2^32 ([basic.fundamental]/4), never undefined.
    // Python:
    //   s, o = 1, []
    //   for i in range(8): s = (s * 1103515245 + 12345) % 2**32; o.append(s % 100)
    //   o == [90, 23, 84, 29, 22, 47, 0, 33]
    let src = copy_of(
        "unsigned h[N]; unsigned s = 1;",
        "for (int i = 0; i < N; i++) { s = s * 1103515245u + 12345u; h[i] = s % 100u; }",
    );
    let t = run(&src);
    let want = [90, 23, 84, 29, 22, 47, 0, 33];
    assert_eq!(ints(&t, "out"), want.map(Some).to_vec());
    assert!(!has(&t, Level::Warning, "signed overflow"));
}

#[test]
fn an_unsigned_counter_fill_wraps_too() {
    // `unsigned h[i] = i * 1103515245u + 12345u`. Python:
    //   [(i * 1103515245 + 12345) % 2**32 for i in range(8)] ==
    //   [12345, 1103527590, 2207042835, 3310558080, 119106029, 1222621274, 2326136519,
    //    3429651764]
    let src = copy_of(
        "unsigned h[N];",
        "for (int i = 0; i < N; i++) h[i] = i * 1103515245u + 12345u;",
    );
    let t = run(&src);
    let u: [i128; 8] = [
        12345, 1103527590, 2207042835, 3310558080, 119106029, 1222621274, 2326136519, 3429651764,
    ];
    assert_eq!(ints(&t, "out"), u.map(Some).to_vec());
}

#[test]
fn a_signed_overflow_in_nested_fill_loops_leaves_only_its_cells_undefined() {
    // h[i * 4 + j] = (i + 1) * 10^9 + j * (i + 1) * 6 * 10^8 in `int` (max 2147483647):
    let src = copy_of(
        "int h[N];",
        "for (int i = 0; i < 2; i++) for (int j = 0; j < 4; j++) h[i * 4 + j] = (i + 1) * 1000000000 + j * (i + 1) * 600000000;",
    );
    // i = 0: 10^9 + j * 6 * 10^8: j = 0, 1 fit (10^9, 1.6 * 10^9); j = 2, 3 give sums of
    // 2.2 * 10^9 and 2.8 * 10^9: over. i = 1: 2 * 10^9 fits for j = 0; j = 1 sums to
    // 3.2 * 10^9, and for j = 2, 3 the product j * 2 * 6 * 10^8 (2.4, 3.6 * 10^9) is over
    // already. Each overflow is undefined ([expr]/4): that cell alone.
    let t = run(&src);
    let want = [
        Some(1_000_000_000),
        Some(1_600_000_000),
        None,
        None,
        Some(2_000_000_000),
        None,
        None,
        None,
    ];
    assert_eq!(ints(&t, "out"), want.to_vec());
    assert!(has(&t, Level::Warning, "signed overflow at host line 9"));
}

/// A managed-memory program whose allocation's size is `bytes` (with `data` a `double*`),
/// doubled by the kernel and read back by host code.
fn managed(api: &str, bytes: &str) -> String {
    format!(
        "\
typedef double real;
__global__ void scale(real* data, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * 2.0;
}}
int main() {{
  const int N = 8;
  real* data;
  {api}(&data, {bytes});
  for (int i = 0; i < N; i++) data[i] = 0.25 * i;
  scale<<<1, N>>>(data, N);
  {sync}();
  double sum = 0;
  for (int i = 0; i < N; i++) sum += data[i];
  {free}(data);
  return 0;
}}
",
        sync = if api.starts_with("hip") {
            "hipDeviceSynchronize"
        } else {
            "cudaDeviceSynchronize"
        },
        free = if api.starts_with("hip") {
            "hipFree"
        } else {
            "cudaFree"
        },
    )
}

#[test]
fn managed_memory_sized_by_every_sizeof_spelling_holds_the_host_fill() {
    // `sizeof(data[0])` and `sizeof(*data)` are `sizeof(double)` = 8 ([expr.sizeof]/1: the
    // operand's type, `data[0]` being `*(data + 0)`, [expr.sub]/1), as `sizeof(real)` of the
    // typedef and `sizeof(double)` are, so each allocation is 8 doubles. The host loop writes
    // 0.25 * i (CUDA C++ Programming Guide, "Unified Memory Programming": one pointer on host
    // and device) and the kernel doubles each: 0.5 * i.
    let want: Vec<Option<f64>> = (0..8).map(|i| Some(0.5 * f64::from(i))).collect();
    for api in ["cudaMallocManaged", "hipMallocManaged"] {
        for bytes in [
            "N * sizeof(data[0])",
            "sizeof(data[0]) * N",
            "N * sizeof(*data)",
            "sizeof *data * N",
            "sizeof(double) * N",
            "N * sizeof(real)",
        ] {
            let t = run(&managed(api, bytes));
            assert_eq!(floats(&t, "data"), want, "{api}(&data, {bytes})");
            assert!(!has(&t, Level::Warning, "never written"), "{api} {bytes}");
        }
    }
}

#[test]
fn a_two_dimensional_literal_list_fills_its_array_row_by_row() {
    // `float h[2][3] = {{1, 2, 3}, {4, 5, 6}};`: cells in row-major order ([dcl.array]/9); a
    // short row is completed by zeros and so are rows past the list ([dcl.init.aggr]/8):
    // `{{7}, {8, 9}}` of a [3][2] array is 7 0 8 9 0 0; a list without inner braces fills the
    // cells in order ([dcl.init.aggr]/15).
    for (decl, want) in [
        (
            "float h[2][3] = {{1, 2, 3}, {4, 5, 6}};",
            vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
        ),
        (
            "float h[3][2] = {{7}, {8, 9}};",
            vec![7.0, 0.0, 8.0, 9.0, 0.0, 0.0],
        ),
        (
            "float h[2][3] = {1, 2, 3, 4};",
            vec![1.0, 2.0, 3.0, 4.0, 0.0, 0.0],
        ),
        // No first bound: as many rows as the list has ([dcl.array]/3), 2 of 3 cells.
        (
            "float h[][3] = {{1, 2, 3}, {4, 5}};",
            vec![1.0, 2.0, 3.0, 4.0, 5.0, 0.0],
        ),
    ] {
        let src = format!(
            "\
__global__ void twice(const float* in, float* out) {{ out[threadIdx.x] = 2.0f * in[threadIdx.x]; }}
int main() {{
  {decl}
  float *d, *o;
  cudaMalloc(&d, 6 * sizeof(float));
  cudaMalloc(&o, 6 * sizeof(float));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  twice<<<1, 6>>>(d, o);
  return 0;
}}
"
        );
        let t = run(&src);
        let doubled: Vec<Option<f64>> = want.iter().map(|v| Some(2.0 * v)).collect();
        assert_eq!(floats(&t, "out"), doubled, "{decl}");
    }
}

#[test]
fn an_unsuffixed_hex_literal_past_int_max_is_unsigned_int() {
    // [lex.icon] table 7: a hexadecimal literal without a suffix is the first of int,
    // unsigned int, long, … that holds it: 0x80000000 (2^31) and 0xdeadbeef are unsigned int.
    // So 0x80000000 + 0x80000000 wraps to 0 ([basic.fundamental]/4) and sizeof(0xdeadbeef) is
    // 4: big = 0 + 4. In host code (0xffffffff + 5) % 7 is (2^32 + 4 mod 2^32) % 7 = 4 threads
    // (as `long` it would be 4294967300 % 7 = 1). A decimal 2147483648 stays `long`: + itself
    // is 4294967296. Python: (2**32 + 4) % 7 == 1; 4 % 7 == 4
    let src = "\
__global__ void k(unsigned* out, long long* big) {
  int t = threadIdx.x;
  big[t] = 0x80000000 + 0x80000000 + sizeof(0xdeadbeef);
  out[t] = 0xdeadbeef;
  if (t == 1) big[t] = 2147483648 + 2147483648;
  if (t == 2) big[t] = -0x80000000 > 0;
}
int main() {
  unsigned *d; long long *b;
  cudaMalloc(&d, 4 * sizeof(unsigned));
  cudaMalloc(&b, 4 * sizeof(long long));
  k<<<1, (0xffffffff + 5) % 7>>>(d, b);
  return 0;
}
";
    let t = run(src);
    // -0x80000000 is unsigned negation: 2^32 - 2^31 = 2^31 > 0, true ([expr.unary.op]/8).
    assert_eq!(
        ints(&t, "big"),
        vec![Some(4), Some(4294967296), Some(1), Some(4)]
    );
    assert_eq!(ints(&t, "out"), vec![Some(0xdeadbeef); 4]);
}

#[test]
fn a_struct_with_an_array_member_is_sized_and_filled_by_one_layout() {
    // struct P { float v[4]; int n; }: v at 0 (16 bytes), n at 16, size 20, alignment 4
    // ([class.mem]/17-18; the System V x86-64 psABI), so cudaMalloc(&d, n * sizeof(P)) of
    // n = 4 is 80 bytes: 4 structs, `ps.v` 16 cells (4 per struct), `ps.n` 4 cells. Host code
    // fills h[i].n = i + 1 and h[i].v[j] = 10 i + j; thread i sums the first h[i].n of
    // h[i].v: out = [0, 10 + 11, 20 + 21 + 22, 30 + 31 + 32 + 33] = [0, 21, 63, 126].
    let src = "\
struct P { float v[4]; int n; };
__global__ void sum(const P* ps, float* out, int count) {
  int i = threadIdx.x;
  if (i < count) {
    float s = 0.0f;
    for (int j = 0; j < ps[i].n; j++) s += ps[i].v[j];
    out[i] = s;
  }
}
int main() {
  const int n = 4;
  P h[n];
  for (int i = 0; i < n; i++) {
    h[i].n = i + 1;
    for (int j = 0; j < 4; j++) h[i].v[j] = i * 10 + j;
  }
  P* d; float* o;
  cudaMalloc(&d, n * sizeof(P));
  cudaMalloc(&o, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(P), cudaMemcpyHostToDevice);
  sum<<<1, n>>>(d, o, n);
  return 0;
}
";
    let t = run(src);
    assert_eq!(
        floats(&t, "out"),
        vec![Some(0.0), Some(21.0), Some(63.0), Some(126.0)]
    );
    let v: Vec<Option<f64>> = (0..4)
        .flat_map(|i| (0..4).map(move |j| Some(f64::from(i * 10 + j))))
        .collect();
    assert_eq!(floats(&t, "ps.v"), v);
    assert_eq!(ints(&t, "ps.n"), vec![Some(1), Some(2), Some(3), Some(4)]);
}

#[test]
fn a_member_write_in_host_code_does_not_unset_a_variable_of_the_members_name() {
    // `h[i].n = …` writes a member of h[i], not the host variable `n` (C++17 [expr.ref]/1):
    // `n` (4) still gives the block and the count.
    let src = "\
struct P { int n; float w; };
__global__ void k(const P* ps, int* out, int count) {
  if (threadIdx.x < count) out[threadIdx.x] = ps[threadIdx.x].n;
}
int main() {
  const int n = 4;
  P h[4];
  for (int i = 0; i < 4; i++) { h[i].n = 7 * i; h[i].w = 0.5f; }
  P* d; int* o;
  cudaMalloc(&d, n * sizeof(P));
  cudaMalloc(&o, n * sizeof(int));
  cudaMemcpy(d, h, n * sizeof(P), cudaMemcpyHostToDevice);
  k<<<1, n>>>(d, o, n);
  return 0;
}
";
    let t = run(src);
    assert_eq!(ints(&t, "out"), vec![Some(0), Some(7), Some(14), Some(21)]);
}

#[test]
fn an_inner_loop_bounded_by_the_outer_counter_is_not_read_with_a_stale_bound() {
    // `for (int j = 0; j < i; j++)` inside the loop over `i`: its bound changes per
    // iteration. An earlier `int i = 3;` must not stand in for it (C++17 [stmt.for]/1: the
    // loop's own `i`); the loop is not read, so the copied array's cells are undefined with a
    // warning, never the cells a bound of 3 would give.
    let src = "\
struct P { float v[4]; int n; };
__global__ void k(const P* ps, float* out) { out[threadIdx.x] = ps[threadIdx.x / 4].v[threadIdx.x % 4]; }
int main() {
  int i = 3;
  P h[4];
  for (int i = 0; i < 4; i++) { h[i].n = 0; for (int j = 0; j < i; j++) h[i].v[j] = 1.0f; }
  P* d; float* o;
  cudaMalloc(&d, 4 * sizeof(P));
  cudaMalloc(&o, 16 * sizeof(float));
  cudaMemcpy(d, h, 4 * sizeof(P), cudaMemcpyHostToDevice);
  k<<<1, 16>>>(d, o);
  return 0;
}
";
    let t = run(src);
    assert_eq!(floats(&t, "ps.v"), vec![None; 16]);
    assert!(has(&t, Level::Warning, "how `h` is filled cannot be read"));
}

#[test]
fn a_symbol_copy_of_a_fill_with_an_overflow_keeps_its_defined_cells() {
    // cudaMemcpyToSymbol of an `int` fill whose cell 2 on overflowed (2 * 1103515245 >
    // 2^31 - 1, [expr]/4): the table holds 12345, 1103527590, then undefined cells.
    let src = "\
__constant__ int table[4];
__global__ void k(int* out) { out[threadIdx.x] = table[threadIdx.x]; }
int main() {
  int h[4];
  for (int i = 0; i < 4; i++) h[i] = i * 1103515245 + 12345;
  cudaMemcpyToSymbol(table, h, sizeof(h));
  int* o;
  cudaMalloc(&o, 4 * sizeof(int));
  k<<<1, 4>>>(o);
  return 0;
}
";
    let t = run(src);
    assert_eq!(
        ints(&t, "out"),
        vec![Some(12345), Some(1103527590), None, None]
    );
    assert!(has(
        &t,
        Level::Warning,
        "cells 2–3 (signed overflow at host line 5)"
    ));
}
