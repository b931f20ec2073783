// Aliases of class template specializations ([dcl.typedef]/2: the alias names that struct):
// `using` and `typedef` at file scope, and as class members (PyTorch's reduce ops write
// `using acc_t = WelfordData<acc_scalar_t, index_t>;` inside the ops class). Lane t (0..31):
//   a = BoxF{t / 2}.v                                            = t / 2
//   b = BoxI (typedef of Box<int>) {3t}.v                        = 3t
//   c = Ops<float>::combine(make(t), make(1)): mean t + 1, n 2   -> mean * n = 2t + 2
template <typename T>
struct Box { T v; };
using BoxF = Box<float>;
typedef Box<int> BoxI;

template <typename T, typename I>
struct Data { T mean; I n; };
template <typename T>
struct Ops {
  using acc_t = Data<T, int>;
  typedef Data<T, int> also_t;
  __device__ acc_t make(T v) const { acc_t r = {v, 1}; return r; }
  __device__ also_t combine(acc_t a, also_t b) const { return {a.mean + b.mean, a.n + b.n}; }
};

__global__ void k(float *a, int *b, float *c) {
  int t = threadIdx.x;
  BoxF p;
  p.v = t * 0.5f;
  BoxI q = {3 * t};
  Ops<float> op;
  Data<float, int> r = op.combine(op.make(t), op.make(1.0f));
  a[t] = p.v;
  b[t] = q.v;
  c[t] = r.mean * r.n;
}
