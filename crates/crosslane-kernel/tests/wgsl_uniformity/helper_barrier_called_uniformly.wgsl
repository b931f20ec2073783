@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> tile: array<u32, 64>;
fn sync() {
  workgroupBarrier();
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {
  tile[lid.x] = lid.x;
  sync();
  if (lid.x == 0u) {
    out[0] = tile[63];
  }
}
