//! Host calls: a launch written inside a host function that `main` (or a test block) calls
//! with constants, `template <class T> void runTest(int n) { … k<T><<<n / 256, 256, smem>>>(d,
//! n); }` called as `runTest<float>(1024)`, or `void launch(float *in, float *out, int n)`
//! called as `launch(d_in, d_out, 256)`. The device sees the launch the call makes, so the
//! function's body is read again at the call with each parameter bound to the call's argument
//! (C++17 [expr.call]/4: each parameter is initialized with its argument; [temp.arg]: a template
//! parameter names its argument): a constant's value, a device pointer's allocation and the host
//! array copied into it, a host array's fill; a template type parameter names the argument's
//! type (for `k<T>`, `sizeof(T)`). The launches of that reading replace the ones the function's
//! own definition gave with its parameters unknown. A call to a function not yet defined (one
//! declared by a prototype above the caller) is not read again.
//!
//! Also here: the control statements around calls and launches in host code (`case 1:`,
//! `if (…)`, `else`, `while (…)`, `do`), read as straight-line code, and the note a launch
//! inside a host loop gets.
//!
//! Bounded: calls nest at most [`MAX_CALL_DEPTH`] deep and at most [`MAX_CALLS`] are read
//! again per source; each reading is one pass over the callee's body.

use std::collections::HashMap;
use std::ops::Range;

use super::const_eval::{const_eval, HostVal};
use super::host::{launches_in, split_commas, text_of, HostState};
use super::host_state::loop_note;
use super::Parser;
use crate::ast::Span;
use crate::lexer::{Tok, Token};
use crate::types::{Ty, ValTy};
use crosslane_core::result::Level;

/// How deep host calls are read again inside host calls (`main` → `runTest<T>` → `launch`).
pub const MAX_CALL_DEPTH: u32 = 4;

/// How many host calls are read again in one source.
pub const MAX_CALLS: u32 = 64;

/// A host array's values and the line of its fill.
type Fill = (Vec<String>, u32);

/// What a call site tells of one argument: its constant value, and for a name, the device
/// allocation, the host array copied into it (with its fill) or its own fill and length.
#[derive(Clone, Default)]
struct ArgInfo {
    name: String,
    value: Option<HostVal>,
    malloc: Option<(u64, String, u32)>,
    /// The element size of the memory it points to, when known (managed memory a helper
    /// fills cell by cell).
    elem: Option<u64>,
    copy: Option<(String, Option<Fill>)>,
    fill: Option<Fill>,
    array: Option<i128>,
    /// A device pointer's last write and the launches given it since (`host_mem`).
    write: Option<super::host::DevWrite>,
    prior: Vec<super::host::Prior>,
    /// An argument array (`void* params[4]`, `host_launch_api`) passed by name: each set
    /// element's variable (its token range in the caller) and what the caller knew of it.
    elems: Option<Vec<Option<ArrayElem>>>,
    /// A struct passed by value or by reference whose members host code set (`c.a = true;`):
    /// each member's path below the variable (`a`, `dim.x`) and its value, bound under the
    /// parameter's name in the callee (C++17 [dcl.init]/17.6.1: the parameter is
    /// copy-initialized from the argument, member by member).
    members: Vec<(String, HostVal)>,
    /// Which allocation of the caller's device pointer it is ([`HostState::alloc_ids`]): the
    /// parameter names that allocation in the callee, so that launches of two calls on two
    /// allocations are not taken for launches on one buffer (`sequence.rs`).
    alloc_id: Option<u32>,
    /// A struct passed by name (`run(device)` of `void run(const Buffers& d)`) whose pointer
    /// members host code allocated (`cudaMalloc(&device.x, …)`): each member's path (`x`) and
    /// what the caller knew of `device.x`, bound to the parameter's member (`d.x`).
    ptr_members: Vec<(String, ArgInfo)>,
    /// The struct variable an argument `n` or `&n` names (`alloc(&device)` of `void
    /// alloc(Buffers* d)` allocating `d->x`): the callee's allocations into its parameter's
    /// members are the caller's `n.x` after the call.
    struct_var: Option<String>,
}

/// One set element of an argument array passed to a call: its variable's token range in the
/// caller and what the caller knew of that variable.
type ArrayElem = ((usize, usize), ArgInfo);

/// A host call read (or kept until its callee is defined): callee, template arguments (a type
/// or a constant each), arguments, and how deep in host calls it stands.
pub(super) struct CallSite {
    name: String,
    targ_text: String,
    span: Span,
    targs: Vec<(Option<ValTy>, Option<HostVal>)>,
    args: Vec<ArgInfo>,
    depth: u32,
}

/// What `main`'s reading reached ([`Parser::drop_uncalled_launches`]).
#[derive(Clone, Debug, Default)]
pub(super) struct MainCalls {
    /// Whether `main` (or a call it makes) is being read now.
    pub(super) reading: bool,
    /// The host functions called while `main` was read.
    pub(super) called: std::collections::HashSet<String>,
    /// The launches `main`'s reading found, calls included; `None` before it is read.
    pub(super) launches: Option<Range<usize>>,
    /// `main`'s body, its `{` and `}` (token indices), once read.
    pub(super) body: Option<(usize, usize)>,
    /// The statements `main`'s reading (calls included) did not take (the branch of an `if`
    /// whose constant condition does not take it): a function named only there is not
    /// reached.
    pub(super) skips: Vec<(usize, usize)>,
}

/// A host function or host function template, for reading its body again at a call.
#[derive(Clone)]
pub(super) struct HostFn {
    /// Parameter names, in order.
    pub(super) params: Vec<String>,
    /// Template parameters: name, and whether it is a type (`class T`) rather than a value.
    tparams: Vec<(String, bool)>,
    /// The body's `{` and `}` (token indices).
    pub(super) open: usize,
    pub(super) close: usize,
    /// The launches its own definition's reading gave (with its parameters unknown).
    pub(super) launches: Range<usize>,
}

