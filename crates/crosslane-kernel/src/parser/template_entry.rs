//! The template kernel a run starts in: one named by `--entry 'k<float, 4>'` instantiated as
//! any call's template is ([`Parser::instantiate_call`]), or, when nothing names one, the only
//! kernel template whose every parameter has a default (C++17 [temp.arg]/4).

use super::templates::Template;
use super::*;

/// `--entry`'s template arguments with the source's object-like macros replaced, as the
/// preprocessor replaces them in the source's own `k<bfloat16, 4><<<…>>>` ([cpp.replace]/9):
/// `k<bfloat16, 4>` under `#define bfloat16 maca_bfloat16` is `k<maca_bfloat16, 4>`. A
/// replacement is rescanned for further names (at most 16 rounds, a name not replaced inside
/// its own replacement, [cpp.rescan]/2). The name before the `<` is kept as given.
pub(super) fn entry_macros(entry: &str, macros: &HashMap<String, String>) -> String {
    let Some(open) = entry.find('<') else {
        return entry.to_string();
    };
    let (head, mut args) = (entry[..open].to_string(), entry[open..].to_string());
    let mut used: Vec<String> = Vec::new();
    for _ in 0..16 {
        let mut out = String::new();
        let mut changed = false;
        let mut newly: Vec<String> = Vec::new();
        let mut rest = args.as_str();
        while let Some(start) = rest.find(|c: char| c.is_ascii_alphabetic() || c == '_') {
            let (before, from) = rest.split_at(start);
            let end = from
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(from.len());
            let (word, after) = from.split_at(end);
            // A word inside a number (`0x1f`, `1e5f`) is not a name.
            let in_number = before
                .chars()
                .last()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '.');
            out.push_str(before);
            match macros.get(word) {
                Some(body) if !in_number && !used.iter().any(|u| u == word) => {
                    out.push_str(body);
                    newly.push(word.to_string());
                    changed = true;
                }
                _ => out.push_str(word),
            }
            rest = after;
        }
        out.push_str(rest);
        used.append(&mut newly);
        args = out;
        if !changed {
            break;
        }
    }
    head + &args
}

