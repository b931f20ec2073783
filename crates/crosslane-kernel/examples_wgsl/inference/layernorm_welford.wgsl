// LayerNorm of 32 values with Welford's running mean and M2: each invocation folds its vec4,
// then the states merge across 8 invocations by subgroupShuffleXor (Chan et al.'s parallel
// combination), held in a struct passed to and returned from a helper.
enable subgroups;

struct Welford {
  count: f32,
  mean: f32,
  m2: f32,
}

@group(0) @binding(0) var<storage, read> x: array<vec4<f32>, 8>;
@group(0) @binding(1) var<storage, read_write> y: array<vec4<f32>, 8>;
@group(0) @binding(2) var<storage, read_write> stats: Welford;

fn push(s: Welford, v: f32) -> Welford {
  let n = s.count + 1.0;
  let d = v - s.mean;
  let mean = s.mean + d / n;
  return Welford(n, mean, s.m2 + d * (v - mean));
}

fn merge(a: Welford, b: Welford) -> Welford {
  let n = a.count + b.count;
  let d = b.mean - a.mean;
  return Welford(n, a.mean + d * b.count / n, a.m2 + b.m2 + d * d * a.count * b.count / n);
}

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  let v = x[i] * 0.25;
  var s = Welford(0.0, 0.0, 0.0);
  s = push(s, v.x);
  s = push(s, v.y);
  s = push(s, v.z);
  s = push(s, v.w);
  for (var m = 4u; m > 0u; m = m / 2u) {
    let o = Welford(subgroupShuffleXor(s.count, m), subgroupShuffleXor(s.mean, m),
                    subgroupShuffleXor(s.m2, m));
    s = merge(s, o);
  }
  let r = inverseSqrt(s.m2 / s.count + 1e-5);
  y[i] = (v - s.mean) * r;
  if (i == 0u) {
    stats = s;
  }
}
