// Quad swaps and quad broadcast: a quad is four consecutive subgroup invocations.
enable subgroups;

@group(0) @binding(0) var<storage, read_write> sx: array<u32>;
@group(0) @binding(1) var<storage, read_write> sy: array<u32>;
@group(0) @binding(2) var<storage, read_write> sd: array<u32>;
@group(0) @binding(3) var<storage, read_write> qb: array<u32>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
    let v = 100u + i;
    sx[i] = quadSwapX(v);
    sy[i] = quadSwapY(v);
    sd[i] = quadSwapDiagonal(v);
    qb[i] = quadBroadcast(v, 3u);
}
