@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> tile: array<u32, 64>;
fn inner(n: u32) {
  if (n != 0u) {
    workgroupBarrier();
  }
}
fn outer(n: u32) {
  inner(n * 2u);
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  tile[i] = i;
  outer(nwg.x);
  out[i] = tile[63u - i];
}
