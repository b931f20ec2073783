enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  if (i < 3u) { out[i] = 0u; } else { out[i] = subgroupMin(i); }
}
