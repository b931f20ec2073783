//! Device function pointers whose value is chosen at run time: a parameter
//! (`float apply(float (*op)(float), float x)`), a local (`float (*f)(float) = (lane & 1) ?
//! twice : neg;`, `op_t f = …` of a `using`/`typedef` alias) or a file-scope table
//! (`__device__ op_t table[] = {add1, twice};`), called as `op(x)`, `(*f)(x)` or `table[k](x)`.
//!
//! CUDA C++ Programming Guide, "Function Pointers": the address of a `__device__` function
//! may be taken in device code and called there; the address of a `__global__` function taken
//! in device code cannot be called. A pointer's value here is a small integer id, one per
//! function whose address the source takes (0 is the null pointer), held per lane like any
//! other value. A call through a pointer evaluates the pointer and the arguments once, in every
//! calling lane (as the call's operands are evaluated before the call, [expr.call]/8), then
//! branches over the candidates: the functions whose address is taken and whose signature is
//! the pointer's. Lanes of one warp holding different targets diverge, each group running its
//! callee in turn, as the hardware serializes an indirect call per distinct target (the same
//! divergence machinery as an `if`). A lane whose pointer names no candidate (null, or never
//! assigned a function) stops the run: calling a null pointer is undefined ([expr.call]/1
//! needs a function; [basic.stc]/4).

use std::collections::HashSet;

use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::types::{Scalar, Ty, ValTy};
use crate::KernelError;
use crosslane_core::result::Level;

/// The call that stands for a function's address (`twice`, `&twice` where a value is read):
/// one argument, the function's name as a string; [`lower_program`] replaces it by the id.
pub(crate) const FN_ADDR: &str = "__crosslane_fn_addr";
/// Prefix of the statement call a call through a pointer leaves for [`lower_program`], the
/// pointer's signature after it; arguments: the pointer's temporary, the result's (or 0),
/// then the arguments' temporaries.
const FN_CALL: &str = "__crosslane_fn_call:";
/// The call the lanes whose pointer names no function run: an error at its line.
pub(crate) const FN_NULL: &str = "__crosslane_fn_null";
/// The cell text a file-scope table holds for a function's address until [`lower_program`]
/// gives it the id.
const ADDR_TEXT: &str = "&fn:";

use super::targs::sig_text;
pub(super) use super::targs::FnSig;

/// The type a function pointer's value has: its id.
pub(super) fn id_ty() -> Ty {
    Ty::Val(ValTy::scalar(Scalar::I32))
}

impl Parser<'_> {
    /// The function pointer type a function's address `e` (`my_max`, `&my_max`) deduces for
    /// a template type parameter `Op` of a parameter `Op op` ([temp.deduct.call]/2.2: the
    /// function-to-pointer conversion gives `RET (*)(PARAMS)`), where the function is one
    /// non-template function whose parameters are scalars taken by value (the signature the
    /// candidates of a call through the pointer are matched by). `None` otherwise.
    pub(super) fn fn_addr_sig(&self, e: &Expr) -> Option<FnSig> {
        let ExprKind::Call(n, args) = &e.kind else {
            return match &e.kind {
                // `&my_max`: the same pointer ([expr.unary.op]/3).
                ExprKind::AddrOf(inner) => self.fn_addr_sig(inner),
                // A function pointer variable or parameter (`op` of `Op op`, passed on to
                // another template): its own type ([temp.deduct.call]/1).
                ExprKind::Ident(n) => self.fn_ptr_vars.get(n).cloned(),
                _ => None,
            };
        };
        let (
            true,
            [Expr {
                kind: ExprKind::Str(f),
                ..
            }],
        ) = (n == FN_ADDR, args.as_slice())
        else {
            return None;
        };
        let ret = *self.fn_types.get(f)?;
        let params = self.by_value_scalars(f)?.into_iter().map(Ty::Val).collect();
        Some(FnSig { ret, params })
    }
}

