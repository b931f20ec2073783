// LayerNorm of 32 values: mean and variance by subgroupAdd, then (x - mean) * inverseSqrt.
enable subgroups;
@group(0) @binding(0) var<storage, read> x: array<f32, 32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32, 32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) i: u32) {
  let v = x[i] * 0.5;
  let mean = subgroupAdd(v) / 32.0;
  let d = v - mean;
  let variance = subgroupAdd(d * d) / 32.0;
  y[i] = d * inverseSqrt(variance + 1e-5);
}
