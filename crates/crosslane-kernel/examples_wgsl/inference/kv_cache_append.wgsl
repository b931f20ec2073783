// A KV-cache append: the cache buffer is a header and a runtime-sized array of vec4 rows
// (struct { len, dim, rows: array<vec4<f32>> }); each invocation scales its key row into the
// next free slots, the row count comes from arrayLength(&cache.rows), and the head
// dimension is an override.
override HEAD_DIM: u32 = 8u;
override ROWS_PER_KEY: u32 = HEAD_DIM / 4u;

struct Cache {
  len: u32,
  dim: u32,
  rows: array<vec4<f32>>,
}

@group(0) @binding(0) var<storage, read> keys: array<vec4<f32>, 8>;
@group(0) @binding(1) var<storage, read_write> cache: Cache;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  let capacity = arrayLength(&cache.rows);
  let scale = inverseSqrt(f32(HEAD_DIM));
  for (var r = 0u; r < ROWS_PER_KEY; r++) {
    let slot = i * ROWS_PER_KEY + r;
    if (slot < capacity) {
      cache.rows[slot] = keys[slot] * scale;
    }
  }
  if (i == 0u) {
    cache.len = min(4u * ROWS_PER_KEY, capacity) / ROWS_PER_KEY;
    cache.dim = HEAD_DIM;
  }
}
