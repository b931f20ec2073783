__device__ void test_builtin_mxc_ldg_b32_bsm(int *ptr) {
  extern __shared__ int shared_ptr[];
  v1u32 ret_flag = __builtin_mxc_ldg_b32_bsm(shared_ptr, ptr, 0, -1, false, false, false, false);
  __builtin_mxc_barrier_and_wait1(1, ret_flag);
}
// or
__device__ void test_builtin_mxc_ldg_b32_bsm(int *ptr) {
  extern __shared__ int shared_ptr[];
  __builtin_mxc_ldg_b32_bsm(shared_ptr, ptr, 0, -1, false, false, false, false);
  __syncthreads();
  // then load data from shared_ptr
}
