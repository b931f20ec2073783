@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> tile: array<u32, 64>;
fn store(i: u32) {
  if (i >= 60u) {
    return;
  }
  tile[i] = i;
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  store(i);
  workgroupBarrier();
  out[i] = tile[63u - i];
}
