// snapshot: threads=8
// Deducing a function template's parameters from a class template argument
// ([temp.deduct.type]/8: `TT<T, i>` against `TT<float, 4>` deduces T = float, i = 4).
// composable_kernel passes `Number<N>` by value; rocPRIM/CK take `const vec_t<T, N>&`.
// Lane l (8 lanes):
//   a[l] = get(Number<4>{}) + get(Number<7>{}) = 4 + 7 = 11 (two instances, N deduced each).
//   b[l] = width_of(v) * 100 + sum(v): width_of deduces N = 3 from vec_t<float, 3>;
//          sum deduces T = float and N = 3 and adds v.x[0..3) = l + 2l + 3l = 6l:
//          300 + 6l -> 300 306 312 318 324 330 336 342.
//   c[l] = scaled(Number<3>{}, l) = 3 * l (N deduced from the first argument, the second an
//          ordinary int) -> 0 3 6 9 12 15 18 21.
//   d[l] = from_ic(integral_constant<int, 6>{}) * 100 + twice(Number<2>{}) = 600 + 4 = 604:
//          N = 6 deduced at the second argument of `integral_constant<T, v>`; twice reads
//          the static member `Number<N>::value` (2) of an instance first made in the kernel.
template <int N> struct Number { static constexpr int value = N; };
template <class T, int N> struct vec_t { T x[N]; };

template <int N> __device__ constexpr int get(Number<N>) { return N; }
template <int N> __device__ int width_of(const vec_t<float, N>&) { return N; }
template <typename T, int N> __device__ T sum(const vec_t<T, N>& v) {
  T s = 0;
  for (int i = 0; i < N; ++i) s += v.x[i];
  return s;
}
template <int N> __device__ int scaled(Number<N>, int k) { return N * k; }
template <class T, int v> struct integral_constant { static constexpr T value = v; };
template <int N> __device__ int from_ic(integral_constant<int, N>) { return N; }
template <int N> __device__ int twice(Number<N>) { return N + Number<N>::value; }

__global__ void k(int* a, float* b, int* c, int* d) {
  int l = threadIdx.x;
  a[l] = get(Number<4>{}) + get(Number<7>{});
  vec_t<float, 3> v;
  v.x[0] = l; v.x[1] = 2 * l; v.x[2] = 3 * l;
  b[l] = width_of(v) * 100 + sum(v);
  c[l] = scaled(Number<3>{}, l);
  d[l] = from_ic(integral_constant<int, 6>{}) * 100 + twice(Number<2>{});
}