impl Parser<'_> {
    /// The `__global__` function template to run with its default arguments when nothing
    /// names one: `name` itself when it is such a template (`--entry name`), else the only
    /// kernel template whose every parameter has a default, when the source has no other
    /// kernel (`template <int N = 256> __global__ void k(…)`, launched as `k<<<…>>>` in C++
    /// with the defaults, C++17 [temp.arg]/4).
    pub(super) fn default_entry(&self, name: Option<&str>, has_kernel: bool) -> Option<String> {
        let runnable = |t: &Template| {
            t.params().iter().all(|p| p.default.is_some())
                && t.tokens()
                    .iter()
                    .any(|k| matches!(&k.tok, Tok::Ident(w) if w == "__global__"))
        };
        if let Some(n) = name {
            return self
                .templates
                .get(n)
                .filter(|t| runnable(t))
                .map(|_| n.to_string());
        }
        if has_kernel {
            return None;
        }
        // An explicit specialization is kept under its instance's name (`scale<half>`): an
        // instance, not a template to run as `k<>`.
        let mut found = self
            .templates
            .iter()
            .filter(|(n, t)| !n.contains('<') && runnable(t));
        match (found.next(), found.next()) {
            (Some((n, _)), None) => Some(n.clone()),
            _ => None,
        }
    }

    /// The instantiation an entry template-id (`reduce4<int, 128>`) names, recorded to be
    /// parsed with the others.
    ///
    /// # Errors
    /// When the text is not `NAME<ARGS>` of a template of this source.
    pub(super) fn entry_instance(&mut self, entry: &str) -> PResult<String> {
        let bad = |m: String| KernelError::new(1, 1, format!("--entry `{entry}`: {m}"));
        // `k<int, 64>/3`: of kernel templates overloaded by their parameters, the one taking 3.
        let (entry, arity) = crate::host_launch::split_arity(entry);
        let mut lexed = crate::lexer::lex(entry).map_err(|e| bad(e.message))?;
        // `b::k<10>` of a kernel template two namespaces define: its name is the one
        // identifier `b::k`, as the flattened source spells it (`scopes::clashing_kernels`).
        let toks = &mut lexed.tokens;
        let mut j = 0;
        let mut joined = String::new();
        while let Tok::Ident(n) = &toks[j].tok {
            joined.push_str(n);
            match (
                toks.get(j + 1).map(|t| &t.tok),
                toks.get(j + 2).map(|t| &t.tok),
            ) {
                (Some(Tok::Punct("::")), Some(Tok::Ident(_))) => {
                    joined.push_str("::");
                    j += 2;
                }
                _ => break,
            }
        }
        if j > 0 && self.templates.contains_key(&joined) {
            let head = crate::lexer::Token {
                tok: Tok::Ident(joined),
                ..toks[0].clone()
            };
            toks.splice(0..=j, [head]);
        }
        let mut sub = Parser::new(&lexed.tokens, self.comments, self.max_depth);
        sub.aliases = self.aliases.clone();
        sub.consts = self.consts.clone();
        let name = sub.ident().map_err(|e| bad(e.message))?;
        if !self.templates.contains_key(&name) {
            return Err(bad(format!(
                "`{name}` is not a function template of this source"
            )));
        }
        // The source's functions, templates and class templates, for arguments that name
        // them (`k<twice>`, `k3<Neg>`).
        sub.fn_ptr_types = self.fn_ptr_types.clone();
        sub.fn_ptr_sigs = self.fn_ptr_sigs.clone();
        sub.fn_ptr_vars = self.fn_ptr_vars.clone();
        sub.fn_ptr_tables = self.fn_ptr_tables.clone();
        sub.templates = std::mem::take(&mut self.templates);
        sub.instances = std::mem::take(&mut self.instances);
        self.lend(&mut sub);
        let args = sub.template_args();
        self.take_back(&mut sub);
        self.templates = std::mem::take(&mut sub.templates);
        self.instances = std::mem::take(&mut sub.instances);
        self.pending.append(&mut sub.pending);
        let args = args.map_err(|e| bad(e.message))?;
        if !matches!(sub.peek(0), Tok::Eof) {
            return Err(bad("expected NAME<ARGS> and nothing after".into()));
        }
        let key = match arity {
            Some(n) => self.template_of_arity(&name, n).map_err(bad)?,
            None => name.clone(),
        };
        let at = Span { line: 1, col: 1 };
        let r = if arity.is_some() {
            // The template is chosen: no overload resolution among the others.
            self.bind_call(&key, args, &[], at)
                .and_then(|(params, bound)| self.register_instance(&key, &params, bound, at))
        } else {
            let entry_call = std::mem::replace(&mut self.entry_call, true);
            let r = self.instantiate_call(&key, args, &[], at);
            self.entry_call = entry_call;
            r
        };
        // Kernel templates of one name overloaded by their parameters (rocPRIM's tests'
        // `warp_reduce_sum_kernel(in, out)` and `(in, out, valid)`): `--entry` gives no call
        // arguments to choose by; a launch in host code does (its argument count).
        r.map_err(|e| {
            if e.message.contains("is ambiguous") && self.overloads.contains_key(&name) {
                bad(format!(
                    "`{name}` names several kernel templates that differ in their parameters \
                     ({}); name the one wanted by its parameter count after a `/`: {} (or \
                     launch it from host code, whose arguments pick it)",
                    e.message,
                    self.arity_choices(&name, entry)
                ))
            } else {
                e
            }
        })
    }

    /// The keys of the kernel templates named `name` (the first, then its overloads'
    /// `name#N`), with each one's parameter count.
    fn template_arities(&self, name: &str) -> Vec<(String, usize)> {
        std::iter::once(name.to_string())
            .chain(self.overloads.get(name).cloned().unwrap_or_default())
            .filter_map(|k| self.templates.get(&k).map(|t| (k.clone(), t.arity())))
            .collect()
    }

    /// The key of the one template named `name` that takes `n` parameters.
    fn template_of_arity(&self, name: &str, n: usize) -> Result<String, String> {
        let all = self.template_arities(name);
        let fit: Vec<&(String, usize)> = all.iter().filter(|(_, a)| *a == n).collect();
        match fit.as_slice() {
            [(k, _)] => Ok(k.clone()),
            [] => Err(format!(
                "no template `{name}` takes {n} parameters (they take {})",
                all.iter()
                    .map(|(_, a)| a.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            _ => Err(format!(
                "several templates `{name}` take {n} parameters; launch the one wanted from \
                 host code, whose argument types pick it"
            )),
        }
    }

    /// `--entry` values naming each template of `name` by its parameter count (`'k<…>/2'`).
    fn arity_choices(&self, name: &str, entry: &str) -> String {
        self.template_arities(name)
            .iter()
            .map(|(_, a)| format!("--entry '{entry}/{a}'"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}
