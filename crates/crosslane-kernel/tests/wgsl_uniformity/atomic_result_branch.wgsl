enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<storage, read_write> counter: atomic<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  let old = atomicAdd(&counter, 1u);
  if (old < 10u) { out[i] = subgroupAdd(i); }
}
