// snapshot: threads=4
// A by-value parameter is a local object of the call (C++17 [expr.call]/7), so its address may
// be taken: the radix-sort key idiom reads a float parameter's bits through `&f`, and a store
// through `&g` changes only the callee's copy. x = 0, 1, 2, 3 (floats), so
// key = 0x00000000, 0x3F800000, 0x40000000, 0x40400000 = 0, 1065353216, 1073741824, 1077936128;
// flipping the sign bit of the copy gives neg = -0, -1, -2, -3, and x is unchanged.
__device__ unsigned int key_bits(float f) { return *reinterpret_cast<unsigned int*>(&f); }
__device__ float negated(float g) {
  *reinterpret_cast<unsigned int*>(&g) ^= 0x80000000u;
  return g;
}
__global__ void k(float* x, unsigned int* key, float* neg) {
  int t = threadIdx.x;
  key[t] = key_bits(x[t]);
  neg[t] = negated(x[t]);
}
