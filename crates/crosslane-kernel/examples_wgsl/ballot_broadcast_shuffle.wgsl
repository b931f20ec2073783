// Ballot with countOneBits, broadcast, shuffles and subgroupElect.
enable subgroups;

@group(0) @binding(0) var<storage, read_write> counts: array<u32>;
@group(0) @binding(1) var<storage, read_write> bcast: array<u32>;
@group(0) @binding(2) var<storage, read_write> rotated: array<u32>;
@group(0) @binding(3) var<storage, read_write> swapped: array<u32>;
@group(0) @binding(4) var<storage, read_write> down: array<u32>;
@group(0) @binding(5) var<storage, read_write> elected: array<u32>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) i: u32,
        @builtin(subgroup_invocation_id) lane: u32,
        @builtin(subgroup_size) size: u32) {
    let v = i * 10u;
    let b = subgroupBallot(lane % 3u == 0u);
    counts[i] = countOneBits(b.x);
    bcast[i] = subgroupBroadcast(v, 2u);
    rotated[i] = subgroupShuffle(v, (lane + 1u) % size);
    swapped[i] = subgroupShuffleXor(v, 1u);
    down[i] = subgroupShuffleDown(v, 1u);
    elected[i] = select(0u, 1u, subgroupElect());
}
