// The CUDA samples' SharedMemory<T> idiom: a class template whose conversion operators return
// the dynamic `extern __shared__` array as T*, used by a templated block reduction.
template <class T>
struct SharedMemory {
    __device__ inline operator T*() {
        extern __shared__ int __smem[];
        return (T*)__smem;
    }
    __device__ inline operator const T*() const {
        extern __shared__ int __smem[];
        return (T*)__smem;
    }
};

template <class T>
__global__ void reduceInterleaved(const T* g_idata, T* g_odata) {
    T* sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    sdata[tid] = g_idata[tid];
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

int main() {
    int *in, *out;
    reduceInterleaved<int><<<1, 64, 64 * sizeof(int)>>>(in, out);
    return 0;
}
