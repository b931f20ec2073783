enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@group(0) @binding(1) var<uniform> n: u32;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) lid: u32) {
  var t = lid;
  let p = &t;
  *p = 0u;
  if (t == 0u) { o[lid] = subgroupAdd(4u); }
}
