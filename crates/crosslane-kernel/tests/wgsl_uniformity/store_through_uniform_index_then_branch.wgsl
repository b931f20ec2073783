enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@group(0) @binding(1) var<uniform> uu: vec4<u32>;
var<workgroup> wv: u32;
var<private> pv: u32;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) { var a = array<u32, 4>(); a[uu.x % 4u] = 1u; if (a[0] == 1u) { o[i] = subgroupAdd(i); } }
