// snapshot: threads=4
// User-declared destructors that do nothing ([class.dtor]/6: a destructor that is defaulted, or
// whose body is empty, of a class whose members have trivial destructors runs no statement):
// an empty `__device__ ~Acc() {}`, `~Pair() = default;`, one declared in the class and defined
// empty after it (`Box::~Box() {}`), and one in a class template. Each object's lifetime ends
// at its scope's end with nothing run ([basic.life]/1), so the values are those assigned:
// out[t] = a.s + p.a * p.b + b.v + h.x = t + 2*3 + 10 + 0.5 = t + 16.5: 16.5, 17.5, 18.5, 19.5.
struct Acc {
  float s;
  __device__ ~Acc() {}
};
struct Pair {
  float a, b;
  ~Pair() = default;
};
struct Box {
  float v;
  __device__ ~Box();
};
__device__ Box::~Box() {}
template <typename T> struct Holder {
  T x;
  __device__ ~Holder() noexcept {}
};
__global__ void k(float* out) {
  int t = threadIdx.x;
  Acc a;
  a.s = t;
  Pair p{2, 3};
  Box b;
  b.v = 10;
  Holder<float> h;
  h.x = 0.5f;
  out[t] = a.s + p.a * p.b + b.v + h.x;
}
