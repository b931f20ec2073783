enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@group(0) @binding(1) var<uniform> n: u32;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) lid: u32) {
  var z = lid;
  for (var k = 0u; k < 2u; k++) { z = k; }
  if (z == 1u) { o[lid] = subgroupAdd(3u); }
}
