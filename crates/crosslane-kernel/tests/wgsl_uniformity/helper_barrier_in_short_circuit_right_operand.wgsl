@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> tile: array<u32, 64>;
fn synced(i: u32, g: u32) -> bool {
  workgroupBarrier();
  return g == 0u;
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
  tile[i] = i;
  if (i < 8u && synced(i, wid.x)) {
    out[i] = tile[63u - i];
  }
}
