// A running-mean accumulator struct kept in a global buffer of structs: a member function that
// changes its receiver, called on a buffer element (`acc[i].add(x)`) and through a pointer
// into the buffer (`p->add(x)`), and a const member function reading it back. The write is an
// ordinary store (no atomics): every lane of the warp updates `acc[1]` from the same old value,
// so it ends as one update (CUDA C++ Programming Guide, "Memory Consistency": non-atomic writes
// by several threads leave one of them).

struct Acc {
    int n;
    float s;
    __device__ void add(float x) {
        n += 1;
        s += x;
    }
    __device__ float mean() const { return s / n; }
};

__global__ void accumulate(Acc* acc, float* means) {
    acc[threadIdx.x].add(4.0f);
    Acc* p = acc + 1;
    p->add(2.0f);
    means[threadIdx.x] = acc[threadIdx.x].mean();
}