/// Refuses a function's address `e` given to type parameter `param` of template `template`
/// by value (`template <typename Op> T f(T x, Op op)` called `f(x, maxop<float>)`) where
/// [`Parser::fn_addr_sig`] gives no signature (a template's specialization, an overloaded
/// name, a parameter that is not a scalar by value): C++ deduces `Op` as the function pointer
/// type ([temp.deduct.call]/2.2), a type read here only from a plain function's parameters.
/// The message names what runs instead.
///
/// # Errors
/// Always, when `e` is a function's address.
pub(super) fn refuse_fn_type_param(e: &Expr, param: &str, template: &str) -> PResult<()> {
    let ExprKind::Call(n, args) = &e.kind else {
        return Ok(());
    };
    let Some(ExprKind::Str(f)) = args.first().map(|a| &a.kind) else {
        return Ok(());
    };
    if n != FN_ADDR {
        return Ok(());
    }
    Err(KernelError::new(
        e.span.line,
        e.span.col,
        format!(
            "`{f}` given to `{template}`'s type parameter `{param}`: its function pointer type \
             is deduced here only for one non-template `__device__` function whose parameters \
             are scalars taken by value; declare the parameter as a function pointer \
             (`T (*op)(T, T)`) or pass a functor (`MaxOp<float>{{}}`)"
        ),
    ))
}

/// A column past [`SYNTH_COL`] for the `k`-th node a call through a pointer synthesizes (the
/// compiler keys variables and calls by position).
fn synth(at: Span, k: u32) -> Span {
    let copy = k % (u32::MAX / SYNTH_COL - 1) + 1;
    Span {
        line: at.line,
        col: at.col % SYNTH_COL + SYNTH_COL * copy,
    }
}

