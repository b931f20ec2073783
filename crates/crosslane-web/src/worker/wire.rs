//! The kernel worker's answer as the page reads it: the JSON of a [`Reply`] (serde's derived
//! form, unchanged), read field by field from a `serde_json::Value` instead of through serde's
//! derived deserializers of [`Frame`] and the types in it. Those deserializers were part of the
//! page's first module, which the page downloads before its first render; this reader is much
//! smaller. The cross-lane call ([`Frame::drawn`]) comes as JSON text and is read by its own
//! derived deserializer ([`super::protocol::drawn_text`]). Tested natively against the derived
//! serializer (`tests` below).

use serde::Deserialize;
use serde_json::{Map, Value};

use super::protocol::{drawn_text, Edits, Frame, GpuBinding, ParamField, Reply};
use crate::kit::Html;

/// A field read, or `None` where the answer is not what the worker writes (no message per
/// field: each distinct message would be code in the first module, and the page's own worker
/// never writes anything else).
type Read<T> = Option<T>;

fn usize_of(v: &Value) -> Read<usize> {
    usize::try_from(v.as_u64()?).ok()
}

fn u32_of(v: &Value) -> Read<u32> {
    u32::try_from(v.as_u64()?).ok()
}

fn string_of(v: &Value) -> Read<String> {
    v.as_str().map(str::to_string)
}

fn opt<T>(v: &Value, read: impl Fn(&Value) -> Read<T>) -> Read<Option<T>> {
    match v {
        Value::Null => Some(None),
        x => read(x).map(Some),
    }
}

fn list<T>(v: &Value, item: impl Fn(&Value) -> Read<T>) -> Read<Vec<T>> {
    v.as_array()?.iter().map(item).collect()
}

/// A tuple as serde writes it: an array of exactly `N` items.
fn tuple<const N: usize>(v: &Value) -> Read<&[Value; N]> {
    v.as_array()?.as_slice().try_into().ok()
}

fn html(v: &Value) -> Read<Html> {
    Html::deserialize(v).ok()
}

fn edits(v: &Map<String, Value>) -> Read<Edits> {
    let mut out = Edits::new();
    for (name, cells) in v {
        let cells = cells.as_object()?;
        let entry = out.entry(name.clone()).or_default();
        for (i, text) in cells {
            entry.insert(i.parse().ok()?, string_of(text)?);
        }
    }
    Some(out)
}

fn param(v: &Value) -> Read<ParamField> {
    Some(ParamField {
        name: string_of(v.get("name")?)?,
        pointer: v.get("pointer")?.as_bool()?,
        reference: v.get("reference")?.as_bool()?,
        host: opt(v.get("host")?, string_of)?,
    })
}

fn binding(v: &Value) -> Read<GpuBinding> {
    Some(GpuBinding {
        name: string_of(v.get("name")?)?,
        group: u32_of(v.get("group")?)?,
        binding: u32_of(v.get("binding")?)?,
        space: string_of(v.get("space")?)?,
        wgsl_elem: string_of(v.get("wgsl_elem")?)?,
        fixed_len: opt(v.get("fixed_len")?, usize_of)?,
    })
}

