// Stream compaction inside a subgroup: each invocation whose value is a multiple of 3 writes it
// to the next free slot, its rank among the ballot's bits below its own lane.
enable subgroups;

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;
@group(0) @binding(2) var<storage, read_write> count: array<u32>;

@compute @workgroup_size(8)
fn main(@builtin(subgroup_invocation_id) lane: u32, @builtin(local_invocation_index) i: u32) {
    let v = input[i];
    let keep = v % 3u == 0u;
    let b = subgroupBallot(keep);
    let below = countOneBits(b.x & ((1u << lane) - 1u));
    if (keep) {
        output[below] = v;
    }
    if (i == 0u) {
        count[0] = countOneBits(b.x);
    }
}
