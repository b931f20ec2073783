//! The control panel, generated from the op registry: a dialect menu, an op menu, one labelled
//! input per [`ParamSpec`] (the vendor name as label and `data-param`, the doc as title), and the
//! warp fields (lanes, active mask, values, type). It reads back an [`OpRequest`] exactly as typed
//! and shows an [`InputError`] beside the field it names.
//!
//! Element ids and attributes are the page contract (DESIGN.md): `select#dialect`, `select#op`,
//! `input#lane-count` (name `lanes`; the id `lanes` belongs to the lane table), `input#active`, `input#values`, `select#type`, `input[data-param="<name>"]`,
//! each inside a `.field[data-field="<name>"]` with a visible `<label>`.

use std::collections::BTreeMap;

use crosslane_core::{dialect_ops, find_op, Dialect, InputError, OpRequest, OpSpec, ParamKind};
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlInputElement, HtmlSelectElement};

use crate::dom::{append, el, el_as, remove_all, Js};
use crate::form;

/// Handles on the form's controls.
pub struct Controls {
    doc: Document,
    form: Element,
    /// `select#dialect`.
    pub dialect: HtmlSelectElement,
    /// `select#op`.
    pub op: HtmlSelectElement,
    /// `input#lane-count` (name `lanes`).
    pub lanes: HtmlInputElement,
    /// `input#active`.
    pub active: HtmlInputElement,
    /// `input#values`.
    pub values: HtmlInputElement,
    /// `select#type`.
    pub ty: HtmlSelectElement,
    params: Element,
}

/// Appends `<div class="field" data-field=key><label for=id>…</label>control<small>hint</small></div>`.
fn field(
    doc: &Document,
    parent: &Element,
    key: &str,
    label: &str,
    control: &Element,
    hint: &str,
) -> Js<()> {
    let id = control.id();
    let div = el(doc, "div", &[("class", "field"), ("data-field", key)], None)?;
    let lab = el(doc, "label", &[("for", &id)], None)?;
    append(&lab, &el(doc, "code", &[], Some(label))?)?;
    div.append_child(&lab)?;
    div.append_child(control)?;
    if !hint.is_empty() {
        append(&div, &el(doc, "small", &[("class", "hint")], Some(hint))?)?;
    }
    parent.append_child(&div)?;
    Ok(())
}

fn text_input(doc: &Document, id: &str, value: &str, placeholder: &str) -> Js<HtmlInputElement> {
    named_input(doc, id, id, value, placeholder)
}

fn named_input(
    doc: &Document,
    id: &str,
    name: &str,
    value: &str,
    placeholder: &str,
) -> Js<HtmlInputElement> {
    let input: HtmlInputElement = el_as(
        doc,
        "input",
        &[
            ("id", id),
            ("name", name),
            ("type", "text"),
            ("autocomplete", "off"),
            ("spellcheck", "false"),
            ("placeholder", placeholder),
        ],
    )?;
    input.set_value(value);
    Ok(input)
}

fn option(doc: &Document, select: &HtmlSelectElement, value: &str, text: &str) -> Js<Element> {
    let o = el(doc, "option", &[("value", value)], Some(text))?;
    select.append_child(&o)?;
    Ok(o)
}

