// Softmax of 32 scores, one per invocation: subgroupMax for the row max, exp, subgroupAdd.
enable subgroups;
@group(0) @binding(0) var<storage, read> scores: array<f32, 32>;
@group(0) @binding(1) var<storage, read_write> probs: array<f32, 32>;
@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) i: u32) {
  let s = scores[i] * 0.1;
  let m = subgroupMax(s);
  let e = exp(s - m);
  probs[i] = e / subgroupAdd(e);
}
