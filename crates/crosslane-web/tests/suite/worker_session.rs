//! The kernel worker's session ([`Session`]) keeps no trace of steps: every position is replayed
//! from a checkpoint. Stepping back shows exactly what stepping forward showed, and a cancelled
//! run keeps the steps it ran.

use std::cell::Cell;

use crosslane_kernel::{LaunchConfig, Limits};
use crosslane_web::worker::protocol::{At, Command, Edits, Frame, Request};
use crosslane_web::worker::session::Session;

/// Two warps of 32 lanes; each lane adds its neighbour's value (lane t reads lane t ^ 1, CUDA
/// `__shfl_xor_sync`) twice, then the even lanes store.
const XOR_TWICE: &str = "__global__ void k(unsigned *out) {
    unsigned v = threadIdx.x;
    for (int i = 0; i < 2; i++) {
        v += __shfl_xor_sync(0xffffffff, v, 1);
    }
    if (threadIdx.x % 2 == 0) {
        out[threadIdx.x] = v;
    }
}";

const ENDLESS: &str = "__global__ void k(int *a) {
  int x = 0;
  while (1) {
    x = x + 1;
  }
}";

fn config(threads: usize, limits: Limits) -> LaunchConfig {
    LaunchConfig {
        block_dim: Some([threads, 1, 1]),
        limits,
        ..LaunchConfig::default()
    }
}

fn ask(s: &mut Session, command: Command, pos: usize) -> Frame {
    let at = At {
        pos,
        ..At::default()
    };
    s.handle(Request { command, at }, &|| 0.0, &mut |_| {})
}

