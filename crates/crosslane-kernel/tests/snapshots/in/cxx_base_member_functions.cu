// snapshot: threads=4
// A base class's member functions are members of the derived class ([class.derived]/2): called
// on the derived object (`d.twice()`), bare or through `this->` in the derived class's member
// functions ([class.mfct.non-static]/2), and qualified as `Base::name()` ([class.qual]/1). A
// derived member of the same name hides the base's ([class.member.lookup]/1): `d.name()` and a
// bare `name()` in `D` are `D::name` (200), `Base::name()` still reaches the base's (100). A
// base function that changes its receiver (`bump`) changes the derived object's base part.
// `E : D : Base` reaches `Base::twice` through two levels; `Two : M, Base` has `Base` second,
// so `twice()` reads Two's second member. `Arr<4>` is a class template base with an array
// member, read through its member function.
//
// Per thread t: d.v = t + 0.5 after d.bump(0.5), d.w = 7.
//   d.f()     = twice() + 1                       = 2(t + 0.5) + 1 = 2t + 2
//   d.twice()                                     = 2t + 1
//   d.g()     = this->twice() + Base::name() + name() = (2t + 1) + 100 + 200 = 2t + 301
//   d.name()                                      = 200
//   e.h()     = twice() + w + z with v=1, w=2, z=3 = 2 + 2 + 3 = 7
//   e.twice()                                     = 2
//   two.s()   = mm() + twice() with m=2, v=t     = 2000 + 2t
//   two.twice()                                   = 2t
// out[t] = sum = 10t + 2513: 2513, 2523, 2533, 2543.
// arr[t] = q.get(t) + q.sum() with q.x = {1, 2, 4, 8} and q.scale = 10:
//   get(t) = x[t] * scale: 10, 20, 40, 80; sum() = 1 + 2 + 4 + 8 = 15 (`at` called bare in the
//   base's own function);
//   arr = 25, 35, 55, 95.
struct Base {
  float v;
  __device__ float twice() const { return 2 * v; }
  __device__ float name() const { return 100; }
  __device__ void bump(float d) { v += d; }
};
struct D : Base {
  int w;
  __device__ float f() { return twice() + 1; }
  __device__ float name() const { return 200; }
  __device__ float g() { return this->twice() + Base::name() + name(); }
};
struct E : D {
  float z;
  __device__ float h() { return twice() + w + z; }
};
struct M {
  int m;
  __device__ int mm() const { return m * 1000; }
};
struct Two : M, Base {
  __device__ float s() { return mm() + twice(); }
};
template <int N> struct Arr {
  float x[N];
  __device__ float at(int i) const { return x[i]; }
  __device__ float sum() const {
    float s = 0;
    for (int i = 0; i < N; ++i) s += at(i);
    return s;
  }
};
struct Scaled : Arr<4> {
  float scale;
  __device__ float get(int i) const { return at(i) * scale; }
};
__global__ void k(float* out, float* arr) {
  int t = threadIdx.x;
  D d;
  d.v = t;
  d.w = 7;
  d.bump(0.5f);
  E e;
  e.v = 1;
  e.w = 2;
  e.z = 3;
  Two two;
  two.m = 2;
  two.v = t;
  out[t] = d.f() + d.twice() + d.g() + d.name() + e.h() + e.twice() + two.s() + two.twice();
  Scaled q;
  q.x[0] = 1;
  q.x[1] = 2;
  q.x[2] = 4;
  q.x[3] = 8;
  q.scale = 10;
  arr[t] = q.get(t) + q.sum();
}
