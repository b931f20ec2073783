// Inside a divergent branch only the branch's lanes are active.
__global__ void whoIsActive(unsigned* out) {
    int lane = threadIdx.x % 32;
    if (lane < 10) {
        out[lane] = __activemask();
    } else {
        out[lane] = 0;
    }
}
