// snapshot: threads=4
// Generic lambdas (C++17 [expr.prim.lambda.closure]/3): each `auto` parameter is an invented
// template parameter of the closure's call operator template, so each call is instantiated for
// its arguments' types ([temp.deduct.call]/1), each `auto` deduced on its own.
//   add(7, 2) / 2      : both int, a + b = 9 is an int, 9 / 2 = 4 (integer division,
//                        [expr.mul]/4).
//   add(7.0f, 2) / 2   : float + int is float ([expr]/11), 9.0f / 2 = 4.5.
//   sq(t)              : `const auto&` binds an int: t * t.
//   scale(x[t])        : captures `k` by copy ([=]) where the lambda is made: k = 3 then, so the
//                        later `k = 100` does not change it: 3 * x[t].
//                        (`k` is also the kernel's name: inside the closure the captured `k`
//                        hides it, [basic.lookup.unqual]/8.)
//   bump(0.25f) twice  : `[&]` captures acc by reference: the calls add to the caller's acc.
//   apply(add, t, 1)   : the closure passed to a function template, called inside it: t + 1.
// With x[t] = t (index fill):
// out[t] = add(7,2)/2 + add(7.0f,2)/2 + sq(t) + scale(x[t]) + acc + apply(add, t, 1)
//        = 4 + 4.5 + t^2 + 3t + 0.5 + (t + 1) = t^2 + 4t + 10:
//   t = 0: 10, t = 1: 15, t = 2: 22, t = 3: 31.
template <typename F, typename T> __device__ T apply(F f, T a, T b) { return f(a, b); }
__global__ void k(float* out, const float* x) {
  int t = threadIdx.x;
  auto add = [&](auto a, auto b) { return a + b; };
  auto sq = [](const auto& v) { return v * v; };
  int k = 3;
  auto scale = [=](auto v) { return k * v; };
  k = 100;
  float acc = 0;
  auto bump = [&](auto d) { acc += d; };
  bump(0.25f);
  bump(0.25f);
  out[t] = add(7, 2) / 2 + add(7.0f, 2) / 2 + sq(t) + scale(x[t]) + acc + apply(add, t, 1);
}
