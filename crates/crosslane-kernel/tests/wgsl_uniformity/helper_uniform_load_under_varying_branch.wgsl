@group(0) @binding(0) var<storage, read_write> out: array<u32>;
var<workgroup> count: u32;
fn read_count() -> u32 {
  return workgroupUniformLoad(&count);
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  if (i == 0u) { count = 7u; }
  if (i % 2u == 0u) {
    out[i] = read_count();
  }
}
