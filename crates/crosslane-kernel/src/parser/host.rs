//! Host code: functions that run on the CPU (`main`, `__host__`, anything that calls the CUDA or
//! HIP runtime or launches a kernel) are read for their launches, never run.
//!
//! What is read, when it is a constant (a literal, a `#define`, a `const`/`constexpr` global or a
//! host variable initialised by one): the launch's grid, block and dynamic shared bytes
//! (`k<<<Dg, Db, Ns, S>>>(…)`, CUDA C++ Programming Guide, "Execution Configuration";
//! `hipLaunchKernelGGL(k, Dg, Db, Ns, S, …)`, HIP Programming Guide, "Kernel launch"), each scalar
//! argument, the bytes each device pointer was given by `cudaMalloc`/`hipMalloc`, and the values a
//! simple `for` loop or a literal list wrote into a host array that `cudaMemcpy`/`hipMemcpy` then
//! copied into a device pointer (by name, `&h`, `&h[0]` or `h.data()`; a host scalar copied by
//! `&h` is one cell of its value). Host statements are evaluated in order (`host_eval`:
//! assignments, loops, an `if` on a constant) and device queries answered (`host_device`), so a
//! launch reads each value as it stands there; what cannot be evaluated leaves the variables
//! it assigns unknown, with the reason. Everything else in host code is skipped. A host function (or
//! host function template) that another host function calls is read again at the call with its
//! parameters bound (`host_calls`).
//!
//! Bounded: host code is scanned token by token once; each expression is parsed once on its own
//! token slice; a fill loop is evaluated for at most [`MAX_FILL`] iterations.

use std::collections::HashMap;

use super::const_eval::{const_eval, HostVal};
use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::{Tok, Token};
use crosslane_core::result::Level;

pub(super) use super::host_launch_api::LAUNCH_APIS;

/// Most cells a host fill loop is evaluated for (larger loops are not offered as a fill).
pub const MAX_FILL: i128 = 1 << 20;

/// Whether a function body calls `asc_vf_call<F>(…)`: an Ascend C SIMD-side kernel that
/// launches the SIMT function `F` (asc-devkit `include/simt_api/common_functions.h`: `template
/// <auto funcPtr, typename... Args> void asc_vf_call(dim3 threadNums, Args&&... args)`). Such a
/// function is read like host code, for that launch, even when it is `__global__`.
pub fn calls_vf(toks: &[Token]) -> bool {
    toks.windows(2).any(|w| {
        matches!((&w[0].tok, &w[1].tok), (Tok::Ident(n), Tok::Punct("<")) if n == "asc_vf_call")
    })
}

/// The parameter names of a parameter list (tokens between its parentheses): the last
/// identifier of each comma-separated part.
pub fn param_names(toks: &[Token]) -> Vec<String> {
    split_commas(toks, 0, toks.len())
        .into_iter()
        .map(|(a, b)| {
            toks[a..b]
                .iter()
                .rev()
                .find_map(|t| match &t.tok {
                    Tok::Ident(n) => Some(n.clone()),
                    _ => None,
                })
                .unwrap_or_default()
        })
        .collect()
}

/// A `cudaMemcpyToSymbol` / `hipMemcpyToSymbol` read in host code.
pub(super) struct SymbolCopy {
    /// The `__constant__` symbol copied into.
    pub symbol: String,
    /// The host array's values, the array and its fill's line, when a simple loop or a literal
    /// list filled it.
    pub data: Option<(Vec<String>, String, u32)>,
    /// The copy's line.
    pub line: u32,
    /// How many launches host code made before it ([`crate::ast::SymbolWrite::at`]).
    pub at: u32,
    /// The host variable copied from, and its members' values (`const_struct`).
    pub source: String,
    pub members: Vec<(String, Vec<String>)>,
    /// The bytes copied and the byte offset into the symbol (`cudaMemcpyToSymbol(c, h, 16,
    /// 8)`: 16 bytes from the symbol's byte 8), `None` for a copy the whole table takes (a
    /// struct's member, `const_struct`); `range_unread` when either is no host constant.
    pub range: Option<(u64, u64)>,
    pub range_unread: bool,
}

/// Whether a function body `toks` writes a cell of one of its parameters `params` (`p[i] =
/// …`, `p[i].x = …`) and names no device built-in (`threadIdx`, `__syncthreads`, …): a host
/// helper that fills an array its caller passes (`void randomInit(float *d, int n)`).
pub fn fills_param(toks: &[Token], params: &[String]) -> bool {
    let device = toks.iter().any(|t| {
        matches!(&t.tok, Tok::Ident(n) if n.starts_with("__")
            || matches!(n.as_str(), "threadIdx" | "blockIdx" | "blockDim" | "gridDim" | "warpSize"))
    });
    !device
        && toks.windows(2).enumerate().any(|(i, w)| {
            matches!((&w[0].tok, &w[1].tok), (Tok::Ident(n), Tok::Punct("["))
                if params.contains(n))
                && toks[i + 1..]
                    .iter()
                    .take(64)
                    .position(|t| matches!(t.tok, Tok::Punct("]")))
                    .is_some_and(|c| {
                        let after = toks.get(i + 2 + c).map(|t| &t.tok);
                        // `p[i] = …`, `p[i].x = …`, and a compound assignment that reads the
                        // cell back (`p[i] *= k`).
                        matches!(
                            after,
                            Some(Tok::Punct(
                                "=" | "."
                                    | "+="
                                    | "-="
                                    | "*="
                                    | "/="
                                    | "%="
                                    | "&="
                                    | "|="
                                    | "^="
                                    | "<<="
                                    | ">>="
                            ))
                        )
                    })
        })
}

/// Whether `n` names a call of MetaX MACA's runtime (`mcMalloc`, `mcMemcpy`,
/// `mcDeviceSynchronize`: `mc` and a capital letter, see [`READ_CALLS`]).
pub(super) fn is_maca_runtime(n: &str) -> bool {
    n.strip_prefix("mc")
        .and_then(|r| r.chars().next())
        .is_some_and(|c| c.is_ascii_uppercase())
}

/// Whether a function body (tokens `from..to`) is host code: it launches a kernel, or calls the
/// CUDA/HIP/MACA runtime (`cuda…(`, `hip…(` but not the device builtins `__hip_…`, `mcX…(`), `malloc`, `free`,
/// `new`, `delete` or `std::`. A throw-expression's operand (`throw std::runtime_error("…");`
/// in AMDMIGraphX's `constexpr` `dpp_row_bcast`, implicitly host and device) is not looked at:
/// the device reading discards it ([`Parser::stmt`]).
pub fn looks_like_host(toks: &[Token]) -> bool {
    let thrown = super::throw_expr::thrown_operands(toks);
    calls_vf(toks)
        || toks.windows(2).enumerate().any(|(i, w)| {
            !thrown[i]
                && match (&w[0].tok, &w[1].tok) {
                    (Tok::Punct("<<"), Tok::Punct("<")) => true,
                    (Tok::Ident(n), Tok::Punct("(")) => {
                        n.starts_with("cuda")
                            || is_maca_runtime(n)
                            || (n.starts_with("hip")
                                && !n.starts_with("hipThread")
                                && !n.starts_with("hipBlock"))
                            || matches!(n.as_str(), "malloc" | "free" | "calloc")
                    }
                    (Tok::Ident(n), Tok::Punct("::")) => n == "std",
                    (Tok::Ident(n), _) => matches!(n.as_str(), "new" | "delete"),
                    _ => false,
                }
        })
}

