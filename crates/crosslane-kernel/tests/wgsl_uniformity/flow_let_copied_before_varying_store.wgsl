enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) lid: u32) {
  var x = 0u;
  let a = x;
  x = lid;
  if (a == 0u) { o[lid] = subgroupAdd(1u); }
}
