//! Storage, uniform and workgroup buffers of structs mixing `f16` with 4-byte scalars (`struct
//! P { h: f16, f: f32, i: i32, v: vec2<f16>, u: u32 }`, with `enable f16;`): held in 2-byte
//! cells at the offsets WGSL gives the members, each fill value read as its member's type,
//! each member read back whole. Tint accepts every shader here (`tint --format wgsl`, run by
//! hand). Layouts, bits and results are derived by hand from the WGSL spec in the comments
//! (§ Alignment and Size; § Internal Layout of Values: little-endian), and checked against
//! Python's `struct` where given.

use crosslane_core::result::Level;
use crosslane_kernel::wgsl::{fills::member_value, prepare, run_wgsl};
use crosslane_kernel::{KVal, KernelTrace, LaunchConfig};

fn config(fills: &[(&str, &str)], len: &[(&str, usize)]) -> LaunchConfig {
    let mut c = LaunchConfig {
        lanes: Some(32),
        grid_dim: Some([1, 1, 1]),
        ..LaunchConfig::default()
    };
    for (k, v) in fills {
        c.args.insert(k.to_string(), v.to_string());
    }
    for (k, n) in len {
        c.buffer_len.insert(k.to_string(), *n);
    }
    c
}

fn run(src: &str, c: LaunchConfig) -> KernelTrace {
    let t = run_wgsl(src, c.clone()).unwrap_or_else(|e| panic!("{e}"));
    let bad: Vec<String> = t
        .all_diagnostics()
        .filter(|d| d.level != Level::Info)
        .map(|d| d.message.clone())
        .collect();
    assert!(bad.is_empty(), "{bad:#?}");
    t
}

/// Every cell of buffer `name` read as its member: `f16`/`f32` as floats, `u32`/`i32` as
/// integers (as f64 for one list), `None` for padding, a 4-byte member's high half, or an
/// undefined member.
fn members(src: &str, c: &LaunchConfig, t: &KernelTrace, name: &str) -> Vec<Option<f64>> {
    let p = prepare(src, c).unwrap_or_else(|e| panic!("{e}"));
    let b = p.bindings.iter().find(|b| b.name == name).expect("binding");
    let cells = t.buffer(name).expect("buffer");
    (0..cells.len())
        .map(|k| {
            member_value(b, cells, k).and_then(|v| match v {
                KVal::Float { x, .. } => Some(x),
                v => v.as_int().map(|n| n as f64),
            })
        })
        .collect()
}

/// `S { a: f16, b: f16, n: u32, v: vec2<f16> }`: WGSL § Alignment and Size gives a at 0, b at
/// 2, n at 4 (align 4), v at 8 (vec2<f16>: align 4, size 4); the struct's alignment is 4 and
/// its size roundUp(4, 12) = 12 bytes: six 2-byte cells per element, n in cells 2 (low half)
/// and 3 (high half), no padding.
const SCALE: &str = "enable f16;
struct S { a: f16, b: f16, n: u32, v: vec2<f16> }
@group(0) @binding(0) var<storage, read_write> buf: array<S>;
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) i: u32) {
  buf[i].n = buf[i].n + u32(buf[i].a);
  buf[i].b = buf[i].a * 2.0h;
  buf[i].v = buf[i].v.yx;
}
";

#[test]
fn a_runtime_array_of_f16_u32_structs_reads_and_writes_each_member() {
    // Fill, one value per cell (a 4-byte member's high-half cell takes a value it ignores):
    // element 0: a = 1.5, b = 2, n = 196611, (ignored 0), v = (0.5, -1);
    // element 1: a = 3, b = 0, n = 4, (ignored 5), v = (6, 7).
    let fill = "1.5,2,196611,0,0.5,-1,3,0,4,5,6,7";
    let c = config(&[("buf", fill)], &[("buf", 12)]);
    let t = run(SCALE, c.clone());
    // n += u32(a): 196611 + 1 = 196612 and 4 + 3 = 7; b = 2a: 3 and 6; v swapped.
    let m = members(SCALE, &c, &t, "buf");
    assert_eq!(
        m,
        [
            Some(1.5),
            Some(3.0),
            Some(196612.0),
            None, // n's high half
            Some(-1.0),
            Some(0.5),
            Some(3.0),
            Some(6.0),
            Some(7.0),
            None,
            Some(7.0),
            Some(6.0),
        ]
    );
    // The bytes as a device holds them: 196612 = 0x0003_0004, low half first: cells 2, 3 =
    // 4, 3; f16 3.0 = 0x4200 = 16896 (Python: struct.unpack('<H', struct.pack('<e', 3.0))).
    let bits = |k: usize| -> Option<u64> {
        match t.buffer("buf").unwrap()[k].as_ref()? {
            KVal::Float { x, .. } => Some(u64::from(half::f16::from_f64(*x).to_bits())),
            v => v.as_int().map(|n| n as u64),
        }
    };
    assert_eq!(
        [bits(1), bits(2), bits(3)],
        [Some(0x4200), Some(4), Some(3)]
    );
}

