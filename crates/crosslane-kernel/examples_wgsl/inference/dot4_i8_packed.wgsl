// Packed int8 dot products as a q8 matmul inner loop does them: pack4xI8 then dot4I8Packed.
@group(0) @binding(0) var<storage, read_write> out: array<i32, 16>;
@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) i: u32) {
  let k = i32(i);
  let a = pack4xI8(vec4<i32>(k, -k, 2, -3));
  let b = pack4xI8(vec4<i32>(1, 2, k, 4));
  out[i] = dot4I8Packed(a, b);
}
