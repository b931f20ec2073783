// Divergence inside a subgroup: even and odd invocations call different subgroup built-ins.
// Real shaders must turn the uniformity rule off for this, as this one does.
diagnostic(off, subgroup_uniformity);
enable subgroups;

@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(8)
fn main(@builtin(subgroup_invocation_id) lane: u32, @builtin(local_invocation_index) i: u32) {
    var r = 0u;
    if (lane % 2u == 0u) {
        r = subgroupAdd(lane);
    } else {
        r = subgroupMax(lane) + 100u;
    }
    out[i] = r;
}