impl Parser<'_> {
    /// Index of the token that closes the bracket opened at `open` (`(`/`[`/`{`), or `None`.
    /// O(1) after one linear pass over the tokens (kept for the parse): host code, templates
    /// and prototypes ask for many brackets, and an unclosed one must not cost a scan each.
    pub(super) fn closing(&self, open: usize) -> Option<usize> {
        let table = self.brackets.get_or_init(|| {
            let mut table = vec![usize::MAX; self.toks.len()];
            let mut stack = Vec::new();
            for (k, t) in self.toks.iter().enumerate() {
                match &t.tok {
                    Tok::Punct("(" | "[" | "{") => stack.push(k),
                    Tok::Punct(")" | "]" | "}") => {
                        if let Some(o) = stack.pop() {
                            table[o] = k;
                        }
                    }
                    _ => {}
                }
            }
            table
        });
        table.get(open).copied().filter(|&c| c != usize::MAX)
    }
}

/// `name` when the tokens are `name.member()` (a `std::vector`'s `data()`, `begin()`, `end()`).
pub(super) fn member_call(toks: &[Token], member: &str) -> Option<String> {
    match toks {
        [n, dot, m, open, close] => match (&n.tok, &dot.tok, &m.tok, &open.tok, &close.tok) {
            (Tok::Ident(n), Tok::Punct("."), Tok::Ident(m), Tok::Punct("("), Tok::Punct(")"))
                if m == member =>
            {
                Some(n.clone())
            }
            _ => None,
        },
        _ => None,
    }
}

pub(super) use super::host_text::{source_text, split_commas, text_of, READ_CALLS};

/// Whether tokens hold a kernel launch (`<<<`, `hipLaunchKernelGGL`, `cudaLaunchKernel`).
pub(super) fn launches_in(toks: &[Token]) -> bool {
    toks.windows(2).any(|w| {
        matches!((&w[0].tok, &w[1].tok), (Tok::Punct("<<"), Tok::Punct("<")))
            || matches!(&w[0].tok, Tok::Ident(n) if n == "hipLaunchKernelGGL" || LAUNCH_APIS.contains(&n.as_str()))
    })
}

pub(super) use super::host_state::{DevWrite, HostState, Prior, PtrVal};

