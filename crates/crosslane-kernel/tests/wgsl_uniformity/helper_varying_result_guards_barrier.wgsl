@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> tile: array<u32, 64>;
fn lane(id: vec3<u32>) -> u32 {
  return id.x % 4u;
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {
  tile[lid.x] = lid.x;
  if (lane(lid) == 0u) {
    workgroupBarrier();
  }
  out[lid.x] = tile[63u - lid.x];
}
