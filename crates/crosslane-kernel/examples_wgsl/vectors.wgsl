// vec2/vec4 values: constructors, splats, swizzles, component-wise arithmetic, dot, a vector
// local written by component, and storage buffers of vectors (one cell per component).
enable subgroups;

@group(0) @binding(0) var<storage, read> points: array<vec2<f32>>;
@group(0) @binding(1) var<storage, read_write> out: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> dots: array<f32>;
@group(0) @binding(3) var<storage, read_write> ids: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read_write> crosses: array<f32>;

fn weight(k: u32) -> f32 {
  return f32(k) * 0.5;
}

// A vector parameter: the helper gets its components.
fn cross2(a: vec2<f32>, b: vec2<f32>) -> f32 {
  return a.x * b.y - a.y * b.x;
}

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(subgroup_invocation_id) lane: u32) {
  let i = gid.x;
  let p = points[i];
  let q = p.yx * 2.0 + vec2<f32>(1.0);
  var v = vec4<f32>(q, p);
  v.w = weight(i);
  v = v.wzyx;
  out[i] = v - vec4(0.5);
  dots[i] = dot(p, vec2<f32>(3.0, -1.0));
  ids[i] = vec4<u32>(gid.xy, lane, subgroupAdd(1u));
  crosses[i] = cross2(p, q);
}
