// snapshot: threads=32
// PTX ISA, "Operand Type Information": a `.b32` instruction takes a register of any 32-bit
// type, so `shfl.sync.bfly.b32` with `"f"` operands moves the float's bits unchanged. x = 0, 1,
// …, 31 and lane mask 1 swap neighbours: r[t] = t ^ 1 = 1, 0, 3, 2, …, 31, 30.
__global__ void k(const float* x, float* r) {
  float v = x[threadIdx.x], out;
  int m = 1;
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=f"(out) : "f"(v), "r"(m));
  r[threadIdx.x] = out;
}
