@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> tile: array<u32, 64>;
fn group_parity(id: vec3<u32>) -> u32 {
  return id.x % 2u;
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
  tile[i] = i;
  if (group_parity(wid) == 0u) {
    workgroupBarrier();
  }
  out[i] = tile[63u - i];
}
