// A backward `goto` is refused at the `goto` (line 12, column 14) with what to write instead:
// the statement machine is structured (each branch and loop rejoins its lanes at a known
// point), and a jump back among lanes that diverged gives no such point (a forward `goto` to a
// label of an enclosing block runs: the lanes rejoin at the label). Restructured, this kernel
// is `for (i = 0; i < 4; i++) s += i;`. Nothing runs.
__global__ void k(int* out) {
  int t = threadIdx.x;
  int i = 0, s = 0;
again:
  s += i;
  i++;
  if (i < 4) goto again;
  out[t] = s;
}
