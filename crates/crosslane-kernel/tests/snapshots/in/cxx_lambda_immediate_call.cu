// Lambdas called where they are made ("immediately invoked": `const auto v = [&] { … }();`,
// the shape vLLM and PyTorch use to initialize a const from branches) and lambdas passed to a
// device function template. [expr.prim.lambda.closure]/3: the closure's operator() runs the
// body; [expr.prim.lambda.capture]: `[&]` names the variables themselves, `[=]` copies them.
// Lane L (0..31):
//   pick[L]  = L even: 10·L; L odd: −L (two returns, deduced int): 0, −1, 20, −3, 40, …
//   count[L] = three statement-level calls `[&]() { count += i; }()` for i = 0, 1, 2 add 3,
//              then `[=](int a, int b) { return a * b + L; }(3, 4)` adds 12 + L: 15 + L.
//   total[L] = a warp sum inside an immediately called lambda: Σ over the 32 lanes of L is
//              496 (32·31/2), the same in every lane, plus apply(twice, L) = 2·L through a
//              template taking the callable: 496 + 2·L.
template <typename F>
__device__ int apply(F f, int x) {
    return f(x);
}
__global__ void k(int* pick, int* count, int* total) {
    int lane = threadIdx.x;
    const int chosen = [&] {
        if (lane % 2 == 0) {
            return lane * 10;
        }
        return -lane;
    }();
    pick[lane] = chosen;
    int c = 0;
    for (int i = 0; i < 3; ++i) {
        [&]() { c += i; }();
    }
    count[lane] = c + [=](int a, int b) { return a * b + lane; }(3, 4);
    const int sum = [&]() {
        int v = lane;
        for (int o = 16; o > 0; o >>= 1) {
            v += __shfl_xor_sync(0xffffffffu, v, o);
        }
        return v;
    }();
    total[lane] = sum + apply([](int y) { return 2 * y; }, lane);
}
