// snapshot: threads=32
// A warp reduction chosen among function templates by an enumeration-typed template parameter,
// in the shape of DeepSpeed's reduction header: `_warp<Op, W>` (one operation) beside
// `_warp<Op1, Op2, W>` (two), called as `_warp<Op, num_threads>` from a template whose
// `num_threads` is an `int`: the `int` cannot be an `Op2` (C++17 [temp.arg.nontype]/2), so the
// one-operation template runs. Lane l holds v = l: the xor-butterfly sum over 32 lanes is
// 496 in every lane, the max 31. Lanes 0..7 store (sum, max, l, 2l) as one aligned 4-float
// struct through a cast pointer: out[4l..4l+3] = 496, 31, l, 2l (the 32 cells of `out`).
enum class ROpType { Add, Max };
template <ROpType Op> __device__ float element(float a, float b);
template <> __device__ float element<ROpType::Add>(float a, float b) { return a + b; }
template <> __device__ float element<ROpType::Max>(float a, float b) { return fmaxf(a, b); }
template <ROpType Op, int W = 32>
__device__ void _warp(float* data)
{
    for (int i = W / 2; i > 0; i /= 2) data[0] = element<Op>(data[0], __shfl_xor_sync(0xffffffff, data[0], i));
}
template <ROpType Op1, ROpType Op2, int W = 32>
__device__ void _warp(float* data)
{
    for (int i = W / 2; i > 0; i /= 2) {
        data[0] = element<Op1>(data[0], __shfl_xor_sync(0xffffffff, data[0], i));
        data[1] = element<Op2>(data[1], __shfl_xor_sync(0xffffffff, data[1], i));
    }
}
template <ROpType Op, int num_threads>
__device__ float block(float v)
{
    float d[1] = {v};
    _warp<Op, num_threads>(d);
    return d[0];
}
template <typename T, int N> struct alignas(sizeof(T) * N) aligned_vector { T val[N]; };
__global__ void reduce_store(float* out)
{
    float v = threadIdx.x;
    float two[2] = {v, v};
    _warp<ROpType::Add, ROpType::Max>(two);
    float r[4] = {block<ROpType::Add, 32>(v), two[1], v, 2.0f * v};
    aligned_vector<float, 4>* rv = reinterpret_cast<aligned_vector<float, 4>*>(&r);
    if (threadIdx.x < 8) *(reinterpret_cast<aligned_vector<float, 4>*>(&out[threadIdx.x * 4])) = *rv;
}
