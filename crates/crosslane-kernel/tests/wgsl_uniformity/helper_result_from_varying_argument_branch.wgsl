enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
fn twice(x: u32) -> u32 { return x * 2u; }
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  if (twice(i) > 3u) { out[i] = subgroupAdd(i); }
}
