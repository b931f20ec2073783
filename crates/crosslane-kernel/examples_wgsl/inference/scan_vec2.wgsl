// Inclusive and exclusive prefix sums on vec2<u32> (two counters scanned at once).
enable subgroups;
@group(0) @binding(0) var<storage, read_write> incl: array<vec2<u32>, 32>;
@group(0) @binding(1) var<storage, read_write> excl: array<vec2<u32>, 32>;
@compute @workgroup_size(32)
fn main(@builtin(subgroup_invocation_id) lane: u32) {
  let v = vec2<u32>(1u, lane);
  incl[lane] = subgroupInclusiveAdd(v);
  excl[lane] = subgroupExclusiveAdd(v);
}
