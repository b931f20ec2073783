// An 8-bin histogram in workgroup memory with atomicAdd, copied out after a barrier.
@group(0) @binding(0) var<storage, read> x: array<u32, 64>;
@group(0) @binding(1) var<storage, read_write> hist: array<u32, 8>;
var<workgroup> bins: array<atomic<u32>, 8>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  atomicAdd(&bins[(x[i] * 5u) % 8u], 1u);
  workgroupBarrier();
  if (i < 8u) { hist[i] = atomicLoad(&bins[i]); }
}
