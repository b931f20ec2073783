// Nested structs, arrays of structs, a struct ending in a runtime-sized array, arrayLength of
// the member, a 2-D workgroup array, pointers to struct members and array elements passed
// down into helpers (storage, workgroup, function, private).
struct Inner {
  w: vec3<f32>,
  k: u32,
}
struct Cell {
  id: u32,
  inner: Inner,
  hist: array<u32, 3>,
}
struct Grid {
  count: u32,
  scale: f32,
  cells: array<Cell>,
}
@group(0) @binding(0) var<storage, read_write> grid: Grid;
@group(0) @binding(1) var<storage, read_write> out: array<f32, 8>;

var<workgroup> tile: array<array<f32, 4>, 4>;
var<private> bias: f32;

fn bump(c: ptr<function, Cell>, by: u32) {
  (*c).id = (*c).id + by;
  (*c).hist[2] = by;
}

fn add_row(row: ptr<function, array<f32, 4>>, x: f32) {
  for (var j = 0u; j < 4u; j++) {
    (*row)[j] = (*row)[j] + x;
  }
}

fn twice(p: ptr<function, f32>) {
  *p = *p * 2.0;
}

fn set_bias(p: ptr<private, f32>, v: f32) {
  *p = v;
}

fn norm2(v: ptr<function, vec3<f32>>) -> f32 {
  return dot(*v, *v);
}

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
  let n = arrayLength(&grid.cells);
  var mine = grid.cells[i];
  bump(&mine, i + 1u);
  grid.cells[i] = mine;
  grid.cells[i].inner.w = vec3<f32>(f32(i), 1.0, 2.0);
  grid.cells[i].inner.k = n;
  var row = tile[i];
  row[i] = f32(i);
  add_row(&row, 10.0);
  tile[i] = row;
  workgroupBarrier();
  if (i == 0u) {
    var x = 3.0;
    twice(&x);
    set_bias(&bias, 0.5);
    out[0] = x + bias;
    out[1] = tile[2][2] + tile[3][0];
    var w = grid.cells[3].inner.w;
    out[2] = norm2(&w);
    grid.count = n;
    let c = grid.cells[1];
    out[3] = f32(c.inner.k + c.hist[2] + c.id);
    grid.scale = f32(arrayLength(&grid.cells)) * 0.25;
  }
}
