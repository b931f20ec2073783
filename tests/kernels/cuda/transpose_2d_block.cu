// A 2-D block: each thread moves one element of an 8x4 tile to its transposed place.
#define TILE_W 8
#define TILE_H 4
__global__ void transposeTile(const int* in, int* out) {
    int x = threadIdx.x;
    int y = threadIdx.y;
    out[x * TILE_H + y] = in[y * TILE_W + x];
}
int main() {
    dim3 block(TILE_W, TILE_H);
    int *d_in, *d_out;
    cudaMalloc(&d_in, TILE_W * TILE_H * sizeof(int));
    // The input: cell i = i, copied from the host (cudaMalloc does not clear memory).
    int h_in[TILE_W * TILE_H];
    for (int i = 0; i < TILE_W * TILE_H; i++) h_in[i] = i;
    cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
    cudaMalloc(&d_out, TILE_W * TILE_H * sizeof(int));
    transposeTile<<<1, block>>>(d_in, d_out);
}