impl Parser<'_> {
    /// A parameter list of a function pointer's type at `(`: the parameters' types (names
    /// ignored), the position after its `)`.
    fn fn_sig_params(&mut self) -> PResult<Vec<Ty>> {
        self.expect_punct("(")?;
        let mut out = Vec::new();
        if self.eat(")") {
            return Ok(out);
        }
        if self.is_word("void") && matches!(self.peek(1), Tok::Punct(")")) {
            self.bump();
            self.bump();
            return Ok(out);
        }
        loop {
            self.qualifiers()?;
            let base = self.base_type()?;
            let (ty, _) = self.pointers(base)?;
            if let Tok::Ident(_) = self.peek(0) {
                self.bump();
            }
            out.push(ty);
            if self.eat(")") {
                return Ok(out);
            }
            self.expect_punct(",")?;
        }
    }

    /// After a return type: `(*NAME)(PARAMS)` (a function pointer declarator) if one is here,
    /// its name and signature; `None` (position kept) otherwise.
    pub(super) fn fn_ptr_declarator(&mut self, ret: Ty) -> PResult<Option<(String, FnSig)>> {
        if !(self.is_punct("(")
            && matches!(self.peek(1), Tok::Punct("*"))
            && matches!(self.peek(2), Tok::Ident(_))
            && matches!(self.peek(3), Tok::Punct(")"))
            && matches!(self.peek(4), Tok::Punct("(")))
        {
            return Ok(None);
        }
        let Tok::Ident(name) = self.peek(2).clone() else {
            return Ok(None);
        };
        self.pos += 4;
        let params = self.fn_sig_params()?;
        Ok(Some((name, FnSig { ret, params })))
    }

    /// A function pointer alias's name at the position followed by a declarator's name
    /// (`op_t f`): its signature, the position after the alias.
    pub(super) fn fn_ptr_alias_type(&mut self) -> Option<FnSig> {
        let Tok::Ident(w) = self.peek(0) else {
            return None;
        };
        let sig = self.fn_ptr_sigs.get(w)?.clone();
        if !matches!(self.peek(1), Tok::Ident(_)) {
            return None;
        }
        self.bump();
        Some(sig)
    }

    /// As [`Self::fn_ptr_alias_type`] for a parameter, which may also be a reference to the
    /// pointer or function (`const Op& op`): a function cannot be changed through it, so the
    /// parameter holds the same value as a copy would.
    pub(super) fn fn_ptr_param_type(&mut self) -> Option<FnSig> {
        if let (Tok::Ident(w), Tok::Punct("&" | "&&"), Tok::Ident(_)) =
            (self.peek(0), self.peek(1), self.peek(2))
        {
            let sig = self.fn_ptr_sigs.get(w)?.clone();
            self.bump();
            self.bump();
            return Some(sig);
        }
        self.fn_ptr_alias_type()
    }

    /// The signature of `using NAME = RET (*)(PARAMS);` / `typedef RET (*NAME)(PARAMS);` read
    /// from `from` (after `using` / `typedef`), if it parses; the position is kept.
    pub(super) fn fn_ptr_alias_sig(&mut self, from: usize, using: bool) -> Option<FnSig> {
        let save = self.pos;
        // A look-ahead: when no function pointer type is here, it leaves no diagnostic (a
        // `typedef Pair P;` of a struct read its `Pair` as an unknown value type).
        let (diags, suggestions) = (self.diags.len(), self.suggestions);
        self.pos = from;
        let sig = (|| -> PResult<Option<FnSig>> {
            if using {
                self.ident()?;
                self.expect_punct("=")?;
            }
            self.qualifiers()?;
            let base = self.base_type()?;
            let (ret, _) = self.pointers(base)?;
            self.expect_punct("(")?;
            self.expect_punct("*")?;
            if !using {
                self.ident()?;
            }
            self.expect_punct(")")?;
            let params = self.fn_sig_params()?;
            Ok(Some(FnSig { ret, params }))
        })();
        self.pos = save;
        // A parameter of a type that is no value type (`const block_q8_1 *`, a struct the
        // source defines: ggml's `vec_dot_q_cuda_t`) gives no signature here and no error: the
        // alias is still a function pointer type, which a template parameter may have (each
        // instance calls its argument directly, `fn_ptr.rs`).
        let sig = sig
            .ok()
            .flatten()
            .filter(|_| !self.diags[diags..].iter().any(|d| d.level == Level::Error));
        if sig.is_none() {
            self.diags.truncate(diags);
            self.suggestions = suggestions;
        }
        sig
    }

    /// Records `name` as a function pointer variable of signature `sig` (its calls dispatch).
    pub(super) fn fn_ptr_var(&mut self, name: &str, sig: FnSig) {
        self.fn_ptr_vars.insert(name.to_string(), sig);
    }

    /// The value of a function's name read where no call follows (`twice`, `&twice`): its
    /// address, made an id by [`lower_program`]. `None` when `w` names no function or a
    /// variable hides it.
    pub(super) fn fn_addr(&self, w: &str, span: Span) -> Option<Expr> {
        // A member of the class whose member function this is hides a function of the same
        // name at namespace scope ([basic.lookup.unqual]/8: the class is searched first).
        if !self.fn_types.contains_key(w)
            || self.var_type(w).is_some()
            || self.self_field(w).is_some()
        {
            return None;
        }
        let name = Expr::new(ExprKind::Str(w.to_string()), span);
        Some(Expr::new(ExprKind::Call(FN_ADDR.into(), vec![name]), span))
    }

    /// A function template's specialization named where no call follows (`maxop<float>`,
    /// after its template arguments `given`): the instance's address, as [`Self::fn_addr`].
    ///
    /// # Errors
    /// A template parameter that `given` leaves unbound ([temp.arg.explicit]/4 deduces it only
    /// from a target type, which is not read here): refused naming the template.
    pub(super) fn specialization_addr(
        &mut self,
        name: &str,
        given: Vec<super::targs::TArg>,
        span: Span,
    ) -> PResult<Expr> {
        let instance = self.instantiate_call(name, given, &[], span).map_err(|e| {
            KernelError::new(
                span.line,
                span.col,
                format!(
                    "`{name}` named without a call needs all its template arguments here \
                     (`{name}<float>`): {}",
                    e.message
                ),
            )
        })?;
        let name = Expr::new(ExprKind::Str(instance), span);
        Ok(Expr::new(ExprKind::Call(FN_ADDR.into(), vec![name]), span))
    }

    /// The signature of the pointer `callee` reads, if it is a function pointer variable, a
    /// cell of a table of them, or `*` of one.
    pub(super) fn fn_ptr_callee(&self, callee: &Expr) -> Option<FnSig> {
        match &callee.kind {
            ExprKind::Ident(n) if self.var_type(n).is_some() || self.is_global_table(n) => {
                self.fn_ptr_vars.get(n).cloned()
            }
            ExprKind::Index(b, _) | ExprKind::Deref(b) => self.fn_ptr_callee(b),
            _ => None,
        }
    }

    /// Whether a file-scope table of function pointers starts here (`__device__ op_t
    /// table[] = {…};`, qualifiers optional): read as a `__constant__` table of their ids.
    pub(super) fn fn_ptr_table_starts(&self) -> bool {
        let mut k = 0;
        while matches!(self.peek(k), Tok::Ident(w) if matches!(w.as_str(), "__device__" | "__constant__" | "const" | "static" | "constexpr"))
        {
            k += 1;
        }
        matches!(self.peek(k), Tok::Ident(w) if self.fn_ptr_sigs.contains_key(w))
            && matches!(self.peek(k + 1), Tok::Ident(_))
            && matches!(self.peek(k + 2), Tok::Punct("["))
    }

    fn is_global_table(&self, n: &str) -> bool {
        self.fn_ptr_tables.contains(n)
    }

    /// A call through a function pointer, its arguments at `(`: the pointer and each argument
    /// go into temporaries declared before the statement (evaluated once, in every calling
    /// lane), then a dispatch statement that [`lower_program`] makes a branch per candidate;
    /// the call's value is the result's temporary.
    ///
    /// # Errors
    /// An argument count other than the signature's.
    pub(super) fn fn_ptr_call(&mut self, callee: Expr, sig: FnSig, span: Span) -> PResult<Expr> {
        self.expect_punct("(")?;
        let mut args = Vec::new();
        if !self.eat(")") {
            loop {
                args.push(self.assign_expr()?);
                if self.eat(")") {
                    break;
                }
                self.expect_punct(",")?;
            }
        }
        // The call runs before its statement, in every lane that reaches it: inside an operand
        // that only some lanes evaluate it would run in the others too.
        if self.conditional > 0 {
            return Err(KernelError::new(
                span.line,
                span.col,
                "a call through a function pointer inside `?:` or on the right of `&&`/`||` is \
                 not supported (it would run in the lanes that skip that operand); call it in an \
                 `if` (`if (c) r = f(x);`)",
            ));
        }
        // The synthesized statements show the call's text in the trace.
        let end = self.last_end();
        if args.len() != sig.params.len() {
            return Err(KernelError::new(
                span.line,
                span.col,
                format!(
                    "the function pointer takes {} argument(s), got {}",
                    sig.params.len(),
                    args.len()
                ),
            ));
        }
        // `(*f)(x)`: `*f` designates the function `f` points at, which converts back to the
        // same pointer ([expr.unary.op]/1, [conv.func]/1): the call reads `f`.
        let mut callee = callee;
        while let ExprKind::Deref(inner) = callee.kind {
            callee = *inner;
        }
        let shown = match n_of(&callee) {
            n if n.is_empty() => "fn".to_string(),
            n => n,
        };
        let temp = |p: &mut Self, name: String, ty: Ty, init: Option<Expr>| -> Expr {
            p.syn = p.syn.wrapping_add(1);
            let at = synth(span, p.syn);
            p.declare(&name, ty);
            p.pre.push(Stmt {
                kind: StmtKind::Decl(
                    Storage::default(),
                    vec![Declarator {
                        name: name.clone(),
                        ty,
                        array: None,
                        init,
                        span: at,
                        id: NodeId::fresh(),
                    }],
                ),
                span,
                end,
            });
            Expr::new(ExprKind::Ident(name), at)
        };
        let ptr = temp(
            self,
            format!("{shown}@{}", span.line),
            id_ty(),
            Some(callee),
        );
        let mut dispatch = vec![ptr];
        let result = match sig.ret {
            Ty::Void => None,
            t => Some(temp(self, format!("{shown}()"), t, None)),
        };
        dispatch.push(
            result
                .clone()
                .unwrap_or_else(|| self.folded_literal(0, span)),
        );
        for (k, (a, t)) in args.into_iter().zip(sig.params.iter()).enumerate() {
            dispatch.push(temp(self, format!("{shown}#{k}"), *t, Some(a)));
        }
        let call = Expr::new(
            ExprKind::Call(format!("{FN_CALL}{}", sig.text()), dispatch),
            span,
        );
        self.pre.push(Stmt {
            kind: StmtKind::Expr(call),
            span,
            end,
        });
        Ok(result.unwrap_or_else(|| self.folded_literal(0, span)))
    }

    /// A table cell's text for a function's address (`add1` in `{add1, twice}`), if `e` is one.
    pub(super) fn addr_cell(e: &Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Call(n, a) if n == FN_ADDR => match a.first().map(|x| &x.kind) {
                Some(ExprKind::Str(f)) => Some(format!("{ADDR_TEXT}{f}")),
                _ => None,
            },
            _ => None,
        }
    }
}

