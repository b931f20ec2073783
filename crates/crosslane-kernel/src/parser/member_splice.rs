//! Member functions of a class template defined outside the class (C++17 [temp.mem.func]/1,
//! [temp.expl.spec]/5): `template <typename T, int N> __device__ void V<T, N>::fill(T v) { … }`
//! after the primary template, and `__device__ void vec_t<float, 1>::fill(float v) { … }` after
//! an explicit specialization `template <> struct vec_t<float, 1> { … void fill(float v); };`
//! (FlashInfer's `vec_dtypes.cuh` and its copies in vLLM and SGLang). The definition replaces
//! the member's declaration in the class template's tokens, so every instance reads it as if it
//! were written in the class (a member function defined in its class and one defined outside it
//! mean the same, [class.mfct]/1).
//!
//! A definition whose declaration is not found in the class (another parameter list, a
//! partial specialization's member, a primary template whose parameters are named otherwise)
//! is left to the reading that was there before.

use super::targs::{mangle, TParam};
use super::*;

/// The words that may stand before an out-of-class member's return type and name.
fn head_word(w: &str) -> bool {
    !matches!(
        w,
        "return" | "if" | "for" | "while" | "struct" | "class" | "union" | "enum"
    )
}

/// The parameter list's tokens without parameter names and default arguments, for comparing
/// a declaration with its definition (the names may differ, [dcl.fct]/8).
fn param_shape(toks: &[Token]) -> Vec<String> {
    let mut out = Vec::new();
    let mut param: Vec<&Tok> = Vec::new();
    let mut depth = 0usize;
    let flush = |param: &mut Vec<&Tok>, out: &mut Vec<String>| {
        // A trailing name after a type of two or more words (`const float* ptr`, `float v`).
        if param.len() >= 2 {
            if let (Tok::Ident(w), Some(prev)) =
                (param[param.len() - 1], param.get(param.len() - 2))
            {
                let typeish = matches!(prev, Tok::Ident(_) | Tok::Punct("*" | "&" | "&&" | ">"));
                if typeish
                    && !matches!(
                        w.as_str(),
                        "int"
                            | "long"
                            | "short"
                            | "char"
                            | "unsigned"
                            | "signed"
                            | "const"
                            | "double"
                    )
                {
                    param.pop();
                }
            }
        }
        for t in param.drain(..) {
            out.push(format!("{t:?}"));
        }
        out.push(",".into());
    };
    let mut in_default = false;
    for t in toks {
        match &t.tok {
            Tok::Punct("(" | "[" | "<" | "{") => depth += 1,
            Tok::Punct(")" | "]" | ">" | "}") => depth = depth.saturating_sub(1),
            Tok::Punct(",") if depth == 0 => {
                in_default = false;
                flush(&mut param, &mut out);
                continue;
            }
            Tok::Punct("=") if depth == 0 => {
                in_default = true;
                continue;
            }
            _ => {}
        }
        if !in_default {
            param.push(&t.tok);
        }
    }
    if !param.is_empty() {
        flush(&mut param, &mut out);
    }
    out
}

/// Whether the tokens between a parameter list's `)` and the body (or `;`) make the member
/// `const` ([class.this]/1): a `const` and a non-`const` member are two overloads.
fn is_const_member(toks: &[Token]) -> bool {
    toks.iter()
        .take_while(|t| !matches!(t.tok, Tok::Punct("{" | ";" | ":" | "=")))
        .any(|t| matches!(&t.tok, Tok::Ident(w) if w == "const"))
}

