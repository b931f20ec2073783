// A fold's operand must be a cast-expression ([expr.prim.fold]/1: `( cast-expression
// fold-operator ... )`): `(xs > 0 && ...)` is ill-formed — nvcc 13.0 says "second operator in
// binary fold expression does not match first" — and is refused before the run, at the fold,
// with the parenthesized form to write instead: `((xs > 0) && ...)`.
template <typename... Ts> __device__ int all_positive(Ts... xs) { return (xs > 0 && ...); }

__global__ void k(int *out) {
    out[threadIdx.x] = all_positive((int)threadIdx.x, 1);
}