/// The variable a callee expression names (`op`, `table` of `table[k]`, `f` of `*f`).
fn n_of(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Ident(n) => n.clone(),
        ExprKind::Index(b, _) | ExprKind::Deref(b) => n_of(b),
        _ => String::new(),
    }
}

/// Gives every function whose address the program takes its id (1, 2, … in source order),
/// replaces each address by its id, and each call through a pointer by a branch over its
/// candidates (`if (p == 1) r = add1(a); else if (p == 2) r = twice(a); else <null call>`).
///
/// Returns, when the source takes an address, a note for the earliest one's position naming
/// each id's function (the trace shows a pointer's value as its id).
///
/// # Errors
/// The address of a kernel or of a function that is not a device function of the source
/// (CUDA C++ Programming Guide, "Function Pointers": a `__global__` function's address taken
/// in device code cannot be called; host functions do not run on the device).
pub(super) fn lower_program(program: &mut Program) -> Result<Option<(Span, String)>, KernelError> {
    let mut taken: Vec<(String, Span)> = Vec::new();
    let mut seen = HashSet::new();
    let mut note = |n: &str, at: Span, taken: &mut Vec<(String, Span)>| {
        if seen.insert(n.to_string()) {
            taken.push((n.to_string(), at));
        }
    };
    for t in &program.constants {
        for v in &t.values {
            if let Some(n) = v.strip_prefix(ADDR_TEXT) {
                note(n, t.span, &mut taken);
            }
        }
    }
    for f in &mut program.functions {
        let mut found = Vec::new();
        each_expr(&mut f.body, &mut |e| {
            for x in e.walk() {
                if let ExprKind::Call(n, a) = &x.kind {
                    if let (true, Some(ExprKind::Str(s))) =
                        (n == FN_ADDR, a.first().map(|y| &y.kind))
                    {
                        found.push((s.clone(), x.span));
                    }
                }
            }
        });
        for (n, at) in found {
            note(&n, at, &mut taken);
        }
    }
    let mut ids: Vec<(String, u64)> = Vec::new();
    for (n, at) in &taken {
        match program.functions.iter().find(|f| &f.name == n) {
            Some(f) if f.entry => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "`{n}` is a `__global__` function: its address taken in device code \
                         cannot be called (CUDA C++ Programming Guide, \"Function Pointers\"); \
                         point at a `__device__` function"
                    ),
                ))
            }
            Some(_) => {}
            None => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "`{n}` is not a device function of the source: a pointer to a host \
                         function cannot be called on the device; make it a `__device__` \
                         function"
                    ),
                ))
            }
        }
    }
    for f in &program.functions {
        if taken.iter().any(|(n, _)| n == &f.name) {
            ids.push((f.name.clone(), ids.len() as u64 + 1));
        }
    }
    let sigs: Vec<(String, u64, String)> = ids
        .iter()
        .filter_map(|(n, id)| {
            let f = program.functions.iter().find(|f| &f.name == n)?;
            Some((
                n.clone(),
                *id,
                sig_text(f.ret, f.params.iter().map(|p| p.ty)),
            ))
        })
        .collect();
    for t in &mut program.constants {
        for v in &mut t.values {
            if let Some(n) = v.strip_prefix(ADDR_TEXT) {
                let id = ids.iter().find(|(f, _)| f == n).map_or(0, |(_, id)| *id);
                *v = id.to_string();
            }
        }
    }
    let mut k = 0u32;
    for f in &mut program.functions {
        each_expr(&mut f.body, &mut |e| addr_to_id(e, &ids));
        each_stmt(&mut f.body, &mut |s| dispatch(s, &sigs, &mut k));
    }
    let Some(first) = taken
        .iter()
        .map(|(_, at)| at.shown())
        .min_by_key(|at| (at.line, at.col))
    else {
        return Ok(None);
    };
    let list: Vec<String> = ids.iter().map(|(n, id)| format!("{id} = `{n}`")).collect();
    Ok(Some((
        first,
        format!(
            "function pointers hold ids here: {} (0 is `nullptr`); a call through a pointer \
             runs each target for the lanes holding it",
            list.join(", ")
        ),
    )))
}

