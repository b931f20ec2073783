// A workgroup sum of 64 values at subgroup size 32: each subgroup's sum by subgroupAdd into
// workgroup memory at subgroup_id, then invocation 0 adds num_subgroups partial sums.
enable subgroups;
requires subgroup_id;
@group(0) @binding(0) var<storage, read> x: array<u32, 64>;
@group(0) @binding(1) var<storage, read_write> total: array<u32, 1>;
var<workgroup> partial: array<u32, 8>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32, @builtin(subgroup_id) sg: u32,
        @builtin(num_subgroups) n: u32, @builtin(subgroup_invocation_id) lane: u32) {
  let s = subgroupAdd(x[i]);
  if (lane == 0u) { partial[sg] = s; }
  workgroupBarrier();
  if (i == 0u) {
    var t = 0u;
    for (var k = 0u; k < n; k++) { t += partial[k]; }
    total[0] = t;
  }
}
