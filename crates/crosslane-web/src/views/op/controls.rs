//! The control panel, generated from the op registry: a dialect menu, an op menu, one labelled
//! input per [`ParamSpec`] (the vendor name as label and `data-param`, the doc as title), and the
//! warp fields (lanes, active mask, values, type). It reads back an [`OpRequest`] exactly as typed
//! and shows an [`InputError`] beside the field it names.
//!
//! Element ids and attributes are the page contract (docs/embedding.md): `select#dialect`, `select#op`,
//! `input#lane-count` (name `lanes`; the id `lanes` belongs to the lane table), `input#active`,
//! `input#exited` (CUDA only; hidden for the other dialects), `input#values`, `select#type`,
//! `input[data-param="<name>"]` (`select[data-param="arch"]` for the AMD target), each inside a
//! `.field[data-field="<name>"]` with a visible `<label>`.

use std::collections::BTreeMap;

use crosslane_core::{dialect_ops, find_op, Dialect, InputError, OpRequest, OpSpec, ParamKind};
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlInputElement, HtmlSelectElement};

use crate::dom::{append, el, el_as, remove_all, Js};
use crate::form;
use crate::kit;

/// The operation the page opens with when no link names one: a CUDA butterfly step.
pub const DEFAULT_OP: (Dialect, &str) = (Dialect::Cuda, "__shfl_xor_sync");

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
    /// `input#exited`: CUDA's exited lanes (a lane state beside active / inactive).
    pub exited: HtmlInputElement,
    /// The `.field` holding `input#exited`, shown for CUDA only.
    exited_field: Element,
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
        // id "lane-count", not "lanes": docs/embedding.md's page contract gives id "lanes" to the lane
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
        let exited = text_input(doc, "exited", "", "none")?;
        field(
            doc,
            &warp,
            "exited",
            "exited",
            &exited,
            "CUDA: lanes that have exited (hex); they do not call and do not break the sync rule; \
             shift-click a lane to mark it exited",
        )?;
        let exited_field = warp
            .query_selector(".field[data-field=\"exited\"]")?
            .ok_or_else(|| wasm_bindgen::JsValue::from_str("the exited field is missing"))?;
        let values = text_input(doc, "values", "lane", "lane")?;
        field(
            doc,
            &warp,
            "values",
            "values",
            &values,
            "lane, a lane expression such as lane^1 or (lane+1)%32, or one value per lane (comma list)",
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
            exited,
            exited_field,
            values,
            ty,
            params,
        };
        if let Some(first) = form::first_dialect() {
            controls.dialect.set_value(first.name());
            controls.select_dialect()?;
        }
        // The first screen shows movement: one butterfly step of a CUDA warp reduction
        // (`__shfl_xor_sync`, lane mask 1: neighbours swap), the exchange a CUDA engineer knows.
        // A link always names its dialect and op, so links open as they did.
        let (dialect, op) = DEFAULT_OP;
        if find_op(dialect, op).is_ok() {
            controls.dialect.set_value(dialect.name());
            controls.select_dialect()?;
            controls.op.set_value(op);
            controls.select_op()?;
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
        // The op menu in one write: one `<option>` per op as markup, not a DOM call per
        // attribute and text of each (the CUDA menu's dozens of options cost about 14 ms of the
        // page's start this way on a loaded 2-core machine, docs/benchmarks.md "Time to first
        // lanes").
        let mut options = kit::Html::with_capacity(64 * 32);
        for spec in dialect_ops(dialect) {
            options
                .el("option")
                .attr("value", spec.name)
                .text(spec.name);
        }
        kit::set_html(&self.op, &options);
        self.lanes.set_value(&dialect.default_lanes().to_string());
        self.active.set_value("");
        self.exited.set_value("");
        // Exited lanes are a CUDA lane state; the other dialects have no such field.
        if dialect == Dialect::Cuda {
            self.exited_field.remove_attribute("hidden")?;
        } else {
            self.exited_field.set_attribute("hidden", "")?;
        }
        self.select_op()
    }

    /// After the op menu changed: one control per parameter (keeping text already typed into a
    /// parameter of the same name) and the op's value types.
    pub fn select_op(&self) -> Js<()> {
        let Some(spec) = self.current_op() else {
            return Ok(());
        };
        let typed = self.param_texts()?;
        kit::clear(&self.params);
        append(
            &self.params,
            &el(&self.doc, "legend", &[], Some("parameters"))?,
        )?;
        if spec.params().next().is_none() {
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
        for p in spec.params() {
            let id = format!("param-{}", p.name);
            let mut hint = match form::param_range(p) {
                Some(range) => format!("{} · {range}", p.doc),
                None => p.doc.to_string(),
            };
            // Per thread or one value, from the op's typed argument list.
            if let Some(arg) = spec.arg_of(p.name) {
                hint.push_str(&format!(" · {} ({})", arg.thread.word(), arg.declared()));
            }
            if let Some(targets) = form::param_choices(spec, p) {
                // The AMD target: a picker of the known processors (a value from a link that is
                // not among them stays selectable, so running it reports the error).
                let select: HtmlSelectElement = el_as(&self.doc, "select", &[("id", &id)])?;
                let initial = typed
                    .get(p.name)
                    .cloned()
                    .unwrap_or_else(|| form::param_initial(p));
                for (name, text) in &targets {
                    option(&self.doc, &select, name, text)?;
                }
                select.set_value(&initial);
                select.set_attribute("data-param", p.name)?;
                select.set_attribute("title", p.doc)?;
                field(&self.doc, &self.params, p.name, p.name, &select, &hint)?;
                continue;
            }
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
        kit::clear(&self.ty);
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
            let Some(node) = found.item(i) else {
                continue;
            };
            if let Some(select) = node.dyn_ref::<HtmlSelectElement>() {
                if let Some(name) = select.get_attribute("data-param") {
                    out.insert(name, select.value());
                }
                continue;
            }
            let Some(input) = node.dyn_into::<HtmlInputElement>().ok() else {
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
            exited: self.exited.value(),
            values: self.values.value(),
            ty: self.ty.value(),
            params: self.param_texts()?,
        })
    }

    /// Puts `req` into the form, field by field and exactly as typed: dialect, op (rebuilding
    /// the parameter inputs for it), lanes, active mask, values, type and every parameter.
    ///
    /// A parameter the op has but `req` omits starts from its control's initial text (the
    /// vendor default, [`form::param_initial`]), as on a fresh page; a key `req` has that is
    /// not a parameter of the op is dropped (its inputs do not exist), and so is a type the op
    /// does not offer (the menu keeps the op's first type). Text goes only into `value`s and
    /// `checked`, never into markup, so a request from a URL cannot inject HTML.
    ///
    /// A dialect or op this build does not know leaves the menu without a selection; the next
    /// [`Controls::request`] then carries the empty name and running it reports which field is
    /// wrong. Callers that want to refuse such a request first check it with
    /// [`crosslane_core::find_op`].
    ///
    /// # Errors
    /// Only DOM failures (building the parameter inputs).
    pub fn set_request(&self, req: &OpRequest) -> Js<()> {
        self.dialect.set_value(req.dialect.trim());
        // Rebuilds the op menu and resets the warp fields to the dialect's defaults.
        self.select_dialect()?;
        let op_name = match Dialect::parse(&req.dialect).and_then(|d| find_op(d, &req.op)) {
            // An alias (`mov_shfl`) selects the op under its vendor name.
            Ok(spec) => spec.name.to_string(),
            Err(_) => req.op.clone(),
        };
        self.op.set_value(&op_name);
        // Empty the parameter box first, so `select_op` does not carry over the texts of the
        // dialect's first op: every parameter starts from its vendor default or from `req`.
        kit::clear(&self.params);
        self.select_op()?;
        if let Some(spec) = self.current_op() {
            let found = self.params.query_selector_all("[data-param]")?;
            for i in 0..found.length() {
                let Some(node) = found.item(i) else {
                    continue;
                };
                if let Some(select) = node.dyn_ref::<HtmlSelectElement>() {
                    let name = select.get_attribute("data-param").unwrap_or_default();
                    let given = req
                        .params
                        .iter()
                        .find(|(k, _)| spec.param(k).is_some_and(|p| p.name == name))
                        .map(|(_, v)| v.trim().to_string());
                    if let Some(text) = given {
                        if !self.select_has(select, &text)? {
                            option(&self.doc, select, &text, &text)?;
                        }
                        select.set_value(&text);
                    }
                    continue;
                }
                let Some(input) = node.dyn_into::<HtmlInputElement>().ok() else {
                    continue;
                };
                let Some(name) = input.get_attribute("data-param") else {
                    continue;
                };
                // `req.params` keys may be snake or kebab case; `OpSpec::param` accepts both.
                let given = req
                    .params
                    .iter()
                    .find(|(k, _)| spec.param(k).is_some_and(|p| p.name == name))
                    .map(|(_, v)| v);
                if let Some(text) = given {
                    if input.type_() == "checkbox" {
                        input.set_checked(text.trim() == "true");
                    } else {
                        input.set_value(text);
                    }
                }
            }
        }
        self.lanes.set_value(&req.lanes);
        self.active.set_value(&req.active);
        self.exited.set_value(&req.exited);
        self.values.set_value(&req.values);
        let ty = req.ty.trim();
        if !ty.is_empty() && self.has_type(ty)? {
            self.ty.set_value(ty);
        }
        Ok(())
    }

    /// Whether the type menu offers `name`.
    fn has_type(&self, name: &str) -> Js<bool> {
        self.select_has(&self.ty, name)
    }

    /// Whether `select` offers the value `name`.
    fn select_has(&self, select: &HtmlSelectElement, name: &str) -> Js<bool> {
        let options = select.query_selector_all("option")?;
        for i in 0..options.length() {
            if let Some(o) = options.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
                if o.get_attribute("value").as_deref() == Some(name) {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// Switches lane `lane` of a `lanes`-lane warp on or off in the active-mask field.
    pub fn toggle_lane(&self, lane: usize, lanes: usize) {
        self.active
            .set_value(&form::toggle_lane(&self.active.value(), lanes, lane));
    }

    /// Marks lane `lane` exited, or back to active when it had exited (shift-click; CUDA only).
    pub fn toggle_exited(&self, lane: usize, lanes: usize) {
        if self.current_dialect() != Some(Dialect::Cuda) {
            return;
        }
        let (active, exited) =
            form::toggle_exited(&self.active.value(), &self.exited.value(), lanes, lane);
        self.active.set_value(&active);
        self.exited.set_value(&exited);
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
                // The field's own label names it: the line says only what is wrong, so the
                // field reads "delta … must be in …", not "delta: delta: …".
                Some(&err.message),
            )?;
            div.append_child(&line)?;
        }
        Ok(true)
    }
}
