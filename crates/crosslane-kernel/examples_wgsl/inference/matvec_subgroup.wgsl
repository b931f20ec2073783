// y = W x for an 8 x 32 W: each row's 32 products reduced by subgroupAdd, written by
// invocation 0.
enable subgroups;
@group(0) @binding(0) var<storage, read> w: array<f32, 256>;
@group(0) @binding(1) var<storage, read> x: array<f32, 32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32, 8>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) i: u32) {
  for (var r = 0u; r < 8u; r++) {
    let s = subgroupAdd(w[r * 32u + i] * x[i]);
    if (i == 0u) { y[r] = s; }
  }
}
