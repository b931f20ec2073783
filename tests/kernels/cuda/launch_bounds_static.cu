// `__launch_bounds__` before `__global__`, between the return type and the name, and
// `static __global__`: the three places real kernels put them.
__launch_bounds__(256) __global__ void before(int* out) { out[threadIdx.x] = 1; }

__global__ void __launch_bounds__(128, 2) between(int* out) { out[threadIdx.x] = 2; }

static __global__ void internal(int* out) { out[threadIdx.x] = 3; }
