// A #define takes effect from its line and #undef ends it ([cpp.replace], [cpp.scope]):
// a[lane] reads V = 1, b[lane] reads V = 2 after the redefinition.
// Expected: a = 1 and b = 2 in all 32 cells; no redefinition warning (#undef came first).
#define V 1
__global__ void k(int *a, int *b) {
    int lane = threadIdx.x;
    a[lane] = V;
#undef V
#define V 2
    b[lane] = V;
}
