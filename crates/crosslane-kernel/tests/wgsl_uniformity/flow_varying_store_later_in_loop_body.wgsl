enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) lid: u32) {
  var x = 0u;
  for (var i = 0u; i < 4u; i++) {
    if (x == 0u) { o[lid] = subgroupAdd(1u); }
    x = lid;
  }
}
