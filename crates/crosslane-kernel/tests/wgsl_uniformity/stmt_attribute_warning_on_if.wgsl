enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@group(0) @binding(1) var<uniform> uu: vec4<u32>;
@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) { @diagnostic(warning, subgroup_uniformity) if (i < 16u) { o[i] = subgroupAdd(i); } }
