// snapshot: threads=4
// A base class with member functions is refused at the derived class (calling them on a
// derived object is not modelled), naming what to write instead.
struct B { int a; __device__ int get() const { return a; } };
struct D : B { int c; };
__global__ void k(int* out) { D d; d.a = 1; out[threadIdx.x] = d.a; }