/// Removes each function that takes a kernel's address and that no function of the program
/// calls: host code choosing a kernel to launch (exllamav2's `fp_rms_norm_kernel
/// pick_rms_norm_kernel(int bpw) { if (bpw == 1) return rms_norm_kernel<1>; … }`, a function
/// with no execution space specifier, so `__host__`: CUDA C++ Programming Guide, "Function
/// Execution Space Specifiers"). Host code's reading follows it (`host_kernel_ptr`); device
/// code never runs it, so it is no device function. A function device code calls keeps its
/// body and the error that follows. Returns the removed functions' extents (first and last
/// line and column), where a type the front end did not know (the picker's return type, a
/// function pointer typedef) is no error of the program.
pub(super) fn drop_kernel_pickers(program: &mut Program) -> Vec<((u32, u32), (u32, u32))> {
    let kernels: HashSet<String> = program
        .functions
        .iter()
        .filter(|f| f.entry)
        .map(|f| f.name.clone())
        .collect();
    let mut called: HashSet<String> = HashSet::new();
    let mut pickers: HashSet<String> = HashSet::new();
    for f in &mut program.functions {
        let mut takes = false;
        each_expr(&mut f.body, &mut |e| {
            for x in e.walk() {
                if let ExprKind::Call(n, a) = &x.kind {
                    match a.first().map(|y| &y.kind) {
                        Some(ExprKind::Str(s)) if n == FN_ADDR => takes |= kernels.contains(s),
                        _ => {
                            called.insert(n.clone());
                        }
                    }
                }
            }
        });
        if takes && !f.entry {
            pickers.insert(f.name.clone());
        }
    }
    let mut removed = Vec::new();
    program.functions.retain(|f| {
        let drop = pickers.contains(&f.name) && !called.contains(&f.name);
        if drop {
            removed.push(((f.span.line, 1), (f.body.end.line, f.body.end.col)));
        }
        !drop
    });
    removed
}