/// The text of lane `lane`'s cell of variable `var` in a lane table.
fn cell(vars_html: &str, lane: usize, var: &str) -> Option<String> {
    let row = vars_html
        .split(&format!(r#"<tr data-lane="{lane}""#))
        .nth(1)?;
    let row = &row[..row.find("</tr>")?];
    let td = row.split(&format!(r#"data-var="{var}""#)).nth(1)?;
    let text = &td[td.find('>')? + 1..];
    Some(text[..text.find('<')?].to_string())
}

/// What a position shows (the length and status change as the run goes on).
fn shown(f: &Frame) -> impl PartialEq + std::fmt::Debug + '_ {
    (
        f.pos,
        &f.vars_html,
        &f.mask_html,
        &f.warp_text,
        &f.memory_html,
        &f.drawn,
        f.current_line,
    )
}

#[test]
fn stepping_back_shows_what_stepping_forward_showed() {
    let mut s = Session::default();
    let first = ask(
        &mut s,
        Command::Load {
            source: XOR_TWICE.into(),
            config: config(64, Limits::default()),
            edits: Default::default(),
        },
        0,
    );
    assert_eq!((first.pos, first.len), (0, 0));
    // Forward one statement at a time, each interpreted as it is asked for.
    let mut forward = vec![first];
    let end = loop {
        let pos = forward.len() - 1;
        let f = ask(&mut s, Command::Step, pos);
        if f.pos == pos {
            // No statement left: the run has finished, at the last step.
            break f;
        }
        assert_eq!(f.pos, pos + 1);
        forward.push(f);
    };
    assert_eq!(end.state, "finished");
    assert_eq!(shown(&end), shown(&forward[end.pos]));
    // The last step is warp 1's (threads 32–63). Thread t ends with 2 (t + (t ^ 1)): lane 2
    // (thread 34) with 2 * (34 + 35) = 138, lane 5 (thread 37) with 2 * (37 + 36) = 146.
    assert!(end
        .warp_text
        .starts_with("block 0 · warp 1 (threads 32–63)"));
    assert_eq!(cell(end.vars_html.as_str(), 2, "v").as_deref(), Some("138"));
    assert_eq!(cell(end.vars_html.as_str(), 5, "v").as_deref(), Some("146"));
    // Backwards, as the back button asks (a show one position lower), and by slider jumps.
    for pos in (0..forward.len()).rev() {
        let back = ask(&mut s, Command::Show, pos);
        assert_eq!(shown(&back), shown(&forward[pos]), "position {pos}");
    }
    for pos in [forward.len() - 1, 3, 17, 0, 9] {
        let jump = ask(&mut s, Command::Show, pos);
        assert_eq!(shown(&jump), shown(&forward[pos]), "jump to {pos}");
    }
    // The call drawn after the loop is the last shuffle, of the step that ran it.
    let drawn = end.drawn.as_ref().expect("a shuffle was drawn");
    assert_eq!(drawn.step.op, "__shfl_xor_sync");
    assert!(!drawn.current);
}

#[test]
fn a_cancelled_run_keeps_the_steps_it_ran() {
    let mut s = Session::default();
    let limits = Limits {
        max_work: 1_000_000_000_000,
        ..Limits::default()
    };
    ask(
        &mut s,
        Command::Load {
            source: ENDLESS.into(),
            config: config(32, limits),
            edits: Default::default(),
        },
        0,
    );
    // A clock that moves 40 ms at each look: the slice of 150 ms ends after a few looks.
    let t = Cell::new(0.0);
    let now = || {
        t.set(t.get() + 40.0);
        t.get()
    };
    let run = || Request {
        command: Command::Run {
            target: None,
            show: None,
            paused: false,
        },
        at: At::default(),
    };
    let slice = s.handle_slice(run(), &now, &mut |_| {}, Some(150.0), false);
    assert!(s.running(), "the endless loop goes on");
    assert_eq!(slice.state, "running");
    let slice = s.handle_slice(run(), &now, &mut |_| {}, Some(150.0), false);
    assert!(s.running());
    let ran = slice.len;
    // The page cancelled: the next answer stops where the run is.
    let f = s.handle_slice(run(), &now, &mut |_| {}, Some(150.0), true);
    assert!(!s.running());
    assert_eq!((f.pos, f.len, f.state.as_str()), (ran, ran, "idle"));
    assert!(ran > 64, "{ran} steps");
    assert_eq!(
        f.status,
        format!(
            "cancelled after {ran} steps: the steps run so far are kept (step back, step on or run on)"
        )
    );
    // Every step run is there: x counts the steps at line 4 (`x = x + 1;`) so far.
    let mut adds = 0;
    let mut forward = Vec::new();
    for pos in 1..=ran {
        let f = ask(&mut s, Command::Show, pos);
        if f.current_line == Some(4) {
            adds += 1;
        }
        let x = cell(f.vars_html.as_str(), 0, "x").expect("x is declared at step 1");
        assert_eq!(x, adds.to_string(), "x at position {pos}");
        forward.push(f);
    }
    assert!(adds > 10);
    for pos in (1..=ran).rev() {
        assert_eq!(ask(&mut s, Command::Show, pos), forward[pos - 1]);
    }
    // The run goes on from there.
    let on = ask(
        &mut s,
        Command::Run {
            target: Some(ran + 10),
            show: None,
            paused: false,
        },
        ran,
    );
    assert_eq!((on.pos, on.len), (ran + 10, ran + 10));
    assert_eq!(on.status, format!("paused after {} steps", ran + 10));
}

/// Doubles every cell of `dst`, one cell per thread.
const DOUBLE: &str = "__global__ void k(int *dst) {
    int v = dst[threadIdx.x];
    dst[threadIdx.x] = v * 2;
}";

/// The value of memory cell `index` of buffer 0 in a memory table (an editable cell's input
/// value, or the cell's text).
fn mem(memory_html: &str, index: usize) -> Option<String> {
    let at = format!(r#"data-buffer="0" data-index="{index}""#);
    if let Some(v) = memory_html.split(&format!(r#"{at} value=""#)).nth(1) {
        return Some(v[..v.find('"')?].to_string());
    }
    let td = memory_html.split(&at).nth(1)?;
    let text = &td[td.find('>')? + 1..];
    Some(text[..text.find('<')?].to_string())
}

fn load(s: &mut Session, source: &str, threads: usize, edits: &Edits) -> Frame {
    ask(
        s,
        Command::Load {
            source: source.into(),
            config: config(threads, Limits::default()),
            edits: edits.clone(),
        },
        0,
    )
}

fn edits(cells: &[(&str, usize, &str)]) -> Edits {
    let mut e = Edits::new();
    for (name, i, text) in cells {
        e.entry((*name).to_string())
            .or_default()
            .insert(*i, (*text).to_string());
    }
    e
}

/// A memory edit stays through a source edit and a launch change as long as its
/// buffer keeps its name and the cell exists; what is dropped is said.
#[test]
fn memory_edits_survive_source_and_launch_changes_while_their_cell_exists() {
    let mut s = Session::default();
    let first = load(&mut s, DOUBLE, 32, &Edits::new());
    // The default fill `index`: cell i holds i.
    assert_eq!(mem(first.memory_html.as_str(), 2).as_deref(), Some("2"));
    let edited = ask(
        &mut s,
        Command::Edit {
            buffer: 0,
            index: 2,
            text: " 999 ".into(),
        },
        0,
    );
    assert_eq!(edited.memory_error, None);
    assert_eq!(edited.edits, edits(&[("dst", 2, "999")]));
    assert_eq!(mem(edited.memory_html.as_str(), 2).as_deref(), Some("999"));

    // A comment added to the source: the page loads again with its edits, which stay.
    let noted = load(&mut s, &format!("{DOUBLE}\n// note"), 32, &edited.edits);
    assert_eq!(noted.edits, edited.edits);
    assert_eq!(noted.edits_note, None);
    assert_eq!(mem(noted.memory_html.as_str(), 2).as_deref(), Some("999"));

    // 64 threads: the buffer grows to 64 cells; the edit stays, the new cells are `index`.
    let wider = load(&mut s, DOUBLE, 64, &noted.edits);
    assert_eq!(wider.edits, edited.edits);
    assert_eq!(mem(wider.memory_html.as_str(), 2).as_deref(), Some("999"));
    assert_eq!(mem(wider.memory_html.as_str(), 40).as_deref(), Some("40"));
    // Run: dst[2] = 999 * 2.
    let done = ask(
        &mut s,
        Command::Run {
            target: None,
            show: None,
            paused: false,
        },
        0,
    );
    assert_eq!(mem(done.memory_html.as_str(), 2).as_deref(), Some("1998"));
    assert_eq!(mem(done.memory_html.as_str(), 40).as_deref(), Some("80"));

    // 16 threads: cell 40 is gone and its edit dropped, said; cell 2 stays.
    let both = edits(&[("dst", 2, "999"), ("dst", 40, "7")]);
    let narrower = load(&mut s, DOUBLE, 16, &both);
    assert_eq!(narrower.edits, edited.edits);
    let note = narrower.edits_note.expect("the dropped edit is said");
    assert!(note.contains("`dst` has 16 cells now"), "{note}");
    assert!(note.contains("edit of cell 40"), "{note}");

    // The buffer renamed: its edits no longer apply and the note names it.
    let renamed = load(&mut s, &DOUBLE.replace("dst", "out"), 32, &edited.edits);
    assert!(renamed.edits.is_empty());
    assert_eq!(mem(renamed.memory_html.as_str(), 2).as_deref(), Some("2"));
    let note = renamed.edits_note.expect("the dropped edit is said");
    assert!(note.contains("`dst` is no longer a buffer"), "{note}");
}

#[test]
fn a_source_that_does_not_parse_yet_keeps_the_edits_and_a_bad_value_is_refused() {
    let mut s = Session::default();
    let kept = edits(&[("dst", 2, "999")]);
    // Half typed: no launch, so nothing to check the edits against; they stay.
    let broken = load(&mut s, "__global__ void k(int *dst) { int v = ", 32, &kept);
    assert!(broken.error.is_some());
    assert_eq!(broken.edits, kept);
    assert_eq!(broken.edits_note, None);
    // `abc` is no int: refused with the cell named, the others kept.
    let bad = load(
        &mut s,
        DOUBLE,
        32,
        &edits(&[("dst", 2, "999"), ("dst", 3, "abc")]),
    );
    let message = bad.memory_error.expect("the bad cell is said");
    assert!(message.starts_with("dst[3]"), "{message}");
    assert_eq!(bad.edits, kept);
    assert_eq!(mem(bad.memory_html.as_str(), 3).as_deref(), Some("3"));
}

/// The page and the worker speak JSON: a load with memory edits crosses unchanged.
#[test]
fn a_load_with_memory_edits_crosses_as_json() {
    let req = Request {
        command: Command::Load {
            source: DOUBLE.into(),
            config: config(32, Limits::default()),
            edits: edits(&[("dst", 2, "999"), ("dst", 40, "7")]),
        },
        at: At::default(),
    };
    let json = serde_json::to_string(&req).unwrap();
    assert_eq!(serde_json::from_str::<Request>(&json).unwrap(), req);
}

/// A link may name any warp for the lane table: one the launch does not have shows the warp of
/// the step, never a panic (block and warp numbers as large as they come).
#[test]
fn a_warp_the_launch_does_not_have_shows_the_step_s_warp() {
    let mut s = Session::default();
    load(&mut s, DOUBLE, 32, &Edits::new());
    let done = ask(
        &mut s,
        Command::Run {
            target: None,
            show: None,
            paused: false,
        },
        0,
    );
    assert!(done.len > 0);
    for warp in [(usize::MAX, usize::MAX), (0, 5), (3, 0)] {
        let req = Request {
            command: Command::Show,
            at: At {
                pos: done.len,
                warp: Some(warp),
                ..At::default()
            },
        };
        let f = s.handle(req, &|| 0.0, &mut |_| {});
        assert_eq!(f.vars_html, done.vars_html, "{warp:?}");
        assert_eq!(f.warp_text, done.warp_text, "{warp:?}");
    }
}

/// The GPU panel's bindings table comes from the worker's frames (the page's module has no WGSL
/// front end): each `var<storage>` / `var<uniform>` with the `@group` / `@binding`, address space,
/// element type and fixed length written in the shader below (read off its text by hand); a C
/// kernel has none (`None`: the panel is hidden).
#[test]
fn a_wgsl_load_sends_the_shaders_bindings_and_a_c_kernel_none() {
    use crosslane_web::worker::protocol::GpuBinding;
    const SHADER: &str = "@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<f32, 8>;
@group(1) @binding(0) var<uniform> k: u32;
@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
  dst[i] = f32(src[i] + k);
}
";
    let mut s = Session::default();
    let load = |source: &str| Command::Load {
        source: source.into(),
        config: config(8, Limits::default()),
        edits: Edits::new(),
    };
    let f = ask(&mut s, load(SHADER), 0);
    let rows = f.wgsl_bindings.expect("a WGSL shader has a bindings table");
    // name, group, binding, address space, element type, fixed length
    type Row<'a> = (&'a str, u32, u32, &'a str, &'a str, Option<usize>);
    let got: Vec<Row> = rows
        .iter()
        .map(|b: &GpuBinding| {
            (
                b.name.as_str(),
                b.group,
                b.binding,
                b.space.as_str(),
                b.wgsl_elem.as_str(),
                b.fixed_len,
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            ("src", 0, 0, "storage, read", "u32", None),
            ("dst", 0, 2, "storage, read_write", "f32", Some(8)),
            ("k", 1, 0, "uniform", "u32", Some(1)),
        ]
    );
    // Every frame of the launch carries them (a step, not only the load).
    assert_eq!(
        ask(&mut s, Command::Step, 0).wgsl_bindings.map(|r| r.len()),
        Some(3)
    );
    assert_eq!(ask(&mut s, load(XOR_TWICE), 0).wgsl_bindings, None);
}

/// A run to a target step where the kernel ends says "finished" (a link made at the end of a
/// finished run opens as it was made), and a run to the whole length that shows an earlier
/// step spans the whole run with the cursor at that step (a link made after stepping back).
#[test]
fn a_run_to_the_last_step_learns_that_the_kernel_ended_there() {
    let load = || Command::Load {
        source: XOR_TWICE.into(),
        config: config(64, Limits::default()),
        edits: Default::default(),
    };
    let mut s = Session::default();
    ask(&mut s, load(), 0);
    let whole = ask(
        &mut s,
        Command::Run {
            target: None,
            show: None,
            paused: false,
        },
        0,
    );
    assert_eq!(whole.state, "finished");
    let n = whole.len;
    assert!(n > 2);
    // Run to exactly the length: finished, as the run to the end said.
    let mut s = Session::default();
    ask(&mut s, load(), 0);
    let at_end = ask(
        &mut s,
        Command::Run {
            target: Some(n),
            show: None,
            paused: false,
        },
        0,
    );
    assert_eq!((at_end.pos, at_end.len), (n, n));
    assert_eq!(at_end.state, "finished");
    assert_eq!(at_end.status, whole.status);
    assert_eq!(at_end.memory_html, whole.memory_html);
    // One step short of it: paused, and no step more was taken to learn it.
    let mut s = Session::default();
    ask(&mut s, load(), 0);
    let short = ask(
        &mut s,
        Command::Run {
            target: Some(n - 1),
            show: None,
            paused: false,
        },
        0,
    );
    assert_eq!((short.pos, short.len), (n - 1, n - 1));
    assert_eq!(short.state, "idle");
    assert_eq!(short.status, format!("paused after {} steps", n - 1));
    // The whole run, shown at step 2.
    let mut s = Session::default();
    ask(&mut s, load(), 0);
    let back = ask(
        &mut s,
        Command::Run {
            target: Some(n),
            show: Some(2),
            paused: false,
        },
        0,
    );
    assert_eq!((back.pos, back.len), (2, n));
    assert_eq!(back.state, "finished");
    let stepped = ask(&mut s, Command::Show, 2);
    assert_eq!(shown(&back), shown(&stepped));
}

/// A run to the last step of a link made while paused (after clicking "step" onto it) stays
/// paused there, as the page it was made on showed it: no step more is taken to learn that the
/// kernel ends there; the next step then finishes without adding one.
#[test]
fn a_paused_run_to_the_last_step_stays_paused_until_the_next_step() {
    let load = || Command::Load {
        source: XOR_TWICE.into(),
        config: config(64, Limits::default()),
        edits: Default::default(),
    };
    let mut s = Session::default();
    ask(&mut s, load(), 0);
    let n = ask(
        &mut s,
        Command::Run {
            target: None,
            show: None,
            paused: false,
        },
        0,
    )
    .len;
    let mut s = Session::default();
    ask(&mut s, load(), 0);
    let paused = ask(
        &mut s,
        Command::Run {
            target: Some(n),
            show: None,
            paused: true,
        },
        0,
    );
    assert_eq!((paused.pos, paused.len), (n, n));
    assert_eq!(paused.state, "idle");
    assert_eq!(paused.status, format!("paused after {n} steps"));
    let next = ask(&mut s, Command::Step, n);
    assert_eq!((next.pos, next.len), (n, n));
    assert_eq!(next.state, "finished");
}

/// A WGSL shader's kernel menu lists its `@compute` entry points, the first as the default,
/// and the dialect line names the one that runs instead of "chosen".
#[test]
fn a_wgsl_shader_lists_its_entry_points_and_says_why_it_runs_as_wgsl() {
    let source = "@group(0) @binding(0) var<storage, read_write> a: array<u32>;\n\
                  @compute @workgroup_size(4) fn first(@builtin(local_invocation_index) i: u32) {\n  a[i] = i;\n}\n\
                  @compute @workgroup_size(4) fn second(@builtin(local_invocation_index) i: u32) {\n  a[i] = 2u * i;\n}\n";
    let mut s = Session::default();
    let f = ask(
        &mut s,
        Command::Load {
            source: source.into(),
            config: LaunchConfig::default(),
            edits: Default::default(),
        },
        0,
    );
    assert_eq!(f.error, None);
    assert_eq!(f.entries, vec!["first".to_string(), "second".to_string()]);
    assert_eq!(
        f.dialect_line,
        "runs as wgsl · inferred from the source: a WGSL compute shader, entry point `first`"
    );
    let f = ask(
        &mut s,
        Command::Load {
            source: source.into(),
            config: LaunchConfig {
                entry: Some("second".into()),
                ..LaunchConfig::default()
            },
            edits: Default::default(),
        },
        0,
    );
    assert!(
        f.dialect_line.ends_with("entry point `second`"),
        "{}",
        f.dialect_line
    );
    assert!(f.geometry.starts_with("second · wgsl"), "{}", f.geometry);
}
