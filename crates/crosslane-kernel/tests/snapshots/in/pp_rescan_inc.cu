// `INC` is object-like and names the function-like ADD1; the `(5)` after it is read when the
// expansion is rescanned ([cpp.rescan]/1), so INC(5) is ((5) + 1) = 6 and INC(lane) is lane+1.
// Expected: a[lane] = 6, b[lane] = lane + 1 (1..32).
#define INC ADD1
#define ADD1(x) ((x) + 1)
__global__ void k(int *a, int *b) {
    int lane = threadIdx.x;
    a[lane] = INC(5);
    b[lane] = INC(lane);
}
