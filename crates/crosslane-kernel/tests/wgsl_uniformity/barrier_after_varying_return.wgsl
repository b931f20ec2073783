@group(0) @binding(0) var<storage, read_write> o: array<u32>;
var<workgroup> t: array<u32, 64>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  if (i >= arrayLength(&o)) {
    return;
  }
  t[i] = o[i];
  workgroupBarrier();
  o[i] = t[63u - i];
}
