enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@group(0) @binding(1) var<uniform> uu: vec4<u32>;
@diagnostic(off, subgroup_uniformity)
fn unsafeShuffle(x: u32, source: u32) -> u32 { return subgroupShuffle(x, source); }
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) { if (i > 3u) { o[i] = unsafeShuffle(i, 0u); } }