fn frame(v: &Value) -> Read<Frame> {
    let f = |name: &str| v.get(name);
    Some(Frame {
        pos: usize_of(f("pos")?)?,
        len: usize_of(f("len")?)?,
        state: string_of(f("state")?)?,
        status: string_of(f("status")?)?,
        error: opt(f("error")?, string_of)?,
        error_input: opt(f("error_input")?, string_of)?,
        entries: list(f("entries")?, string_of)?,
        geometry: string_of(f("geometry")?)?,
        position: string_of(f("position")?)?,
        current_line: opt(f("current_line")?, u32_of)?,
        squiggles: list(f("squiggles")?, |s| {
            let [line, col, level, message] = tuple::<4>(s)?;
            Some((
                u32_of(line)?,
                u32_of(col)?,
                string_of(level)?,
                string_of(message)?,
            ))
        })?,
        diagnostics_html: html(f("diagnostics_html")?)?,
        warps: list(f("warps")?, |w| {
            let [block, warp] = tuple::<2>(w)?;
            Some((usize_of(block)?, usize_of(warp)?))
        })?,
        vars_html: html(f("vars_html")?)?,
        mask_html: html(f("mask_html")?)?,
        warp_text: string_of(f("warp_text")?)?,
        memory_html: html(f("memory_html")?)?,
        memory_error: opt(f("memory_error")?, string_of)?,
        drawn: opt(f("drawn")?, |d| drawn_text::read(d.as_str()?).ok())?,
        edits: edits(f("edits")?.as_object()?)?,
        edits_note: opt(f("edits_note")?, string_of)?,
        params: list(f("params")?, param)?,
        dialect_line: string_of(f("dialect_line")?)?,
        skipped: list(f("skipped")?, |s| {
            let [first, last] = tuple::<2>(s)?;
            Some((u32_of(first)?, u32_of(last)?))
        })?,
        wgsl_bindings: opt(f("wgsl_bindings")?, |b| list(b, binding))?,
    })
}

/// The worker's answer `json`: `{"frame": …}` or `{"error": "…"}` ([`Reply`]).
///
/// # Errors
/// The answer does not read as a [`Reply`] (a bug between the page and its worker, never user
/// input): the text says so.
pub fn read_reply(json: &str) -> Result<Reply, String> {
    let v: Option<Value> = serde_json::from_str(json).ok();
    v.as_ref()
        .and_then(|v| match v.get("error") {
            Some(e) => string_of(e).map(Reply::Error),
            None => frame(v.get("frame")?).map(|f| Reply::Frame(Box::new(f))),
        })
        .ok_or_else(|| "the kernel worker's answer does not read back as a frame".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worker::protocol::{Command, Request};
    use crate::worker::session::Session;

    /// Every frame of a kernel with a cross-lane call, host-code parameters and a fault reads
    /// back as the frame the worker wrote, field by field (the derived serializer writes it).
    #[test]
    fn a_frame_survives_the_trip_from_the_worker() {
        let source = "__global__ void k(int *out, int n) {\n  int v = threadIdx.x;\n  v += __shfl_xor_sync(0xffffffff, v, 1);\n  out[threadIdx.x] = v;\n}\n";
        let mut session = Session::default();
        let load: Request = serde_json::from_value(serde_json::json!({
            "command": { "kind": "load", "source": source, "config": {} },
            "at": { "pos": 2 }
        }))
        .expect("a load request");
        let now = || 0.0;
        let mut frames = vec![session.handle(load, &now, &mut |_| {})];
        for (pos, command) in [
            (0, Command::Step),
            (1, Command::Step),
            (
                2,
                Command::Run {
                    target: None,
                    show: None,
                    paused: false,
                },
            ),
            (1, Command::Show),
            (100, Command::Show),
        ] {
            let show = Request {
                command,
                at: crate::worker::protocol::At {
                    pos,
                    ..Default::default()
                },
            };
            frames.push(session.handle(show, &now, &mut |_| {}));
        }
        assert!(
            frames.iter().any(|f| f.drawn.is_some()),
            "a frame draws the shuffle"
        );
        for f in frames {
            let text = serde_json::to_string(&Reply::Frame(Box::new(f.clone()))).unwrap();
            assert_eq!(read_reply(&text), Ok(Reply::Frame(Box::new(f))));
        }
        assert_eq!(
            read_reply(r#"{"error":"the kernel session is busy"}"#),
            Ok(Reply::Error("the kernel session is busy".into()))
        );
        for bad in [
            "",
            "{}",
            "{\"frame\": {}}",
            "[]",
            "{\"frame\": {\"pos\": -1}}",
        ] {
            assert!(read_reply(bad).is_err(), "{bad}");
        }
    }
}
