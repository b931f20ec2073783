// Member types named from outside their class ([class.member.lookup], [basic.lookup.qual]/1;
// `typename` before a dependent qualified name, [temp.res]/3), in the shape PyTorch's reduce
// ops and vLLM's vector helpers use: `typename Ops<T>::acc_t acc;`,
// `using V = typename FloatVec<T>::Type;`, a struct-valued member type.
//   Ops<float>::acc_t is float (the explicit specialization); Ops<int>::acc_t is double (the
//   primary). 16777217 = 2^24 + 1 is not a float: as float it rounds to 16777216 (round to
//   nearest even, [conv.fpconv]/1 with IEEE 754), as double it stays 16777217.
//   narrow[t] = 16777216, wide[t] = 16777217.
// halves<float>(t): FloatVec<float>::Type is float2; v = (t, t + 0.5); the accumulator is
//   Ops<float>::acc_t (float): v.x + v.y = 2t + 0.5. sum[t] = 2t + 0.5.
// Holder<short>::storage_t is Pair (a struct member type): p.b = 7; Holder<short>::elem_t is
//   short: 70000 converts to 70000 − 65536 = 4464 ([conv.integral]/3, two's complement in
//   C++20, what nvcc does); packed[t] = 7 + 4464 = 4471.
template <typename T> struct Ops { using acc_t = double; };
template <> struct Ops<float> { using acc_t = float; };
template <typename T> struct FloatVec { using Type = T; };
template <> struct FloatVec<float> { using Type = float2; };
struct Pair { float a; int b; };
template <typename T> struct Holder {
    typedef Pair storage_t;
    using elem_t = T;
};
template <typename T>
__device__ T halves(T x) {
    using V = typename FloatVec<T>::Type;
    V v;
    v.x = x;
    v.y = x + 0.5f;
    typename Ops<T>::acc_t acc = v.x + v.y;
    return acc;
}
__global__ void k(double* narrow, double* wide, float* sum, int* packed) {
    int t = threadIdx.x;
    typename Ops<float>::acc_t x = 16777217;
    Ops<int>::acc_t y = 16777217;
    narrow[t] = x;
    wide[t] = y;
    sum[t] = halves<float>(t);
    typename Holder<short>::storage_t p;
    p.a = 1.0f;
    p.b = 7;
    typename Holder<short>::elem_t s = 70000;
    packed[t] = p.b + s;
}
