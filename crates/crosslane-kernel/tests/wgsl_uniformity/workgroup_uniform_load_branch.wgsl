enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> w: u32;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  if (i == 0u) { w = 5u; }
  let v = workgroupUniformLoad(&w);
  if (v > 0u) { out[i] = subgroupAdd(i); }
}
