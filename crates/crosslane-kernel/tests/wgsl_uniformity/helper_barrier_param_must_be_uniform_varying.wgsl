@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> tile: array<u32, 64>;
fn maybe_sync(n: u32) {
  if (n > 1u) {
    workgroupBarrier();
  }
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {
  tile[lid.x] = lid.x;
  maybe_sync(lid.x);
  out[lid.x] = tile[63u - lid.x];
}
