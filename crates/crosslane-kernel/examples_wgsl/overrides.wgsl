// Overrides: one whose default is an expression of another, @workgroup_size and a
// workgroup array sized by one; set them with --override WG=4 --override SCALE=2.
override WG: u32 = 8;
override HALF: u32 = WG / 2u;
override SCALE: f32 = 1.5;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
var<workgroup> tile: array<f32, WG>;
@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) i: u32) {
  tile[i] = f32(i) * SCALE;
  workgroupBarrier();
  out[i] = tile[(i + HALF) % WG];
}
