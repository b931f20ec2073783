enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@group(0) @binding(1) var<uniform> uu: vec4<u32>;
fn h(x: u32) -> u32 { @diagnostic(off, subgroup_uniformity) if (x > 2u) { return subgroupAdd(x); } return subgroupMax(x); }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) { if (i > 3u) { o[i] = h(i); } }
