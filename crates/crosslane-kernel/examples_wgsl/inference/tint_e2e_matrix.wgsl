// The shape of Tint's end-to-end built-in tests: one invocation calls each matrix built-in
// on constant arguments held in variables and writes the result to a `prevent_dce` binding.
@group(0) @binding(0) var<storage, read_write> prevent_dce_t: mat3x2<f32>;
@group(0) @binding(1) var<storage, read_write> prevent_dce_d: array<f32, 2>;
@group(0) @binding(2) var<storage, read_write> prevent_dce_m: mat2x3<f32>;

fn transpose_2x3() {
  var arg_0 = mat2x3<f32>(1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
  var res: mat3x2<f32> = transpose(arg_0);
  prevent_dce_t = res;
}

fn determinant_4x4() {
  var arg_0 = mat4x4<f32>(2.0, 0.0, 0.0, 1.0,
                          0.0, 3.0, 0.0, 0.0,
                          0.0, 0.0, 4.0, 0.0,
                          1.0, 0.0, 0.0, 5.0);
  var res: f32 = determinant(arg_0);
  prevent_dce_d[0] = res;
}

fn determinant_2x2_f(a: f32) {
  var arg_0 = mat2x2<f32>(a, 1.0, 2.0, a);
  prevent_dce_d[1] = determinant(arg_0);
}

fn mul_2x3_2x2() {
  var a = mat2x3<f32>(1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
  var b = mat2x2<f32>(1.0, 0.0, 1.0, -1.0);
  prevent_dce_m = a * b;
}

@compute @workgroup_size(1)
fn compute_main() {
  transpose_2x3();
  determinant_4x4();
  determinant_2x2_f(3.0);
  mul_2x3_2x2();
}
