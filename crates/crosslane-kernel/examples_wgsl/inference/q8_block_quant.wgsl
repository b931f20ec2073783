// q8_0 style block quantization of 32 values: the block's absolute maximum by a
// subgroupShuffleXor butterfly, scale = amax / 127, q = round(x / scale).
enable subgroups;
@group(0) @binding(0) var<storage, read> x: array<f32, 32>;
@group(0) @binding(1) var<storage, read_write> q: array<i32, 32>;
@group(0) @binding(2) var<storage, read_write> scale: array<f32, 1>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) i: u32) {
  let v = (x[i] - 16.0) * 0.37;
  var amax = abs(v);
  for (var m = 16u; m > 0u; m = m / 2u) {
    amax = max(amax, subgroupShuffleXor(amax, m));
  }
  let d = amax / 127.0;
  q[i] = i32(round(v / d));
  if (i == 0u) { scale[0] = d; }
}
