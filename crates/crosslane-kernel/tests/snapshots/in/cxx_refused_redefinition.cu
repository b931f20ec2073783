// A second `float wt[2];` in the same block: nvcc stops with "wt" has already been declared
// in the current scope (C++17 [basic.scope.declarative]/4), so the run is refused at line 8,
// column 11 (the second `wt`), and nothing runs. The loops each own their `i` and the inner
// block's `wt` hides the outer one: those are not redefinitions.
__global__ void k(float *out) {
    float wt[2];
    wt[0] = 1.0f;
    float wt[2];
    for (int i = 0; i < 2; i++) wt[i] = 0.0f;
    for (int i = 0; i < 2; i++) { float wt = 3.0f; out[i] = wt; }
    out[threadIdx.x] = wt[0];
}
