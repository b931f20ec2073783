// GELU, tanh form: 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
@group(0) @binding(0) var<storage, read> x: array<vec4<f32>, 8>;
@group(0) @binding(1) var<storage, read_write> y: array<vec4<f32>, 8>;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  let v = (x[i] - 16.0) * 0.25;
  let inner = 0.7978845608 * (v + 0.044715 * v * v * v);
  y[i] = 0.5 * v * (1.0 + tanh(inner));
}
