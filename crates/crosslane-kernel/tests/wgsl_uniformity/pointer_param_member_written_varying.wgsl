enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@group(0) @binding(1) var<uniform> uu: vec4<u32>;
var<workgroup> wv: u32;
var<private> pv: u32;
fn g(p: ptr<function, vec2<u32>>, v: u32) { (*p).y = v; }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) { var a = vec2<u32>(0u); g(&a, i); if (a.x == 0u) { o[i] = subgroupAdd(i); } }
