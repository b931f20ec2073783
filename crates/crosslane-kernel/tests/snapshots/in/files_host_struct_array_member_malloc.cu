// A buffer of structs with an array member (llama.cpp's quantization blocks) allocated as
// `cudaMalloc(&y, 4 * sizeof(Q))`: each array member is one buffer holding every struct's
// elements in turn (`y.qs` = y[0].qs[0..8], y[1].qs[0..8], …). sizeof(Q) is the parser's one
// layout: d at 0 (4 bytes), qs at 4 (8 bytes), size 12, alignment 4 ([class.mem]/17-18), so
// the 48 bytes are 4 structs: `y.d` 4 cells, `y.qs` 4 * 8 = 32 cells. Thread i writes
// y[i / 8].qs[i % 8] = i, and thread 8b writes y[b].d = b + 0.5:
//   y.qs = 0 1 2 … 31;
//   y.d  = 0.5 1.5 2.5 3.5.
struct Q {
    float d;
    signed char qs[8];
};
__global__ void quant(Q* y) {
    int i = threadIdx.x;
    y[i / 8].qs[i % 8] = (signed char)i;
    if (i % 8 == 0) y[i / 8].d = i / 8 + 0.5f;
}
int main() {
    Q* y;
    cudaMalloc(&y, 4 * sizeof(Q));
    quant<<<1, 32>>>(y);
}
