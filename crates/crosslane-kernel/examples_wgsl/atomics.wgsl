// Atomics on a storage counter and on workgroup memory (which starts zeroed).
@group(0) @binding(0) var<storage, read_write> counter: atomic<u32>;
@group(0) @binding(1) var<storage, read_write> totals: array<u32>;

var<workgroup> sum: atomic<u32>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) i: u32, @builtin(workgroup_id) wg: vec3<u32>) {
    atomicAdd(&counter, 1u);
    atomicAdd(&sum, i);
    workgroupBarrier();
    if (i == 0u) {
        totals[wg.x] = atomicLoad(&sum);
    }
}