/// The range of a class template's tokens (`struct Name … { … } ;`) holding the declaration
/// of member `name` whose parameters have `shape` and whose constness is `konst`: from the
/// declaration's first word to its `;`. Only members at the class body's own depth count.
fn find_declaration(
    class: &[Token],
    name: &[Tok],
    shape: &[String],
    konst: bool,
) -> Option<(usize, usize)> {
    let open = class
        .iter()
        .position(|t| matches!(t.tok, Tok::Punct("{")))?;
    let mut depth = 0usize;
    let mut start = open + 1;
    let mut k = open;
    // Bounded by the class's tokens: each step moves one token on.
    while k < class.len() {
        match &class[k].tok {
            Tok::Punct("(" | "[" | "{") => depth += 1,
            Tok::Punct(")" | "]" | "}") => {
                depth = depth.saturating_sub(1);
                if depth == 1 && matches!(class[k].tok, Tok::Punct("}")) {
                    start = k + 1;
                }
                if depth == 0 {
                    return None;
                }
            }
            Tok::Punct(";") if depth == 1 => start = k + 1,
            // `public:`: an access specifier ends nothing but starts the next declaration.
            Tok::Punct(":")
                if depth == 1
                    && matches!(k.checked_sub(1).map(|j| &class[j].tok),
                        Some(Tok::Ident(w)) if matches!(w.as_str(), "public" | "private" | "protected")) =>
            {
                start = k + 1;
            }
            _ if depth == 1
                && class.len() > k + name.len()
                && class[k..k + name.len()]
                    .iter()
                    .map(|t| &t.tok)
                    .eq(name.iter())
                && matches!(class[k + name.len()].tok, Tok::Punct("("))
                && !matches!(
                    k.checked_sub(1).map(|j| &class[j].tok),
                    Some(Tok::Punct("::" | "." | "->" | "~"))
                ) =>
            {
                let lp = k + name.len();
                let rp = closing_in(class, lp)?;
                // A declaration ends at `;` at this depth with no body before it.
                let mut e = rp + 1;
                while e < class.len() && !matches!(class[e].tok, Tok::Punct(";" | "{" | "}")) {
                    e += 1;
                }
                if e < class.len()
                    && matches!(class[e].tok, Tok::Punct(";"))
                    && param_shape(&class[lp + 1..rp]) == shape
                    && is_const_member(&class[rp + 1..=e]) == konst
                {
                    return Some((start, e));
                }
                k = rp;
            }
            _ => {}
        }
        k += 1;
    }
    None
}

