// snapshot: threads=4
// After `using namespace std;` the names of namespace std are found unqualified
// (C++17 [namespace.udir]/2): `swap(a, b)` is std::swap ([utility.swap]: the values exchanged),
// `min<int>(a, b)` is std::min with T = int ([alg.min.max]; each argument converted to int,
// [temp.arg.explicit]/6), `max(a, b)` the larger, `numeric_limits<T>::max()` the largest
// finite value ([numeric.limits.members]: FLT_MAX = (2 - 2^-23) * 2^127
// = 3.4028234663852886e38, INT_MAX = 2^31 - 1 = 2147483647).
// Per thread t: a = t, b = 3, then swap: a = 3, b = t.
//   out[t] = a*100 + b + min<int>(a, 2.9f) + max(a, b)
//          = 300 + t + min(3, (int)2.9f = 2) = 2 + max(3, t) = 3 = 305 + t: 305, 306, 307, 308.
// lim[0] = numeric_limits<float>::max() = 3.4028234663852886e38,
// lim[1] = (float)numeric_limits<int>::max() = 2147483648 (2^31 - 1 rounds to 2^31),
// lim[2] = numeric_limits<float>::lowest() = -3.4028234663852886e38, lim[3] = 0.
#include <limits>
#include <algorithm>
using namespace std;
__global__ void k(int* out, float* lim) {
  int t = threadIdx.x;
  int a = t, b = 3;
  swap(a, b);
  out[t] = a * 100 + b + min<int>(a, 2.9f) + max(a, b);
  float v = 0;
  if (t == 0) v = numeric_limits<float>::max();
  if (t == 1) v = numeric_limits<int>::max();
  if (t == 2) v = numeric_limits<float>::lowest();
  lim[t] = v;
}
