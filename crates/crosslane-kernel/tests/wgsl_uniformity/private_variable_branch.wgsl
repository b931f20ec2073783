enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<private> p: u32 = 1u;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  if (p > 0u) { out[i] = subgroupAdd(i); }
}
