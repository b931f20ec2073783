// Device functions returning a struct with array members (FasterTransformer's top-k reduce op
// returns a `TopK<T, MAX_K>` of index and value arrays): the whole aggregate is copied,
// arrays included ([class.copy.ctor]/14), from a template whose return type is a class
// template's specialization and from a plain function. Lane t (0..31):
//   a = pick<float, 2>(A, B).p[0] with A.u[0] = t, A.p[0] = 1, B.u[0] = 2, B.p[0] = 2:
//       A when t > 2, so 1 for t >= 3 and 2 for t <= 2
//   b = better(make(t, 5), make(1.5, 7)): u[0] + u[1] + p[1] = t + 5 + 2 for t >= 2,
//       1.5 + 7 + 2 = 10.5 for t <= 1
template <typename T, int MAX_K>
struct TopK { int p[MAX_K]; T u[MAX_K]; };
template <typename T, int MAX_K>
__device__ TopK<T, MAX_K> pick(const TopK<T, MAX_K>& a, const TopK<T, MAX_K>& b) {
  TopK<T, MAX_K> res = a.u[0] > b.u[0] ? a : b;
  return res;
}
struct Top2 { int p[2]; float u[2]; };
__device__ Top2 make(float a, float b) {
  Top2 r;
  r.u[0] = a; r.u[1] = b; r.p[0] = 1; r.p[1] = 2;
  return r;
}
__device__ Top2 better(const Top2& a, const Top2& b) { return a.u[0] > b.u[0] ? a : b; }
__global__ void k(int *a, float *b) {
  TopK<float, 2> x, y, o;
  x.u[0] = threadIdx.x; x.u[1] = 0; x.p[0] = 1; x.p[1] = 0;
  y.u[0] = 2.0f;        y.u[1] = 0; y.p[0] = 2; y.p[1] = 0;
  o = pick<float, 2>(x, y);
  a[threadIdx.x] = o.p[0];
  Top2 m = better(make(threadIdx.x, 5.0f), make(1.5f, 7.0f));
  b[threadIdx.x] = m.u[0] + m.u[1] + m.p[1];
}
