// C = A B in 4 x 4 tiles held as mat4x4<f32>: invocation i sums A[i][k] * B[k] over k, as
// a tiled matmul keeps one tile per register block. Tiles are column-major (WGSL's layout).
@group(0) @binding(0) var<storage, read> a: array<mat4x4<f32>, 16>;
@group(0) @binding(1) var<storage, read> b: array<mat4x4<f32>, 4>;
@group(0) @binding(2) var<storage, read_write> c: array<mat4x4<f32>, 4>;
@group(0) @binding(3) var<storage, read_write> trace_out: array<f32, 4>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  var acc = mat4x4<f32>();
  for (var k = 0u; k < 4u; k++) {
    acc += a[i * 4u + k] * b[k];
  }
  c[i] = acc;
  // The trace of the tile, through its columns: acc[j][j].
  var t = 0.0;
  for (var j = 0u; j < 4u; j++) {
    t += acc[j][j];
  }
  trace_out[i] = t;
}