#[test]
fn the_default_index_fill_gives_each_member_its_cell_number() {
    // Two invocations, so two elements (12 cells); cell c holds c in its member's type: a =
    // 0, b = 1, n = 2 (its high-half cell 3 is part of it), v = (4, 5); then a = 6, b = 7,
    // n = 8, v = (10, 11). After the run: n = 2 + 0 = 2 and 8 + 6 = 14; b = 0 and 12; v
    // swapped.
    let c = config(&[], &[]);
    let t = run(SCALE, c.clone());
    let m = members(SCALE, &c, &t, "buf");
    let want = [
        Some(0.0),
        Some(0.0),
        Some(2.0),
        None,
        Some(5.0),
        Some(4.0),
        Some(6.0),
        Some(12.0),
        Some(14.0),
        None,
        Some(11.0),
        Some(10.0),
    ];
    assert_eq!(m, want);
}

/// `P { h: f16, f: f32, i: i32, v: vec2<f16>, u: u32 }`: h at 0, f at 4, i at 8, v at 12, u at
/// 16; size 20 (align 4): ten cells, cell 1 padding. `G { count: u32, scale: f16, items:
/// array<P> }`: count at 0, scale at 4, items at 8 (P's alignment 4): a head of four cells
/// (cell 3 padding). A uniform P, a workgroup array of P, a whole-struct load (`let p =
/// g.items[i]`) and store (`w[i] = q`, `fixed[1 - i] = w[i]`).
const MEMBERS: &str = "enable f16;
struct P { h: f16, f: f32, i: i32, v: vec2<f16>, u: u32 }
struct G { count: u32, scale: f16, items: array<P> }
@group(0) @binding(0) var<storage, read_write> g: G;
@group(0) @binding(1) var<storage, read_write> fixed: array<P, 2>;
@group(0) @binding(2) var<uniform> un: P;
var<workgroup> w: array<P, 2>;
@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) i: u32) {
  let p = g.items[i];
  var q = p;
  q.h = q.h + g.scale;
  q.f = q.f * 2.0;
  q.i = -q.i;
  q.v = q.v.yx;
  q.u = q.u + g.count + un.u;
  w[i] = q;
  workgroupBarrier();
  fixed[1u - i] = w[i];
  g.items[i].f = f32(un.h) + un.f + f32(un.i) + f32(un.v.x);
}
";

#[test]
fn struct_members_of_every_type_through_storage_uniform_and_workgroup_memory() {
    let c = config(
        &[
            // count = 3, scale = 0.5; items[0] = (1.5, 2.5, -4, (0.25, 0.75), 100);
            // items[1] = (-1, -3, -5, (-7, -9), 1000). The 0s are padding or high halves.
            (
                "g",
                "3,0,0.5,0,1.5,0,2.5,0,-4,0,0.25,0.75,100,0,-1,0,-3,0,-5,0,-7,-9,1000,0",
            ),
            ("fixed", "zero"),
            // un = (2, 10, 20, (3, 0), 4).
            ("un", "2,0,10,0,20,0,3,0,4,0"),
        ],
        &[("g", 24)],
    );
    let t = run(MEMBERS, c.clone());
    // Invocation 0: h = 1.5 + 0.5 = 2, f = 5, i = 4, v = (0.75, 0.25), u = 100 + 3 + 4 = 107,
    // stored to fixed[1]; invocation 1: h = -0.5, f = -6, i = 5, v = (-9, -7), u = 1000 + 7 =
    // 1007, to fixed[0].
    let fixed = members(MEMBERS, &c, &t, "fixed");
    let elem = |h: f64, f: f64, i: f64, v: (f64, f64), u: f64| {
        [
            Some(h),
            None,
            Some(f),
            None,
            Some(i),
            None,
            Some(v.0),
            Some(v.1),
            Some(u),
            None,
        ]
    };
    let mut want = elem(-0.5, -6.0, 5.0, (-9.0, -7.0), 1007.0).to_vec();
    want.extend(elem(2.0, 5.0, 4.0, (0.75, 0.25), 107.0));
    assert_eq!(fixed, want);
    // g.items[i].f = 2 + 10 + 20 + 3 = 35 in both; the rest unchanged.
    let g = members(MEMBERS, &c, &t, "g");
    let mut want = vec![Some(3.0), None, Some(0.5), None];
    want.extend(elem(1.5, 35.0, -4.0, (0.25, 0.75), 100.0));
    want.extend(elem(-1.0, 35.0, -5.0, (-7.0, -9.0), 1000.0));
    assert_eq!(g, want);
    // The i32 -4 as a device holds it: 0xFFFF_FFFC, cells 8 and 9 (items[0] at cell 4, i at
    // its cell 4) = 0xFFFC, 0xFFFF.
    let cell = |k: usize| t.buffer("g").unwrap()[k].as_ref().and_then(KVal::as_int);
    assert_eq!([cell(8), cell(9)], [Some(0xFFFC), Some(0xFFFF)]);
}

