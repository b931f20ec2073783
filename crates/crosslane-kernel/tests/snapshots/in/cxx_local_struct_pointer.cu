// snapshot: threads=4
// A pointer to a local struct names the struct ([expr.ref]/2: `p->m` is `(*p).m`), and
// `this->` in members names the receiver. By hand (t = threadIdx.x, 0..3):
//   s.field = t; p->add(3) gives t + 3; (*p).field += 10 gives t + 13;
//   out[t] = p->field + p->twice() = (t + 13) + 2 (t + 13) = 3t + 39: 39, 42, 45, 48;
//   o2[t] = s.field read directly after the writes through p = t + 13: 13, 14, 15, 16.
struct S {
    int field;
    __device__ void add(int k) { this->field += k; }
    __device__ int twice() const { return this->field * 2; }
};
__global__ void k(int* out, int* o2) {
    S s;
    s.field = threadIdx.x;
    S* p = &s;
    p->add(3);
    (*p).field += 10;
    out[threadIdx.x] = p->field + p->twice();
    o2[threadIdx.x] = s.field;
}
