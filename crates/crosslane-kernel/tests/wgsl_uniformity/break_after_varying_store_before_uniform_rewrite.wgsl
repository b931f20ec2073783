enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) lid: u32) {
  var t = 0u; var n = 0u;
  loop {
    t = lid;
    if (n == 1u) { break; }
    t = 0u;
    continuing { n++; break if n >= 3u; }
  }
  if (t == 0u) { o[lid] += subgroupAdd(1u); }
}
