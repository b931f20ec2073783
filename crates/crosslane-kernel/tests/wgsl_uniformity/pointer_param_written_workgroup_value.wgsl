enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@group(0) @binding(1) var<uniform> uu: vec4<u32>;
var<workgroup> wv: u32;
var<private> pv: u32;
fn g(p: ptr<function, u32>) { *p = wv; }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) { var x = 0u; g(&x); if (x == 1u) { o[i] = subgroupAdd(i); } }
