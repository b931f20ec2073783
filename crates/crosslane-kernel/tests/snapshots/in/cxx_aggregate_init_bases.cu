// snapshot: threads=4
// Aggregate initialization of a struct with base classes (C++17 [dcl.init.aggr]/2: the
// elements of an aggregate are its direct bases in declaration order, then its own members).
//   D d{{3}, 4}       : the base B from `{3}` (a = 3, b2 from its default member initializer
//                       5, [dcl.init.aggr]/8), then D's own b = 4.
//   D d2{b, t}        : the base from a `B` value (b = {7, 8}: a = 7, b2 = 8), then b = t.
//   DD x{{1, 2}, {0.5f}, 9}: two bases B then C in declaration order, then e = 9.
//   E e{{{1}, 2}, 3}  : E : D : B, nested: D from `{{1}, 2}` (its B from `{1}`, b2 = 5, b = 2),
//                       then f = 3.
//   D el{6, 7, 8}     : brace elision ([dcl.init.aggr]/15): 6 and 7 go to the base's a and b2,
//                       8 to D's b.
// out[t] = d.a*10 + d.b + d.b2*1000 + d2.a*100000 + d2.b2*1000000 + d2.b
//        = 30 + 4 + 5000 + 700000 + 8000000 + t = 8705034 + t: 8705034 … 8705037.
// other[t], one object per cell:
//   other[0] = x.a*1000 + x.b2*100 + x.e*10 + (x.c == 0.5f) = 1000 + 200 + 90 + 1 = 1291
//   other[1] = e.a*1000 + e.b2*100 + e.b*10 + e.f = 1000 + 500 + 20 + 3 = 1523
//   other[2] = el.a*100 + el.b2*10 + el.b = 600 + 70 + 8 = 678
//   other[3] = 0
struct B {
  int a;
  int b2 = 5;
};
struct C {
  float c;
};
struct D : B {
  int b;
};
struct DD : B, C {
  int e;
};
struct E : D {
  int f;
};
__global__ void k(int* out, int* other) {
  int t = threadIdx.x;
  D d{{3}, 4};
  B b{7, 8};
  D d2{b, t};
  DD x{{1, 2}, {0.5f}, 9};
  E e{{{1}, 2}, 3};
  D el{6, 7, 8};
  out[t] = d.a * 10 + d.b + d.b2 * 1000 + d2.a * 100000 + d2.b2 * 1000000 + d2.b;
  int r = 0;
  if (t == 0) r = x.a * 1000 + x.b2 * 100 + x.e * 10 + (x.c == 0.5f);
  if (t == 1) r = e.a * 1000 + e.b2 * 100 + e.b * 10 + e.f;
  if (t == 2) r = el.a * 100 + el.b2 * 10 + el.b;
  other[t] = r;
}
