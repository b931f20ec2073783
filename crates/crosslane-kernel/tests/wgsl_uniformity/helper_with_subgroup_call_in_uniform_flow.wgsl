enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
fn total(x: u32) -> u32 {
  return subgroupAdd(x);
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  out[i] = total(i);
}
