// SiLU: x / (1 + exp(-x)), component-wise on vec4.
@group(0) @binding(0) var<storage, read> x: array<vec4<f32>, 8>;
@group(0) @binding(1) var<storage, read_write> y: array<vec4<f32>, 8>;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  let v = (x[i] - 16.0) * 0.25;
  y[i] = v / (vec4<f32>(1.0) + exp(-v));
}
