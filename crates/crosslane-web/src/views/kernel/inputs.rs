//! The kernel view's launch inputs (kept in the link): the dialect picker and one
//! field per parameter of the entry — a scalar's per-lane value, a pointer's buffer length and
//! fill — written as `crosslane run` takes them (`--dialect`, `--arg NAME=VALUE`,
//! `--buffer NAME[:LEN]=FILL`), so a page link and a CLI run mean the same launch.
//!
//! The values are kept as typed; the engine checks them (the FILL grammar of
//! `crosslane_core::fill`, an unset scalar's diagnostic) and the view shows its words.

use std::collections::BTreeMap;

use crosslane_core::Dialect;
use crosslane_kernel::Limits;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen::JsCast;
#[cfg(target_arch = "wasm32")]
use web_sys::Element;

#[cfg(target_arch = "wasm32")]
use crate::dom::Js;
use crate::kit::Html;
use crate::worker::protocol::ParamField;

/// A budget field's name in a link (`KernelInputs::budgets`): the `Limits` field it sets
/// (`kernel-max-work` → `max_work`).
pub fn budget_key(id: &str) -> String {
    id.trim_start_matches("kernel-").replace('-', "_")
}

/// The warp menu's value `BLOCK:WARP` (`None` for "the warp of the step shown").
pub fn parse_warp(value: &str) -> Option<(usize, usize)> {
    let (b, w) = value.split_once(':')?;
    Some((b.parse().ok()?, w.parse().ok()?))
}

/// `<option value=V>TEXT</option>`.
pub fn option(h: &mut Html, value: &str, text: &str) {
    h.el("option").attr("value", value).text(text);
}

/// A link's dialect (`KernelInputs::dialect`): `None` (from the source) or a dialect's name; any
/// other text is the field error the view shows, naming the field and the names allowed.
///
/// # Errors
/// `dialect: `opencl` is not a dialect; allowed: cuda, hip, …` (the core's message).
pub fn link_dialect(name: Option<&str>) -> Result<Option<Dialect>, String> {
    name.map(|n| Dialect::parse(n).map_err(|e| format!("{}: {}", e.field, e.message)))
        .transpose()
}

/// The dialect picker's options: `auto` (from the source: `LaunchConfig::dialect` = `None`),
/// then every dialect by its CLI name. HIP's wave32 / wave64 is the lanes field (32 or 64).
pub fn dialect_options() -> Html {
    let mut html = Html::new();
    option(&mut html, "", "auto (from the source)");
    for d in Dialect::ALL {
        option(&mut html, d.name(), d.name());
    }
    html
}

