//! Host fill loops whose body branches on what each iteration knows (the counter, a scalar, a
//! cell written before) and writes cells through comma expressions, as a tridiagonal CSR
//! matrix generator does (`if (i > 1) { … } else { … }`, `start = …; J[start] = …;`,
//! `I[0] = 0, J[0] = 0, J[1] = 1;`): each iteration runs the branch its condition picks
//! (C++17 [stmt.if]/1), and a comma expression runs its parts in order ([expr.comma]/1).
//! Expected values come from the Python model quoted beside each test.

use crate::support::{floats, has, ints};
use crosslane_core::Level;
use crosslane_kernel::{run_kernel, KernelTrace, LaunchConfig};

fn run(src: &str) -> KernelTrace {
    run_kernel(src, LaunchConfig::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// The kernel every test here launches: a CSR SpMV, one thread per row.
const SPMV: &str = "\
__global__ void spmv(const int* rows, const int* cols, const float* vals, const float* x,
                     float* y, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    float s = 0.0f;
    for (int k = rows[r]; k < rows[r + 1]; k++) s += vals[k] * x[cols[k]];
    y[r] = s;
  }
}
";

/// `rows`, `cols` and `y` of the tridiagonal matrix every test builds (x = 1..N in the first
/// three), by the Python model quoted in the first test.
const ROWS: [i128; 7] = [0, 2, 5, 8, 11, 14, 16];
const COLS: [i128; 16] = [0, 1, 0, 1, 2, 1, 2, 3, 2, 3, 4, 3, 4, 5, 4, 5];
const Y: [f64; 6] = [2.0, 1.0, 3.0, 6.0, 10.0, 22.0];

fn some<T: Copy>(v: &[T]) -> Vec<Option<T>> {
    v.iter().map(|&x| Some(x)).collect()
}

/// The host program around `SPMV` that builds the tridiagonal matrix, times
/// x = 1..N.
/// `diag` is the loop's diagonal value and `first` what host code does before the loop.
fn spmv_src(first: &str, diag: &str) -> String {
    format!(
        "{SPMV}\
int main() {{
  const int N = 6;
  int nz = (N - 2) * 3 + 4;
  int n = N, nnz = nz;
  int rows[N + 1], cols[(N - 2) * 3 + 4];
  float vals[(N - 2) * 3 + 4], hx[N];

  {first}
  int start;
  for (int i = 1; i < n; i++) {{
    if (i > 1) {{
      rows[i] = rows[i - 1] + 3;
    }} else {{
      rows[1] = 2;
    }}
    start = (i - 1) * 3 + 2;
    cols[start] = i - 1, cols[start + 1] = i;
    if (i < n - 1) cols[start + 2] = i + 1;
    vals[start] = vals[start - 1];
    vals[start + 1] = {diag};
    if (i < n - 1) {{
      vals[start + 2] = -1.0f;
    }}
  }}
  rows[n] = nnz;
  for (int i = 0; i < N; i++) hx[i] = i + 1.0f;
  int *dI, *dJ;
  float *dval, *dx, *dy;
  cudaMalloc(&dI, sizeof(int) * (N + 1));
  cudaMalloc(&dJ, sizeof(int) * nz);
  cudaMalloc(&dval, sizeof(float) * nz);
  cudaMalloc(&dx, sizeof(float) * N);
  cudaMalloc(&dy, sizeof(float) * N);
  cudaMemcpy(dI, rows, sizeof(int) * (N + 1), cudaMemcpyHostToDevice);
  cudaMemcpy(dJ, cols, sizeof(int) * nz, cudaMemcpyHostToDevice);
  cudaMemcpy(dval, vals, sizeof(float) * nz, cudaMemcpyHostToDevice);
  cudaMemcpy(dx, hx, sizeof(float) * N, cudaMemcpyHostToDevice);
  spmv<<<1, 32>>>(dI, dJ, dval, dx, dy, N);
  return 0;
}}
"
    )
}

