// snapshot: threads=4
// Base classes ([class.derived]) whose members are data, static constants and member types.
// composable_kernel's shape: `Number<N>` derives from `integral_constant<int, N>`, so
// `Number<5>::value` is 5 ([class.member.lookup]). `Derived : Base` has Base's members first
// (Itanium ABI 2.4: the base subobject before the derived's members): sizeof(Derived) =
// sizeof(float a, int b) + float c = 12. A member function of Derived reads the inherited `a`.
// `Wrap<int> : Base` mixes a class template with a base.
// out[t] = Number<5>::value + d.b + sizeof(Derived) + w.extra + w.b + d.sum()
//        = 5 + t + 12 + 7 + 3 + (int)(1.5 t + 2) = 27 + t + (int)(1.5 t + 2)
//   t = 0: 27 + 0 + 2 = 29; t = 1: 28 + 3 (3.5) = 31; t = 2: 29 + 5 = 34; t = 3: 30 + 6 (6.5) = 36.
// f[t] = d.a + d.c = 1.5 t + 2: 2, 3.5, 5, 6.5. acc[t] = (Stats::acc_t)0.25 (a float) * t.
template <typename T, T v> struct integral_constant { static constexpr T value = v; };
template <int N> struct Number : integral_constant<int, N> {};
struct Base { float a; int b; using acc_t = float; };
struct Derived : public Base {
  float c;
  __device__ float sum() const { return a + c; }
};
struct Stats : Base {};
template <typename T> struct Wrap : Base { T extra; };
__global__ void k(int* out, float* f, float* acc) {
  int t = threadIdx.x;
  Derived d;
  d.a = 1.5f * t; d.b = t; d.c = 2.0f;
  Wrap<int> w; w.a = 0.5f; w.b = 3; w.extra = 7;
  out[t] = Number<5>::value + d.b + (int)sizeof(Derived) + w.extra + w.b + (int)d.sum();
  f[t] = d.a + d.c;
  Stats::acc_t x = 0.25f;
  acc[t] = x * t;
}
