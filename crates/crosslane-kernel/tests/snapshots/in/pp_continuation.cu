// A function-like macro continued over three lines by backslashes ([lex.phases]/1.2):
// SQ(x) is ((x) * (x)). Expected: out[lane] = lane * lane (0, 1, 4, …, 961).
#define SQ(x) \
    ((x) * \
     (x))
__global__ void k(int *out) {
    int lane = threadIdx.x;
    out[lane] = SQ(lane);
}
