enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) lid: u32) {
  var t = 0u;
  for (var i = 0u; i < 3u; t = 0u) {
    if (t == 0u) { o[lid] += subgroupAdd(1u); }
    t = lid;
    i++;
  }
}
