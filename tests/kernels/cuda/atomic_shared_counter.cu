// Every thread adds its lane to one shared counter; thread 0 publishes it.
__global__ void sumLanes(int* out) {
    __shared__ int total[1];
    if (threadIdx.x == 0) total[0] = 0;
    __syncthreads();
    atomicAdd(&total[0], (int)(threadIdx.x % 32));
    __syncthreads();
    if (threadIdx.x == 0) out[0] = total[0];
}
