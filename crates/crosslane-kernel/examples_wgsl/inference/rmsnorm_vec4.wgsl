// RMSNorm of one 128-float row held as 32 vec4 (one per invocation): the sum of squares by
// dot, reduced across the subgroup, then x * inverseSqrt(mean + eps).
enable subgroups;
@group(0) @binding(0) var<storage, read> x: array<vec4<f32>, 32>;
@group(0) @binding(1) var<storage, read_write> y: array<vec4<f32>, 32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) i: u32) {
  let v = x[i] * 0.01;
  let ss = subgroupAdd(dot(v, v));
  let r = inverseSqrt(ss / 128.0 + 1e-5);
  y[i] = v * r;
}
