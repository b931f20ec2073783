// snapshot: threads=4
// C++17 [utility.swap]: `std::swap` after `else` and `cuda::std::swap` of two struct values
// exchange the values. Lanes 0 and 1 take the else branch (u, v = 2, 1), lanes 2 and 3 set
// u = 7; p and q swap, so p.a = 2.5 and q.b = t:
// o = u + 100 * 2.5 + 1000 * t = 252, 1252, 2257, 3257.
struct P { float a; int b; };
__global__ void k(float* o) {
  int t = threadIdx.x;
  P p{1.5f, t}, q{2.5f, 10 * t};
  float u = 1.f, v = 2.f;
  if (t > 1) u = 7.f; else std::swap(u, v);
  cuda::std::swap(p, q);
  o[t] = u + 100.f * p.a + 1000.f * q.b;
}
