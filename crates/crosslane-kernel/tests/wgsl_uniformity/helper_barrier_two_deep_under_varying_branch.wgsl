@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> tile: array<u32, 64>;
fn inner() {
  workgroupBarrier();
}
fn outer() {
  inner();
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  tile[i] = i;
  if (i < 32u) {
    outer();
  }
  out[i] = tile[63u - i];
}
