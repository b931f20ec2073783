enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  var s = 0u;
  for (var k = 0u; k < i; k++) { s += k; }
  out[i] = subgroupAdd(s);
}
