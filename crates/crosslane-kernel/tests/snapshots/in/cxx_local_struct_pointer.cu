// snapshot: threads=4
// A pointer to a local struct names the struct ([expr.ref]/2: `p->m` is `(*p).m`), and
// `this->` in members names the receiver. By hand (t = threadIdx.x, 0..3):
//   s.field = t; p->add(3) gives t + 3; (*p).field += 10 gives t + 13;
//   out[t] = p->field + p->twice() = (t + 13) + 2 (t + 13) = 3t + 39: 39, 42, 45, 48;
//   o2[t] = s.field read directly after the writes through p = t + 13: 13, 14, 15, 16.
//   o3[t] = q->get<1>() + q->v[2] with f.v[i] = t + i: (t + 1) + (t + 2) = 2t + 3: 3, 5, 7, 9
//           (a member function template through the pointer).
struct S {
    int field;
    __device__ void add(int k) { this->field += k; }
    __device__ int twice() const { return this->field * 2; }
};
struct Frag {
    float v[4];
    template <int N> __device__ float get() const { return v[N]; }
};
__global__ void k(int* out, int* o2, float* o3) {
    S s;
    s.field = threadIdx.x;
    S* p = &s;
    p->add(3);
    (*p).field += 10;
    out[threadIdx.x] = p->field + p->twice();
    o2[threadIdx.x] = s.field;
    Frag f;
    for (int i = 0; i < 4; ++i) f.v[i] = threadIdx.x + i;
    Frag* q = &f;
    o3[threadIdx.x] = q->get<1>() + q->v[2];
}
