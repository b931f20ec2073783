// Rotary position embedding of 16 pairs: (x0, x1) rotated by theta = pos * 10000^(-2k / 32).
@group(0) @binding(0) var<storage, read> x: array<vec2<f32>, 16>;
@group(0) @binding(1) var<storage, read_write> y: array<vec2<f32>, 16>;
@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) k: u32) {
  let pos = 3.0;
  let theta = pos * pow(10000.0, -2.0 * f32(k) / 32.0);
  let c = cos(theta);
  let s = sin(theta);
  let v = x[k] * 0.1;
  y[k] = vec2<f32>(v.x * c - v.y * s, v.x * s + v.y * c);
}
