// subgroupMul/Min/Max and the multiplicative scans over v = i % 5 + 1.
enable subgroups;

@group(0) @binding(0) var<storage, read_write> prod: array<u32>;
@group(0) @binding(1) var<storage, read_write> lo: array<u32>;
@group(0) @binding(2) var<storage, read_write> hi: array<u32>;
@group(0) @binding(3) var<storage, read_write> incl_prod: array<u32>;
@group(0) @binding(4) var<storage, read_write> excl_prod: array<u32>;

@compute @workgroup_size(16)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    let v = i % 5u + 1u;
    prod[i] = subgroupMul(v);
    lo[i] = subgroupMin(v);
    hi[i] = subgroupMax(v);
    incl_prod[i] = subgroupInclusiveMul(v);
    excl_prod[i] = subgroupExclusiveMul(v);
}
