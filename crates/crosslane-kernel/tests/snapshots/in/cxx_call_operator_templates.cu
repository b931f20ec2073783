// snapshot: threads=4
// Member call operator templates and calls on temporaries, composable_kernel's `static_for`
// shape written here: `static_for<0, 4, 1>{}(f)` makes a temporary and calls its
// `template <class F> operator()(F f) const` ([over.call]/1: `x(args)` is
// `x.operator()(args)`; F deduced from the closure, [temp.deduct.call]), which calls `f` with
// `Number<B>{}` and recurses on `static_for<B + S, E, S>` while `B < E` (`if constexpr`,
// [stmt.if]/2: the branch of a false condition is discarded, so the recursion stops at B = E).
// The generic lambda's `i` is a `Number<I>`; `x[i]` and `i + 1` convert it through its
// conversion function `operator int()` to I ([class.conv.fct]/1, [over.match.oper]/7 then the
// built-in operator).
// With x[j] = j (index fill): acc = sum_{i=0..3} x[i] * (i + 1) = 0 + 2 + 6 + 12 = 20.
// `Functor{}(a, b)` with `template <typename T> T operator()(T a, T b) const { return a*b+1; }`:
//   Functor{}(t, 2) = 2t + 1 (T = int), Functor{}(0.5f, 3.0f) = 2.5 (T = float).
// out[t] = acc + Functor{}(t, 2) + Functor{}(0.5f, 3.0f) = 20 + 2t + 1 + 2.5 = 23.5 + 2t:
//   23.5, 25.5, 27.5, 29.5.
template <int N> struct Number {
  static constexpr int value = N;
  __device__ constexpr operator int() const { return value; }
};
template <int Begin, int End, int Step> struct static_for {
  template <class F> __device__ constexpr void operator()(F f) const {
    if constexpr (Begin < End) {
      f(Number<Begin>{});
      static_for<Begin + Step, End, Step>{}(f);
    }
  }
};
struct Functor {
  template <typename T> __device__ T operator()(T a, T b) const { return a * b + 1; }
};
__global__ void k(float* out, const float* x) {
  int t = threadIdx.x;
  float acc = 0;
  static_for<0, 4, 1>{}([&](auto i) { acc += x[i] * (i + 1); });
  out[t] = acc + Functor{}(t, 2) + Functor{}(0.5f, 3.0f);
}