impl Parser<'_> {
    /// Records a host function read at its definition: its parameters, template parameters,
    /// body and the launches that reading found (from index `before` on).
    pub(super) fn record_host_fn(
        &mut self,
        name: &str,
        params: Vec<String>,
        tparams: Vec<(String, bool)>,
        body: (usize, usize),
        before: usize,
    ) {
        self.host_fns.insert(
            name.to_string(),
            HostFn {
                params,
                tparams,
                open: body.0,
                close: body.1,
                launches: before..self.launches.len(),
            },
        );
    }

    /// Keeps the host function template just recorded under `name` also under its template
    /// key `key` (`f#2` for a second template of the name), for a host call that chooses
    /// among an overload set's templates ([`super::host_tmpl_call`]).
    pub(super) fn record_host_fn_key(&mut self, name: &str, key: &str) {
        if let Some(f) = self.host_fns.get(name).cloned() {
            self.host_fn_keys.insert(key.to_string(), f);
        }
    }

    /// Whether a function with no execution-space specifier (so a host function, CUDA C++
    /// Programming Guide, "Function Execution Space Specifiers": one declared with none is
    /// `__host__`) is host code by its parameters or body: what
    /// [`super::host::looks_like_host`] sees (a launch, a runtime call), a parameter of a
    /// runtime type (`cudaStream_t`, `hipStream_t`), or a call of a host function read before
    /// it (bitsandbytes' `extern "C" void gemm_4bit_inference_naive_f32(…, cudaStream_t
    /// stream) { gemm_4bit_inference_naive<float, 32>(…); }`, whose launch is in the template
    /// it calls). The parameter list is `params_open..params_close`, the body `open..close`.
    pub(super) fn host_body(
        &self,
        params_open: usize,
        params_close: usize,
        open: usize,
        close: usize,
    ) -> bool {
        if super::host::looks_like_host(&self.toks[open..close]) {
            return true;
        }
        let runtime_param = self.toks[params_open..params_close].iter().any(|t| {
            matches!(&t.tok, Tok::Ident(w) if matches!(w.as_str(), "cudaStream_t" | "hipStream_t"))
        });
        runtime_param
            || self.toks[open..close]
                .windows(2)
                .any(|w| match (&w[0].tok, &w[1].tok) {
                    (Tok::Ident(n), Tok::Punct("(" | "<")) => self.host_fns.contains_key(n),
                    _ => false,
                })
    }

    /// Whether `toks` call a host function whose reading found a kernel launch (`run(d_x,
    /// d_o, n);` inside a timing loop, `ComputeChannelSum(…)` in a loop over sizes): such a
    /// loop is read as one with a launch in its body (`host::launches_in`), so the call is read
    /// with its parameters bound to the caller's pointers (C++17 [expr.call]/4), not skipped
    /// with the loop, which would leave the launch's buffers the kernel's own default.
    pub(super) fn launcher_call_in(&self, toks: &[Token]) -> bool {
        toks.windows(2).any(|w| match (&w[0].tok, &w[1].tok) {
            // Its reading found a launch, or its body writes one (a function template's
            // `k<T, U><<<…>>>`, read only once a call binds `T`).
            (Tok::Ident(n), Tok::Punct("(" | "<")) => self.host_fns.get(n).is_some_and(|f| {
                !f.launches.is_empty() || self.toks.get(f.open..f.close).is_some_and(launches_in)
            }),
            _ => false,
        })
    }

    /// Whether host function `f`'s parameter `p` is declared read-only through it: `const`
    /// before its first `*` or `&` (`const std::vector<int>& a`, `const float* x`, `int const*
    /// y`), so the body cannot write the caller's cells through it (C++17 [dcl.type.cv]/4; a
    /// `const_cast` away is not followed). `int* const p` is not: the pointee is writable.
    fn const_param(&self, f: &HostFn, p: &str) -> bool {
        let toks = self.toks;
        // The parameter list: the parentheses that close just before the body's `{`.
        let Some(close) = (f.open.saturating_sub(16)..f.open)
            .rev()
            .find(|&i| matches!(toks[i].tok, Tok::Punct(")")))
        else {
            return false;
        };
        let mut depth = 0usize;
        let Some(open) = (0..=close).rev().take(4096).find(|&i| {
            match toks[i].tok {
                Tok::Punct(")") => depth += 1,
                Tok::Punct("(") => {
                    depth = depth.saturating_sub(1);
                    return depth == 0;
                }
                _ => {}
            }
            false
        }) else {
            return false;
        };
        split_commas(toks, open + 1, close)
            .into_iter()
            .any(|(a, b)| {
                let seg = &toks[a..b];
                let named = seg
                    .iter()
                    .rposition(|t| matches!(&t.tok, Tok::Ident(n) if n == p));
                let Some(at) = named else {
                    return false;
                };
                let first_ref = seg[..at]
                    .iter()
                    .position(|t| matches!(t.tok, Tok::Punct("*" | "&" | "&&")));
                let first_const = seg[..at]
                    .iter()
                    .position(|t| matches!(&t.tok, Tok::Ident(n) if n == "const"));
                match (first_const, first_ref) {
                    (Some(c), Some(r)) => c < r,
                    _ => false,
                }
            })
    }

    /// Records a plain function that fills a parameter's cells (`host::fills_param`), so that
    /// a host call of it is read with its parameters bound and its fills given back to the
    /// caller's arrays ([`Parser::read_call`]). It has no launches of its own.
    pub(super) fn record_fill_helper(
        &mut self,
        name: &str,
        params: Vec<String>,
        body: (usize, usize),
    ) {
        let at = self.launches.len();
        self.host_fns.entry(name.to_string()).or_insert(HostFn {
            params,
            tparams: Vec::new(),
            open: body.0,
            close: body.1,
            launches: at..at,
        });
    }

    /// The value type written in tokens `from..to` (`float`, `int`, an alias), or `None`.
    pub(super) fn host_type(&mut self, from: usize, to: usize) -> Option<ValTy> {
        if from >= to || to > self.toks.len() {
            return None;
        }
        let mut slice: Vec<Token> = self.toks[from..to].to_vec();
        slice.push(Token {
            tok: Tok::Eof,
            ..self.toks[to - 1].clone()
        });
        let mut sub = Parser::new(&slice, self.comments, self.max_depth);
        sub.aliases = std::mem::take(&mut self.aliases);
        let ty = sub.base_type();
        let whole = matches!(sub.peek(0), Tok::Eof);
        self.aliases = std::mem::take(&mut sub.aliases);
        match ty {
            Ok(Ty::Val(v)) if whole => Some(v),
            _ => None,
        }
    }

    /// `name[<targs>](args);` at `k` (also `x = name(…);`, `bool ok = name<T>(…);`) calling a
    /// host function: when it is recorded, its body is read again with its parameters bound;
    /// when it is not (yet: a prototype above the caller, its definition below), the call is
    /// kept and read once the file is parsed ([`Parser::read_pending_host_calls`]). Returns
    /// where the next statement starts, or `None` when `k` starts no such call (or the nesting
    /// or count bound is reached: the call is then skipped as any host statement is).
    pub(super) fn host_call(
        &mut self,
        st: &mut HostState,
        k: usize,
        close: usize,
    ) -> Option<usize> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        // `T x = name(…);`, `x = name(…);`: the call after the statement's first `=`. The
        // declared type may be qualified or a template-id (`std::vector<float> out =
        // launch_kernel(…);`, `const auto& r = run(…);`, the asc-devkit samples' shape).
        let mut at = k;
        if !matches!(tok(k + 1), Some(Tok::Punct("(" | "<"))) {
            let eq = (k..close)
                .take_while(|&i| {
                    matches!(
                        tok(i),
                        Some(
                            Tok::Ident(_)
                                | Tok::Punct("=" | "*" | "&" | "::" | "<" | ">" | ">>" | ",")
                        )
                    )
                })
                .find(|&i| matches!(tok(i), Some(Tok::Punct("="))))?;
            at = eq + 1;
        }
        self.host_call_from(st, k, at, close, false).map(|r| r.0)
    }

    /// The host statement at `k` calling the function named at `at` (up to `close`): read as
    /// [`Parser::host_call`] reads it, the position after it and, with `want_value` (an `if`'s
    /// condition, [`Parser::host_if_call`]), the value the call returns when it is read.
    pub(super) fn host_call_from(
        &mut self,
        st: &mut HostState,
        k: usize,
        at: usize,
        close: usize,
        want_value: bool,
    ) -> Option<(usize, Option<HostVal>)> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        let Some(Tok::Ident(name)) = tok(at) else {
            return None;
        };
        let name = name.clone();
        // An overload set of host function templates: the one its constraints leave
        // ([`super::host_tmpl_call`]).
        let name = match self.host_overload_choice(st, &name, at, close) {
            Some(super::host_state::HostChoice::Key(key)) => key,
            Some(super::host_state::HostChoice::NoOp(_)) | None => name,
        };
        let known = self.host_fns.contains_key(&name);
        let later = !known
            && !super::host::READ_CALLS.contains(&name.as_str())
            && !name.starts_with("cuda")
            && !name.starts_with("hip")
            && !super::host::is_maca_runtime(&name)
            && !self.templates.contains_key(&name)
            && !matches!(
                name.as_str(),
                "for"
                    | "while"
                    | "if"
                    | "switch"
                    | "return"
                    | "sizeof"
                    | "printf"
                    | "free"
                    | "malloc"
                    | "exit"
                    | "assert"
                    | "main"
            );
        if known
            && self.host_calls_read >= MAX_CALLS
            && self.host_depth_ok()
            && !self.host_call_budget_said
        {
            // Said once: the calls past the budget are skipped as other host statements are,
            // so their launches, and the pointers and fills they pass, are not followed (a
            // timing loop of 100 repeats through a helper, brucefan1983/CUDA-Programming's
            // `timing()` → `reduce()`).
            self.host_call_budget_said = true;
            self.diag(
                Span {
                    line: toks[at].line,
                    col: toks[at].col,
                },
                Level::Warning,
                format!(
                    "host code calls its own functions more than {MAX_CALLS} times (here \
                     `{name}(…)`): calls past the {MAX_CALLS}th are not read, so their kernel \
                     launches and the buffers they pass are not followed; lower the repeat \
                     count (a timing loop), or run the kernel as the entry with --buffer"
                ),
                "crosslane's host reading: at most 64 host function calls (a bound on the \
                 reading's work)",
            );
        }
        if !(known || later)
            || self.host_call_depth >= MAX_CALL_DEPTH
            || self.host_calls_read >= MAX_CALLS
        {
            return None;
        }
        // `<targs>`: the `>` closing the list opened at `at + 1`.
        let mut open = at + 1;
        let mut targs = Vec::new();
        let mut targ_text = String::new();
        if matches!(tok(at + 1), Some(Tok::Punct("<"))) {
            let mut depth = 0usize;
            let gt = (at + 1..close).find(|&i| {
                match tok(i) {
                    Some(Tok::Punct("<")) => depth += 1,
                    Some(Tok::Punct(">")) => {
                        depth = depth.saturating_sub(1);
                        return depth == 0;
                    }
                    _ => {}
                }
                false
            })?;
            for (a, b) in split_commas(toks, at + 2, gt) {
                let value = self.host_value(st, a, b);
                let ty = if value.is_none() {
                    self.host_type(a, b)
                } else {
                    None
                };
                targs.push((ty, value));
            }
            targ_text = format!("<{}>", text_of(&toks[at + 2..gt]));
            open = gt + 1;
        }
        if !matches!(tok(open), Some(Tok::Punct("("))) {
            return None;
        }
        // `launch<float>(…)` of a host function template's explicit specialization
        // ([`super::host_fn_spec`]): that function, whose arguments are all given.
        let (name, known, mut targs) = match targ_text
            .strip_prefix('<')
            .and_then(|t| t.strip_suffix('>'))
        {
            Some(t) if self.host_fns.contains_key(&Self::host_spec_key(&name, t)) => {
                let key = Self::host_spec_key(&name, t);
                targ_text.clear();
                (key, true, Vec::new())
            }
            _ => (name, known, targs),
        };
        let args_close = self.closing(open).filter(|&c| c < close)?;
        // `check(cudaMalloc(…))`: a runtime call in the arguments is read as the statement's.
        if toks[open..args_close].iter().any(
            |t| matches!(&t.tok, Tok::Ident(n) if super::host::READ_CALLS.contains(&n.as_str())),
        ) {
            return None;
        }
        let end = (args_close + 1..close)
            .find(|&i| matches!(tok(i), Some(Tok::Punct(";"))))
            .unwrap_or(close);
        // A function template's type parameters not given (`run(d, n)` of `template <class
        // T> void run(T* d, int n)`): deduced from the arguments as a kernel launch's are
        // ([temp.deduct.call]/2-4).
        let ranges = split_commas(toks, open + 1, args_close);
        let given = self.host_fns.get(&name).map_or(0, |f| f.tparams.len());
        if known && targs.len() < given && targs.iter().all(|t| t.0.is_some() || t.1.is_some()) {
            let as_targs: Option<Vec<_>> = targs
                .iter()
                .map(|t| match t {
                    (Some(ty), _) => Some(super::targs::TArg::Type(*ty)),
                    (None, Some(HostVal::Int(v))) => Some(super::targs::TArg::Value(*v)),
                    _ => None,
                })
                .collect();
            if let Some(as_targs) = as_targs {
                let deduced = self.deduce_from_launch(st, &name, &as_targs, &ranges);
                for t in deduced.iter().skip(targs.len()) {
                    match t {
                        super::targs::TArg::Type(ty) => targs.push((Some(*ty), None)),
                        _ => break,
                    }
                }
            }
        }
        // What the caller knows of each argument.
        let mut args = Vec::new();
        for (a, b) in ranges {
            let mut arg = ArgInfo {
                value: self.host_value(st, a, b),
                ..ArgInfo::default()
            };
            // `h`, `h.data()` of a `std::vector`, `&h[0]`: the array itself.
            let whole = match &toks[a..b] {
                [Token {
                    tok: Tok::Ident(n), ..
                }] => Some(n.clone()),
                [amp, x, open, zero, shut]
                    if matches!(amp.tok, Tok::Punct("&"))
                        && matches!(open.tok, Tok::Punct("["))
                        && matches!(zero.tok, Tok::Int { value: 0, .. })
                        && matches!(shut.tok, Tok::Punct("]")) =>
                {
                    match &x.tok {
                        Tok::Ident(n) => Some(n.clone()),
                        _ => None,
                    }
                }
                other => super::host::member_call(other, "data"),
            };
            // `&n`: the address of a variable, a struct whose members the callee may allocate.
            let addressed = match &toks[a..b] {
                [amp, Token {
                    tok: Tok::Ident(n), ..
                }] if matches!(amp.tok, Tok::Punct("&")) && !st.env.contains_key(n) => {
                    Some(n.clone())
                }
                _ => None,
            };
            if let Some(n) = &addressed {
                arg.ptr_members = Self::member_arg_infos(st, n);
                arg.struct_var = Some(n.clone());
            }
            if let Some(n) = &whole {
                let value = arg.value.take();
                arg = Self::named_arg_info(st, n);
                arg.value = value;
                arg.ptr_members = Self::member_arg_infos(st, n);
                arg.struct_var = (!arg.ptr_members.is_empty()).then(|| n.clone());
                arg.elems = st.arg_arrays.get(n).map(|slots| {
                    slots
                        .iter()
                        .map(|slot| {
                            let (x, y) = (*slot)?;
                            let Tok::Ident(v) = &toks[x].tok else {
                                return None;
                            };
                            let mut info = Self::named_arg_info(st, v);
                            info.value = self.host_value(st, x, y);
                            Some(((x, y), info))
                        })
                        .collect()
                });
            }
            args.push(arg);
        }
        // `&n` is a struct whose members the callee allocates only where the callee uses its
        // parameter there as a pointer to a struct (`d->x`).
        if let Some(f) = self.host_fns.get(&name) {
            for (arg, p) in args.iter_mut().zip(&f.params) {
                if arg.struct_var.is_some() && arg.ptr_members.is_empty() {
                    let arrow = toks[f.open..f.close.min(toks.len())].windows(2).any(|w| {
                        matches!((&w[0].tok, &w[1].tok), (Tok::Ident(x), Tok::Punct("->")) if x == p)
                    });
                    if !arrow {
                        arg.struct_var = None;
                    }
                }
            }
        }
        let site = CallSite {
            name,
            targ_text,
            span: Span {
                line: toks[at].line,
                col: toks[at].col,
            },
            targs,
            args,
            depth: self.host_call_depth,
        };
        // `int ws = getWarpSize();`: the variable the call's value initializes or is assigned
        // to, when the call is the whole right side.
        let target = (at > k && end == args_close + 1)
            .then(|| match tok(at - 2) {
                Some(Tok::Ident(v)) if matches!(tok(at - 1), Some(Tok::Punct("="))) => {
                    Some((v.clone(), at - 1))
                }
                _ => None,
            })
            .flatten();
        // A call that binds nothing reads as the function's own definition did, unless the
        // function names a file-scope variable, whose state is the caller's
        // ([`super::host_globals`]: `initHistogram64()` allocating a file-scope pointer).
        let binds = !site.targs.is_empty()
            || site.args.iter().any(|a| {
                a.value.is_some()
                    || a.malloc.is_some()
                    || a.copy.is_some()
                    || a.fill.is_some()
                    || !a.members.is_empty()
                    || !a.ptr_members.is_empty()
                    || a.struct_var.is_some()
            })
            || (known && self.names_file_scope_var(&site.name));
        if !known
            && site.name == "getWarpSize"
            && site.args.is_empty()
            && !self.defines_fn("getWarpSize")
        {
            if let Some((var, eq)) = target {
                return self
                    .hip_tests_warp_size(st, k, &var, eq, site.span)
                    .then_some((end + 1, None));
            }
        }
        // A structured binding's call is read for its result ([`super::host_bind`]).
        let bind = self.want_parts == Some(self.host_call_depth + 1);
        if known {
            let mut value = None;
            if binds || target.is_some() || bind || want_value {
                let v = self.read_call(&site, Some(st));
                value = v;
                if let Some((var, eq)) = target {
                    match v.and_then(|v| self.to_declared(k, eq, v)) {
                        Some(v) => {
                            st.unknown.remove(&var);
                            st.env.insert(var, v);
                        }
                        None => {
                            st.env.remove(&var);
                            let why = format!(
                                "the value host function `{}` returns at line {} is not read \
                                 (read: a single `return` of a constant as its last statement)",
                                site.name, site.span.line
                            );
                            Self::mark_unknown(st, std::slice::from_ref(&var), &why);
                        }
                    }
                }
            }
            return Some((end + 1, value));
        }
        if !binds {
            return None;
        }
        // Not known yet: the statement is also read as any other (it may wrap a runtime call,
        // `HIP_CHECK(hipMalloc(…))`).
        if self.pending_calls.len() < MAX_CALLS as usize {
            self.pending_calls.push(site);
        }
        None
    }

    /// Reads each call kept by [`Parser::host_call`] whose callee the file defined after it.
    pub(super) fn read_pending_host_calls(&mut self) {
        let was = std::mem::replace(&mut self.main_calls.reading, true);
        self.read_pending_calls_now();
        self.main_calls.reading = was;
    }

    /// Whether a call at the current nesting would be read but for the call budget.
    fn host_depth_ok(&self) -> bool {
        self.host_call_depth < MAX_CALL_DEPTH
    }

    /// [`Self::read_pending_host_calls`]' loop.
    fn read_pending_calls_now(&mut self) {
        for site in std::mem::take(&mut self.pending_calls) {
            if self.host_fns.contains_key(&site.name) && self.host_calls_read < MAX_CALLS {
                self.host_call_depth = site.depth;
                self.read_call(&site, None);
                self.host_call_depth = 0;
            }
        }
    }

    /// `int ws = getWarpSize();` where the file does not define `getWarpSize`: ROCm's
    /// hip-tests declare it in `hip_test_common.hh` (`catch/include`), a header not read here,
    /// as the current device's `hipDeviceProp_t::warpSize` (HIP Runtime API,
    /// `hipGetDeviceProperties`), which this run models as its lanes per warp (see
    /// `host_device`). Binds `var` to that value with a note; `false` when the declared type
    /// cannot hold it.
    fn hip_tests_warp_size(
        &mut self,
        st: &mut HostState,
        k: usize,
        var: &str,
        eq: usize,
        at: Span,
    ) -> bool {
        let wave = i128::from(self.wave);
        let Some(v) = self.to_declared(k, eq, HostVal::Int(wave)) else {
            return false;
        };
        st.unknown.remove(var);
        st.env.insert(var.to_string(), v);
        self.diag(
            at,
            Level::Info,
            format!(
                "`getWarpSize()` (ROCm hip-tests' helper from hip_test_common.hh, a header not \
                 read here: the device's `hipDeviceProp_t::warpSize`) read as this run's lanes \
                 per warp, {wave} (--arch / --lanes)"
            ),
            "",
        );
        true
    }

    /// Whether the file defines a function `name` at file scope: `name ( … ) {` (its body
    /// anywhere in the file; a declaration alone does not count).
    pub(super) fn defines_fn(&self, name: &str) -> bool {
        let toks = self.toks;
        (0..toks.len()).take(1 << 22).any(|i| {
            matches!(&toks[i].tok, Tok::Ident(n) if n == name)
                && matches!(toks.get(i + 1).map(|t| &t.tok), Some(Tok::Punct("(")))
                && self
                    .closing(i + 1)
                    .and_then(|c| toks.get(c + 1))
                    .is_some_and(|t| matches!(t.tok, Tok::Punct("{")))
        })
    }

    /// What the caller knows of the variable `n` it passes by name: its allocation, the host
    /// array copied into it, its fill and length, its last device write and the launches
    /// given it since.
    /// What the caller knows of each pointer member of the struct variable `n` (`n.x` allocated
    /// or written by host code), by member path, sorted. Bounded by the state's own maps.
    fn member_arg_infos(st: &HostState, n: &str) -> Vec<(String, ArgInfo)> {
        let dotted = format!("{n}.");
        let mut paths: Vec<&str> = st
            .mallocs
            .keys()
            .chain(st.writes.keys())
            .filter_map(|k| k.strip_prefix(&dotted))
            .collect();
        paths.sort_unstable();
        paths.dedup();
        paths
            .into_iter()
            .map(|m| (m.to_string(), Self::named_arg_info(st, &format!("{n}.{m}"))))
            .collect()
    }

    fn named_arg_info(st: &HostState, n: &str) -> ArgInfo {
        ArgInfo {
            name: n.to_string(),
            malloc: st.mallocs.get(n).cloned(),
            elem: st.elem_bytes.get(n).copied(),
            copy: st
                .copies
                .get(n)
                .map(|h| (h.clone(), st.fills.get(h).cloned())),
            fill: st.fills.get(n).cloned(),
            // A vector a helper may have grown (`push_back` in a loop not read) has no known
            // length here, whatever its declaration gave.
            array: st
                .arrays
                .get(n)
                .copied()
                .filter(|_| !st.unknown.contains_key(n)),
            write: st.writes.get(n).cloned(),
            prior: st.prior.get(n).cloned().unwrap_or_default(),
            members: Self::member_values(st, n),
            alloc_id: st.alloc_ids.get(n).copied(),
            ..ArgInfo::default()
        }
    }

    /// The members of host variable `n` that host code set (`n.a = 1;`, kept as `n.a` in
    /// the state's constants), each by its path below `n`, in name order.
    fn member_values(st: &HostState, n: &str) -> Vec<(String, HostVal)> {
        let prefix = format!("{n}.");
        let mut out: Vec<(String, HostVal)> = st
            .env
            .iter()
            .filter_map(|(k, v)| Some((k.strip_prefix(&prefix)?.to_string(), *v)))
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// An argument array passed to parameter `p` (`run(params)` with `void run(void**
    /// params)`): the callee's `p` holds the caller's elements, each element's variable bound
    /// under its own name (the caller's token range names it). An element whose name the
    /// callee also uses (a parameter or a name in its body) is not followed: left unset.
    /// Returns the names bound.
    fn bind_arg_array(
        &self,
        inner: &mut HostState,
        f_body: (usize, usize),
        p: &str,
        arg: &ArgInfo,
    ) -> Vec<String> {
        let Some(elems) = &arg.elems else {
            return Vec::new();
        };
        let mut names = Vec::new();
        let toks = self.toks;
        let used = |v: &str| {
            inner.params.iter().any(|q| q == v)
                || toks[f_body.0..f_body.1]
                    .iter()
                    .any(|t| matches!(&t.tok, Tok::Ident(n) if n == v))
        };
        let mut slots = Vec::with_capacity(elems.len());
        for e in elems {
            let Some((range, info)) = e.as_ref().filter(|(_, i)| !used(&i.name)) else {
                slots.push(None);
                continue;
            };
            let v = &info.name;
            if let Some(x) = info.value {
                inner.env.insert(v.clone(), x);
            }
            if let Some(m) = &info.malloc {
                inner.mallocs.insert(v.clone(), m.clone());
            }
            if let Some((h, fill)) = &info.copy {
                inner.copies.insert(v.clone(), h.clone());
                if let Some(fill) = fill {
                    inner.fills.insert(h.clone(), fill.clone());
                }
            }
            if let Some(fill) = &info.fill {
                inner.fills.insert(v.clone(), fill.clone());
            }
            if let Some(n) = info.array {
                inner.arrays.insert(v.clone(), n);
            }
            if let Some(w) = &info.write {
                inner.writes.insert(v.clone(), w.clone());
                if !info.prior.is_empty() {
                    inner.prior.insert(v.clone(), info.prior.clone());
                }
            }
            slots.push(Some(*range));
            names.push(v.clone());
        }
        inner.arg_arrays.insert(p.to_string(), slots);
        names
    }

    /// Reads the body of the host function `site` calls with its parameters bound. With the
    /// `caller`'s state, each device pointer the call passes by name gets back what the
    /// callee left in its parameter: the launches given it (which then run before a later
    /// launch of the caller's on it, `crate::sequence`) and its last write, and is listed in
    /// `call_written` so that the call is not also an unknown write of it. C++17
    /// [expr.call]/4: a pointer parameter is initialized with the argument, so both name one
    /// device allocation.
    fn read_call(&mut self, site: &CallSite, caller: Option<&mut HostState>) -> Option<HostVal> {
        let f = self.host_fns.get(&site.name).cloned()?;
        if self.main_calls.reading {
            self.main_calls.called.insert(site.name.clone());
        }
        // The callee's state: file-scope constants, then each parameter bound.
        self.readings = self.readings.wrapping_add(1);
        let mut inner = HostState {
            name: site.name.clone(),
            params: f.params.clone(),
            bound_call: true,
            reading: self.readings,
            ..HostState::default()
        };
        for (n, e) in &self.consts {
            if let Some(v) = const_eval(e, &HashMap::new()) {
                inner.env.insert(n.clone(), v);
            }
        }
        let mut bound = Vec::new();
        let mut saved_scalars = Vec::new();
        let mut array_bound = Vec::new();
        for (p, arg) in f.params.iter().zip(&site.args) {
            let names = self.bind_arg_array(&mut inner, (f.open, f.close), p, arg);
            array_bound.extend(names);
            if let Some(v) = arg.value {
                if let Some(t) = v.text() {
                    bound.push(format!("`{p}` = {t}"));
                }
                inner.env.insert(p.clone(), v);
            }
            // A struct's members host code set: the parameter's members hold them.
            for (m, v) in &arg.members {
                if let Some(t) = v.text() {
                    bound.push(format!("`{p}.{m}` = {t}"));
                }
                inner.env.insert(format!("{p}.{m}"), *v);
            }
            // A pointer or host array passed on: what the caller knew of it.
            if let Some(m) = &arg.malloc {
                inner.mallocs.insert(p.clone(), m.clone());
                if let Some(id) = arg.alloc_id {
                    inner.alloc_ids.insert(p.clone(), id);
                }
                if let Some(e) = arg.elem {
                    inner.elem_bytes.insert(p.clone(), e);
                }
                bound.push(format!("`{p}` = `{}`", arg.name));
            }
            if let Some((h, fill)) = &arg.copy {
                inner.copies.insert(p.clone(), h.clone());
                if let Some(fill) = fill {
                    inner.fills.insert(h.clone(), fill.clone());
                }
            }
            if let Some(fill) = &arg.fill {
                inner.fills.insert(p.clone(), fill.clone());
            }
            if let Some(n) = arg.array {
                inner.arrays.insert(p.clone(), n);
            }
            // The caller's host array's element type under the parameter's name while the
            // body is read (`init(a, n)` with `void init(int* in, int n)`: `in[i] = …` stores
            // into `a`'s cells, of `a`'s type).
            // A `malloc`ed host pointer not yet filled has no length here, but its element
            // type is known all the same (`init(h, n)` reading back `in[i]`).
            // Managed memory is host memory as well (CUDA C++ Programming Guide, Unified
            // Memory: the host reads and writes it directly), so a helper's cells of it are typed.
            let host_memory = arg
                .malloc
                .as_ref()
                .is_none_or(|m| super::host_text::host_visible(&m.1));
            // A device allocation keeps its element type as well, which a launch in the body
            // deduces a kernel template's `T` from (`template <class T> void launch(T* x) {
            // k<<<g, b>>>(x); }`, C++17 [temp.deduct.call]/4.2); no host cell is read of it.
            let device = arg.malloc.is_some() && !host_memory;
            let typed = self.host_scalars.contains_key(&arg.name) && (host_memory || device);
            if (arg.array.is_some() || arg.fill.is_some() || typed) && p != &arg.name {
                if let Some(&s) = self.host_scalars.get(&arg.name) {
                    saved_scalars.push((p.clone(), self.host_scalars.insert(p.clone(), s)));
                }
            }
            if let Some(w) = &arg.write {
                inner.writes.insert(p.clone(), w.clone());
                if !arg.prior.is_empty() {
                    inner.prior.insert(p.clone(), arg.prior.clone());
                }
            }
            // A struct's pointer members: the parameter's members name the same allocations
            // ([expr.call]/4: the parameter is initialized from, or refers to, the argument).
            for (m, info) in &arg.ptr_members {
                let pm = format!("{p}.{m}");
                if let Some(mal) = &info.malloc {
                    inner.mallocs.insert(pm.clone(), mal.clone());
                    if let Some(e) = info.elem {
                        inner.elem_bytes.insert(pm.clone(), e);
                    }
                }
                if let Some((h, fill)) = &info.copy {
                    inner.copies.insert(pm.clone(), h.clone());
                    if let Some(fill) = fill {
                        inner.fills.insert(h.clone(), fill.clone());
                    }
                }
                if let Some(fill) = &info.fill {
                    inner.fills.insert(pm.clone(), fill.clone());
                }
                if let Some(w) = &info.write {
                    inner.writes.insert(pm.clone(), w.clone());
                    if !info.prior.is_empty() {
                        inner.prior.insert(pm.clone(), info.prior.clone());
                    }
                }
            }
            if !arg.ptr_members.is_empty() {
                bound.push(format!("`{p}` = `{}`", arg.name));
            }
        }
        // Template parameters: a type names an alias while the body is read, a value a
        // constant.
        let mut saved_aliases = Vec::new();
        for ((t, is_type), (ty, value)) in f.tparams.iter().zip(&site.targs) {
            match (is_type, ty, value) {
                (true, Some(v), _) => {
                    bound.push(format!("`{t}` = {}", v.name()));
                    saved_aliases.push((t.clone(), self.aliases.insert(t.clone(), *v)));
                }
                (false, _, Some(v)) => {
                    if let Some(x) = v.text() {
                        bound.push(format!("`{t}` = {x}"));
                    }
                    inner.env.insert(t.clone(), *v);
                }
                _ => {}
            }
        }
        // The callee's statements count against the caller's budget (`host_eval`); the
        // file-scope pointers it may use are the caller's ([`super::host_globals`]).
        if let Some(st) = &caller {
            inner.steps = st.steps;
            self.globals_in(st, &mut inner);
        }
        self.host_calls_read += 1;
        self.host_call_depth += 1;
        let before = self.launches.len();
        // An `if` of the body that another reading could not decide (the definition's, with
        // its parameters unknown) is decided again with this call's arguments: what a reading
        // leaves undecided holds for its own launches only (`HostState::reading`).
        let mut i = f.open + 1;
        while i < f.close {
            i = self.host_statement(&mut inner, i, f.close).max(i + 1);
        }
        let returned = self.returned_value(&inner, f.open, f.close);
        // Kernels the body left in its parameters, named while its template arguments are
        // bound ([`super::host_kernel_ptr`]).
        let kernels_set = self.kernel_params_set(&inner, &f.params);
        if self.want_parts == Some(self.host_call_depth) {
            // A structured binding's call ([`super::host_bind`]).
            self.bind_parts = self.returned_parts(&inner, f.open, f.close);
        }
        if self.main_calls.reading {
            self.main_calls.skips.extend(inner.skips.iter().copied());
        }
        for (p, old) in saved_scalars.into_iter().rev() {
            match old {
                Some(s) => self.host_scalars.insert(p, s),
                None => self.host_scalars.remove(&p),
            };
        }
        self.host_call_depth -= 1;
        for (t, old) in saved_aliases.into_iter().rev() {
            match old {
                Some(v) => self.aliases.insert(t, v),
                None => self.aliases.remove(&t),
            };
        }
        let found = self.launches.len() - before;
        if found > 0 {
            self.superseded.extend(f.launches.clone());
        }
        if let Some(st) = caller {
            st.steps = inner.steps;
            self.globals_out(&inner, st);
            // Reference parameters: the caller's variables they bind ([`super::host_ref_out`]).
            let refs = self.host_ref_params(f.open);
            let names: Vec<&str> = site.args.iter().map(|a| a.name.as_str()).collect();
            Self::host_ref_out(st, &inner, &f.params, &refs, &names, &site.name);
            self.kernel_ref_out(st, f.open, &f.params, &names, kernels_set);
            // A host array the callee filled through its parameter (`ConstantInit(h_A, n,
            // 1.0f)`): the caller's array holds those cells after the call (C++17
            // [expr.call]/4: the parameter points at the caller's array). A member's cells
            // (`p.x` of `p[i].x = …`) likewise.
            for (p, arg) in f.params.iter().zip(&site.args) {
                // Managed memory is host memory too (CUDA C++ Programming Guide, "Unified
                // Memory": host code writes it in place): `init_data(m, n)` filling it
                // through its parameter fills `m`, as a loop in the caller would.
                let managed = arg
                    .malloc
                    .as_ref()
                    .is_some_and(|m| super::host_text::host_visible(&m.1));
                if arg.name.is_empty() || (arg.malloc.is_some() && !managed) {
                    continue;
                }
                let dotted = format!("{p}.");
                let filled: Vec<(String, (Vec<String>, u32))> = inner
                    .fills
                    .iter()
                    .filter_map(|(key, fill)| {
                        let member = key.strip_prefix(&dotted);
                        (key == p || member.is_some()).then(|| {
                            let to = match member {
                                Some(m) => format!("{}.{m}", arg.name),
                                None => arg.name.clone(),
                            };
                            (to, (fill.0.clone(), site.span.line))
                        })
                    })
                    .filter(|(to, fill)| {
                        st.fills.get(to).map(|f| &f.0) != Some(&fill.0)
                            && !inner.unknown.contains_key(p)
                    })
                    .collect();
                if filled.is_empty() {
                    // Managed memory the callee wrote with values not known (`val[0] = rand()
                    // / RAND_MAX;`): unknown to the caller too, with the callee's reason.
                    if let Some(why) = inner.unknown.get(p).filter(|_| managed).cloned() {
                        Self::mark_unknown(st, std::slice::from_ref(&arg.name), &why);
                        self.call_written.push(arg.name.clone());
                        continue;
                    }
                    // A filled array the callee only read (`compute_expected(a_host, b_host,
                    // out)`, its parameters `const std::vector<int>&`): the body was read, its
                    // cells are as they were, so the call is no unknown write of it.
                    let unchanged = (self.const_param(&f, p)
                        || super::host_mem::copy_source_param(self.toks, f.open, f.close, p))
                        && st.fills.get(&arg.name).map(|f| &f.0)
                            == inner.fills.get(p).map(|f| &f.0)
                        && st.fills.contains_key(&arg.name)
                        && !inner.unknown.contains_key(p);
                    if unchanged {
                        self.call_written.push(arg.name.clone());
                    }
                    continue;
                }
                for (to, fill) in filled {
                    st.unknown.remove(&to);
                    st.fills.insert(to, fill);
                }
                st.unknown.remove(&arg.name);
                self.call_written.push(arg.name.clone());
            }
            // The device pointers an argument array passed on: what the callee's launches
            // left in them, under their own names (`bind_arg_array`).
            let elems = site.args.iter().filter_map(|a| a.elems.as_ref()).flatten();
            for (_, e) in elems.flatten() {
                if (e.malloc.is_none() && e.write.is_none()) || !array_bound.contains(&e.name) {
                    continue;
                }
                let n = &e.name;
                match inner.prior.get(n) {
                    Some(pr) => st.prior.insert(n.clone(), pr.clone()),
                    None => st.prior.remove(n),
                };
                if let Some(w) = inner.writes.get(n) {
                    st.writes.insert(n.clone(), w.clone());
                }
                self.call_written.push(n.clone());
            }
            // A struct's pointer members the callee allocated (`cudaMalloc(&d->x, …)` through
            // `alloc(&device)`, or `d.x` of a reference parameter): the caller's `device.x`
            // holds that allocation after the call ([expr.call]/4, [expr.ref]/2).
            for (p, arg) in f.params.iter().zip(&site.args) {
                let Some(n) = &arg.struct_var else { continue };
                let dotted = format!("{p}.");
                for (key, mal) in &inner.mallocs {
                    let Some(m) = key.strip_prefix(&dotted) else {
                        continue;
                    };
                    let to = format!("{n}.{m}");
                    st.mallocs.insert(to.clone(), mal.clone());
                    if let Some(e) = inner.elem_bytes.get(key) {
                        st.elem_bytes.insert(to.clone(), *e);
                    }
                    if let Some(id) = inner.alloc_ids.get(key) {
                        st.alloc_ids.insert(to.clone(), *id);
                    }
                    if let Some(w) = inner.writes.get(key) {
                        st.writes.insert(to.clone(), w.clone());
                    }
                    st.ptrs.remove(&to);
                    st.copies.remove(&to);
                    st.fills.remove(&to);
                    self.call_written.push(to);
                }
            }
            // A struct's pointer members: what the callee's launches left in them, under the
            // caller's member names.
            for (p, arg) in f.params.iter().zip(&site.args) {
                for (m, info) in &arg.ptr_members {
                    if info.malloc.is_none() && info.write.is_none() {
                        continue;
                    }
                    let pm = format!("{p}.{m}");
                    match inner.prior.get(&pm) {
                        Some(pr) => st.prior.insert(info.name.clone(), pr.clone()),
                        None => st.prior.remove(&info.name),
                    };
                    if let Some(w) = inner.writes.get(&pm) {
                        st.writes.insert(info.name.clone(), w.clone());
                    }
                    self.call_written.push(info.name.clone());
                }
            }
            for (p, arg) in f.params.iter().zip(&site.args) {
                if arg.name.is_empty() || (arg.malloc.is_none() && arg.write.is_none()) {
                    continue;
                }
                match inner.prior.get(p) {
                    Some(pr) => st.prior.insert(arg.name.clone(), pr.clone()),
                    None => st.prior.remove(&arg.name),
                };
                if let Some(w) = inner.writes.get(p) {
                    st.writes.insert(arg.name.clone(), w.clone());
                }
                self.call_written.push(arg.name.clone());
            }
        }
        let with = if bound.is_empty() {
            "no argument a constant".to_string()
        } else {
            bound.join(", ")
        };
        self.diag(
            site.span,
            Level::Info,
            format!(
                "host call `{}{}(…)` read with its parameters bound to this call's arguments \
                 ({with}): {found} kernel launch(es) found",
                site.name, site.targ_text
            ),
            "C++17 [expr.call]/4 (each parameter is initialized with its argument), [temp.arg]",
        );
        returned
    }

    /// The value a host function whose body is `open..close` returns, read after its body:
    /// its one `return e;` (the body's last statement, at its top level, the only `return`),
    /// or the one a chain of guarded returns takes ([`super::host_returns`]), with `e` a
    /// constant of `st`, converted to the return type ([stmt.return]/2: the
    /// returned value copy-initializes the call's result). `None` otherwise.
    fn returned_value(&mut self, st: &HostState, open: usize, close: usize) -> Option<HostVal> {
        let toks = self.toks;
        let body = toks.get(open + 1..close)?;
        let mut returns = body
            .iter()
            .enumerate()
            .filter(|(_, t)| matches!(&t.tok, Tok::Ident(w) if w == "return"));
        let (r, _) = returns.next()?;
        let v = if returns.next().is_some() {
            // A chain of guarded returns ([`super::host_returns`]).
            let (from, semi) = self.chosen_return(st, open, close)?;
            self.host_value(st, from, semi)?
        } else {
            let r = open + 1 + r;
            // At the top level: no brace opens between the body's `{` and the `return`.
            let mut depth = 0i32;
            for t in &toks[open + 1..r] {
                match t.tok {
                    Tok::Punct("{") => depth += 1,
                    Tok::Punct("}") => depth -= 1,
                    _ => {}
                }
            }
            let semi = (r + 1..close).find(|&i| matches!(toks[i].tok, Tok::Punct(";")))?;
            if depth != 0 || semi + 1 != close || semi == r + 1 {
                return None;
            }
            self.host_value(st, r + 1, semi)?
        };
        // The return type: the words before the function's name, the name before the
        // parameter list that ends just before the body.
        let params_close = (open.saturating_sub(8)..open)
            .rev()
            .find(|&i| matches!(toks[i].tok, Tok::Punct(")")))?;
        let mut depth = 0usize;
        let params_open = (0..=params_close).rev().take(4096).find(|&i| {
            match toks[i].tok {
                Tok::Punct(")") => depth += 1,
                Tok::Punct("(") => {
                    depth -= 1;
                    return depth == 0;
                }
                _ => {}
            }
            false
        })?;
        let name_at = params_open.checked_sub(1)?;
        let mut ret_from = name_at;
        while ret_from > 0
            && matches!(toks[ret_from - 1].tok, Tok::Ident(ref w)
                if !matches!(w.as_str(), "__host__" | "static" | "inline" | "template"))
        {
            ret_from -= 1;
        }
        if ret_from == name_at {
            return None;
        }
        self.to_declared(ret_from, name_at + 1, v)
    }

    /// A control statement's head in host code, read past so that what it controls is read as
    /// straight-line code: `case X:`, `default:`, `if (…)`, `else`, `return`, `switch (…)`;
    /// `while (…)` and `do` also note a launch in their body as `for`'s is noted. Returns where
    /// the next statement starts, or `None`.
    pub(super) fn host_control(&mut self, k: usize, close: usize) -> Option<usize> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        let Some(Tok::Ident(w)) = tok(k) else {
            return None;
        };
        match w.as_str() {
            "case" => (k + 1..close)
                .find(|&i| matches!(tok(i), Some(Tok::Punct(":"))))
                .map(|c| c + 1),
            "default" if matches!(tok(k + 1), Some(Tok::Punct(":"))) => Some(k + 2),
            "else" | "return" => Some(k + 1),
            "if" | "switch" if matches!(tok(k + 1), Some(Tok::Punct("("))) => {
                let head = self.closing(k + 1)?;
                // A `switch` is not evaluated: its cases' launches are alternatives, of which
                // the device runs one, so none runs beside another launch (`sequence.rs`).
                if w == "switch" {
                    if let Some(end) = self.stmt_extent(k, close) {
                        if launches_in(&toks[k..end]) {
                            self.undecided.push((k, end, None));
                        }
                    }
                }
                Some(head + 1)
            }
            "while" | "do" => {
                let body_from = if w == "while" {
                    self.closing(k + 1)? + 1
                } else {
                    k + 1
                };
                let body_to = match tok(body_from) {
                    Some(Tok::Punct("{")) => self.closing(body_from)?,
                    _ => (body_from..close).find(|&i| matches!(tok(i), Some(Tok::Punct(";"))))?,
                };
                if launches_in(&toks[body_from..body_to]) {
                    self.diag(
                        Span {
                            line: toks[k].line,
                            col: toks[k].col,
                        },
                        Level::Info,
                        loop_note(None),
                        "",
                    );
                }
                Some(body_from)
            }
            _ => None,
        }
    }

    /// Iterations of `for (int i = A; i < B; i++)` (or `<=`, `++i`, `i += 1`) whose head's
    /// parentheses open at `open` and close at `close`, when A and B are constants.
    pub(super) fn for_trips(&mut self, st: &HostState, open: usize, close: usize) -> Option<i128> {
        let toks = self.toks;
        let semis: Vec<usize> = (open + 1..close)
            .filter(|&i| matches!(toks[i].tok, Tok::Punct(";")))
            .collect();
        let [s1, s2] = semis.as_slice() else {
            return None;
        };
        let eq = (open + 1..*s1).find(|&i| matches!(toks[i].tok, Tok::Punct("=")))?;
        let Tok::Ident(var) = &toks[eq.checked_sub(1)?].tok else {
            return None;
        };
        let from = self.host_value(st, eq + 1, *s1).and_then(HostVal::int)?;
        let Tok::Ident(v2) = &toks.get(s1 + 1)?.tok else {
            return None;
        };
        let inclusive = match toks.get(s1 + 2).map(|t| &t.tok) {
            Some(Tok::Punct("<")) => false,
            Some(Tok::Punct("<=")) => true,
            _ => return None,
        };
        let to = self.host_value(st, s1 + 3, *s2).and_then(HostVal::int)? + i128::from(inclusive);
        let step: Vec<&Tok> = toks[s2 + 1..close].iter().map(|t| &t.tok).collect();
        let unit = matches!(
            step.as_slice(),
            [Tok::Ident(_), Tok::Punct("++")]
                | [Tok::Punct("++"), Tok::Ident(_)]
                | [Tok::Ident(_), Tok::Punct("+="), Tok::Int { value: 1, .. }]
        );
        (v2 == var && unit).then(|| (to - from).max(0))
    }
}

impl Parser<'_> {
    /// `main(argc, argv)` is read as run with no command-line arguments (`argc` is 1, C++17
    /// [basic.start.main]/2: `argv[0]` is the program's name), so a value host code picks by
    /// `argc` (`argc > 1 ? atoi(argv[1]) : 256`) is its default: said once, at the first use
    /// of `argc` between the body's braces at `open` and `close`.
    pub(super) fn argc_note(&mut self, argc: &str, open: usize, close: usize) {
        let is_argc = |t: &&Token| matches!(&t.tok, Tok::Ident(w) if w == argc);
        let Some(t) = self
            .toks
            .get(open + 1..close)
            .and_then(|b| b.iter().find(is_argc))
        else {
            return;
        };
        let at = Span {
            line: t.line,
            col: t.col,
        };
        self.diag(
            at,
            Level::Info,
            format!(
                "`{argc}` is 1 here: `main` is read as run with no command-line arguments, so a \
                 value it picks by `{argc}` (`{argc} > 1 ? atoi(argv[1]) : 256`, `if ({argc} > \
                 1) …`) is the program's default; set another launch shape with \
                 --threads-per-block / --blocks"
            ),
            "C++17 [basic.start.main]/2 (argv[0] is the program's name)",
        );
    }
}
