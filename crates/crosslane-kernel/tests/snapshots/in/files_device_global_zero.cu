// A file-scope `__device__` variable without an initializer is global memory of static storage
// duration, so it starts as zero (C++17 [basic.start.static]/2: zero-initialized when not
// constant-initialized; CUDA C++ Programming Guide, "Variable Memory Space Specifiers",
// `__device__`). The kernel gets it as the buffer `device_counter`; a host global beside it is
// only noted (host code is not run).
// Expected: out[t] = 0 for every t (32 threads), device_counter = [0].
int host_counter = 0;
__device__ int device_counter;

__global__ void k(int* out) { out[threadIdx.x] = device_counter; }
