// snapshot: threads=8
// An 8-float pack struct with a member `operator+=` returning `*this`, a member
// `operator*(Pack8)`, a unary member `operator-` and a free `operator*(Pack8, float)` beside the
// member `*` (overload resolution picks by the right operand). With x = i + t/4 in element i,
// acc = 2x + x*x - x = x (x + 1); lane t stores element t, so out[t] = x (x + 1) with
// x = t + t/4: lanes 0..3 give 0 2 6 12, lanes 4..7 (x = 5..8) 30 42 56 72.
struct Pack8 {
  float v[8];
  __device__ Pack8& operator+=(const Pack8& o) {
    for (int i = 0; i < 8; ++i) v[i] += o.v[i];
    return *this;
  }
  __device__ Pack8 operator*(const Pack8& o) const {
    Pack8 r;
    for (int i = 0; i < 8; ++i) r.v[i] = v[i] * o.v[i];
    return r;
  }
  __device__ Pack8 operator-() const {
    Pack8 r;
    for (int i = 0; i < 8; ++i) r.v[i] = -v[i];
    return r;
  }
};
__device__ Pack8 operator*(const Pack8& a, float s) {
  Pack8 r;
  for (int i = 0; i < 8; ++i) r.v[i] = a.v[i] * s;
  return r;
}
__global__ void k(float* out) {
  int t = threadIdx.x;
  Pack8 acc;
  Pack8 x;
  for (int i = 0; i < 8; ++i) {
    acc.v[i] = 0.0f;
    x.v[i] = (float)(i + t / 4);
  }
  acc += x * 2.0f;
  acc += x * x;
  acc += -x;
  out[t] = acc.v[t];
}