/// The index of the bracket closing the one at `open` in `toks`.
fn closing_in(toks: &[Token], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match t.tok {
            Tok::Punct("(" | "[" | "{") => depth += 1,
            Tok::Punct(")" | "]" | "}") => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

impl Parser<'_> {
    /// An explicit specialization's member defined outside it, if one starts here
    /// (`__device__ void vec_t<float, 1>::fill(float v) { … }`, [temp.expl.spec]/5): spliced
    /// into the specialization's tokens in place of the member's declaration.
    pub(super) fn spec_member_def(&mut self) -> PResult<bool> {
        self.splice_member_def(self.pos, None)
    }

    /// A class template's member defined outside the class after `template <params>`, if one
    /// starts at `from` (`template <typename T, int N> __device__ void V<T, N>::fill(T v) { … }`,
    /// [temp.mem.func]/1): spliced into the template's tokens in place of the member's
    /// declaration when the definition names the template's own parameters in order.
    pub(super) fn template_member_def(&mut self, params: &[TParam]) -> PResult<bool> {
        self.splice_member_def(self.pos, Some(params))
    }

    fn splice_member_def(&mut self, from: usize, params: Option<&[TParam]>) -> PResult<bool> {
        // The class template's name: after the specifiers and return type, before `<`.
        let mut k = from;
        let name_at = loop {
            if k >= from + 40 || k + 1 >= self.toks.len() {
                return Ok(false);
            }
            match &self.toks[k].tok {
                Tok::Ident(w)
                    if self.class_templates.contains_key(w)
                        && matches!(self.toks[k + 1].tok, Tok::Punct("<")) =>
                {
                    break k
                }
                Tok::Ident(w) if head_word(w) => {
                    // `__attribute__((always_inline))`, `__launch_bounds__(…)`: skipped whole.
                    if matches!(self.toks[k + 1].tok, Tok::Punct("("))
                        && matches!(
                            w.as_str(),
                            "__attribute__" | "__declspec" | "alignas" | "__align__"
                        )
                    {
                        k = match self.closing(k + 1) {
                            Some(c) => c + 1,
                            None => return Ok(false),
                        };
                        continue;
                    }
                    k += 1;
                }
                Tok::Punct("*" | "&" | "::") => k += 1,
                _ => return Ok(false),
            }
        };
        let Tok::Ident(name) = self.toks[name_at].tok.clone() else {
            return Ok(false);
        };
        // The class's template arguments, then `::member(`. After `template <params>` they
        // name the parameters, which are no types or values here: only their extent is read.
        let args_from = name_at + 1;
        let (given, args_to) = if params.is_some() {
            let mut depth = 0usize;
            let mut e = args_from;
            loop {
                match self.toks.get(e).map(|t| &t.tok) {
                    Some(Tok::Punct("<")) => depth += 1,
                    Some(Tok::Punct(">")) => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    Some(Tok::Punct(";" | "{" | "(")) | None => return Ok(false),
                    _ => {}
                }
                if e > args_from + 64 {
                    return Ok(false);
                }
                e += 1;
            }
            (Vec::new(), e + 1)
        } else {
            let saved = self.pos;
            self.pos = args_from;
            let given = self.template_args();
            let args_to = self.pos;
            self.pos = saved;
            let Ok(given) = given else {
                return Ok(false);
            };
            (given, args_to)
        };
        if !matches!(
            self.toks.get(args_to).map(|t| &t.tok),
            Some(Tok::Punct("::"))
        ) {
            return Ok(false);
        }
        let member_at = args_to + 1;
        let mut lp = member_at;
        while lp < self.toks.len()
            && lp < member_at + 4
            && !matches!(self.toks[lp].tok, Tok::Punct("("))
        {
            lp += 1;
        }
        // `operator()(…)`: the operator's own `()` is its name.
        if matches!(self.toks.get(member_at).map(|t| &t.tok), Some(Tok::Ident(w)) if w == "operator")
            && lp == member_at + 1
            && matches!(self.toks.get(lp + 1).map(|t| &t.tok), Some(Tok::Punct(")")))
        {
            lp += 2;
        }
        if !matches!(self.toks.get(lp).map(|t| &t.tok), Some(Tok::Punct("("))) || lp == member_at {
            return Ok(false);
        }
        let member: Vec<Tok> = self.toks[member_at..lp]
            .iter()
            .map(|t| t.tok.clone())
            .collect();
        if !matches!(member.first(), Some(Tok::Ident(_))) {
            return Ok(false);
        }
        let Some(rp) = self.closing(lp) else {
            return Ok(false);
        };
        // The body: after the qualifiers and a constructor's initializers.
        let mut b = rp + 1;
        while b < self.toks.len() && !matches!(self.toks[b].tok, Tok::Punct("{" | ";")) {
            if matches!(self.toks[b].tok, Tok::Punct("(")) {
                b = match self.closing(b) {
                    Some(c) => c,
                    None => return Ok(false),
                };
            }
            b += 1;
        }
        if !matches!(self.toks.get(b).map(|t| &t.tok), Some(Tok::Punct("{"))) {
            return Ok(false);
        }
        let Some(body_close) = self.closing(b) else {
            return Ok(false);
        };
        // Which class template's tokens: the explicit specialization the arguments name, or the
        // primary template when the arguments are its parameters in order.
        let key = match params {
            None => {
                let Some(t) = self.class_templates.get(&name).cloned() else {
                    return Ok(false);
                };
                let saved = self.pos;
                self.pos = name_at;
                let at = self.span();
                self.pos = saved;
                let Ok(bound) = self.with_defaults(&name, t.params(), given, at) else {
                    return Ok(false);
                };
                let mangled = mangle(&name, &bound);
                match self.class_templates.get(&mangled) {
                    Some(s) if s.params().is_empty() => mangled,
                    _ => return Ok(false),
                }
            }
            Some(params) => {
                let Some(t) = self.class_templates.get(&name) else {
                    return Ok(false);
                };
                let own = t.params();
                let written: Vec<&Tok> = self.toks[args_from + 1..args_to - 1]
                    .iter()
                    .map(|t| &t.tok)
                    .collect();
                let names: Vec<Tok> = params
                    .iter()
                    .enumerate()
                    .flat_map(|(i, p)| {
                        let mut v = Vec::new();
                        if i > 0 {
                            v.push(Tok::Punct(","));
                        }
                        v.push(Tok::Ident(p.name.clone()));
                        v
                    })
                    .collect();
                let same = own.len() == params.len()
                    && own.iter().zip(params).all(|(a, b)| {
                        a.name == b.name && a.value.is_some() == b.value.is_some() && !a.pack
                    })
                    && written.len() == names.len()
                    && written.iter().zip(&names).all(|(a, b)| *a == b);
                if !same {
                    return Ok(false);
                }
                name.clone()
            }
        };
        let shape = param_shape(&self.toks[lp + 1..rp]);
        let konst = is_const_member(&self.toks[rp + 1..=b]);
        let mut def: Vec<Token> = self.toks[from..name_at].to_vec();
        def.extend_from_slice(&self.toks[member_at..=body_close]);
        let Some(t) = self.class_templates.get_mut(&key) else {
            return Ok(false);
        };
        let class = t.tokens_mut();
        let Some((start, end)) = find_declaration(class, &member, &shape, konst) else {
            return Ok(false);
        };
        class.splice(start..=end, def);
        self.pos = body_close + 1;
        Ok(true)
    }
}
