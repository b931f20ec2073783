enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
struct Ids { @builtin(subgroup_invocation_id) lane: u32, @builtin(local_invocation_index) li: u32 }
@compute @workgroup_size(16)
fn main(ids: Ids) {
  let v = subgroupExclusiveAdd(ids.lane);
  if (ids.lane == 0u) {
    out[ids.li] = v;
  }
}