/// One `<div class="field"><label for=ID>LABEL</label><input id=ID …></div>`, the input's
/// attributes after its id given by `input`; with a `hint`, a `<small id=ID-hint>` after the
/// input describes it (what leaving it empty means).
fn field(
    h: &mut Html,
    id: &str,
    label: &str,
    hint: Option<&str>,
    input: impl FnOnce(crate::kit::html::Tag<'_>),
) {
    h.el("div").attr("class", "field").with(|h| {
        h.el("label").attr("for", id).text(label);
        let tag = h.el("input").attr("id", id);
        match hint {
            Some(text) => {
                let hint_id = format!("{id}-hint");
                input(
                    tag.attr("data-hint", &hint_id)
                        .attr("aria-describedby", &hint_id),
                );
                h.el("small")
                    .attr("id", &hint_id)
                    .attr("class", "field-hint")
                    .text(text);
            }
            None => input(tag),
        }
    });
}

/// The hint under the fill fields: the fill grammar ([`crosslane_core::fill::GRAMMAR`], the
/// one the CLI's `--buffer` and every fill error state) and what an empty length means.
pub fn fill_hint() -> String {
    format!(
        "fill: {}. length: empty = auto (what host code allocates, else one cell per thread).",
        crosslane_core::fill::GRAMMAR
    )
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
) -> Html {
    let mut html = Html::new();
    for (k, p) in params.iter().enumerate() {
        let name = &p.name;
        let value = args.get(&p.name).map_or("", String::as_str);
        let arg_id = format!("kernel-arg-{k}");
        if !p.pointer {
            let hint = p.host.as_ref().map(|h| format!("empty = {h}"));
            let placeholder = match &p.host {
                Some(h) => h.split(',').next().unwrap_or("auto").to_string(),
                None => "not set".to_string(),
            };
            field(&mut html, &arg_id, name, hint.as_deref(), |i| {
                i.attr("data-arg", name)
                    .attr("type", "text")
                    .attr("placeholder", &placeholder)
                    .attr("autocomplete", "off")
                    .attr("value", value)
                    .void()
            });
            continue;
        }
        if !p.reference {
            let len = lens.get(&p.name).map_or(String::new(), usize::to_string);
            let hint = p.host.as_ref().map(|h| format!("auto = {h}"));
            let placeholder = match &p.host {
                Some(h) => format!("auto ({})", h.split(',').next().unwrap_or("")),
                None => "auto".to_string(),
            };
            field(
                &mut html,
                &format!("kernel-len-{k}"),
                &format!("{name} length"),
                hint.as_deref(),
                |i| {
                    i.attr("data-len", name)
                        .attr("type", "text")
                        .attr("inputmode", "numeric")
                        .attr("placeholder", &placeholder)
                        .attr("autocomplete", "off")
                        .attr("value", &len)
                        .void()
                },
            );
        }
        field(&mut html, &arg_id, &format!("{name} fill"), None, |i| {
            i.attr("data-arg", name)
                .attr("type", "text")
                .attr("placeholder", "index")
                .attr("autocomplete", "off")
                .attr("value", value)
                .void()
        });
    }
    html
}

/// Marks the argument fields in `args_box` as the previous kernel's (`stale`: a pasted kernel
/// failed to load, so they may not apply): `data-stale`, every input disabled and `note`
/// ("from the previous kernel") shown; or as applying again.
///
/// # Errors
/// A DOM error.
#[cfg(target_arch = "wasm32")]
pub fn mark_stale(args_box: &Element, note: &web_sys::HtmlElement, stale: bool) -> Js<()> {
    if stale {
        args_box.set_attribute("data-stale", "true")?;
    } else {
        args_box.remove_attribute("data-stale")?;
    }
    note.set_hidden(!stale);
    let found = args_box.query_selector_all("input")?;
    for i in 0..found.length() {
        if let Some(input) = found
            .item(i)
            .and_then(|n| n.dyn_into::<web_sys::HtmlInputElement>().ok())
        {
            input.set_disabled(stale);
        }
    }
    Ok(())
}

/// Takes a field's error mark off: no `aria-invalid`, and described by its hint again (what
/// "auto" means), or by nothing.
///
/// # Errors
/// A DOM error.
#[cfg(target_arch = "wasm32")]
pub fn unmark(el: &Element) -> Js<()> {
    el.remove_attribute("aria-invalid")?;
    match el.get_attribute("data-hint") {
        Some(h) => el.set_attribute("aria-describedby", &h),
        None => el.remove_attribute("aria-describedby"),
    }
}

/// Marks the fill field in `args_box` the launch's error is in (`input` = `x fill`:
/// `aria-invalid`, described by `#kernel-error`) and unmarks the others: a fill's fault is the
/// field's, never shown on the source.
///
/// # Errors
/// A DOM error.
#[cfg(target_arch = "wasm32")]
pub fn mark_fill_error(args_box: &Element, input: Option<&str>) -> Js<()> {
    let wanted = input.and_then(|i| i.strip_suffix(" fill"));
    let list = args_box.query_selector_all("input[data-arg]")?;
    for k in 0..list.length() {
        let Some(el) = list.item(k).and_then(|n| n.dyn_into::<Element>().ok()) else {
            continue;
        };
        if wanted.is_some() && el.get_attribute("data-arg").as_deref() == wanted {
            el.set_attribute("aria-invalid", "true")?;
            el.set_attribute("aria-describedby", "kernel-error")?;
        } else if el.get_attribute("aria-invalid").is_some() {
            unmark(&el)?;
        }
    }
    Ok(())
}

/// A count field's text (a launch dimension, a budget, a buffer length): empty = the default
/// (`None`), else a whole number in `1..=max` (`_` may group digits). `field` names the field
/// and `empty` says what leaving it empty means.
///
/// # Errors
/// The message shown, naming the field and the allowed range: "is not a whole number" for text
/// that is not one, "is out of range" for a whole number outside `1..=max` (`0`, `-5`, or more
/// digits than any count has).
pub fn parse_count(field: &str, text: &str, max: u64, empty: &str) -> Result<Option<u64>, String> {
    let t = text.trim().replace('_', "");
    if t.is_empty() {
        return Ok(None);
    }
    let range = if max == u64::MAX {
        "1 or more".to_string()
    } else {
        format!("1..={max}")
    };
    let digits = t.strip_prefix(['-', '+']).unwrap_or(&t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "{field}: `{t}` is not a whole number: give {range} ({empty})"
        ));
    }
    match t.parse::<u64>() {
        Ok(n) if (1..=max).contains(&n) => Ok(Some(n)),
        _ => Err(format!(
            "{field}: `{t}` is out of range: give {range} ({empty})"
        )),
    }
}

