// A generic lambda's body is parsed per call, away from the enclosing function, so its
// captures are found first by name; a captured struct variable (`p`, whose members the body
// reads) is not modelled there. Refused at the name in the body (line 11, column 37) with what to
// write instead: copy the members into scalars before the lambda (`float a = p.a;`), or give
// the parameter's type (`[&](float x)`: a lambda of written types captures structs).
struct P {
  float a;
};
__global__ void k(float* out) {
  P p{1.5f};
  auto f = [&](auto x) { return x * p.a; };
  out[threadIdx.x] = f(2.0f);
}
