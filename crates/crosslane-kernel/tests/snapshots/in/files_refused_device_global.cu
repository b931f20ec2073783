// A device global that is not a constant is refused at its line (device code could read it,
// but its value would come from host code crosslane does not run), saying what to write
// instead; a host global beside it is only noted.
int host_counter = 0;
__device__ int device_counter;

__global__ void k(int* out) { out[threadIdx.x] = device_counter; }
