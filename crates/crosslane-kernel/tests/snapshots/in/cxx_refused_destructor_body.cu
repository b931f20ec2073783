// A destructor with a statement in its body would run at the end of the object's scope
// ([class.dtor]/12), on every way out of the block ([stmt.jump]/2); that is not modelled, so the
// run is refused at the destructor's name (line 7, column 15) with what to write instead:
// a named member function called where the scope ends. Nothing runs.
struct Guard {
  float* p;
  __device__ ~Guard() { p[0] = 1.0f; }
};
__global__ void k(float* out) {
  Guard g;
  g.p = out;
  out[threadIdx.x] = 2.0f;
}
