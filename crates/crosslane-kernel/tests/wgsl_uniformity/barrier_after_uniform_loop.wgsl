@group(0) @binding(0) var<storage, read_write> o: array<u32>;
var<workgroup> t: array<u32, 64>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  t[i] = i;
  for (var s = 32u; s > 0u; s = s / 2u) {
    workgroupBarrier();
    if (i < s) {
      t[i] += t[i + s];
    }
  }
  workgroupBarrier();
  o[i] = t[0];
}
