@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> tile: array<u32, 64>;
fn pick(x: u32, g: u32) -> u32 {
  if (x > 3u) {
    return g;
  }
  return g + 1u;
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
  tile[i] = i;
  if (pick(i, wid.x) == 1u) {
    workgroupBarrier();
  }
  out[i] = tile[63u - i];
}
