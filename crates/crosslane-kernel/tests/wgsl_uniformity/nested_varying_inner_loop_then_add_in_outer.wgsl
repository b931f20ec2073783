enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  var s = 0u;
  for (var a = 0u; a < 4u; a++) {
    for (var b = 0u; b < i; b++) { s += b; }
    s = subgroupAdd(s);
  }
  out[i] = s;
}
