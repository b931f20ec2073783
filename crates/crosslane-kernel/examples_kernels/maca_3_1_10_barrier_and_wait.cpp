__device__ void test_builtin_mxc_ldg_b32_bsm(int *ptr) {
  extern __shared__ int shared_ptr[];
  v1u32 ret_flag = __builtin_mxc_ldg_b32_bsm(shared_ptr, ptr, 0, -1, false, false, false, false);
  __builtin_mxc_barrier_and_wait1(1, ret_flag);
}

__device__ void test_builtin_mxc_ldg_b64_bsm(long *ptr) {
  extern __shared__ long shared_ptr[];
  v2u32 ret_flag = __builtin_mxc_ldg_b64_bsm(shared_ptr, ptr, 0, -1, false, false, false, false);
  __builtin_mxc_barrier_and_wait2(0, ret_flag);
}

// Pseudo code to build software memory and compute pipeline.
__global__ void test1(..) {
    ...
    __builtin_mxc_ldg_b64_bsm(shared_ptr1, ptr1, 0, -1, false, false, false, false);
    __builtin_mxc_ldg_b64_bsm(shared_ptr2, ptr2, 0, -1, false, false, false, false);
    __syncthreads(); // wait all memcpy from global to shared at the same time.
    compute();
    ...
}
__global__ void test2(..) {
    ...
    v2u32 ret_flag1 = __builtin_mxc_ldg_b64_bsm(shared_ptr1, ptr1, 0, -1, false, false, false, false);
    v2u32 ret_flag2 = __builtin_mxc_ldg_b64_bsm(shared_ptr2, ptr2, 0, -1, false, false, false, false);
    __builtin_mxc_barrier_and_wait2(0, ret_flag1); // only wait first memcpy
    compute1();
    __builtin_mxc_barrier_and_wait2(0, ret_flag2); // wait second memcpy
    compute2();
    ...
}
