// snapshot: threads=4
// A free operator function template (`template <typename T> V<T> operator+(V<T> a, V<T> b)`):
// where `a + b` has a class operand, the template's specialization for the operands' types is
// a candidate ([over.match.oper]/3.2), its T deduced from `V<float>` / `V<int>`
// ([temp.deduct.call], [temp.deduct.type]/8), one instance per T. `operator*` scales by a
// scalar of the element type (T deduced from both parameters, float from each).
// Per thread t:
//   V<float> c = a + b with a = {t, 2}, b = {0.5, 3}: c = {t + 0.5, 5}
//   V<int>   n = p + q with p = {t, 1}, q = {10, 20}: n = {t + 10, 21}
//   V<float> s = c * 2.0f: {2t + 1, 10}
// out[t] = c.x * 10 + c.y + n.x + n.y + s.x + s.y
//        = 10t + 5 + 5 + t + 10 + 21 + 2t + 1 + 10 = 13t + 52: 52, 65, 78, 91.
template <typename T> struct V {
  T x, y;
};
template <typename T> __device__ V<T> operator+(V<T> a, V<T> b) {
  return V<T>{a.x + b.x, a.y + b.y};
}
template <typename T> __device__ V<T> operator*(V<T> a, T s) { return V<T>{a.x * s, a.y * s}; }
__global__ void k(float* out) {
  int t = threadIdx.x;
  V<float> a{1.0f * t, 2.0f};
  V<float> b{0.5f, 3.0f};
  V<float> c = a + b;
  V<int> p{t, 1};
  V<int> q{10, 20};
  V<int> n = p + q;
  V<float> s = c * 2.0f;
  out[t] = c.x * 10 + c.y + n.x + n.y + s.x + s.y;
}
