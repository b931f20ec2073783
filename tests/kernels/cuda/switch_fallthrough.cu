// switch with fallthrough, break and default, in a loop, and do … while: the shapes of
// per-lane dispatch in warp-level code (C++17 [stmt.switch], [stmt.break], [stmt.do]).
__global__ void dispatch(int* out) {
    int lane = threadIdx.x % warpSize;
    int r = 0;
    switch (lane % 4) {
        case 0:
            r = 10;          // falls through into case 1
        case 1:
            r += 1;
            break;
        case 2: {
            r = 20;
            break;
        }
        default:
            r = 30;
    }
    // `break` in a switch leaves the switch, not the loop around it.
    int acc = 0;
    for (int i = 0; i < 4; i++) {
        switch (i) {
            case 2:
                acc += 10;
                break;
            default:
                acc += 1;
                break;
        }
    }
    // The body runs once before the test: n = lane % 3 + 1.
    int n = 0;
    do {
        n++;
    } while (n < lane % 3 + 1);
    out[threadIdx.x] = r + 100 * acc + 10000 * n;
}
