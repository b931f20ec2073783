enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@group(0) @binding(1) var<uniform> n: u32;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) lid: u32) {
  var a = array<u32, 4>(lid, 0u, 0u, 0u);
  a = array<u32, 4>(1u, 2u, 3u, 4u);
  if (a[0] == 1u) { o[lid] = subgroupAdd(3u); }
}
