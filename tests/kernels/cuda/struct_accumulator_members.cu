// A running-mean accumulator struct kept in a global buffer of structs, launched from host code: a member function that
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

__global__ void accumulate(Acc* acc, float* means, float step) {
    acc[threadIdx.x].add(4.0f);
    Acc* p = acc + 1;
    p->add(step);
    means[threadIdx.x] = acc[threadIdx.x].mean();
}

int main() {
    Acc* d_acc;
    float* d_means;
    cudaMalloc(&d_acc, 4 * sizeof(Acc));
    cudaMalloc(&d_means, 4 * sizeof(float));
    // The struct pointer is one argument; the scalar after it is still `step`.
    accumulate<<<1, 4>>>(d_acc, d_means, 2.0f);
    return 0;
}