#[test]
fn a_tridiagonal_csr_fill_with_branches_and_commas_is_read_per_iteration() {
    // Python model (float32 rounding by struct; every value here is exact):
    //   N = 6; nz = (N - 2) * 3 + 4
    //   I = [None] * (N + 1); J = [None] * nz; val = [None] * nz
    //   I[0] = 0; J[0] = 0; J[1] = 1; val[0] = 4.0; val[1] = -1.0
    //   for i in range(1, N):
    //       if i > 1: I[i] = I[i - 1] + 3
    //       else: I[1] = 2
    //       start = (i - 1) * 3 + 2; J[start] = i - 1; J[start + 1] = i
    //       if i < N - 1: J[start + 2] = i + 1
    //       val[start] = val[start - 1]; val[start + 1] = 2.0 + 0.5 * i
    //       if i < N - 1: val[start + 2] = -1.0
    //   I[N] = nz
    //   y[r] = sum(val[k] * (J[k] + 1) for k in range(I[r], I[r + 1]))
    // gives I = [0, 2, 5, 8, 11, 14, 16],
    //   J = [0, 1, 0, 1, 2, 1, 2, 3, 2, 3, 4, 3, 4, 5, 4, 5],
    //   val = [4, -1, -1, 2.5, -1, -1, 3, -1, -1, 3.5, -1, -1, 4, -1, -1, 4.5],
    //   y = [2, 1, 3, 6, 10, 22].
    let src = spmv_src(
        "rows[0] = 0, cols[0] = 0, cols[1] = 1;\n  vals[0] = 4.0f;\n  vals[1] = -1.0f;",
        "2.0f + 0.5f * i",
    );
    let t = run(&src);
    assert_eq!(ints(&t, "rows"), some(&ROWS));
    assert_eq!(ints(&t, "cols"), some(&COLS));
    let vals = [
        4.0, -1.0, -1.0, 2.5, -1.0, -1.0, 3.0, -1.0, -1.0, 3.5, -1.0, -1.0, 4.0, -1.0, -1.0, 4.5,
    ];
    assert_eq!(floats(&t, "vals"), some(&vals));
    assert_eq!(floats(&t, "y"), some(&Y));
}

#[test]
fn the_same_fill_into_managed_memory_with_a_comma_statement_first() {
    // The matrix of the test above (same Python model), built in `cudaMallocManaged` memory
    // that the kernel reads directly; `I[0] = 0, J[0] = 0, J[1] = 1;` writes three cells of
    // two arrays in one comma expression ([expr.comma]/1).
    let src = [
        SPMV,
        "\
int main() {
  int N = 6, nz = (N - 2) * 3 + 4, start;
  int *I, *J;
  float *val, *x, *y;
  cudaMallocManaged(reinterpret_cast<void **>(&I), sizeof(int) * (N + 1));
  cudaMallocManaged(reinterpret_cast<void **>(&J), sizeof(int) * nz);
  cudaMallocManaged(reinterpret_cast<void **>(&val), sizeof(float) * nz);
  cudaMallocManaged(reinterpret_cast<void **>(&x), sizeof(float) * N);
  cudaMallocManaged(reinterpret_cast<void **>(&y), sizeof(float) * N);
  I[0] = 0, J[0] = 0, J[1] = 1;
  val[0] = 4.0f;
  val[1] = -1.0f;
  for (int i = 1; i < N; i++) {
    if (i > 1)
      I[i] = I[i - 1] + 3;
    else
      I[1] = 2;
    start = (i - 1) * 3 + 2;
    J[start] = i - 1;
    J[start + 1] = i;
    if (i < N - 1) { J[start + 2] = i + 1; }
    val[start] = val[start - 1];
    val[start + 1] = 2.0f + 0.5f * i;
    if (i < N - 1) { val[start + 2] = -1.0f; }
  }
  I[N] = nz;
  for (int i = 0; i < N; i++) x[i] = i + 1.0f;
  spmv<<<1, 32>>>(I, J, val, x, y, N);
  cudaDeviceSynchronize();
  return 0;
}
",
    ]
    .concat();
    let t = run(&src);
    assert_eq!(ints(&t, "rows"), some(&ROWS));
    assert_eq!(ints(&t, "cols"), some(&COLS));
    assert_eq!(floats(&t, "y"), some(&Y));
}

