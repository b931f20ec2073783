//! The kernel worker's session ([`Session`]) keeps no trace of steps: every position is replayed
//! from a checkpoint. Stepping back shows exactly what stepping forward showed, and a cancelled
//! run keeps the steps it ran.

use std::cell::Cell;

use crosslane_core::kernel::{LaunchConfig, Limits};
use crosslane_web::worker::protocol::{At, Command, Frame, Request};
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
        command: Command::Run { target: None },
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
        },
        ran,
    );
    assert_eq!((on.pos, on.len), (ran + 10, ran + 10));
    assert_eq!(on.status, format!("paused after {} steps", ran + 10));
}
