// snapshot: threads=8
// Destructors with statements run where each object's block ends, the last constructed first
// (C++17 [class.dtor]/12, [stmt.jump]/2), also on `break`, `continue` and `return` out of the
// block, after a `return`'s value is computed ([stmt.return]/3). Thread 0 logs each destroyed
// object's value into `out`, its count in `cnt[0]`; the other threads return at once.
//
// By hand: loop i = 0: d(10) and e(20) live, the body ends: e then d → 20, 10;
// i = 1: d(11), `continue` → 11; i = 2: d(12), `break` → 12. f(5): a(100), b(200), returns
// 2·5 + 4 = 14 (cnt is 4 when the value is computed), then b, a → 200, 100. f(0): a(100),
// returns −1, then a → 100. out: 20 10 11 12 200 100 100 and its last cell untouched (7, the
// default fill's index); cnt[0] = 7; r[0] = 14, r[1] = −1.
struct Log {
  int* row;
  int* n;
  int v;
  __device__ Log(int* r, int* c, int x) : row(r), n(c), v(x) {}
  __device__ ~Log() {
    row[*n] = v;
    *n = *n + 1;
  }
};

__device__ int f(int* row, int* cnt, int x) {
  Log a(row, cnt, 100);
  if (x > 0) {
    Log b(row, cnt, 200);
    return x * 2 + *cnt;
  }
  return -1;
}

__global__ void k(int* out, int* cnt, int* r) {
  if (threadIdx.x != 0) return;
  int* row = out;
  int* c = cnt;
  *c = 0;
  for (int i = 0; i < 3; i++) {
    Log d(row, c, 10 + i);
    if (i == 1) continue;
    if (i == 2) break;
    Log e(row, c, 20 + i);
  }
  r[0] = f(row, c, 5);
  r[1] = f(row, c, 0);
}
