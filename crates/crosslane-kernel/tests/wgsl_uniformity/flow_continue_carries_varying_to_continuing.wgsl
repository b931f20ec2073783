enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@group(0) @binding(1) var<uniform> n: u32;
@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) lid: u32) {
  var x = 0u;
  var k = 0u;
  loop {
    x = lid;
    if (n > 2u) { continue; }
    x = 0u;
    continuing { if (x == 0u) { o[lid] = subgroupAdd(1u); } k += 1u; break if k > 3u; }
  }
}
