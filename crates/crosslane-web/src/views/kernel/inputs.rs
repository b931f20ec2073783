//! The kernel view's launch inputs (issue 14 item 8, issue 17 item 1): the dialect picker and one
//! field per parameter of the entry — a scalar's per-lane value, a pointer's buffer length and
//! fill — written as `crosslane run` takes them (`--dialect`, `--arg NAME=VALUE`,
//! `--buffer NAME[:LEN]=FILL`), so a page link and a CLI run mean the same launch.
//!
//! The values are kept as typed; the engine checks them (the FILL grammar of
//! `crosslane_core::fill`, an unset scalar's diagnostic) and the view shows its words.

use std::collections::BTreeMap;
use std::fmt::Write;

use crosslane_core::Dialect;

use crate::labels::escape;
use crate::worker::protocol::ParamField;

/// The dialect picker's options: `auto` (from the source: `LaunchConfig::dialect` = `None`),
/// then every dialect by its CLI name. HIP's wave32 / wave64 is the lanes field (32 or 64).
pub fn dialect_options() -> String {
    let mut html = String::from(r#"<option value="">auto (from the source)</option>"#);
    for d in Dialect::ALL {
        let _ = write!(html, r#"<option value="{0}">{0}</option>"#, d.name());
    }
    html
}

/// The argument fields for `params`, filled from `args` (values and fills by parameter name)
/// and `lens` (buffer lengths in cells). Each input carries `data-arg` (value or fill) or
/// `data-len` (length) with the parameter's name; labels are `NAME`, `NAME length` and
/// `NAME fill`. Empty fields mean the engine's defaults (a scalar is not set: undefined in every
/// lane, with a reason naming its field; `index` and one cell per thread for a buffer).
pub fn fields_html(
    params: &[ParamField],
    args: &BTreeMap<String, String>,
    lens: &BTreeMap<String, usize>,
) -> String {
    let mut html = String::new();
    for (k, p) in params.iter().enumerate() {
        let name = escape(&p.name);
        let value = args.get(&p.name).map_or(String::new(), |v| escape(v));
        if !p.pointer {
            let _ = write!(
                html,
                r#"<div class="field"><label for="kernel-arg-{k}">{name}</label><input id="kernel-arg-{k}" data-arg="{name}" type="text" placeholder="not set" autocomplete="off" value="{value}"></div>"#
            );
            continue;
        }
        if !p.reference {
            let len = lens.get(&p.name).map_or(String::new(), usize::to_string);
            let _ = write!(
                html,
                r#"<div class="field"><label for="kernel-len-{k}">{name} length</label><input id="kernel-len-{k}" data-len="{name}" type="text" inputmode="numeric" placeholder="auto" autocomplete="off" value="{len}"></div>"#
            );
        }
        let _ = write!(
            html,
            r#"<div class="field"><label for="kernel-arg-{k}">{name} fill</label><input id="kernel-arg-{k}" data-arg="{name}" type="text" placeholder="index" autocomplete="off" value="{value}"></div>"#
        );
    }
    html
}

/// A length field's text: empty = the default (`None`), else a whole number of at least 1.
///
/// # Errors
/// The message shown for anything else.
pub fn parse_len(name: &str, text: &str) -> Result<Option<usize>, String> {
    let t = text.trim().replace('_', "");
    if t.is_empty() {
        return Ok(None);
    }
    match t.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(Some(n)),
        _ => Err(format!(
            "{name} length: `{t}` is not a whole number ≥ 1 (leave it empty for one cell per thread)"
        )),
    }
}
