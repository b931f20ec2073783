// `goto` is refused at the label (line 8, column 6) with what to write instead: the statement
// machine is structured (each branch and loop rejoins its lanes at a known point), and a jump
// among lanes that diverged needs a reconvergence point the source does not give. Restructured,
// this kernel is `for (i = 0; i < 4; i++) s += i;` then `if (t != 1) s += 100;`. Nothing runs.
__global__ void k(int* out) {
  int t = threadIdx.x;
  int i = 0, s = 0;
again:
  s += i;
  i++;
  if (i < 4) goto again;
  out[t] = s;
}
