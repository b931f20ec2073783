// A pointer to a local struct is read as a second name of that struct, so pointing it at
// another object later is refused at the assignment, 11:5, naming what to write instead.
struct S {
    int field;
};
__global__ void k(int* out) {
    S s, t;
    s.field = threadIdx.x;
    t.field = 1;
    S* p = &s;
    p = &t;
    out[threadIdx.x] = p->field;
}
