// `using` and `typedef` inside a kernel body, as templated reductions name their accumulator
// and index types.
__global__ void widen(const int* in, long long* out) {
    using Acc = long long;
    typedef unsigned int Index;
    Index i = threadIdx.x;
    Acc v = (Acc)in[i] * 3000000000LL;
    out[i] = v;
}
