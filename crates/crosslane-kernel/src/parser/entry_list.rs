//! What a source whose kernels are all templates offers `--entry`: none of them runs until its
//! template arguments are named (C++17 [temp.fct]: a function template is not a function; an
//! instance is), so a run without `--entry` and without a launch in host code lists the
//! choices as the user types them — each explicit instantiation's template-id
//! (`template __global__ void k<float, 4>(float*, int);` gives `--entry 'k<float, 4>'`,
//! C++17 [temp.explicit]) and each `__global__` template with its parameters to fill in.
//! `__device__` function templates are not kernels and are not listed.

use super::Parser;
use crate::lexer::{Tok, Token};
use crate::KernelError;

/// The words that make a function a kernel.
pub(super) const KERNEL_WORDS: &[&str] = &["__global__", "__simt_vf__", "__aicore__"];

/// The template-id an explicit instantiation names (`__global__ void k<float, 4>(float*, int)`,
/// the tokens after `template`): the template's name and the `--entry` text, its arguments
/// separated by `, `. `None` when the declarator has no explicit arguments (they are deduced
/// from the parameter types, which this listing does not do) or cannot be read.
pub(super) fn explicit_instance(toks: &[Token]) -> Option<(String, String)> {
    // The declarator's name: the first identifier followed by `<` before the parameter list (a
    // kernel returns `void`, so no template-id comes before its name).
    let open = toks.iter().position(|t| matches!(t.tok, Tok::Punct("(")))?;
    let name_at = (0..open).find(|&k| {
        matches!(toks[k].tok, Tok::Ident(_))
            && matches!(toks.get(k + 1).map(|t| &t.tok), Some(Tok::Punct("<")))
    })?;
    let Tok::Ident(name) = &toks[name_at].tok else {
        return None;
    };
    let mut text = format!("{name}<");
    let mut depth = 0i32;
    let mut prev_word = false;
    for t in &toks[name_at + 2..open] {
        let close = match t.tok {
            Tok::Punct(">") => 1,
            Tok::Punct(">>") => 2,
            _ => 0,
        };
        if close > depth {
            // The closing `>` (a `>>` may close a nested list too: `k<Vec<float>>`).
            for _ in 0..=depth {
                text.push('>');
            }
            return Some((name.clone(), text));
        }
        depth += match t.tok {
            Tok::Punct("<") => 1,
            _ => -close,
        };
        let word = matches!(t.tok, Tok::Ident(_) | Tok::Int { .. } | Tok::Float { .. });
        if word && prev_word {
            text.push(' ');
        }
        match &t.tok {
            Tok::Punct(",") => text.push_str(", "),
            _ => text.push_str(&super::host::text_of(std::slice::from_ref(t))),
        }
        prev_word = word;
    }
    None
}

impl Parser<'_> {
    /// Whether function template `name` is a kernel: `__global__` (Ascend C: `__simt_vf__`,
    /// `__aicore__`) in its declaration, as a function's (`types.rs`).
    fn is_kernel_template(&self, name: &str) -> bool {
        self.templates.get(name).is_some_and(|t| {
            t.tokens()
                .iter()
                .any(|k| matches!(&k.tok, Tok::Ident(w) if KERNEL_WORDS.contains(&w.as_str())))
        })
    }

    /// Whether the source has a `__global__` function template.
    pub(super) fn has_kernel_template(&self) -> bool {
        self.templates.keys().any(|n| self.is_kernel_template(n))
    }

    /// The error of a run with nothing to run because every kernel is a template: the
    /// `--entry` values to choose from, one a line — the explicit instantiations of kernel
    /// templates as written, then each kernel template that has none, with its parameters
    /// (`k<T, N>`) to replace by arguments. Without kernel templates (only `__device__`
    /// function templates), says there is no kernel.
    pub(super) fn template_only_error(&self) -> KernelError {
        let mut lines: Vec<String> = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        for (name, text) in &self.explicit_instances {
            if self.is_kernel_template(name) && !lines.iter().any(|l| l.contains(text.as_str())) {
                lines.push(format!("  --entry '{text}'   (explicit instantiation)"));
                seen.push(name);
            }
        }
        let mut kernels: Vec<&String> = self
            .templates
            .keys()
            .filter(|n| !n.contains('#') && self.is_kernel_template(n))
            .filter(|n| !seen.contains(&n.as_str()))
            .collect();
        kernels.sort();
        for name in kernels {
            let params = self.templates[name].param_names();
            lines.push(format!(
                "  --entry '{name}<{}>'   (replace {} by template arguments)",
                params.join(", "),
                params.join(", ")
            ));
        }
        if lines.is_empty() {
            let mut names: Vec<&String> = self.templates.keys().collect();
            names.sort();
            let list: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            return KernelError::new(
                1,
                1,
                format!(
                    "no kernel to run: the source defines no kernel (`__global__`), only device \
                     function templates ({}); add a kernel that calls one",
                    list.join(", ")
                ),
            );
        }
        // A host launch whose instance was not read says why (`host_template_launch`).
        let unread: String = self
            .diags
            .iter()
            .filter(|d| d.rule == super::host_template_launch::UNREAD_LAUNCH_RULE)
            .map(|d| format!("\n  {}:{}: {}", d.line, d.col, d.message))
            .collect();
        KernelError::new(
            1,
            1,
            format!(
                "no function to run: the source's kernels are templates, and a template kernel \
                 runs once its arguments are named (a launch in host code, or --entry).{unread}\n\
                 Choose one:\n{}",
                lines.join("\n")
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inst(src: &str) -> Option<(String, String)> {
        let toks = crate::lexer::lex(src).unwrap().tokens;
        explicit_instance(&toks)
    }

    #[test]
    fn reads_the_template_id_of_an_explicit_instantiation() {
        assert_eq!(
            inst("__global__ void k<float, 4>(float*, int)"),
            Some(("k".into(), "k<float, 4>".into()))
        );
        assert_eq!(
            inst("__global__ void k<unsigned int,128u>(unsigned int*)"),
            Some(("k".into(), "k<unsigned int, 128>".into()))
        );
        assert_eq!(
            inst("__global__ void k<Vec<float>>(float*)"),
            Some(("k".into(), "k<Vec<float>>".into()))
        );
        assert_eq!(inst("__global__ void k(float*)"), None);
    }
}