impl Controls {
    /// Builds the form inside `form` (an empty `<form id="controls">` in index.html) and selects
    /// the first dialect that has operations.
    pub fn build(doc: &Document, form: Element) -> Js<Controls> {
        let op_box = el(doc, "fieldset", &[("id", "op-fields")], None)?;
        append(&op_box, &el(doc, "legend", &[], Some("operation"))?)?;
        let dialect: HtmlSelectElement =
            el_as(doc, "select", &[("id", "dialect"), ("name", "dialect")])?;
        for (d, has_ops) in form::dialect_choices() {
            let text = if has_ops {
                d.title().to_string()
            } else {
                format!("{} (no operations yet)", d.title())
            };
            let o = option(doc, &dialect, d.name(), &text)?;
            if !has_ops {
                o.set_attribute("disabled", "")?;
            }
        }
        field(doc, &op_box, "dialect", "dialect", &dialect, "")?;
        let op: HtmlSelectElement = el_as(doc, "select", &[("id", "op"), ("name", "op")])?;
        field(doc, &op_box, "op", "op", &op, "the vendor's own name")?;
        form.append_child(&op_box)?;

        let params = el(doc, "fieldset", &[("id", "params")], None)?;
        form.append_child(&params)?;

        let warp = el(doc, "fieldset", &[("id", "warp-fields")], None)?;
        append(&warp, &el(doc, "legend", &[], Some("warp"))?)?;
        // id "lane-count", not "lanes": DESIGN.md's page contract gives id "lanes" to the lane
        // table, and ids are unique. The field is still named and labelled `lanes`.
        let lanes = named_input(doc, "lane-count", "lanes", "", "dialect default")?;
        field(
            doc,
            &warp,
            "lanes",
            "lanes",
            &lanes,
            "lanes per warp / wavefront / subgroup",
        )?;
        let active = text_input(doc, "active", "", "all lanes")?;
        field(
            doc,
            &warp,
            "active",
            "active",
            &active,
            "active (exec) mask, hex; click a lane to switch it off",
        )?;
        let values = text_input(doc, "values", "lane", "lane")?;
        field(
            doc,
            &warp,
            "values",
            "values",
            &values,
            "lane, lane+K, lane*K, or one value per lane (comma list)",
        )?;
        let ty: HtmlSelectElement = el_as(doc, "select", &[("id", "type"), ("name", "type")])?;
        field(doc, &warp, "type", "type", &ty, "operand type")?;
        form.append_child(&warp)?;

        let controls = Controls {
            doc: doc.clone(),
            form,
            dialect,
            op,
            lanes,
            active,
            values,
            ty,
            params,
        };
        if let Some(first) = form::first_dialect() {
            controls.dialect.set_value(first.name());
            controls.select_dialect()?;
        }
        Ok(controls)
    }

    /// The dialect currently chosen, if it parses.
    pub fn current_dialect(&self) -> Option<Dialect> {
        Dialect::parse(&self.dialect.value()).ok()
    }

