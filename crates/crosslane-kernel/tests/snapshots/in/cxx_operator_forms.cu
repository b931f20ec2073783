// snapshot: threads=8
// Operator forms: a class template's member `+`, `==`, `!=` (written with `*this`), prefix
// `++` returning `*this`, and a `friend` `-` defined in it; free operators on a struct,
// `operator*(Money, int)` beside `operator*(int, Money)` (the second adds 1, so the one called
// shows), a free `<` and unary `-`; a free `%` on `float2`. Thread t (0..7):
//   a = (t, 2t), b = (1, 2): s = a + b = (t + 1, 2t + 2), sum = 100 (t + 1) + 2t + 2 = 102t + 102;
//   d = a - b = (t - 1, 2t - 2), ++d adds 1 to x: diff = 100 t + 2t - 2 = 102t - 2;
//   eq = (a != b): 0 only for t = 1.
//   r = -(m*3 + 2*m) = -(3t + 2t + 1) = -(5t + 1); below -10 (from t = 2, which gives -11) it
//   gains 1000: -1, -6, 989, 984, 979, 974, 969, 964.
//   cross = (1, t) % (2, 3) = 1*3 - t*2 = 3 - 2t.
template <typename T>
struct Vec2 {
  T x;
  T y;
  __device__ Vec2 operator+(const Vec2& o) const { return Vec2{x + o.x, y + o.y}; }
  __device__ bool operator==(const Vec2& o) const { return x == o.x && y == o.y; }
  __device__ bool operator!=(const Vec2& o) const { return !(*this == o); }
  __device__ Vec2& operator++() {
    x += 1;
    return *this;
  }
  friend __device__ Vec2 operator-(const Vec2& a, const Vec2& b) { return Vec2{a.x - b.x, a.y - b.y}; }
};
struct Money {
  int cents;
};
__device__ Money operator+(Money a, Money b) { return Money{a.cents + b.cents}; }
__device__ Money operator*(Money a, int k) { return Money{a.cents * k}; }
__device__ Money operator*(int k, Money a) { return Money{a.cents * k + 1}; }
__device__ bool operator<(Money a, Money b) { return a.cents < b.cents; }
__device__ Money operator-(Money a) { return Money{-a.cents}; }
__device__ float2 operator%(float2 a, float2 b) { return make_float2(a.x * b.y - a.y * b.x, 0.0f); }
__global__ void k(int* sum, int* diff, int* eq, int* money, float* cross) {
  int t = threadIdx.x;
  Vec2<int> a{t, 2 * t};
  Vec2<int> b{1, 2};
  Vec2<int> s = a + b;
  Vec2<int> d = a - b;
  ++d;
  sum[t] = s.x * 100 + s.y;
  diff[t] = d.x * 100 + d.y;
  eq[t] = (a != b) ? 1 : 0;
  Money m{t};
  Money r = -(m * 3 + 2 * m);
  if (r < Money{-10}) r = r + Money{1000};
  money[t] = r.cents;
  cross[t] = (make_float2(1.0f, (float)t) % make_float2(2.0f, 3.0f)).x;
}
