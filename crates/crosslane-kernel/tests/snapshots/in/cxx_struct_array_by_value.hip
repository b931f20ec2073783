// snapshot: threads=8
// A struct with array members passed by value (the MIGraphX shape/tensor_view shape): the
// parameter is a copy ([expr.call]/7, [class.copy.ctor]/14 copies an array member element by
// element), so the callee's writes stay in its copy. (Each callee names its parameter
// differently so the memory tables below show each copy apart from the caller's `s`:
// a.*, b.* and c.* are the callees' local copies.)
// s = {lens {4, 8}, strides {8, 1}}; lane l (8 lanes): i = l / 4, j = l % 4.
//   idx[l] = index_of(s, i, j) = i * 8 + j * 1 -> 0 1 2 3 8 9 10 11.
//   bumped(s, l) sets its copy's lens[0] to 100 + l and returns lens[0] + lens[1]:
//   ret[l] = 100 + l + 8 -> 108 109 110 111 112 113 114 115,
//   and the caller's s.lens[0] is still 4: kept[l] = 4.
//   A member function takes one by value too: off.at(s) with off.base = l adds base to its
//   copy's strides[0] and returns strides[0] * 10 + strides[1] = (8 + l) * 10 + 1:
//   mem[l] = 81 91 101 111 121 131 141 151; s.strides[0] stays 8: kept2[l] = 8.
struct shape2 { int lens[2]; int strides[2]; };
__device__ int index_of(shape2 a, int i, int j) { return i * a.strides[0] + j * a.strides[1]; }
__device__ int bumped(shape2 b, int l) {
  b.lens[0] = 100 + l;
  return b.lens[0] + b.lens[1];
}
struct offset {
  int base;
  __device__ int at(shape2 c) {
    c.strides[0] += base;
    return c.strides[0] * 10 + c.strides[1];
  }
};
__global__ void k(int* idx, int* ret, int* kept, int* mem, int* kept2) {
  int l = threadIdx.x;
  shape2 s{{4, 8}, {8, 1}};
  idx[l] = index_of(s, l / 4, l % 4);
  ret[l] = bumped(s, l);
  kept[l] = s.lens[0];
  offset off{l};
  mem[l] = off.at(s);
  kept2[l] = s.strides[0];
}
