//! The variables a trace shows are the kernel's own: the front end lowers a range-based `for`
//! through a hidden index and a structured binding through a hidden object (C++17
//! [stmt.ranged]/1 and [dcl.struct.bind]/1 name them; the parser spells them `__rfN`, `__sbN`,
//! identifiers C++17 [lex.name]/3 reserves to the implementation), and no view lists those.

use crosslane_kernel::{render_text, KernelTrace, LaunchConfig, Replay};

use crate::support::{block, ints, run_finished};

/// A range-based `for` over an array and a structured binding by value, in one warp of four
/// threads: thread t sums 1·t + 2·t + 3·t = 6t, binds u = t and v = 2t from a copy of `p`, and
/// writes 6t + t + 2t = 9t.
const SRC: &str = r#"
struct P { int a; int b; };
__global__ void k(int* out) {
  int t = threadIdx.x;
  int xs[3] = {1, 2, 3};
  int s = 0;
  for (int x : xs) s += x * t;
  P p{t, 2 * t};
  auto [u, v] = p;
  out[t] = s + u + v;
}
"#;

fn config() -> LaunchConfig {
    let mut c = block(4);
    c.buffer_len.insert("out".into(), 4);
    c
}

fn hidden(name: &str) -> bool {
    name.starts_with("__rf") || name.starts_with("__sb")
}

#[test]
fn the_trace_lists_the_kernels_variables_and_not_the_front_ends() {
    let t: KernelTrace = run_finished(SRC, config());
    // 9t for t = 0..3 (module comment): the hidden variables still run.
    assert_eq!(ints(&t, "out"), vec![Some(0), Some(9), Some(18), Some(27)]);
    // The engine has them …
    assert!(
        t.names.iter().any(|n| n.starts_with("__rf")),
        "{:?}",
        t.names
    );
    assert!(
        t.names.iter().any(|n| n.starts_with("__sb")),
        "{:?}",
        t.names
    );
    // … the views do not: each step's changes, the variables after the last step, the final
    // variables in the JSON, the text report.
    let last = t.steps.len() - 1;
    for s in &t.steps {
        for c in t.changes(s) {
            assert!(!hidden(&c.name), "step {}: {}", s.index, c.name);
        }
    }
    let after: Vec<String> = t
        .vars_after(last, 0, 0)
        .into_iter()
        .map(|v| v.name)
        .collect();
    for own in ["t", "xs", "s", "x", "p.a", "p.b"] {
        assert!(after.iter().any(|n| n == own), "{own} in {after:?}");
    }
    assert!(!after.iter().any(|n| hidden(n)), "{after:?}");
    let json = serde_json::to_value(&t).expect("serializes");
    let names: Vec<&str> = json["warps"][0]["vars"]
        .as_array()
        .expect("the final variables")
        .iter()
        .filter_map(|v| v["name"].as_str())
        .collect();
    assert!(names.contains(&"s"), "{names:?}");
    assert!(!names.iter().any(|n| hidden(n)), "{names:?}");
    let steps = json["steps"].as_array().expect("steps");
    assert!(steps
        .iter()
        .flat_map(|s| s["changes"].as_array().into_iter().flatten())
        .all(|c| !c["name"].as_str().is_some_and(hidden)));
    let text = render_text(&t, usize::MAX);
    assert!(text.contains("    s = "), "{text}");
    assert!(!text.contains("__rf") && !text.contains("__sb"), "{text}");
}

#[test]
fn a_replayed_step_lists_the_kernels_variables_only() {
    let mut r = Replay::new(SRC, config(), 4).expect("kernel parses and launches");
    while r.run_for(1000) == 1000 {}
    let last = r.len() - 1;
    let state = r.at(last).expect("the last step");
    let names: Vec<&str> = state.vars.iter().map(|v| v.name.as_str()).collect();
    assert!(names.contains(&"s"), "{names:?}");
    assert!(!names.iter().any(|n| hidden(n)), "{names:?}");
    for i in 0..r.len() {
        let s = r.at(i).expect("a step");
        assert!(s.changes.iter().all(|c| !hidden(&c.name)), "step {i}");
    }
}

/// A kernel's own reserved-looking names (`__x`, a struct `__acc`) and a structured binding's
/// names by value (`u`, `v`; by reference `r`, `q` name `p`'s members, shown as `p.a`, `p.b`):
/// thread t has `__x` = 3t, `__acc.a` = t, u = t, v = 2t.
const OWN: &str = r#"
struct P { int a; int b; };
__global__ void k(int* out) {
  int t = threadIdx.x;
  int __x = 3 * t;
  P __acc{t, 0};
  P p{t, 2 * t};
  auto [u, v] = p;
  auto& [r, q] = p;
  r += 1;
  int xs[2] = {1, 1};
  for (int x : xs) __x += x;
  out[t] = __x + __acc.a + u + v + q;
}
"#;

#[test]
fn a_kernels_double_underscore_names_and_binding_names_are_shown() {
    let t = run_finished(OWN, config());
    // 3t + 2 (the loop) + t + t + 2t + 2t = 9t + 2.
    assert_eq!(ints(&t, "out"), vec![Some(2), Some(11), Some(20), Some(29)]);
    let last = t.steps.len() - 1;
    let after: Vec<String> = t
        .vars_after(last, 0, 0)
        .into_iter()
        .map(|v| v.name)
        .collect();
    for own in ["__x", "__acc.a", "__acc.b", "u", "v", "p.a", "p.b"] {
        assert!(after.iter().any(|n| n == own), "{own} in {after:?}");
    }
    // The front end's own stay hidden though the source spells other `__` names.
    assert!(!after.iter().any(|n| hidden(n)), "{after:?}");
    // u's values: t in thread t.
    let u = t
        .vars_after(last, 0, 0)
        .into_iter()
        .find(|v| v.name == "u")
        .expect("u");
    let got: Vec<Option<i128>> = u.values[..4]
        .iter()
        .map(|c| c.as_ref().ok().and_then(crosslane_kernel::KVal::as_int))
        .collect();
    assert_eq!(got, vec![Some(0), Some(1), Some(2), Some(3)]);
    let json = serde_json::to_value(&t).expect("serializes");
    let names: Vec<&str> = json["warps"][0]["vars"]
        .as_array()
        .expect("the final variables")
        .iter()
        .filter_map(|v| v["name"].as_str())
        .collect();
    for own in ["__x", "u", "v"] {
        assert!(names.contains(&own), "{own} in {names:?}");
    }
    assert!(!names.iter().any(|n| hidden(n)), "{names:?}");
    let text = render_text(&t, usize::MAX);
    assert!(text.contains("    __x = "), "{text}");
    let mut r = Replay::new(OWN, config(), 4).expect("kernel parses and launches");
    while r.run_for(1000) == 1000 {}
    let state = r.at(r.len() - 1).expect("the last step");
    let names: Vec<&str> = state.vars.iter().map(|v| v.name.as_str()).collect();
    for own in ["__x", "u", "v"] {
        assert!(names.contains(&own), "{own} in {names:?}");
    }
    assert!(!names.iter().any(|n| hidden(n)), "{names:?}");
}
