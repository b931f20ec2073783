// auto return types (deduced from the return, or `-> T` after the parameters), auto locals
// from calls and decltype. twice(lane) = 2 * lane (int); b = decltype(a) = int: 2 * lane + 1;
// half_of(3.0f * lane) -> float = 1.5 * lane; d (decltype(c * 2), float) = c.
// out[lane] = b + d = 3.5 * lane + 1: 1, 4.5, 8, ..., 109.5 (lane 31).
// auto pointers: p = &in[lane], q = p - lane = &in[0]; in[j] = j (the default fill), so
// o2[lane] = 2 * in[lane] + q[1] = 2 * lane + 1.
template <typename T> __device__ auto twice(T v) { return v * 2; }
template <typename T> __device__ auto half_of(T v) -> T { return v / 2; }

__global__ void k(float *out, float *in, float *o2) {
    int i = threadIdx.x;
    auto p = &in[i];
    auto q = p - i;
    o2[i] = *p * 2.0f + q[1];
    auto a = twice(i);
    decltype(a) b = a + 1;
    auto c = half_of(3.0f * i);
    decltype(c * 2) d = c;
    out[i] = b + d;
}
