// The shapes of a vectorized load (vLLM / TensorRT-LLM topk softmax): a `using` alias of an
// aligned array struct in the function body, `reinterpret_cast` of a local array and of the
// input pointer to it, a struct copy through them; and default template arguments computed from
// earlier parameters.
// `in` holds the index fill: in[i] = i. Lane L, q = L mod 4: dst[0] = in[4q .. 4q+3],
// dst[1] = in[4q+16 .. 4q+19], so chunk = 4q, 4q+1, 4q+2, 4q+3, 4q+16, …, 4q+19 and
// s = Σ (i+1)·chunk[i] = 36·4q + (0·1 + 1·2 + 2·3 + 3·4) + (16·5 + 17·6 + 18·7 + 19·8)
//   = 144q + 20 + 460; a = src[q] holds in[4q .. 4q+3], a.data[3] = 4q + 3;
// out[L] = s + 1000·(4q + 3) = 4144q + 3480: 3480, 7624, 11768, 15912 for q = 0..3.
// sizes: Vec<float>::SIZE = 16/4 = 4, Vec<double> 16/8 = 2, Vec<short> 16/2 = 8,
// width_of(1.0f) = 4, width_of(char) = 16 (16 / 16 = 1), and the topk shape
// Bytes<32>::ELTS = MIN(16, 4·32)/4 = 4, Bytes<2>::ELTS = MIN(16, 4·2)/4 = 2:
// 4 + 100·2 + 1000·8 + 10000·4 + 100000·1 + 1000000·4 + 10000000·2 = 24148204.
#define MIN_OF(a, b) ((a) < (b) ? (a) : (b))
template <typename T, int N>
struct alignas(sizeof(T) * N) AlignedArray {
    T data[N];
};
template <typename T, int N = 16 / sizeof(T)>
struct Vec {
    T data[N];
    static constexpr int SIZE = N;
};
template <int EXPERTS, int BYTES_PER_LDG = MIN_OF(16, sizeof(float) * EXPERTS)>
struct Bytes {
    static constexpr int ELTS = BYTES_PER_LDG / sizeof(float);
};
template <typename T, int N = 16 / sizeof(T)>
__device__ int width_of(T x) {
    T buf[N];
    for (int i = 0; i < N; ++i) buf[i] = x;
    return N;
}
__global__ void k(const float* in, float* out, int* sizes) {
    using AccessType = AlignedArray<float, 4>;
    float chunk[8];
    AccessType* dst = reinterpret_cast<AccessType*>(&chunk);
    const AccessType* src = reinterpret_cast<const AccessType*>(in);
    const int q = threadIdx.x % 4;
    for (int ii = 0; ii < 2; ++ii) dst[ii] = src[q + 4 * ii];
    float s = 0.f;
    for (int i = 0; i < 8; ++i) s += chunk[i] * (i + 1);
    AccessType a = src[q];
    out[threadIdx.x] = s + 1000.f * a.data[3];
    sizes[threadIdx.x] = Vec<float>::SIZE + 100 * Vec<double>::SIZE + 1000 * Vec<short>::SIZE +
                         10000 * width_of(1.0f) + 100000 * (width_of((char)1) / 16) +
                         1000000 * Bytes<32>::ELTS + 10000000 * Bytes<2>::ELTS;
}
