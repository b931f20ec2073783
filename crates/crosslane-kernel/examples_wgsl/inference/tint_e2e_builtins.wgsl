// The tint end-to-end test shape: single-invocation built-in calls stored to a prevent_dce
// binding so nothing is eliminated.
@group(0) @binding(0) var<storage, read_write> prevent_dce: array<u32, 8>;
fn count_one_bits() -> vec4<u32> {
  var arg_0 = vec4<u32>(1u, 3u, 7u, 0xffffffffu);
  return countOneBits(arg_0);
}
@compute @workgroup_size(1)
fn compute_main() {
  let c = count_one_bits();
  prevent_dce[0] = c.x + c.y * 10u + c.z * 100u + c.w * 1000u;
  prevent_dce[1] = pack2x16float(vec2<f32>(0.5, -1.0));
  prevent_dce[2] = pack4x8unorm(unpack4x8unorm(0x11223344u));
  prevent_dce[3] = u32(all(vec3<bool>(true, true, false))) + 2u * u32(any(vec2<bool>(false, true)));
  prevent_dce[4] = bitcast<u32>(1.0f);
  prevent_dce[5] = select(vec2<u32>(1u), vec2<u32>(2u), vec2<bool>(true, false)).y;
  prevent_dce[6] = firstLeadingBit(0x00ff0000u);
  prevent_dce[7] = reverseBits(extractBits(0xabcdu, 4u, 8u));
}
