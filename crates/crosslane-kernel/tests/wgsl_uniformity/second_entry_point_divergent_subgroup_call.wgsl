enable subgroups;
// A multi-pass module: the first kernel clears a histogram, the second scans it with a
// subgroup call inside a loop bounded by the invocation id.
@group(0) @binding(0) var<storage, read_write> hist: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> pass_hist: array<u32>;

@compute @workgroup_size(64)
fn clear(@builtin(global_invocation_id) id: vec3<u32>) {
  if (id.x < arrayLength(&hist)) {
    atomicStore(&hist[id.x], 0u);
  }
}

@compute @workgroup_size(64)
fn scan(@builtin(local_invocation_id) lid: vec3<u32>) {
  for (var i = lid.x; i < 256u; i += 64u) {
    pass_hist[i] = subgroupExclusiveAdd(atomicLoad(&hist[i]));
  }
}
