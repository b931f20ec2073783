enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) lid: u32) {
  var t = 0u; var u = 0u;
  loop {
    if (t == 0u) { o[lid] += subgroupAdd(1u); }
    t = u;
    continuing { u = lid; break if o[0] > 5u; }
  }
}
