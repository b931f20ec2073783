// snapshot: threads=4
// A base class with a constructor is refused at the derived class (line 7, column 1): the
// derived class's initialization would have to run the base's constructor first
// ([class.base.init]/13), which is not modelled; the message says to copy the base's members
// into the struct. (A base's member functions run: cxx_base_member_functions.cu.)
struct B { int a; __device__ B(int x) : a(x) {} };
struct D : B { int c; };
__global__ void k(int* out) { D d; d.a = 1; out[threadIdx.x] = d.a; }
