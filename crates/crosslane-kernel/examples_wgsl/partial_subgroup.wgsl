// A workgroup of 12 at subgroup size 8: the last subgroup holds 4 invocations.
enable subgroups;

@group(0) @binding(0) var<storage, read_write> sums: array<u32>;
@group(0) @binding(1) var<storage, read_write> members: array<u32>;
@group(0) @binding(2) var<storage, read_write> ids: array<u32>;

@compute @workgroup_size(12)
fn main(@builtin(local_invocation_index) i: u32, @builtin(subgroup_id) sg: u32) {
    sums[i] = subgroupAdd(i);
    members[i] = countOneBits(subgroupBallot(true).x);
    ids[i] = sg;
}