/// A length field's text: empty = the default (`None`), else a whole number of at least 1 (the
/// memory budget bounds it when the kernel launches).
///
/// # Errors
/// The message shown for anything else ([`parse_count`]).
pub fn parse_len(name: &str, text: &str) -> Result<Option<usize>, String> {
    parse_count(
        &format!("{name} length"),
        text,
        u64::MAX,
        "leave it empty for auto: what host code allocates, else one cell per thread",
    )
    .map(|n| n.map(|n| usize::try_from(n).unwrap_or(usize::MAX)))
}

/// A budget field's text: empty = the page's `default`; otherwise a whole number from 1 to the
/// page's `ceiling` (`budget::PAGE_CEILING`: no field or link raises a budget past it).
///
/// # Errors
/// The message for a text that is not such a number, naming the field and its range.
pub fn field_budget(
    text: &str,
    name: &'static str,
    default: u64,
    ceiling: u64,
) -> Result<u64, String> {
    let empty = format!("leave it empty for the page's {default}");
    parse_count(name, text, ceiling, &empty).map(|n| n.unwrap_or(default))
}

/// A launch field's text: empty = not given; otherwise a whole number in `1..=max`.
///
/// # Errors
/// The message for a text that is not such a number.
pub fn field_number(text: &str, name: &'static str, max: usize) -> Result<Option<usize>, String> {
    parse_count(name, text, max as u64, "leave it empty for the default")
        .map(|n| n.map(|n| usize::try_from(n).unwrap_or(usize::MAX)))
}

/// The page's default budgets: the core's defaults ([`Limits::default`]) with less work and
/// memory, so that a run ends within seconds in a tab. Each can be raised in the budget fields.
pub fn page_limits() -> Limits {
    Limits {
        max_work: 2_000_000,
        max_memory: 128 << 20,
        ..Limits::default()
    }
}

/// "loading the kernel engine… (N KB)": the status while the worker downloads and compiles the
/// engine module; N is its gzipped size, which `scripts/build-web` measures and writes into
/// `section#view-kernel[data-engine-kb]` (a build without it shows no number).
#[cfg(target_arch = "wasm32")]
pub fn engine_loading(section: &web_sys::HtmlElement) -> String {
    match section.get_attribute("data-engine-kb") {
        Some(kb) if !kb.is_empty() && kb.bytes().all(|b| b.is_ascii_digit()) => {
            format!("loading the kernel engine… ({kb} KB)")
        }
        _ => "loading the kernel engine…".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_links_dialect_is_a_dialect_or_an_error_naming_the_field_and_the_names() {
        assert_eq!(link_dialect(None), Ok(None));
        assert_eq!(link_dialect(Some("hip")), Ok(Some(Dialect::Hip)));
        let e = link_dialect(Some("opencl")).unwrap_err();
        assert!(e.starts_with("dialect: "), "{e}");
        assert!(e.contains("cuda") && e.contains("wgsl"), "{e}");
    }

    #[test]
    fn a_count_names_its_field_and_range_and_tells_a_bad_number_from_text() {
        assert_eq!(parse_count("blocks", " 4 ", 65_536, "x"), Ok(Some(4)));
        assert_eq!(parse_count("blocks", "", 65_536, "x"), Ok(None));
        assert_eq!(parse_count("blocks", "1_000", 65_536, "x"), Ok(Some(1000)));
        assert_eq!(
            parse_count("blocks", "99999999999999999999", 65_536, "leave it empty for 1"),
            Err("blocks: `99999999999999999999` is out of range: give 1..=65536 (leave it empty for 1)".into())
        );
        assert_eq!(
            parse_count("blocks", "65537", 65_536, "x"),
            Err("blocks: `65537` is out of range: give 1..=65536 (x)".into())
        );
        assert_eq!(
            parse_len("dst", "zz!"),
            Err("dst length: `zz!` is not a whole number: give 1 or more (leave it empty for auto: what host code allocates, else one cell per thread)".into())
        );
        for bad in ["0", "-5"] {
            let e = parse_len("dst", bad).unwrap_err();
            assert!(
                e.starts_with(&format!(
                    "dst length: `{bad}` is out of range: give 1 or more"
                )),
                "{e}"
            );
        }
        assert!(parse_count("blocks", "-", 9, "x")
            .unwrap_err()
            .contains("not a whole number"));
    }
}
