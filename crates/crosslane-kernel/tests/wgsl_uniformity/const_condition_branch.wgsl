enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
const N = 4u;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  if (N > 2u) { out[i] = subgroupAdd(i); }
}
