enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32, @builtin(subgroup_id) sg: u32, @builtin(num_subgroups) ns: u32) {
  if (sg + 1u < ns) { out[i] = subgroupAdd(i); }
}
