// Subgroup reduction and scans: each invocation's value is input[gid.x].
enable subgroups;

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> sums: array<u32>;
@group(0) @binding(2) var<storage, read_write> incl: array<u32>;
@group(0) @binding(3) var<storage, read_write> excl: array<u32>;

@compute @workgroup_size(16)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let x = input[gid.x];
    sums[gid.x] = subgroupAdd(x);
    incl[gid.x] = subgroupInclusiveAdd(x);
    excl[gid.x] = subgroupExclusiveAdd(x);
}
