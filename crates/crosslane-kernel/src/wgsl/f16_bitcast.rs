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
