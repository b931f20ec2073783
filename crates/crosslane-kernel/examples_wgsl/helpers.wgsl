// Helper functions called from the entry point: nested calls, an early return under
// divergence, a subgroup reduction inside a helper, and a void helper that stores.
enable subgroups;

@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<storage, read_write> flags: array<u32>;
var<workgroup> tile: array<u32, 8>;

fn square(x: u32) -> u32 {
  return x * x;
}

// Early return in some invocations only: the others go on to the last line.
fn at_most(x: u32, hi: u32) -> u32 {
  if (x > hi) {
    return hi;
  }
  return x;
}

fn capped_square(x: u32) -> u32 {
  return at_most(square(x), 20u);
}

fn subgroup_count() -> u32 {
  return subgroupAdd(1u);
}

fn mark(k: u32, v: u32) {
  flags[k] = v;
  tile[k] = v + 1u;
}

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  let n = subgroup_count();
  out[i] = capped_square(i) + n * 100u;
  mark(i, i * 2u);
  workgroupBarrier();
  out[i] = out[i] + tile[7u - i] * 1000u;
}
