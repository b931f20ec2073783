@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> count: u32;
fn current() -> u32 {
  return count;
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  if (i == 0u) { count = 5u; }
  if (current() > 3u) {
    workgroupBarrier();
  }
  out[i] = count;
}
