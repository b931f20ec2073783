//! naga 30's gap for `bitcast` between `f16` vectors and 32-bit types. WGSL allows
//! `bitcast<u32>(vec2<f16>)`, `bitcast<vec2<f16>>(u32)` and the `vec4<f16>` ↔ `vec2<u32>`
//! forms (WGSL spec, § 17.2 Bit Reinterpretation Built-in Functions: the f16 pair packed
//! little-endian, component 0 in the low 16 bits); naga's front end lowers every `bitcast`
//! to its IR's `As { convert: None }`, which keeps each component's width, so the result is a
//! `vec2<u16>` (a type WGSL does not have) and naga then refuses the shader with a type error
//! somewhere near the call. The emulator lowers naga's IR, so it cannot run the call; this
//! names the call and what to write instead.

/// A clearer error for naga's parse error `message` at byte `offset` of `text`, when it comes
/// from an f16 `bitcast`: naga names a 16-bit integer type (only such a bitcast makes one), or
/// the error's line holds a `bitcast` and the message or the call's template names `f16`.
/// Returns the byte offset of the `bitcast` (the error's own when its line has none) and
/// the message, naga's kept at its end.
pub fn hint(text: &str, offset: usize, message: &str) -> Option<(usize, String)> {
    let offset = offset.min(text.len());
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let line = &text[start..end];
    let call = line.find("bitcast<").map(|i| start + i);
    let template_f16 = call.is_some_and(|c| {
        let t = &text[c..end];
        let t = &t[..t.find('(').unwrap_or(t.len())];
        t.contains("f16") || t.contains("h>")
    });
    let names_16 = ["u16", "i16"].iter().any(|w| {
        message
            .match_indices(w)
            .any(|(i, _)| !message[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
    });
    let confident = names_16 || (call.is_some() && (message.contains("f16") || template_f16));
    if !confident || !text.contains("bitcast<") {
        return None;
    }
    Some((
        call.unwrap_or(offset),
        format!(
            "`bitcast` between `f16` vectors and 32-bit types is not supported by naga 30 \
             (wgpu's WGSL front end, which the emulator uses): its bitcast keeps each \
             component's width, so `bitcast<u32>(vec2<f16>)` becomes a `vec2<u16>`. Write \
             `pack2x16float(vec2<f32>(v))` for `bitcast<u32>(v)` and \
             `vec2<f16>(unpack2x16float(u))` for `bitcast<vec2<f16>>(u)` (two of each for \
             `vec4<f16>` and `vec2<u32>`): the same bits for finite values (WGSL spec, § 17.2 \
             bitcast: component 0 in the low 16 bits; § 17.9 pack2x16float). naga: {message}"
        ),
    ))
}

/// Where the first `bitcast` to an `f16` vector (`bitcast<vec2<f16>>(…)`, `vec4<f16>`,
/// `vec2h`, `vec4h`) is in `text`: naga 30 lowers its result to an `f32` (or `vec2<f32>`), so
/// a later use of it as a vector fails far from the call (`invalid field accessor`); the
/// parse error then names the call as the likely cause. A plain scan of the text.
pub fn f16_vector_target(text: &str) -> Option<usize> {
    text.match_indices("bitcast").find_map(|(at, _)| {
        let rest = text[at + "bitcast".len()..].trim_start();
        let t = rest.strip_prefix('<')?;
        let t = &t[..t.find('(').unwrap_or(t.len())];
        let compact: String = t.chars().filter(|c| !c.is_whitespace()).collect();
        ["vec2<f16>", "vec4<f16>", "vec2h", "vec4h"]
            .iter()
            .any(|w| compact.starts_with(w))
            .then_some(at)
    })
}

/// The `bitcast` calls naga 30 lowers without an error but to the wrong value: a 32-bit
/// source reinterpreted as an `f16` vector (`bitcast<vec2<f16>>(u)`) becomes naga's
/// `As { kind: Float, convert: None }` of the `u32`, an `f32` of the same bits, and the
/// shader runs with it (WGSL spec, § 17.2: the result is the two halves, component 0 from the
/// low 16 bits). Returns the byte offset of the first such call and [`hint`]'s message.
/// Found in naga's IR (each width-keeping `As` whose source is 4 bytes wide) and confirmed in
/// the text at its span (`bitcast<` with an `f16` template).
pub fn silent_in_ir(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    text: &str,
) -> Option<(usize, String)> {
    let funcs = module.functions.iter().map(|(h, f)| (f, &info[h])).chain(
        module
            .entry_points
            .iter()
            .enumerate()
            .map(|(k, ep)| (&ep.function, info.get_entry_point(k))),
    );
    for (f, fi) in funcs {
        for (h, e) in f.expressions.iter() {
            let naga::Expression::As {
                expr,
                kind: naga::ScalarKind::Float,
                convert: None,
            } = e
            else {
                continue;
            };
            let width = fi[*expr].ty.inner_with(&module.types).scalar_width();
            if width != Some(4) {
                continue;
            }
            let Some(at) = f.expressions.get_span(h).to_range().map(|r| r.start) else {
                continue;
            };
            let call = text.get(at..).unwrap_or("");
            let template = call
                .strip_prefix("bitcast")
                .map(str::trim_start)
                .and_then(|t| t.strip_prefix('<'))
                .map(|t| &t[..t.find('(').unwrap_or(t.len())]);
            if template
                .is_some_and(|t| t.contains("f16") || t.contains("vec2h") || t.contains("vec4h"))
            {
                return hint(
                    text,
                    at,
                    "accepts this call but lowers it to an `f32` of the same 32 bits (a wrong \
                     value, so the emulator does not run it)",
                );
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::hint;

    #[test]
    fn names_the_bitcast_only_for_16_bit_types() {
        let t = "fn f() {\n  let x = bitcast<u32>(vec2<f16>(1.0h, 2.0h));\n}\n";
        let at = t.find("let").unwrap();
        let (off, m) = hint(t, at, "cannot convert `vec2<u16>` to `u32`").unwrap();
        assert_eq!(off, t.find("bitcast").unwrap());
        assert!(
            m.contains("pack2x16float") && m.ends_with("to `u32`"),
            "{m}"
        );
        // An unrelated error in a shader without 16-bit types in the message or template.
        let t2 = "fn f() {\n  let x = bitcast<u32>(1.0);\n}\n";
        assert!(hint(t2, t2.find("let").unwrap(), "unknown identifier `y`").is_none());
        // `au16` is not the type `u16`.
        assert!(hint(t2, 0, "unknown identifier `au16`").is_none());
    }
}
