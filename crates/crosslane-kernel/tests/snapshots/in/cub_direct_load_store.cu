// snapshot: threads=8
// cub::LoadDirectBlocked / LoadDirectStriped / StoreDirectBlocked / StoreDirectStriped without
// a BlockLoad. in[i] = i (8 cells). Thread t:
// a: blocked guarded load of 4 items (valid 8) into items preset to -1: items[i] = in[4t + i]
//    where 4t + i < 8, else left -1; striped store <8> guarded by 8 writes a[t + 8i] for
//    t + 8i < 8, i.e. a[t] = items[0]: a = 0 4 -1 -1 -1 -1 -1 -1.
// b: striped <8> load guarded by 8 with oob_default 100: items = {t, 100, 100, 100}; blocked
//    store guarded by 8: b[4t + i] for 4t + i < 8: b = 0 100 100 100 1 100 100 100.
// c: threads 0..3 load 2 blocked items {in[2t], in[2t + 1]} and store them striped <4>:
//    c[t] = 2t, c[t + 4] = 2t + 1: c = 0 2 4 6 1 3 5 7.
#include <cub/cub.cuh>
__global__ void direct(const int* in, int* a, int* b, int* c) {
  int t = threadIdx.x;
  int items[4] = {-1, -1, -1, -1};
  cub::LoadDirectBlocked(t, in, items, 8);
  cub::StoreDirectStriped<8>(t, a, items, 8);
  int striped[4];
  cub::LoadDirectStriped<8>(t, in, striped, 8, 100);
  cub::StoreDirectBlocked(t, b, striped, 8);
  if (t < 4) {
    int two[2];
    cub::LoadDirectBlocked(t, in, two);
    cub::StoreDirectStriped<4>(t, c, two);
  }
}
