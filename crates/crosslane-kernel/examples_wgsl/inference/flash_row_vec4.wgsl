// A flash-attention style row max and row sum on vec4 scores (128 per row, 4 per invocation):
// subgroupMax and subgroupAdd on vec4, then a horizontal max/sum of the four components.
enable subgroups;
@group(0) @binding(0) var<storage, read> s: array<vec4<f32>, 32>;
@group(0) @binding(1) var<storage, read_write> p: array<vec4<f32>, 32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) i: u32) {
  let v = s[i] * 0.05;
  let m4 = subgroupMax(v);
  let m = max(max(m4.x, m4.y), max(m4.z, m4.w));
  let e = exp(v - vec4<f32>(m));
  let l4 = subgroupAdd(e);
  let l = l4.x + l4.y + l4.z + l4.w;
  p[i] = e / l;
}
