// A generic lambda capturing a struct by reference and reading its member
// ([expr.prim.lambda.capture]/10: the by-reference capture names the enclosing object, so
// `p.a` in the body is the enclosing `p.a`). Its body is parsed per call, away from the
// enclosing function; each member path it spells (`p.a`) is captured as that member's
// variable. f(2.0f) = 2 · 1.5 = 3: out[t] = 3.
struct P {
  float a;
};
__global__ void k(float* out) {
  P p{1.5f};
  auto f = [&](auto x) { return x * p.a; };
  out[threadIdx.x] = f(2.0f);
}