#[test]
fn the_same_fill_by_a_helper_into_managed_memory() {
    // The matrix of the first test (same Python model), built by a host helper that takes the
    // `cudaMallocManaged` pointers as parameters (managed memory is host memory too, so the
    // helper's cells of it are read in their element types).
    let src = [
        SPMV,
        "\
void make_tridiag(int* rows, int* cols, float* vals, int n, int nnz) {
  rows[0] = 0, cols[0] = 0, cols[1] = 1;
  vals[0] = 4.0f;
  vals[1] = -1.0f;
  int start;
  for (int i = 1; i < n; i++) {
    if (i > 1) {
      rows[i] = rows[i - 1] + 3;
    } else {
      rows[1] = 2;
    }
    start = (i - 1) * 3 + 2;
    cols[start] = i - 1, cols[start + 1] = i;
    if (i < n - 1) cols[start + 2] = i + 1;
    vals[start] = vals[start - 1];
    vals[start + 1] = 2.0f + 0.5f * i;
    if (i < n - 1) {
      vals[start + 2] = -1.0f;
    }
  }
  rows[n] = nnz;
}
int main() {
  const int N = 6;
  int nz = (N - 2) * 3 + 4;
  int *I, *J;
  float *val, *hx, *dy;
  cudaMallocManaged(reinterpret_cast<void **>(&I), sizeof(int) * (N + 1));
  cudaMallocManaged(reinterpret_cast<void **>(&J), sizeof(int) * nz);
  cudaMallocManaged(reinterpret_cast<void **>(&val), sizeof(float) * nz);
  cudaMallocManaged(reinterpret_cast<void **>(&hx), sizeof(float) * N);
  cudaMallocManaged(reinterpret_cast<void **>(&dy), sizeof(float) * N);
  make_tridiag(I, J, val, N, nz);
  for (int i = 0; i < N; i++) hx[i] = i + 1.0f;
  spmv<<<1, 32>>>(I, J, val, hx, dy, N);
  cudaDeviceSynchronize();
  return 0;
}",
    ]
    .concat();
    let t = run(&src);
    assert_eq!(ints(&t, "rows"), some(&ROWS));
    assert_eq!(floats(&t, "y"), some(&Y));
}

#[test]
fn values_from_rand_stay_unknown_while_the_other_arrays_are_filled() {
    // As the helper test, with `vals[0]` and `vals[1]` from `rand()` (glibc's sequence is not
    // modelled): `rows` and `cols` do not depend on `vals`, so they are filled as before
    // (rows = [0, 2, 5, 8, 11, 14, 16] by the Python model); `vals` stays unknown, and the
    // launch names the host line that wrote it.
    let src = [
        SPMV,
        "\
void tridiag(int* I, int* J, float* val, int n, int nz) {
  I[0] = 0, J[0] = 0, J[1] = 1;
  val[0] = (float)rand() / RAND_MAX + 4.0f;
  val[1] = (float)rand() / RAND_MAX;
  int start;
  for (int i = 1; i < n; i++) {
    if (i > 1) {
      I[i] = I[i - 1] + 3;
    } else {
      I[1] = 2;
    }
    start = (i - 1) * 3 + 2;
    J[start] = i - 1;
    J[start + 1] = i;
    if (i < n - 1) {
      J[start + 2] = i + 1;
    }
    val[start] = val[start - 1];
    val[start + 1] = (float)rand() / RAND_MAX + 4.0f;
    if (i < n - 1) {
      val[start + 2] = (float)rand() / RAND_MAX;
    }
  }
  I[n] = nz;
}
int main() {
  int N = 6, nz = (N - 2) * 3 + 4;
  int *I, *J;
  float *val, *x, *y;
  cudaMallocManaged(&I, sizeof(int) * (N + 1));
  cudaMallocManaged(&J, sizeof(int) * nz);
  cudaMallocManaged(&val, sizeof(float) * nz);
  cudaMallocManaged(&x, sizeof(float) * N);
  cudaMallocManaged(&y, sizeof(float) * N);
  tridiag(I, J, val, N, nz);
  for (int i = 0; i < N; i++) x[i] = 1.0f;
  spmv<<<1, 32>>>(I, J, val, x, y, N);
  cudaDeviceSynchronize();
  return 0;
}
",
    ]
    .concat();
    let t = run(&src);
    assert_eq!(ints(&t, "rows"), some(&ROWS));
    assert_eq!(ints(&t, "cols"), some(&COLS));
    assert!(floats(&t, "vals").iter().all(Option::is_none));
    assert!(floats(&t, "y").iter().all(Option::is_none));
    assert!(has(
        &t,
        Level::Warning,
        "writes a cell of `val` with no constant value"
    ));
}