impl Parser<'_> {
    /// A constant host expression over tokens `from..to`.
    pub(super) fn host_value(&mut self, st: &HostState, from: usize, to: usize) -> Option<HostVal> {
        if let Some(v) = self.alloc_null_value(st, from, to) {
            return Some(v);
        }
        let e = match self.host_sizeofs(st, from, to) {
            Some(slice) => self.sub_expr_of(slice),
            // `reinterpret_cast<uintptr_t>(d) % 16` of a CUDA allocation (`host_align`).
            None => match self.host_align_mods(st, from, to) {
                Some(slice) => self.sub_expr_of(slice),
                None => self.sub_expr(from, to),
            },
        };
        let Some(e) = e else {
            // `C::VPT`, `Consts<E, 16>::VPT`: a class's member (`host_class_const`).
            return self.host_class_value(st, from, to);
        };
        // `h[2] + 1`, `*p`: a host array's cells as host code set them (`host_cells`).
        if let Some((e, env)) = self.bind_host_cells(st, &e) {
            return self.host_fold(&e, &env);
        }
        self.host_fold(&e, &st.env)
            .or_else(|| self.host_class_value(st, from, to))
    }

    /// Reads the host function body between the braces at `open` and `close` for launches,
    /// records them, and notes that the function `name` is not run.
    pub(super) fn read_host(
        &mut self,
        name: &str,
        params: Vec<String>,
        at: Span,
        open: usize,
        close: usize,
    ) {
        self.readings = self.readings.wrapping_add(1);
        let mut st = HostState {
            name: name.to_string(),
            params,
            reading: self.readings,
            ..HostState::default()
        };
        for (n, e) in &self.consts {
            if let Some(v) = const_eval(e, &HashMap::new()) {
                st.env.insert(n.clone(), v);
            }
        }
        // `int main(int argc, char** argv)`: the program is read as run with no command-line
        // arguments, so `argc` is 1, the program's name alone (C++17 [basic.start.main]/2:
        // `argv[0]` is the name used to invoke the program), and `if (argc > 1) n =
        // atoi(argv[1]);` keeps the default, said at the first use of `argc`.
        if name == "main" && st.params.len() == 2 {
            let argc = st.params[0].clone();
            self.argc_note(&argc, open, close);
            st.env.insert(argc, HostVal::Int(1));
        }
        let before = self.launches.len();
        let is_main = name == "main";
        let was = self.main_calls.reading;
        self.main_calls.reading |= is_main;
        let mut k = open + 1;
        while k < close {
            k = self.host_statement(&mut st, k, close).max(k + 1);
        }
        for (n, old) in st.local_aliases.drain(..).rev() {
            match old {
                Some(v) => self.aliases.insert(n, v),
                None => self.aliases.remove(&n),
            };
        }
        for (n, old) in st.local_struct_aliases.drain(..).rev() {
            match old {
                Some(v) => self.struct_alias.insert(n, v),
                None => self.struct_alias.remove(&n),
            };
        }
        self.main_calls.reading = was;
        if is_main {
            self.main_calls.launches = Some(before..self.launches.len());
            self.main_calls.body = Some((open, close));
            self.main_calls.skips.extend(st.skips.iter().copied());
        }
        let launched = self.launches.len() - before;
        self.diag(
            at,
            Level::Info,
            format!(
                "host function `{name}` is read for its kernel launches ({launched} found) and not run"
            ),
            "",
        );
    }

    /// The closing `}` of `do { … } while (0);` (or `while (false)`) starting at `k`, within
    /// `..close`; `None` for any other statement.
    fn do_once(&self, k: usize, close: usize) -> Option<usize> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        if !matches!(tok(k + 1), Some(Tok::Punct("{"))) {
            return None;
        }
        let c = self.closing(k + 1).filter(|&c| c + 5 < close)?;
        let never = match tok(c + 3) {
            Some(Tok::Int { value: 0, .. }) => true,
            Some(Tok::Ident(w)) => w == "false",
            _ => false,
        };
        (matches!(tok(c + 1), Some(Tok::Ident(w)) if w == "while")
            && matches!(tok(c + 2), Some(Tok::Punct("(")))
            && never
            && matches!(tok(c + 4), Some(Tok::Punct(")")))
            && matches!(tok(c + 5), Some(Tok::Punct(";"))))
        .then_some(c)
    }

    /// One host statement starting at `k`; returns where the next one starts.
    pub(super) fn host_statement(&mut self, st: &mut HostState, k: usize, close: usize) -> usize {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        let ident = |i: usize| match tok(i) {
            Some(Tok::Ident(n)) => Some(n.as_str()),
            _ => None,
        };
        // The end of this simple statement: the next `;` outside brackets (or the block end).
        let stmt_end = || {
            let mut depth = 0usize;
            for (i, t) in toks.iter().enumerate().take(close).skip(k) {
                match &t.tok {
                    Tok::Punct("(" | "[") => depth += 1,
                    // `int a[2] = {1, 2}, b[2] = {3, 4};`: an initializer list is no block.
                    Tok::Punct("{")
                        if depth > 0 || (i > k && matches!(toks[i - 1].tok, Tok::Punct("="))) =>
                    {
                        depth += 1
                    }
                    Tok::Punct(")" | "]") => depth = depth.saturating_sub(1),
                    Tok::Punct("}") if depth > 0 => depth -= 1,
                    Tok::Punct(";") if depth == 0 => return i,
                    Tok::Punct("{" | "}") if depth == 0 => return i,
                    _ => {}
                }
            }
            close
        };
        Self::apply_taints(st, k);
        if let Some(&(_, e)) = st.skips.iter().find(|s| s.0 == k) {
            return e;
        }
        match tok(k) {
            Some(Tok::Punct("{" | "}" | ";")) => return k + 1,
            None => return close,
            _ => {}
        }
        // `using T = int;` / `typedef float T;` in the function body: a block-scope alias
        // ([dcl.typedef]/2), which the launches after it name (`k<T><<<…>>>`), until the
        // function ends.
        let alias = match (ident(k), ident(k + 1), tok(k + 2)) {
            (Some("using"), Some(n), Some(Tok::Punct("="))) => {
                let end = stmt_end();
                Some((n.to_string(), k + 3, end))
            }
            (Some("typedef"), ..) => {
                let end = stmt_end();
                match (end > k + 2).then(|| tok(end - 1)).flatten() {
                    Some(Tok::Ident(n)) => Some((n.clone(), k + 1, end - 1)),
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some((n, from, to)) = alias {
            if let Some(v) = self.host_type(from, to) {
                let old = self.aliases.insert(n.clone(), v);
                st.local_aliases.push((n, old));
                return to + 1;
            }
            // `using C = Consts<E, 16>;` of a class template's specialization
            // (`host_class_const`).
            if self.host_class_alias(st, &n, from, to) {
                return to + 1;
            }
            // `using R = rec;` of one of the source's structs.
            if to == from + 1 {
                if let Some(Tok::Ident(s)) = tok(from) {
                    let named = self
                        .struct_alias
                        .get(s)
                        .cloned()
                        .or_else(|| self.structs.contains_key(s).then(|| s.clone()));
                    if let Some(s) = named {
                        let old = self.struct_alias.insert(n.clone(), s);
                        st.local_struct_aliases.push((n, old));
                        return to + 1;
                    }
                }
            }
        }
        // `tmp::static_switch<std::array{…}>(v, [&]<int B>() { … });` (`host_static_switch`).
        if let Some(next) = self
            .host_static_switch(st, k, close)
            .or_else(|| self.host_struct_bind(st, k, close))
        {
            return next;
        }
        if let Some(next) = self.host_lambda_launches(st, k, stmt_end()) {
            return next;
        }
        // `(void)hipMalloc(&p, n);`: a call cast to void to drop its status is still evaluated
        // (C++17 [expr.static.cast]/6, the operand is a discarded-value expression), so it is
        // read as the call itself.
        if matches!(tok(k), Some(Tok::Punct("(")))
            && ident(k + 1) == Some("void")
            && matches!(tok(k + 2), Some(Tok::Punct(")")))
            && ident(k + 3).is_some_and(|n| READ_CALLS.contains(&n))
        {
            return self.host_statement(st, k + 3, close);
        }
        // `(hipMalloc(&p, n));`, as `#define CHECK(x) (x)` leaves a checked call: a
        // parenthesized expression is that expression ([expr.prim.paren]), so the call is read
        // as written without the parentheses.
        if matches!(tok(k), Some(Tok::Punct("(")))
            && ident(k + 1).is_some_and(|n| READ_CALLS.contains(&n))
            && matches!(tok(k + 2), Some(Tok::Punct("(")))
        {
            if let Some(c) = self.closing(k).filter(|&c| c < close) {
                if matches!(tok(c + 1), Some(Tok::Punct(";"))) && self.closing(k + 2) == Some(c - 1)
                {
                    self.host_statement(st, k + 1, c);
                    return c + 2;
                }
            }
        }
        // A kernel held in a function pointer; `h.push_back(v);` / `h.resize(n);` of a vector.
        let member = matches!(tok(k + 1), Some(Tok::Punct(".")));
        if let Some(next) = self
            .host_kernel_ptr_decl(st, k, close)
            .or_else(|| member.then(|| self.host_cells_stmt(st, k, close)).flatten())
        {
            return next;
        }
        // `cudaMalloc(&a, n), cudaMalloc(&b, m);`: a comma expression of runtime calls runs
        // each in order (C++17 [expr.comma]/1); each part is read as its own statement (a part
        // holds no comma at its top level, so this is one level deep).
        if ident(k).is_some_and(|n| READ_CALLS.contains(&n))
            && matches!(tok(k + 1), Some(Tok::Punct("(")))
        {
            let end = stmt_end();
            let parts = split_commas(toks, k, end);
            let calls = parts.len() > 1
                && parts.iter().all(|&(a, _)| {
                    ident(a).is_some_and(|n| READ_CALLS.contains(&n))
                        && matches!(tok(a + 1), Some(Tok::Punct("(")))
                });
            if calls {
                for (a, b) in parts {
                    self.host_statement(st, a, b);
                }
                return end + 1;
            }
        }
        // `int *a2 = a + 4;`, `a = b;`, `std::swap(a, b);`, `p += 8;`, `++p;`: a pointer's
        // new value (`host_ptr`, `host_ptr_step`).
        if matches!(tok(k), Some(Tok::Ident(_) | Tok::Punct("++" | "--"))) {
            let end = stmt_end();
            if !launches_in(&toks[k..end])
                && (self.host_calloc(st, k, end)
                    || self.host_cells_ptr_assign(st, k, end)
                    || self.host_device_vector(st, k, end)
                    || self.host_ptr_assign(st, k, end))
            {
                return end + 1;
            }
        }
        // `runTest<float>(1024);`, `launch(d_in, d_out, 256);`: a host function read again
        // with its parameters bound to the call's constants (and what the caller's memory
        // holds); what it may write is unknown to the caller after it.
        // `memcpy(dst, src, bytes)`, `std::memcpy(…)` between host arrays (`host_recur`).
        let memcpy_at = match (ident(k), ident(k + 2)) {
            (Some("memcpy"), _) => Some(k + 1),
            (Some("std"), Some("memcpy")) => Some(k + 3),
            _ => None,
        };
        // `memset(h, 0, 8)`, `memcpy(h + 2, h, 8)`, `std::copy(…)`, `std::fill(h, h + 2, v)` over
        // host arrays read cell by cell (`host_cells`).
        let cells_call = match (ident(k), ident(k + 2)) {
            (Some("std"), Some(f)) if matches!(tok(k + 1), Some(Tok::Punct("::"))) => {
                Some((f, k + 3))
            }
            (Some(f), _) => Some((f, k + 1)),
            _ => None,
        };
        // An unqualified name the file defines as its own function (a helper `fill(a, n)`) is
        // that function, read as a host call below, not the standard algorithm.
        if let Some((f, open)) = cells_call.filter(|&(f, o)| {
            matches!(
                f,
                "memset" | "memcpy" | "memmove" | "copy" | "copy_n" | "fill" | "fill_n" | "iota"
            ) && matches!(tok(o), Some(Tok::Punct("(")))
                && (o == k + 3 || !self.defines_fn(f))
        }) {
            if self.host_cells_call(st, f, open) {
                return stmt_end() + 1;
            }
        }
        if let Some(open) = memcpy_at.filter(|&o| matches!(tok(o), Some(Tok::Punct("(")))) {
            self.host_memcpy(st, open);
            return stmt_end() + 1;
        }
        // `getFactor(&factor);` setting a scalar through the overload for its type
        // (`host_out_param`).
        if let Some(next) = self.host_out_param(st, k) {
            return next;
        }
        // `expand(a, n);` choosing an overload whose body only discards its parameters: it
        // changes nothing (`host_tmpl_call`).
        if let Some(Tok::Ident(n)) = tok(k) {
            let n = n.clone();
            if let Some(super::host_state::HostChoice::NoOp(next)) =
                self.host_overload_choice(st, &n, k, close)
            {
                return next;
            }
        }
        if let Some(next) = self.host_call(st, k, close) {
            let end = stmt_end();
            let written = std::mem::take(&mut self.call_written);
            self.note_escapes(st, k, end, &written);
            self.host_ptr_escapes(st, k, end);
            return next;
        }
        // `std::for_each(v.begin(), v.end(), [](T& x) { x = …; })` of a known fill: read
        // (`host_for_each`); any other for_each is a call that may write what it is given.
        let for_each_open = match (ident(k), ident(k + 2)) {
            (Some("std"), Some("for_each")) if matches!(tok(k + 1), Some(Tok::Punct("::"))) => {
                Some(k + 3)
            }
            (Some("for_each"), _) => Some(k + 1),
            _ => None,
        };
        if let Some(open) = for_each_open {
            if self.host_fill_call(st, "for_each", open) {
                return stmt_end() + 1;
            }
        }
        // A call given a device pointer or a filled host array may write it (`host_mem`).
        if matches!(tok(k), Some(Tok::Ident(_))) {
            let end = stmt_end();
            self.note_escapes(st, k, end, &[]);
            self.host_ptr_escapes(st, k, end);
        }
        // `while (s > 1) { k<<<…>>>(…); … }`, `do { … } while (…);`: noted as `for`'s is; the
        // body is then read as straight-line code.
        // Statements evaluated in order (`host_eval`): an `if` on a constant reads the branch
        // it takes; a loop with no launch and an assignment statement change the variables.
        match ident(k) {
            Some("if") => {
                self.host_condition_calls(st, k);
                if let Some(next) = self.host_if(st, k, close) {
                    return next;
                }
            }
            Some("switch") => {
                if let Some(next) = self.host_switch(st, k, close) {
                    return next;
                }
            }
            // `do { … } while (0);`, the body of an error-checking macro (`HIP_CHECK(x)` as
            // `do { hipError_t e = (x); if (e != hipSuccess) … } while (0)`): the body runs once
            // ([stmt.do]/1: the condition is evaluated after it, and is false), so it is read
            // as straight-line code, not as a loop whose names are unknown after it.
            Some("do") if self.do_once(k, close).is_some() => {
                let c = self.do_once(k, close).unwrap_or(k);
                let mut i = k + 2;
                while i < c {
                    i = self.host_statement(st, i, c).max(i + 1);
                }
                return c + 6;
            }
            Some("while" | "do") => {
                let each = if ident(k) == Some("while") {
                    self.host_while_launches(st, k, close)
                } else {
                    self.host_do_launches(st, k, close)
                };
                if let Some(next) = each.or_else(|| self.host_loop(st, k, close)) {
                    return next;
                }
                // Read once below (`host_control`): what the loop assigns is unknown after it.
                self.taint_launch_loop(st, k, close);
            }
            _ => {
                if let Some(next) = self
                    .host_cell_assign(st, k)
                    .or_else(|| self.host_vec_assign(st, k))
                    .or_else(|| self.host_cells_stmt(st, k, close))
                {
                    return next;
                }
                if let Some(next) = self.host_assign(st, k, close) {
                    return next;
                }
            }
        }
        if let Some(next) = self.host_control(k, close) {
            return next;
        }
        // `k<T, N><<<cfg>>>(args);`: a template kernel's instantiation.
        let mut chevrons = k + 1;
        let mut kernel = ident(k).map(str::to_string);
        if let Some((m, after)) = self.host_template_kernel(st, k, close, &[]) {
            kernel = Some(m);
            chevrons = after;
        }
        // `k<<<cfg>>>(args);`
        if let (Some(kernel), Some(Tok::Punct("<<")), Some(Tok::Punct("<"))) =
            (kernel, tok(chevrons), tok(chevrons + 1))
        {
            let end = stmt_end();
            let cfg_from = chevrons + 2;
            let Some(cfg_to) = (cfg_from..end).find(|&i| {
                matches!(tok(i), Some(Tok::Punct(">>")))
                    && matches!(tok(i + 1), Some(Tok::Punct(">")))
            }) else {
                return end + 1;
            };
            let args_open = cfg_to + 2;
            if !matches!(tok(args_open), Some(Tok::Punct("("))) {
                return end + 1;
            }
            let Some(args_close) = self.closing(args_open) else {
                return end + 1;
            };
            let cfg = split_commas(toks, cfg_from, cfg_to);
            let args = split_commas(toks, args_open + 1, args_close);
            self.launch(st, kernel, k, &cfg, &args);
            return end + 1;
        }
        if let (Some("asc_vf_call"), Some(Tok::Punct("<"))) = (ident(k), tok(k + 1)) {
            let end = stmt_end();
            self.vf_statement(st, k, end);
            return end + 1;
        }
        if ident(k) == Some("HipTest")
            && matches!(tok(k + 1), Some(Tok::Punct("::")))
            && ident(k + 2) == Some("launchKernel")
        {
            return self.host_statement(st, k + 2, close);
        }
        // `HIP_CHECK(hipMalloc(…))`, `checkCudaErrors(cudaMemcpy(…))`, `ASSERT_EQ(hipMalloc(…),
        // hipSuccess)`, `cudaError_t err = cudaMalloc(…)` (an error-checking macro expanded):
        // a runtime call inside a statement reads as the call. The call itself is never such a
        // statement: one level, no recursion.
        // llm.c's `#define cudaCheck(err) (cuda_check(err, __FILE__, __LINE__))` expands to a
        // statement that opens with a parenthesis: the call is inside it.
        let lead = if matches!(tok(k), Some(Tok::Punct("("))) {
            k + 1
        } else {
            k
        };
        if ident(lead)
            .is_some_and(|n| !READ_CALLS.contains(&n) && n != "for" && n != "launchKernel")
        {
            let end = stmt_end();
            let call = (lead + 1..end).find(|&i| {
                ident(i).is_some_and(|n| READ_CALLS.contains(&n))
                    && matches!(tok(i + 1), Some(Tok::Punct("(")))
            });
            if let Some(c) = call.and_then(|i| self.closing(i + 1).map(|c| (i, c))) {
                self.host_statement(st, c.0, c.1 + 1);
                return end + 1;
            }
        }
        if let Some(name) = ident(k) {
            let end = stmt_end();
            match name {
                // hip-tests' `HipTest::launchKernel(k, grid, block, shmem, stream, args…)`
                // takes hipLaunchKernelGGL's arguments.
                "hipLaunchKernelGGL" | "launchKernel"
                    if matches!(tok(k + 1), Some(Tok::Punct("(")))
                        && (name != "launchKernel"
                            || (k >= 2 && ident(k - 2) == Some("HipTest"))) =>
                {
                    if let Some(c) = self.closing(k + 1) {
                        let parts = self.ggl_parts(split_commas(toks, k + 2, c));
                        if parts.len() >= 5 {
                            let (a, b) = parts[0];
                            // `HIP_KERNEL_NAME(k)` or `k`.
                            // `k<int, 64>` or `HIP_KERNEL_NAME(k<int, 64>)`: a template's
                            // instance.
                            let first = (a..b).find(|&i| {
                                matches!(&toks[i].tok, Tok::Ident(n) if n != "HIP_KERNEL_NAME")
                            });
                            let instance = first
                                .and_then(|i| self.host_template_kernel(st, i, b + 1, &parts[5..]));
                            let kernel = match instance {
                                Some((m, _)) => m,
                                None => toks[a..b]
                                    .iter()
                                    .rev()
                                    .find_map(|t| match &t.tok {
                                        Tok::Ident(n) if n != "HIP_KERNEL_NAME" => Some(n.clone()),
                                        _ => None,
                                    })
                                    .unwrap_or_default(),
                            };
                            self.launch(st, kernel, k, &parts[1..5], &parts[5..]);
                        }
                    }
                    return end + 1;
                }
                // `aclrtMalloc(&p, bytes, policy)`: CANN AscendCL, the same order; the
                // stream-ordered `cudaMallocAsync(&p, bytes, stream)` too.
                "cudaMalloc" | "hipMalloc" | "cudaMallocManaged" | "hipMallocManaged"
                | "cudaMallocAsync" | "hipMallocAsync" | "mcMalloc" | "mcMallocManaged"
                | "aclrtMalloc" | "cudaMallocHost" | "cudaHostAlloc" | "hipHostMalloc"
                | "hipHostAlloc" | "hipMallocHost" | "mcMallocHost" => {
                    if let Some(c) = self.closing(k + 1) {
                        let parts = split_commas(toks, k + 2, c);
                        if parts.len() >= 2 {
                            let (a, b) = parts[0];
                            // `&d`, `&v.data`, `&buf[1]`, `(void **)&d`: the place written.
                            let ptr = self.ptr_place(st, a, b).or_else(|| {
                                toks[a..b].iter().rev().find_map(|t| match &t.tok {
                                    Tok::Ident(n) => Some(n.clone()),
                                    _ => None,
                                })
                            });
                            if let Some(p) = &ptr {
                                // The place now holds its own new allocation.
                                st.ptrs.remove(p);
                                self.alloc_serial += 1;
                                st.alloc_ids.insert(p.clone(), self.alloc_serial);
                            }
                            let bytes = self
                                .host_value(st, parts[1].0, parts[1].1)
                                .and_then(HostVal::int)
                                .and_then(|n| u64::try_from(n).ok());
                            if let Some(p) = &ptr {
                                // Fresh memory: nothing written into it yet (`host_mem`).
                                st.writes.insert(
                                    p.clone(),
                                    DevWrite::Fresh(name.to_string(), toks[k].line),
                                );
                                st.prior.remove(p);
                                st.copies.remove(p);
                                st.copied.remove(p);
                                st.fills.remove(p);
                                st.managed_snap.remove(p);
                                st.overlay.remove(p);
                            }
                            if let Some(p) = &ptr {
                                self.malloc_elem(st, p, parts[1].0, parts[1].1);
                            }
                            if let (Some(p), Some(n)) = (ptr, bytes) {
                                st.mallocs.insert(p, (n, name.to_string(), toks[k].line));
                            }
                        }
                    }
                    return end + 1;
                }
                // `cudaMemcpyToSymbol(symbol, src, bytes[, offset, kind])` (CUDA Runtime API;
                // HIP's takes `HIP_SYMBOL(symbol)`): a `__constant__` table's contents.
                "cudaMemcpyToSymbol" | "hipMemcpyToSymbol" | "mcMemcpyToSymbol" => {
                    if let Some(c) = self.closing(k + 1) {
                        let parts = split_commas(toks, k + 2, c);
                        let last_ident = |p: Option<&(usize, usize)>| -> Option<String> {
                            let &(a, b) = p?;
                            toks[a..b].iter().rev().find_map(|t| match &t.tok {
                                Tok::Ident(n) if n != "HIP_SYMBOL" => Some(n.clone()),
                                _ => None,
                            })
                        };
                        if let Some(sym) = last_ident(parts.first()) {
                            // A host array's fill, or a host scalar's value (`int zero = 0;
                            // cudaMemcpyToSymbol(counter, &zero, sizeof(int))`): one cell.
                            let data = last_ident(parts.get(1)).and_then(|h| {
                                st.fills
                                    .get(&h)
                                    .map(|(values, line)| (values.clone(), h.clone(), *line))
                                    .or_else(|| {
                                        let v = st.env.get(&h).and_then(|v| v.text())?;
                                        (!st.arrays.contains_key(&h))
                                            .then(|| (vec![v], h.clone(), toks[k].line))
                                    })
                            });
                            let source = last_ident(parts.get(1)).unwrap_or_default();
                            // The count and the offset (0 when not given), in bytes.
                            let mut int_at = |p: Option<&(usize, usize)>| {
                                let &(a, b) = p?;
                                self.host_value(st, a, b)
                                    .and_then(super::const_eval::HostVal::int)
                                    .and_then(|n| u64::try_from(n).ok())
                            };
                            let bytes = int_at(parts.get(2));
                            let offset = match parts.get(3) {
                                Some(p) => int_at(Some(p)),
                                None => Some(0),
                            };
                            let range = bytes.zip(offset).map(|(n, o)| (o, n));
                            self.symbol_copies.push(SymbolCopy {
                                range_unread: range.is_none(),
                                range,
                                symbol: sym,
                                data,
                                line: toks[k].line,
                                at: u32::try_from(self.launches.len()).unwrap_or(u32::MAX),
                                members: st.struct_members(&source),
                                source,
                            });
                        }
                    }
                    return end + 1;
                }
                // `cudaMemcpyFromSymbol(&h, symbol, bytes)`: `h` holds the device's value
                // now, which host code does not know here.
                "cudaMemcpyFromSymbol" | "hipMemcpyFromSymbol" | "mcMemcpyFromSymbol" => {
                    if let Some(c) = self.closing(k + 1) {
                        let parts = split_commas(toks, k + 2, c);
                        let dst = parts.first().and_then(|&(a, b)| {
                            toks[a..b].iter().rev().find_map(|t| match &t.tok {
                                Tok::Ident(n) => Some(n.clone()),
                                _ => None,
                            })
                        });
                        if let Some(h) = dst {
                            let why = format!(
                                "`{name}` at line {} copies the device's value into it",
                                toks[k].line
                            );
                            Self::mark_unknown(st, std::slice::from_ref(&h), &why);
                        }
                    }
                    return end + 1;
                }
                // `aclrtMemcpy(dst, destMax, src, count, kind)` (CANN AscendCL): the source is
                // the third, the kind the fifth.
                // `cudaMemcpyAsync(dst, src, count, kind, stream)`: the same copy, in stream
                // order before a launch on that stream (CUDA Runtime API, cudaMemcpyAsync).
                "cudaMemcpy" | "hipMemcpy" | "cudaMemcpyAsync" | "hipMemcpyAsync" | "mcMemcpy"
                | "mcMemcpyAsync" | "aclrtMemcpy" => {
                    if let Some(c) = self.closing(k + 1) {
                        let mut parts = split_commas(toks, k + 2, c);
                        if name == "aclrtMemcpy" && parts.len() >= 5 {
                            parts = vec![parts[0], parts[2], parts[3], parts[4]];
                        }
                        let to_device = parts.get(3).is_some_and(|&(a, b)| {
                            toks[a..b].iter().any(|t| {
                                matches!(&t.tok, Tok::Ident(n) if n.ends_with("HostToDevice") || n.ends_with("Default") || n.ends_with("HOST_TO_DEVICE"))
                            })
                        });
                        // `cudaMemcpyDefault` from a device allocation into host memory is a
                        // copy to the host (the direction the pointers give).
                        let to_device = to_device && !self.default_to_host(st, &parts);
                        // `h`, `&h` (a host scalar's or array's address), `&h[0]`, or a
                        // `std::vector`'s `h.data()`.
                        let one = |p: Option<&(usize, usize)>| -> Option<String> {
                            let &(a, b) = p?;
                            match super::host_view::void_cast_operand(&toks[a..b]) {
                                [x]
                                | [Token {
                                    tok: Tok::Punct("&"),
                                    ..
                                }, x] => match &x.tok {
                                    Tok::Ident(n) => Some(n.clone()),
                                    _ => None,
                                },
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
                                other => member_call(other, "data"),
                            }
                        };
                        // The destination as a pointer value (`host_ptr`: an alias, a
                        // member, `buf[1]`, a cast); its start by name.
                        let dptr = parts.first().and_then(|&(a, b)| self.ptr_value(st, a, b));
                        let dst = match &dptr {
                            Some(v) if v.offset == Some(0) || !to_device => Some(v.alloc.clone()),
                            _ => one(parts.first()),
                        };
                        // `h + 4` / `&h[4]`: a host array from that element on.
                        let (src, src_off) = match one(parts.get(1)) {
                            // A byte view of a filled vector of the device buffer's type.
                            Some(h)
                                if !st.fills.contains_key(&h) && !st.arrays.contains_key(&h) =>
                            {
                                let seen = super::host_view::vector_view(&toks[..k], &h).filter(
                                    |(v, e)| {
                                        st.fills.contains_key(v)
                                            && dst.as_ref().and_then(|d| st.elem_word.get(d))
                                                == Some(e)
                                    },
                                );
                                (Some(seen.map_or(h, |(v, _)| v)), Some(0))
                            }
                            Some(h) => (Some(h), Some(0)),
                            None => match parts.get(1) {
                                Some(&(a, b)) => match self.host_array_at(st, a, b) {
                                    Some((h, off)) => (Some(h), off),
                                    None => (None, Some(0)),
                                },
                                None => (None, Some(0)),
                            },
                        };
                        // Between two device allocations (`…DeviceToDevice`, `…Default`).
                        if self.device_copy(st, k, c, &parts) {
                            return end + 1;
                        }
                        if let (true, Some(h)) = (to_device, &src) {
                            if self.host_copy_part(st, k, c, &parts, h, src_off) {
                                return end + 1;
                            }
                        }
                        if let (true, Some(d), Some(h)) = (to_device, dst.clone(), src.clone()) {
                            // A host scalar (`int h = 5; cudaMemcpy(d, &h, …)`): its value
                            // now is the one cell copied (the copy happens here).
                            if !st.arrays.contains_key(&h) && !st.fills.contains_key(&h) {
                                if let Some(v) = st.env.get(&h).and_then(|v| v.text()) {
                                    st.fills.insert(h.clone(), (vec![v], toks[k].line));
                                }
                            }
                            st.copied.insert(d.clone(), st.fills.get(&h).cloned());
                            Self::copy_members(st, &d, &h);
                            st.cut_dev_copies(&d, None);
                            st.writes.insert(d.clone(), DevWrite::Copy);
                            st.prior.remove(&d);
                            st.copies.insert(d, h);
                        } else if let (true, Some(d), Some(s)) =
                            (self.device_to_device(st, &parts), dst.clone(), src.clone())
                        {
                            // `cudaMemcpy(d, s, bytes, cudaMemcpyDeviceToDevice)` of all of
                            // `d`: it holds what `s` holds (`host_mem`).
                            Self::copy_device(st, &d, &s);
                        } else if let Some(h) = dst.clone().filter(|h| st.writes.contains_key(h)) {
                            // A device-to-device copy, or a copy from a source not read, into
                            // a device pointer.
                            let why = format!(
                                "`{}` at line {} copies into it from a source not read here",
                                source_text(&toks[k..=c]),
                                toks[k].line
                            );
                            st.cut_dev_copies(&h, None);
                            st.writes.insert(h.clone(), DevWrite::Other(why));
                            st.prior.remove(&h);
                        } else if let (false, Some(h)) =
                            (to_device, dst.or_else(|| self.host_dst(st, parts.first())))
                        {
                            // Copied back from the device: host code no longer knows it, unless
                            // the cells are read (`host_d2d`'s `read_back`).
                            if !st.mallocs.contains_key(&h) && !self.read_back(st, k, &parts, &h) {
                                let why = format!(
                                    "`{name}` at line {} copies the device's values into it",
                                    toks[k].line
                                );
                                Self::mark_unknown(st, std::slice::from_ref(&h), &why);
                                st.fills.remove(&h);
                            }
                        }
                    }
                    return end + 1;
                }
                "cudaMallocPitch" | "hipMallocPitch" | "cudaMemcpy2D" | "hipMemcpy2D" => {
                    self.host_pitch(st, name, k);
                    return end + 1;
                }
                // `aclrtMemset(devPtr, maxCount, value, count)` (CANN AscendCL): the same fill,
                // its value and count the third and fourth arguments.
                "cudaMemset" | "hipMemset" | "cudaMemsetAsync" | "hipMemsetAsync" | "mcMemset"
                | "mcMemsetAsync" | "aclrtMemset" | "aclrtMemsetAsync"
                    if matches!(tok(k + 1), Some(Tok::Punct("("))) =>
                {
                    self.host_memset(st, k);
                    return end + 1;
                }
                "cudaLaunchKernel"
                | "hipLaunchKernel"
                | "cudaLaunchCooperativeKernel"
                | "hipLaunchCooperativeKernel"
                | "cudaLaunchKernelEx"
                | "hipLaunchKernelEx"
                    if matches!(tok(k + 1), Some(Tok::Punct("("))) =>
                {
                    self.host_launch_api(st, name, k);
                    return end + 1;
                }
                "cudaGetDeviceProperties"
                | "hipGetDeviceProperties"
                | "cudaDeviceGetAttribute"
                | "hipDeviceGetAttribute"
                | "cudaOccupancyMaxPotentialBlockSize"
                | "hipOccupancyMaxPotentialBlockSize"
                | "cudaOccupancyMaxActiveBlocksPerMultiprocessor"
                | "hipOccupancyMaxActiveBlocksPerMultiprocessor" => {
                    self.device_query(st, name, k);
                    return end + 1;
                }
                "for" => {
                    // The names the loop declares end with it (`host_for_scope`).
                    let saved = self.for_scope_save(st, k);
                    let next = self.host_for_stmt(st, k, close);
                    Self::for_scope_restore(st, saved);
                    return next;
                }
                // `std::fill_n(…)`, `memset(…)`: a fill by a library call.
                "std"
                    if matches!(tok(k + 1), Some(Tok::Punct("::")))
                        && ident(k + 2) != Some("vector") =>
                {
                    if let Some(f) = ident(k + 2) {
                        self.host_fill_call(st, f, k + 3);
                    }
                    return end + 1;
                }
                "fill" | "fill_n" | "iota" | "memset" | "for_each" => {
                    self.host_fill_call(st, name, k + 1);
                    return end + 1;
                }
                _ => {}
            }
            self.host_decl(st, k, end);
            // `int src[n] = {…}, h[n];`: the declarators after a braced list.
            if let Some(e) = self.host_decl_after_list(st, k, end) {
                return e + 1;
            }
            return end + 1;
        }
        stmt_end() + 1
    }

    /// `for (int i = A; i < B; i++) h[i] = f(i);` (in braces, one or more such assignments to
    /// different arrays): records each array's values. Returns where the next statement starts, and whether the loop was
    /// read (a fill, or a launch in its body: the body is then read once); any other loop is
    /// left to `host_loop`.
    pub(super) fn host_for(&mut self, st: &mut HostState, k: usize, close: usize) -> (usize, bool) {
        let toks = self.toks;
        let Some(head_close) = self.closing(k + 1) else {
            return (close, false);
        };
        let mut body_to = head_close + 1;
        let braced = matches!(toks.get(body_to).map(|t| &t.tok), Some(Tok::Punct("{")));
        let after = if braced {
            let Some(c) = self.closing(body_to) else {
                return (close, false);
            };
            body_to = c;
            c + 1
        } else {
            // The one statement the `for` controls: a nested `for` with its own body too.
            match self.stmt_extent(head_close + 1, close) {
                Some(e) => {
                    body_to = e - 1;
                    e
                }
                None => return (close, false),
            }
        };
        let line = toks[k].line;
        // `for (int i = 0; i < repeat; i++) k<<<g, b>>>(…);` (a timing loop): the launch is read
        // once from the loop's body, noted; the loop itself is host code.
        let body = &toks[head_close + 1..body_to.min(toks.len())];
        if launches_in(body) || self.launcher_call_in(body) {
            // Each iteration's launches, when the loop can be followed (`host_loop_launch`).
            if let Some(next) = self.host_for_launches(st, k, head_close, after) {
                return (next, true);
            }
            let trips = self.for_trips(st, k + 1, head_close);
            self.diag(
                Span {
                    line,
                    col: toks[k].col,
                },
                Level::Info,
                super::host_state::loop_note(trips),
                "",
            );
            self.taint_loop_read_once(st, k, after);
            return (head_close + 1, true);
        }
        let parts: Vec<(usize, usize)> = {
            let mut v = Vec::new();
            let mut start = k + 2;
            for (i, t) in toks.iter().enumerate().take(head_close).skip(k + 2) {
                if matches!(t.tok, Tok::Punct(";")) {
                    v.push((start, i));
                    start = i + 1;
                }
            }
            v.push((start, head_close));
            v
        };
        if parts.len() != 3 {
            return (after, false);
        }
        // init: `[int] i = A`
        let (a, b) = parts[0];
        let Some(eq) = (a..b).find(|&i| matches!(toks[i].tok, Tok::Punct("="))) else {
            return (after, false);
        };
        let Some(Tok::Ident(var)) = eq.checked_sub(1).map(|i| &toks[i].tok) else {
            return (after, false);
        };
        let var = var.clone();
        let Some(from) = self.host_value(st, eq + 1, b).and_then(HostVal::int) else {
            return (after, false);
        };
        // cond: `i < B` or `i <= B`
        let (a, b) = parts[1];
        let inclusive = matches!(toks.get(a + 1).map(|t| &t.tok), Some(Tok::Punct("<=")));
        if !matches!(&toks[a].tok, Tok::Ident(n) if *n == var)
            || !matches!(
                toks.get(a + 1).map(|t| &t.tok),
                Some(Tok::Punct("<" | "<="))
            )
        {
            return (after, false);
        }
        let Some(mut to) = self.host_value(st, a + 2, b).and_then(HostVal::int) else {
            return (after, false);
        };
        if inclusive {
            to += 1;
        }
        // step: `i++`, `++i`, `i += 1`
        let step: Vec<&Tok> = toks[parts[2].0..parts[2].1]
            .iter()
            .map(|t| &t.tok)
            .collect();
        let unit = matches!(
            step.as_slice(),
            [Tok::Ident(_), Tok::Punct("++")]
                | [Tok::Punct("++"), Tok::Ident(_)]
                | [Tok::Ident(_), Tok::Punct("+="), Tok::Int { value: 1, .. }]
        );
        if !unit || from != 0 || to <= 0 || to > MAX_FILL {
            return (after, false);
        }
        // body: `h[i] = expr;`, or in braces several such assignments (`{ hx[i] = 0.5f * i;
        // hy[i] = 1.0f; }`), each a fill of its array.
        let mut s = head_close + 1 + usize::from(braced);
        let mut assigns: Vec<(String, Expr)> = Vec::new();
        loop {
            let Tok::Ident(arr) = &toks[s].tok else {
                return (after, false);
            };
            let arr = arr.clone();
            if !matches!(toks.get(s + 1).map(|t| &t.tok), Some(Tok::Punct("[")))
                || !matches!(toks.get(s + 2).map(|t| &t.tok), Some(Tok::Ident(n)) if *n == var)
                || !matches!(toks.get(s + 3).map(|t| &t.tok), Some(Tok::Punct("]")))
                || !matches!(toks.get(s + 4).map(|t| &t.tok), Some(Tok::Punct("=")))
                || assigns.iter().any(|(a, _)| *a == arr)
            {
                return (after, false);
            }
            s += 5;
            let Some(semi) = (s..=body_to.max(s)).find(|&i| matches!(toks[i].tok, Tok::Punct(";")))
            else {
                return (after, false);
            };
            let Some(e) = self.sub_expr(s, semi) else {
                return (after, false);
            };
            assigns.push((arr, e));
            s = semi + 1;
            if !braced || s >= body_to {
                break;
            }
        }
        if braced && s != body_to {
            return (after, false);
        }
        let mut filled: Vec<(String, Vec<String>)> = Vec::with_capacity(assigns.len());
        for (arr, e) in &assigns {
            let mut values = Vec::with_capacity(to as usize);
            // Stored converted to the array's element type ([expr.ass]/3, [conv.fpint]/1:
            // `int h[]; h[i] = i * 0.5;` holds 0, 0, 1, …; undefined out of range).
            let elem = self.host_scalars.get(arr).copied();
            for i in from..to {
                st.env.insert(var.clone(), HostVal::Int(i));
                super::const_eval::take_overflow();
                let v = self.host_fold(e, &st.env).map(|v| match elem {
                    Some(s) => v.convert(s),
                    None => Some(v),
                });
                if matches!(v, Some(None)) {
                    // The conversion is undefined: the loop is not read as a fill.
                    st.env.remove(&var);
                    return (after, false);
                }
                match v.flatten().and_then(HostVal::text) {
                    Some(v) => values.push(v),
                    // A signed overflow ([expr]/4): this cell is undefined, the others keep
                    // their values (`crate::host_undef`).
                    None if super::const_eval::take_overflow() => {
                        values.push(crate::host_undef::overflow_cell(e.span.line));
                    }
                    None => {
                        st.env.remove(&var);
                        return (after, false);
                    }
                }
            }
            filled.push((arr.clone(), values));
        }
        st.env.remove(&var);
        for (arr, mut values) in filled {
            // A loop over the first cells: the others keep what host code wrote into them.
            if let Some((old, _)) = st.fills.get(&arr) {
                if old.len() > values.len() {
                    values.extend_from_slice(&old[values.len()..]);
                }
            }
            st.fills.insert(arr, (values, line));
        }
        (after, true)
    }

    /// Records one launch: configuration parts (grid, block[, shared[, stream]]) and arguments.
    pub(super) fn launch(
        &mut self,
        st: &mut HostState,
        kernel: String,
        at: usize,
        cfg: &[(usize, usize)],
        args: &[(usize, usize)],
    ) {
        // A kernel held in a function pointer variable (`host_kernel_ptr`).
        let kernel = self
            .kernel_var_instance(st, &kernel, args)
            .unwrap_or(kernel);
        let toks = self.toks;
        let span = Span {
            line: toks[at].line,
            col: toks[at].col,
        };
        let mut dims = cfg
            .iter()
            .take(3)
            .map(|&(a, b)| self.host_value(st, a, b))
            .collect::<Vec<_>>()
            .into_iter();
        let grid = dims.next().flatten().and_then(HostVal::dims);
        let block = dims.next().flatten().and_then(HostVal::dims);
        let mut unread = Vec::new();
        for (part, value) in [("grid", grid), ("block", block)] {
            let Some(&(a, b)) = cfg.get(usize::from(part == "block")) else {
                continue;
            };
            if value.is_none() {
                let why = self
                    .unknown_reason(st, a, b)
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default();
                unread.push((
                    part.to_string(),
                    format!(
                        "`{}` has no constant value in host code{why}",
                        source_text(&toks[a..b])
                    ),
                ));
            }
        }
        let block_text = cfg
            .get(1)
            .map(|&(a, b)| text_of(&toks[a..b]))
            .unwrap_or_default();
        let shared_bytes = dims
            .next()
            .flatten()
            .and_then(HostVal::int)
            .and_then(|n| u64::try_from(n).ok());
        let mut out = Vec::new();
        for &(a, b) in args {
            let text = text_of(&toks[a..b]);
            // `make_int3(2, 5, 9)` or a `dim3` for a vector parameter: `x,y,z` (`host_vec`).
            let scalar = self
                .host_value(st, a, b)
                .and_then(HostVal::text)
                .or_else(|| self.host_vector(st, a, b).map(|c| c.join(",")));
            let unknown = match scalar {
                None => self.unknown_reason(st, a, b),
                Some(_) => None,
            };
            let mut arg = HostArg {
                text: text.clone(),
                scalar,
                unknown,
                ..HostArg::default()
            };
            // `d`, or `d + 16` / `&d[16]`: a view of `d` from that element on; an offset not
            // read leaves the cells undefined, said (never an index fill).
            let pointer = self.launch_pointer(st, a, b);
            let allocated = |d: &str| st.writes.contains_key(d) || st.mallocs.contains_key(d);
            arg.from_param = !st.bound_call
                && !pointer.as_ref().is_some_and(|(d, _)| allocated(d))
                && self.toks[a..b]
                    .iter()
                    .rev()
                    .any(|t| matches!(&t.tok, Tok::Ident(n) if st.params.iter().any(|p| p == n)));
            if pointer.is_none() {
                arg.write_unread = self.unfollowed_ptr(st, a, b);
                // `Sum<int>()` by value: its members' values.
                if arg.scalar.is_none() {
                    if let Some(fields) = self.host_temp_fields(st, a, b) {
                        arg.fields = fields;
                    }
                }
            }
            if let Some((d, None)) = &pointer {
                arg.write_unread = Some(format!(
                    "`{text}` points into `{d}` at an offset that has no constant value here"
                ));
            }
            if let Some((d, Some(offset))) = pointer {
                Self::alloc_arg(st, &d, offset, &mut arg);
                arg.fill_scalar = self.host_scalars.get(&arg.fill_from).copied();
                {
                    let d = &d;
                    // `p.n = 20;` of a struct passed by value: its members' values.
                    let prefix = format!("{d}.");
                    let mut fields: Vec<(String, String)> = st
                        .env
                        .iter()
                        .filter_map(|(n, v)| {
                            Some((n.strip_prefix(&prefix)?.to_string(), v.text()?))
                        })
                        .collect();
                    fields.sort();
                    arg.fields = fields;
                    // `P p; cudaMalloc(&p.x, …);` passed by value: each pointer member's memory
                    // (`host_ptr` keys the places `p.x`), for the kernel's `p.x` parameter.
                    let mut places: Vec<&String> = st
                        .mallocs
                        .keys()
                        .chain(st.writes.keys())
                        .chain(st.ptrs.keys())
                        .filter(|n| n.starts_with(&prefix))
                        .collect();
                    places.sort();
                    places.dedup();
                    for place in places {
                        let Some(v) = Self::place_value(st, place) else {
                            continue;
                        };
                        let mut m = HostArg {
                            text: place.clone(),
                            ..HostArg::default()
                        };
                        match v.offset {
                            Some(o) => Self::alloc_arg(st, &v.alloc, o, &mut m),
                            None => {
                                m.write_unread = Some(format!(
                                    "`{place}` points into `{}` at an offset that has no \
                                     constant value here",
                                    v.alloc
                                ));
                            }
                        }
                        let path = place[prefix.len()..].to_string();
                        arg.prior_ids.extend(m.prior_ids.iter().copied());
                        arg.prior_launches.extend(m.prior_launches.iter().cloned());
                        arg.member_args.push((path, m));
                    }
                    Self::struct_array_args(st, &prefix, &mut arg);
                    arg.prior_ids.sort_unstable();
                    arg.prior_ids.dedup_by_key(|p| p.0);
                }
            }
            out.push(arg);
        }
        if self.fn_sets.get(&kernel).is_some_and(|s| s.len() > 1)
            || !self.fn_sets.contains_key(&kernel)
        {
            // Perhaps one of several kernels of the name (defined before or after).
            let types = self.host_arg_types(at, args);
            self.launch_arg_types.push((self.launches.len(), types));
        }
        let id = u32::try_from(self.launches.len()).unwrap_or(u32::MAX);
        let undecided = self
            .undecided
            .iter()
            .any(|&(a, b, r)| a <= at && at < b && r.is_none_or(|r| r == st.reading));
        Self::record_launch_writes(st, &kernel, span.line, id, &out);
        self.launches.push(HostLaunch {
            kernel,
            span,
            grid,
            block,
            shared_bytes,
            args: out,
            block_text,
            unread,
            id,
            undecided,
            overload_chosen: false,
            cooperative: false,
            vf_launcher: false,
        });
    }
}

/// Skips a `{…}` body starting at `open` without parsing it; returns the index of its `}`.
///
/// # Errors
/// When the braces do not close.
pub(super) fn body_end(p: &Parser<'_>, open: usize) -> PResult<usize> {
    p.closing(open).ok_or_else(|| {
        let t = &p.toks[open];
        crate::KernelError::new(t.line, t.col, "`{` of this host function is never closed")
    })
}