    /// The op spec currently chosen, if any.
    pub fn current_op(&self) -> Option<&'static OpSpec> {
        find_op(self.current_dialect()?, &self.op.value()).ok()
    }

    /// After the dialect menu changed: list its ops, reset the lane count to the dialect's
    /// default and the active mask to all lanes (a mask typed for another lane count rarely fits).
    pub fn select_dialect(&self) -> Js<()> {
        let Some(dialect) = self.current_dialect() else {
            return Ok(());
        };
        self.op.set_inner_html("");
        for spec in dialect_ops(dialect) {
            option(&self.doc, &self.op, spec.name, spec.name)?;
        }
        self.lanes.set_value(&dialect.default_lanes().to_string());
        self.active.set_value("");
        self.select_op()
    }

    /// After the op menu changed: one control per parameter (keeping text already typed into a
    /// parameter of the same name) and the op's value types.
    pub fn select_op(&self) -> Js<()> {
        let Some(spec) = self.current_op() else {
            return Ok(());
        };
        let typed = self.param_texts()?;
        self.params.set_inner_html("");
        append(
            &self.params,
            &el(&self.doc, "legend", &[], Some("parameters"))?,
        )?;
        if spec.params.is_empty() {
            append(
                &self.params,
                &el(
                    &self.doc,
                    "p",
                    &[("class", "hint")],
                    Some("no parameters besides the operand"),
                )?,
            )?;
        }
        for p in spec.params {
            let id = format!("param-{}", p.name);
            let hint = match form::param_range(p) {
                Some(range) => format!("{} · {range}", p.doc),
                None => p.doc.to_string(),
            };
            let input = if matches!(p.kind, ParamKind::Flag) {
                let input: HtmlInputElement =
                    el_as(&self.doc, "input", &[("id", &id), ("type", "checkbox")])?;
                let initial = typed
                    .get(p.name)
                    .cloned()
                    .unwrap_or_else(|| form::param_initial(p));
                input.set_checked(initial == "true");
                input
            } else {
                let initial = typed
                    .get(p.name)
                    .cloned()
                    .unwrap_or_else(|| form::param_initial(p));
                text_input(&self.doc, &id, &initial, &form::param_placeholder(p))?
            };
            input.set_attribute("data-param", p.name)?;
            input.set_attribute("title", p.doc)?;
            field(&self.doc, &self.params, p.name, p.name, &input, &hint)?;
        }
        let previous = self.ty.value();
        self.ty.set_inner_html("");
        for t in spec.types {
            option(&self.doc, &self.ty, t.name(), t.name())?;
        }
        if spec.types.iter().any(|t| t.name() == previous) {
            self.ty.set_value(&previous);
        }
        Ok(())
    }

    /// Parameter texts by vendor name, exactly as typed (checkboxes as `true` / `false`).
    fn param_texts(&self) -> Js<BTreeMap<String, String>> {
        let mut out = BTreeMap::new();
        let found = self.params.query_selector_all("[data-param]")?;
        for i in 0..found.length() {
            let Some(input) = found
                .item(i)
                .and_then(|n| n.dyn_into::<HtmlInputElement>().ok())
            else {
                continue;
            };
            let Some(name) = input.get_attribute("data-param") else {
                continue;
            };
            let text = if input.type_() == "checkbox" {
                input.checked().to_string()
            } else {
                input.value()
            };
            out.insert(name, text);
        }
        Ok(out)
    }

    /// The request as typed.
    pub fn request(&self) -> Js<OpRequest> {
        Ok(OpRequest {
            dialect: self.dialect.value(),
            op: self.op.value(),
            lanes: self.lanes.value(),
            active: self.active.value(),
            values: self.values.value(),
            ty: self.ty.value(),
            params: self.param_texts()?,
        })
    }

    /// Fills the form from `req`, every field exactly as the request has it (so a request that
    /// does not validate shows the same error it would on the CLI), for permalinks and the
    /// reference's "open in playground".
    ///
    /// Empty request fields mean "default", as on the CLI: the lane count falls back to the
    /// dialect's default, the values to `lane`, the type to the op's first type, and a parameter
    /// the request does not name to its initial text ([`form::param_initial`]). A parameter the
    /// op does not have is ignored (its run would report it). The op may be given by an alias;
    /// the menu shows the vendor name.
    ///
    /// # Errors
    /// A JS error when the DOM refuses an edit. An unknown dialect or op is not an error here:
    /// the menus keep the text they can show, and the render reports the input error.
    pub fn set_request(&self, req: &OpRequest) -> Js<()> {
        let Ok(dialect) = Dialect::parse(&req.dialect) else {
            return Ok(());
        };
        self.dialect.set_value(dialect.name());
        self.select_dialect()?;
        let op = find_op(dialect, &req.op).map_or(req.op.as_str(), |spec| spec.name);
        self.op.set_value(op);
        // Parameters start from their initial text, not from what was typed for the op on
        // screen: the request alone decides the form.
        self.params.set_inner_html("");
        self.select_op()?;
        if let Some(spec) = self.current_op() {
            for p in spec.params {
                let Some(input) = self
                    .params
                    .query_selector(&format!("[data-param=\"{}\"]", p.name))?
                    .and_then(|e| e.dyn_into::<HtmlInputElement>().ok())
                else {
                    continue;
                };
                let text = req
                    .params
                    .get(p.name)
                    .cloned()
                    .unwrap_or_else(|| form::param_initial(p));
                if input.type_() == "checkbox" {
                    input.set_checked(text.trim() == "true");
                } else {
                    input.set_value(&text);
                }
            }
            let ty = if req.ty.trim().is_empty() {
                spec.types.first().map_or("", |t| t.name())
            } else {
                req.ty.as_str()
            };
            self.ty.set_value(ty);
        }
        if !req.lanes.trim().is_empty() {
            self.lanes.set_value(&req.lanes);
        }
        self.active.set_value(&req.active);
        self.values.set_value(if req.values.trim().is_empty() {
            "lane"
        } else {
            &req.values
        });
        Ok(())
    }

    /// Switches lane `lane` of a `lanes`-lane warp on or off in the active-mask field.
    pub fn toggle_lane(&self, lane: usize, lanes: usize) {
        self.active
            .set_value(&form::toggle_lane(&self.active.value(), lanes, lane));
    }

    /// Removes every field error.
    pub fn clear_errors(&self) -> Js<()> {
        remove_all(&self.form, ".field-error")?;
        let invalid = self.form.query_selector_all("[aria-invalid]")?;
        for i in 0..invalid.length() {
            if let Some(e) = invalid.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
                e.remove_attribute("aria-invalid")?;
            }
        }
        Ok(())
    }

    /// Shows `err` as a red line inside the field it names (the text typed stays untouched).
    /// Returns whether such a field exists.
    pub fn show_error(&self, err: &InputError) -> Js<bool> {
        let key = form::field_control(&err.field);
        let selector = format!(".field[data-field=\"{}\"]", key.replace('"', ""));
        let Some(div) = self.form.query_selector(&selector)? else {
            return Ok(false);
        };
        if let Some(control) = div.query_selector("input, select")? {
            control.set_attribute("aria-invalid", "true")?;
            let id = format!("error-{key}");
            control.set_attribute("aria-describedby", &id)?;
            let line = el(
                &self.doc,
                "p",
                &[("class", "field-error"), ("id", &id), ("role", "alert")],
                Some(&format!("{}: {}", err.field, err.message)),
            )?;
            div.append_child(&line)?;
        }
        Ok(true)
    }
}
