// snapshot: threads=4
// A MoE softmax row's shapes: `float running(-FLT_MAX);` direct-initialization, then `auto`
// typed by the math library's declared return types, and an `auto const*` from a cast.
// The host-less launch gives `x` its index fill 0 1 2 3 and `out`/`kinds` one cell per thread.
// running = fmaxf(-FLT_MAX, x) = x; n(2) = 2; the vector v{running, 0.25f} = (x, 0.25) (CUDA's
// float2 is an aggregate: braces, not parentheses).
// r = std::nearbyint(x * 1.5f): 0, 1.5 -> 2 (ties to even), 3, 4.5 -> 4 (C11 7.12.9.3).
// out[i] = v.x + v.y + n + r = i + 0.25 + 2 + r: 2.25, 5.25, 7.25, 9.25.
// r is a float (nearbyint(float), CUDA Math API), d = sqrt(2.0) a double, e = expf(x) a float:
// kinds[i] = sizeof(r) + 10 * sizeof(d) + 100 * sizeof(e) = 4 + 80 + 400 = 484.
__global__ void moe_row(const float *x, float *out, int *kinds) {
    const int i = threadIdx.x;
    float running(-FLT_MAX);
    running = fmaxf(running, x[i]);
    int n(2);
    float2 v{running, 0.25f};
    auto const r = std::nearbyint(x[i] * 1.5f);
    auto d = sqrt(2.0);
    auto e = expf(x[i]);
    out[i] = v.x + v.y + n + r;
    kinds[i] = sizeof(r) + 10 * sizeof(d) + 100 * sizeof(e);
}
