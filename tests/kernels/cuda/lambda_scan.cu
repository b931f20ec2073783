// A warp inclusive scan taking its operation as a callable, passed lambdas: one without
// captures, one capturing a local by reference ([&]) that changes between calls, one capturing
// by copy ([=]). __shfl_up_sync reads lane - delta; lanes below delta keep their own value and
// skip the operation (CUDA C++ Programming Guide, "Warp Shuffle Functions").

template <typename F>
__device__ int inclusive_scan(int v, F op) {
    int lane = threadIdx.x & 31;
    for (int d = 1; d < 32; d <<= 1) {
        int n = __shfl_up_sync(0xffffffff, v, d);
        if (lane >= d) v = op(v, n);
    }
    return v;
}

__global__ void scans(const int* in, int* plain, int* biased, int* scaled, int k) {
    int x = in[threadIdx.x];
    auto add = [](int a, int b) { return a + b; };
    plain[threadIdx.x] = inclusive_scan(x, add);

    int bias = 0;
    auto add_bias = [&](int a, int b) { return a + b + bias; };
    bias = k;  // seen by the lambda: it holds a reference
    biased[threadIdx.x] = inclusive_scan(x, add_bias);

    int factor = k;
    auto times = [=](int a) -> int { return a * factor; };
    factor = 100;  // not seen: the lambda holds its own copy
    scaled[threadIdx.x] = times(plain[threadIdx.x]);
}
