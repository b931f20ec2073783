// mat4x3 in a uniform-like storage buffer (columns 16 bytes apart), mat * vec, mat * mat,
// transpose, determinant, matrices in structs and locals.
struct Xf {
  m: mat4x3<f32>,
  s: f32,
}
@group(0) @binding(0) var<storage, read> xf: Xf;
@group(0) @binding(1) var<storage, read> v: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> outv: array<vec3<f32>>;
@group(0) @binding(3) var<storage, read_write> misc: array<f32, 8>;
@group(0) @binding(4) var<storage, read_write> mout: mat2x2<f32>;

fn scale(m: mat2x2<f32>, k: f32) -> mat2x2<f32> {
  return m * k;
}

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  let m = xf.m;
  outv[i] = m * v[i] * xf.s;
  if (i == 0u) {
    let a = mat2x2<f32>(1.0, 2.0, 3.0, 4.0);
    let b = mat2x2<f32>(vec2<f32>(5.0, 6.0), vec2<f32>(7.0, 8.0));
    let c = a * b;
    misc[0] = c[0][0];
    misc[1] = c[1].y;
    misc[2] = determinant(a);
    let t = transpose(m);
    misc[3] = t[2].w;
    misc[4] = determinant(mat3x3<f32>(2.0, 0.0, 1.0, 1.0, 3.0, 2.0, 1.0, 1.0, 1.0));
    var acc = a + b - a;
    acc[1][0] = 9.0;
    misc[5] = (vec2<f32>(1.0, 1.0) * acc).y;
    let j = i + 1u;
    misc[6] = a[j].x;
    mout = scale(acc, 2.0);
  }
}
