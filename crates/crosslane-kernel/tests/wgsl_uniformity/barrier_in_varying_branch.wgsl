@group(0) @binding(0) var<storage, read_write> o: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  if (i < 32u) {
    storageBarrier();
  }
  o[i] = i;
}