/// The rule a function pointer's note cites.
pub(super) const FN_PTR_RULE: &str = "CUDA C++ Programming Guide, Function Pointers";

/// Replaces each address in `e` by its function's id.
fn addr_to_id(e: &mut Expr, ids: &[(String, u64)]) {
    if let ExprKind::Call(n, a) = &e.kind {
        if n == FN_ADDR {
            if let Some(ExprKind::Str(s)) = a.first().map(|x| &x.kind) {
                let id = ids.iter().find(|(f, _)| f == s).map_or(0, |(_, id)| *id);
                *e = Expr::new(
                    ExprKind::Int {
                        value: id,
                        unsigned: false,
                        long: false,
                    },
                    e.span,
                );
                return;
            }
        }
    }
    // `&twice`: the address itself.
    if let ExprKind::AddrOf(b) = &mut e.kind {
        addr_to_id(b, ids);
        if matches!(b.kind, ExprKind::Int { .. }) {
            *e = (**b).clone();
        }
        return;
    }
    e.kind.for_each_child_mut(|c| addr_to_id(c, ids));
}

/// A dispatch statement made the branch over its candidates.
fn dispatch(s: &mut Stmt, sigs: &[(String, u64, String)], k: &mut u32) {
    let StmtKind::Expr(e) = &s.kind else { return };
    let ExprKind::Call(n, a) = &e.kind else {
        return;
    };
    let Some(sig) = n.strip_prefix(FN_CALL) else {
        return;
    };
    let (Some(ptr), Some(result)) = (a.first(), a.get(1)) else {
        return;
    };
    let args: Vec<Expr> = a.iter().skip(2).cloned().collect();
    let at = s.span;
    let next = |k: &mut u32| {
        *k = k.wrapping_add(1);
        // Counted down from the top of the synthesized columns, clear of the parser's.
        synth(at, (u32::MAX / SYNTH_COL - 2).saturating_sub(*k))
    };
    let stmt = |kind| Stmt {
        kind,
        span: at,
        end: s.end,
    };
    let null = Expr::new(ExprKind::Call(FN_NULL.into(), Vec::new()), next(k));
    let mut chain = stmt(StmtKind::Expr(null));
    for (name, id, _) in sigs.iter().rev().filter(|(_, _, t)| t == sig) {
        let call = Expr::new(ExprKind::Call(name.clone(), args.clone()), next(k));
        let body = if matches!(result.kind, ExprKind::Ident(_)) {
            Expr::new(
                ExprKind::Assign(None, Box::new(result.clone()), Box::new(call)),
                at,
            )
        } else {
            call
        };
        let test = Expr::new(
            ExprKind::Binary(
                crate::types::BinOp::Eq,
                Box::new(ptr.clone()),
                Box::new(Expr::new(
                    ExprKind::Int {
                        value: *id,
                        unsigned: false,
                        long: false,
                    },
                    at,
                )),
            ),
            at,
        );
        chain = stmt(StmtKind::If(
            test,
            Box::new(stmt(StmtKind::Expr(body))),
            Some(Box::new(chain)),
        ));
    }
    *s = chain;
}

/// Calls `f` on each expression of `s` and of the statements nested in it (the nesting is
/// bounded by the parser's depth budget).
fn each_expr(s: &mut Stmt, f: &mut dyn FnMut(&mut Expr)) {
    each_stmt(s, &mut |st| {
        st.kind.for_each_part_mut(|part| {
            if let StmtPart::Expr(e) = part {
                f(e);
            }
        })
    });
}

/// Calls `f` on `s` and then on each statement nested in it (a statement `f` replaces is not
/// entered again; the nesting is bounded by the parser's depth budget).
fn each_stmt(s: &mut Stmt, f: &mut dyn FnMut(&mut Stmt)) {
    let before = std::mem::discriminant(&s.kind);
    f(s);
    if std::mem::discriminant(&s.kind) != before {
        return;
    }
    s.kind.for_each_part_mut(|part| {
        if let StmtPart::Stmt(c) = part {
            each_stmt(c, f);
        }
    });
}
