enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@group(0) @binding(1) var<uniform> uu: vec4<u32>;
var<workgroup> wv: u32;
var<private> pv: u32;
fn g(p: ptr<function, array<u32, 4>>, v: u32) { (*p)[v % 4u] = 1u; }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) { var a = array<u32, 4>(); g(&a, i); if (a[0] == 1u) { o[i] = subgroupAdd(i); } }
