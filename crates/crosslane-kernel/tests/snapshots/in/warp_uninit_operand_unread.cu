// A lane's own operand to a cross-lane op that no lane reads is not a use ([dcl.init]/12: it
// is using an indeterminate value that is undefined). The CUDA C++ Programming Guide's
// broadcast example sets `value` in lane 0 only, then `__shfl_sync(0xffffffff, value, 0)`:
// every lane reads lane 0's, so no warning and b[l] = 1234 in all 32 lanes.
// x: `v` is set in the even lanes only (v = 10 l); `__shfl_xor_sync(…, v, 1)` makes lane l
// read lane l ^ 1. An odd lane reads the even lane below it: x[l] = 10 (l - 1) for odd l
// (1 -> 0, 3 -> 20, …, 31 -> 300). An even lane reads an odd lane's uninitialized `v`: its
// result is undefined (`?`), with one warning at the call (lanes 0, 2, …, 30) and the store's.
// A ballot reads every lane's predicate: `p` set in lane 0 only is read uninitialized in lanes
// 1-31, warned at the operand as any read. The ballot's bits 1-31 are then undefined, and the
// emulator keeps undefinedness per value, not per bit: the whole mask is undefined, and so is
// `& 1u` of it, bal[l] = ? in every lane (a device gives 1: lane 0's bit is its own p = 1).
__global__ void k(int* b, int* x, unsigned* bal) {
  int laneId = threadIdx.x & 0x1f;
  int value;
  if (laneId == 0) value = 1234;
  value = __shfl_sync(0xffffffff, value, 0);
  b[threadIdx.x] = value;
  int v;
  if (laneId % 2 == 0) v = 10 * laneId;
  x[threadIdx.x] = __shfl_xor_sync(0xffffffff, v, 1);
  int p;
  if (laneId == 0) p = 1;
  bal[threadIdx.x] = __ballot_sync(0xffffffff, p) & 1u;
}