/// A fill value the member's type cannot hold is refused naming the cell and the member's
/// type; a 4-byte vector beside `f16` in a buffer stays refused at the declaration, with what
/// to write instead (Tint accepts that shader: it is the emulator's limit).
#[test]
fn bad_member_fills_and_four_byte_vectors_beside_f16_are_refused() {
    let e = run_wgsl(SCALE, config(&[("buf", "1.5,2,0.5,0,1,1")], &[("buf", 6)]))
        .expect_err("0.5 is no u32");
    assert!(e.message.contains("cell 2 (u32 member)"), "{e}");
    let src = "enable f16;
struct Q { h: f16, v: vec4<f32> }
@group(0) @binding(0) var<storage, read_write> q: array<Q>;
@compute @workgroup_size(1) fn main() { q[0].h = 1.0h; }
";
    let e = run_wgsl(src, config(&[], &[])).expect_err("refused");
    assert_eq!(e.line, 3, "{e}");
    assert!(e.message.contains("4-byte vectors"), "{e}");
}

/// The same 2-byte cells in function memory: a local `array<P, 2>` with an initializer, one
/// written member by member then copied whole into a `let`, a nested struct local, and a
/// whole-element store of a constructed `P` (WGSL § var Declarations: the initializer's
/// value). P { h: f16, n: u32 }: h at 0, n at 4, size 8. Tint accepts the shader.
#[test]
fn function_arrays_of_f16_u32_structs_hold_their_members() {
    let src = "enable f16;
struct P { h: f16, n: u32 }
struct N { p: P, k: u32 }
@group(0) @binding(0) var<storage, read_write> o: array<f32>;
@compute @workgroup_size(1)
fn main() {
  var a = array<P, 2>(P(2.5h, 80000u), P(3.5h, 90000u));
  o[0] = f32(a[1].h); o[1] = f32(a[1].n);
  var c: array<P, 2>;
  c[1].h = 4.5h; c[1].n = 100000u;
  let b = c;
  o[2] = f32(b[1].h); o[3] = f32(b[1].n);
  c[0] = P(5.5h, 110000u);
  o[4] = f32(c[0].h); o[5] = f32(c[0].n);
  var s: N;
  s.p.h = 1.5h; s.p.n = 70000u; s.k = 3u;
  o[6] = f32(s.p.h) + f32(s.p.n) + f32(s.k);
}
";
    let c = config(&[("o", "zero")], &[("o", 7)]);
    let t = run(src, c);
    let got: Vec<Option<f64>> = t
        .buffer("o")
        .unwrap()
        .iter()
        .map(|c| c.as_ref().and_then(KVal::as_f64))
        .collect();
    // a[1] is the initializer's second element, P(3.5h, 90000u). 70000, 90000, … exceed 16
    // bits: each needs both halves of its member (an initializer that wrote the cells as
    // plain u16 values kept 90000 & 0xFFFF = 24464).
    let want = [
        3.5,
        90000.0,
        4.5,
        100000.0,
        5.5,
        110000.0,
        1.5 + 70000.0 + 3.0,
    ];
    assert_eq!(got, want.map(Some));
}

/// A private array of such structs is refused at its declaration with what to write instead
/// (a private struct of them is held by cells, as before). Tint accepts the shader.
#[test]
fn a_private_array_of_f16_u32_structs_is_refused_naming_the_alternative() {
    let src = "enable f16;
struct P { h: f16, n: u32 }
@group(0) @binding(0) var<storage, read_write> o: array<f32>;
var<private> pa: array<P, 2>;
@compute @workgroup_size(1)
fn main() { pa[0].n = 1u; o[0] = f32(pa[0].n); }
";
    let e = run_wgsl(src, config(&[], &[])).expect_err("refused");
    assert_eq!(e.line, 4, "{e}");
    assert!(e.message.contains("declare it inside the function"), "{e}");
}
