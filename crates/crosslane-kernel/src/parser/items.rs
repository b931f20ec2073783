//! Top-level items: the program, type aliases, function definitions and parameters.

use super::const_eval::const_eval;
use super::host;
use super::{PResult, Parser};
use crate::ast::*;
use crate::lexer::Tok;
use crate::types::{Ty, ValTy};
use crate::KernelError;
use crosslane_core::result::Level;
use std::collections::HashMap;

/// A function header: return type, name, and whether `__global__` / `__launch_bounds__(N)`
/// stood between the two.
type Header = (Ty, String, bool, Option<u64>);

impl Parser<'_> {
    pub(super) fn program(&mut self) -> PResult<Program> {
        let mut program = Program::default();
        let mut loose: Vec<Stmt> = Vec::new();
        // `const`/`constexpr` declarations before anything else: file-scope constants when the
        // source defines functions, the snippet's first statements otherwise.
        let mut globals: Vec<Stmt> = Vec::new();
        let start = self.span();
        let file = super::host_items::is_file(self.toks);
        while !matches!(self.peek(0), Tok::Eof) {
            let mark = self.mark();
            match self.file_item(&mut program, &mut globals, &mut loose, file) {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => self.skip_host_item(mark, e, file)?,
            }
        }
        // Constants beside function templates only (an asc-devkit test file whose kernel is a
        // template) are the templates' constants, not a snippet to run.
        let templates_only = program.functions.is_empty() && !self.templates.is_empty();
        if program.functions.is_empty()
            && !globals.is_empty()
            && !(templates_only && loose.is_empty())
        {
            globals.append(&mut loose);
            loose = globals;
        }
        if !loose.is_empty() {
            if !program.functions.is_empty() {
                let s = loose[0].span;
                return Err(KernelError::new(
                    s.line,
                    s.col,
                    "statements outside a function: write either a snippet or functions",
                ));
            }
            let end = self.last_end();
            program.functions.push(Function {
                name: "snippet".into(),
                entry: true,
                ret: Ty::Void,
                params: Vec::new(),
                body: Stmt {
                    kind: StmtKind::Block(loose),
                    span: start,
                    end,
                },
                launch_bounds: None,
                vf_call_dim: None,
                span: start,
                snippet: true,
                defaults: Vec::new(),
                empty_params: Vec::new(),
            });
        }
        if program.functions.is_empty() && self.templates.is_empty() {
            return Err(KernelError::new(
                start.line,
                start.col,
                "no kernel: write a function or some statements",
            ));
        }
        Ok(program)
    }

    /// One file-scope item read into `program` (or the snippet's `globals`/`loose`
    /// statements); `Ok(false)` when the input ran out. In a `file` (one that defines device
    /// functions) a statement outside a function is never a snippet's statement.
    fn file_item(
        &mut self,
        program: &mut Program,
        globals: &mut Vec<Stmt>,
        loose: &mut Vec<Stmt>,
        file: bool,
    ) -> PResult<bool> {
        if self.eat(";") {
            return Ok(true);
        }
        // Structs and their members defined after them (`structs`).
        if (self.is_word("struct") || self.is_word("class") || self.is_word("union"))
            && matches!(self.peek(1), Tok::Ident(_))
            && matches!(self.peek(2), Tok::Punct("{" | ";" | ":"))
        {
            self.struct_def(None)?;
            return Ok(true);
        }
        if self.is_word("typedef")
            && matches!(self.peek(1), Tok::Ident(w) if w == "struct" || w == "class" || w == "union")
            && (matches!(self.peek(2), Tok::Punct("{")) || matches!(self.peek(3), Tok::Punct("{")))
        {
            self.typedef_struct()?;
            return Ok(true);
        }
        if self.out_of_class_member()? {
            return Ok(true);
        }
        if self.spec_member_def()? {
            return Ok(true);
        }
        if self.skip_namespace_line() {
            return Ok(true);
        }
        if self.is_word("template") && !matches!(self.peek(1), Tok::Punct("<")) {
            // `template __global__ void k<int>(int*);`: an explicit instantiation. A launch
            // or `--entry 'k<int>'` instantiates what runs; nothing to do here.
            let at = self.span();
            let start = self.pos;
            while !self.is_punct(";") && !matches!(self.peek(0), Tok::Eof) {
                self.bump();
            }
            // Kept for the list of `--entry` choices (`entry_list`).
            if let Some(inst) = self
                .toks
                .get(start + 1..self.pos)
                .and_then(super::entry_list::explicit_instance)
            {
                self.explicit_instances.push(inst);
            }
            self.eat(";");
            self.diag(
                at,
                Level::Info,
                "explicit template instantiation skipped: a launch or --entry 'name<args>' \
                 instantiates the kernel that runs",
                "",
            );
            return Ok(true);
        }
        if self.is_word("template") {
            self.template_def()?;
            return Ok(true);
        }
        if self.is_word("static_assert") {
            self.skip_static_assert()?;
            return Ok(true);
        }
        if self.is_word("enum")
            || (self.is_word("typedef") && matches!(self.peek(1), Tok::Ident(w) if w == "enum"))
        {
            let (name, ty) = self.enum_def()?;
            if let Some(name) = name {
                program.aliases.push((name, ty));
            }
            return Ok(true);
        }
        if self.device_const_starts() && loose.is_empty() {
            if let Some(g) = self.global_const() {
                globals.push(g);
                return Ok(true);
            }
            if let Some(tables) = self.const_struct_tables()? {
                program.constants.extend(tables);
                return Ok(true);
            }
            match self.const_table()? {
                Some(t) => {
                    self.global_vars.insert(t.name.clone());
                    program.constants.push(t);
                    return Ok(true);
                }
                // `__device__ const float* f(…)`: a function, read below.
                None if !self.is_word("__constant__") => {}
                None => {
                    let at = self.span();
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        "`__constant__` data needs a constant initializer here (a scalar \
                         `= v`, an array `= {…}`), or a size for a one-dimensional array \
                         that host code fills by cudaMemcpyToSymbol: write the value in the \
                         initializer, or pass it as a kernel parameter (CLI --arg / --buffer)",
                    ));
                }
            }
        }
        if loose.is_empty() && self.fn_ptr_table_starts() {
            // `__device__ op_t table[] = {add1, twice};`: a constant table of function ids.
            if let Some(t) = self.const_table()? {
                program.constants.push(t);
                return Ok(true);
            }
        }
        if loose.is_empty() {
            if let Some(vars) = self.device_vars()? {
                self.global_vars.extend(vars.iter().map(|v| v.name.clone()));
                program.constants.extend(vars);
                return Ok(true);
            }
        }
        self.refuse_unsupported_item()?;
        if self.cub_alias()? {
            return Ok(true);
        }
        if self.is_word("using") || self.is_word("typedef") {
            if let Some((name, ty)) = self.file_scope_alias()? {
                if !name.is_empty() {
                    program.aliases.push((name, ty));
                }
            }
            return Ok(true);
        }
        if loose.is_empty() {
            self.peek_const_array();
        }
        let before = self.pos;
        if let Some(f) = self.function()? {
            program.functions.push(f);
            return Ok(true);
        }
        if matches!(self.peek(0), Tok::Eof) {
            // Skipped prototypes or host functions ran to the end.
            return Ok(false);
        }
        if self.pos != before {
            // Prototypes were skipped (`__device__ float f(float);`, `extern "C" __global__
            // void k(float*);`): what follows them is a new item of any kind (a template, a
            // struct, an alias, a constant), read from the top.
            return Ok(true);
        }
        if matches!(self.peek(0), Tok::Eof) {
            // Skipped prototypes or host functions ran to the end.
            return Ok(false);
        }
        if loose.is_empty() {
            if let Some(g) = self.global_const() {
                globals.push(g);
                return Ok(true);
            }
        }
        if file || !program.functions.is_empty() {
            // Host declarations are skipped by `skip_host_item`; what reaches the user is a
            // device global (`__device__ int g;`) or a declaration that names a device marker.
            let at = self.span();
            return Err(KernelError::new(
                at.line,
                at.col,
                "a device variable at file scope of this form is not supported: constants \
                 (`const`/`constexpr`/`__constant__` with a constant initializer) and \
                 `__device__`/`__managed__` scalars and one-dimensional arrays of a value type \
                 are; pass other data as a kernel parameter (CLI --arg / --buffer)",
            ));
        }
        let mark = self.pre.len();
        let st = self.stmt()?;
        loose.extend(self.pre.drain(mark..));
        loose.push(st);
        Ok(true)
    }

    pub(super) fn alias(&mut self) -> PResult<(String, ValTy)> {
        let at = self.span();
        let using = self.is_word("using");
        self.bump();
        if self.fn_ptr_alias(using)?.is_some() {
            // A function pointer type: its signature is recorded for declarations of it
            // (`super::fn_ptr_run`); no value type to record (an `int` placeholder no
            // declaration can reach by this name).
            return Ok((String::new(), ValTy::scalar(crate::types::Scalar::I32)));
        }
        let (name, ty) = if using {
            let name = self.ident()?;
            self.expect_punct("=")?;
            self.refuse_unmodelled_vector()?;
            // `using AccessType = AlignedArray<float, VPT>;`: an alias of a struct or a class
            // template's specialization names that struct ([dcl.typedef]/2), in a function
            // body too (vectorized loads declare one there).
            let eq = self.pos;
            if let Some(st) = self.struct_type()? {
                if self.eat(";") {
                    if st != name {
                        self.struct_alias.insert(name.clone(), st);
                    }
                    return Ok((String::new(), ValTy::scalar(crate::types::Scalar::I32)));
                }
                self.pos = eq;
            }
            let ty = self.base_type()?;
            (name, ty)
        } else {
            // `typedef Box<float> BoxF;`: the same alias of a struct, written the C way.
            let from = self.pos;
            if let Some(st) = self.struct_type()? {
                if let (Tok::Ident(name), Tok::Punct(";")) = (self.peek(0).clone(), self.peek(1)) {
                    self.pos += 2;
                    if st != name {
                        self.struct_alias.insert(name, st);
                    }
                    return Ok((String::new(), ValTy::scalar(crate::types::Scalar::I32)));
                }
                self.pos = from;
            }
            self.refuse_unmodelled_vector()?;
            let ty = self.base_type()?;
            let name = self.ident()?;
            (name, ty)
        };
        self.expect_punct(";")?;
        match ty {
            Ty::Val(v) => {
                self.aliases.insert(name.clone(), v);
                Ok((name, v))
            }
            _ => Err(KernelError::new(
                at.line,
                at.col,
                "only value types can be aliased",
            )),
        }
    }

    /// A function definition, if one starts here (the position is restored otherwise).
    pub(super) fn function(&mut self) -> PResult<Option<Function>> {
        // A loop, not a call per prototype: a file of a million prototypes must not recurse.
        loop {
            if let Some(f) = self.function_once()? {
                return Ok(f);
            }
        }
    }

    /// One function definition (`Some(Some(f))`), no function here (`Some(None)`), or a
    /// prototype that was skipped (`None`: look again after it).
    pub(super) fn function_once(&mut self) -> PResult<Option<Option<Function>>> {
        self.q_device = false;
        self.q_host = false;
        let save = self.pos;
        let save_depth = self.depth;
        let saved_diags = self.diags.len();
        let start = self.span();
        let Ok((entry1, _, bounds1)) = self.qualifiers() else {
            self.pos = save;
            self.depth = save_depth;
            return Ok(Some(None));
        };
        let mut sret = None;
        let mut is_auto = false;
        let mut refused = None;
        let header = (|| -> PResult<Option<Header>> {
            if !self.type_starts() && !self.is_word("__NATIVE_VECTOR__") && !self.is_word("auto") {
                return Ok(None);
            }
            let ret = if self.is_word("auto") {
                // `auto f(…)`: the type comes from `-> T` or the body ([`super::fn_types`]).
                self.bump();
                is_auto = true;
                Ty::Void
            } else if let Some(s) = self.struct_type()? {
                // A function returning a struct: `__ret.*` reference parameters instead.
                sret = Some(s);
                Ty::Void
            } else {
                let base = self.base_type()?;
                self.pointers(base)?.0
            };
            // `__global__ void __launch_bounds__(256, 2) k(…)`: attributes may also stand
            // between the return type and the name.
            let (mid_entry, _, mid_bounds) = self.qualifiers()?;
            if self.is_punct("&") {
                if let Some(r) = self.operator_id_at(1) {
                    // `V& operator+=(V& a, const V& b)`: a free operator returning a reference.
                    let t = &self.toks[self.pos];
                    refused = Some(match r {
                        Err(e) => e,
                        Ok((op, _)) => KernelError::new(
                            t.line,
                            t.col,
                            format!(
                                "a free `operator{op}` returning a reference is not supported; \
                                 declare it as a member that returns `*this` (`V& \
                                 operator{op}(const V& o) {{ …; return *this; }}`)"
                            ),
                        ),
                    });
                    return Ok(None);
                }
            }
            if let Some(r) = self.operator_id_at(0) {
                // `V operator+(V a, V b)`: a free operator ([`super::operators`]).
                let (op, n) = match r {
                    Ok(x) => x,
                    Err(e) => {
                        refused = Some(e);
                        return Ok(None);
                    }
                };
                if !matches!(self.peek(n), Tok::Punct("(")) {
                    return Ok(None);
                }
                self.pos += n;
                return Ok(Some((ret, format!("operator{op}"), mid_entry, mid_bounds)));
            }
            let Tok::Ident(name) = self.peek(0).clone() else {
                return Ok(None);
            };
            if !matches!(self.peek(1), Tok::Punct("(")) {
                return Ok(None);
            }
            self.bump();
            Ok(Some((ret, name, mid_entry, mid_bounds)))
        })();
        let Ok(Some((mut ret, name, mid_entry, mid_bounds))) = header else {
            if let Some(e) = refused {
                return Err(e);
            }
            self.pos = save;
            self.depth = save_depth;
            self.diags.truncate(saved_diags);
            return Ok(Some(None));
        };
        let entry = entry1 || mid_entry;
        let bounds1 = bounds1.or(mid_bounds);
        // Host code (`main`, `__host__`, a function calling the runtime or launching a kernel)
        // is read for its launches and skipped, parameters and all; so is an Ascend C kernel
        // whose body launches a SIMT function by `asc_vf_call` (`host::calls_vf`).
        let open_params = self.pos;
        if let Some(close_params) = self.closing(open_params) {
            let mut at = close_params + 1;
            while matches!(&self.toks[at.min(self.toks.len() - 1)].tok, Tok::Ident(w) if w == "const")
            {
                at += 1;
            }
            let body = matches!(self.toks.get(at).map(|t| &t.tok), Some(Tok::Punct("{")));
            let launcher = body
                && self
                    .closing(at)
                    .is_some_and(|c| host::calls_vf(&self.toks[at..c]));
            if body && (launcher || (!entry && !self.q_device)) {
                let close = host::body_end(self, at)?;
                let host = launcher
                    || name == "main"
                    || self.q_host
                    || self.host_body(open_params, close_params, at, close);
                if host {
                    let params = host::param_names(&self.toks[open_params + 1..close_params]);
                    let before = self.launches.len();
                    if name == "main" && self.deferred_main.is_none() && self.defer_main(at, close)
                    {
                        self.deferred_main = Some((params, start, at, close));
                        self.pos = close + 1;
                        return Ok(None);
                    }
                    self.read_host(&name, params.clone(), start, at, close);
                    if name != "main" {
                        self.record_host_fn(&name, params, Vec::new(), (at, close), before);
                    }
                    self.pos = close + 1;
                    return Ok(None);
                }
                // `void ConstantInit(float *data, int size, float val) { for (…) data[i] =
                // val; }`: a plain function that fills a parameter's cells, which host code
                // calls to fill its arrays (`host_calls::record_fill_helper`). It stays a
                // function as well.
                if name != "main" {
                    let params = host::param_names(&self.toks[open_params + 1..close_params]);
                    if host::fills_param(&self.toks[at..close], &params) {
                        self.record_fill_helper(&name, params.clone(), (at, close));
                    }
                    // `void init_fastdiv_values(uint32_t d, uint32_t& mp, uint32_t& L)`: a
                    // plain (so host, CUDA C++ Programming Guide, "Function Execution Space
                    // Specifiers") function that sets its caller's scalars through reference
                    // parameters: host code's calls of it are read ([`super::host_ref_out`]).
                    // So is one returning a pair or tuple (`std::pair<unsigned, unsigned>
                    // launch_dims(unsigned n)`), which host code unpacks with a structured
                    // binding ([`super::host_bind`]).
                    if !self.host_fns.contains_key(&name)
                        && (self.host_ref_params(at).into_iter().any(|r| r)
                            || self.kernel_ref_param(at, close)
                            || self.returns_pair_or_tuple(save, open_params))
                    {
                        let before = self.launches.len();
                        self.record_host_fn(&name, params, Vec::new(), (at, close), before);
                    }
                }
            }
        }
        self.expect_punct("(")?;
        self.pending_svars.clear();
        self.param_copies.clear();
        let at_params = self.span();
        let mut params = self.params()?;
        let empty_params = std::mem::take(&mut self.empty_params_now);
        let leaf_pending = std::mem::take(&mut self.leaf_pending);
        let copies = std::mem::take(&mut self.param_copies);
        // Overloads of one name ([`super::overload`]): a later declaration with other
        // parameter types is kept under its own key. An instance of a template (parsed with
        // `eager` set) is named by its instantiation instead; a member function defined out of
        // its class (`S::f`) is called through its struct.
        let mut name = name;
        if self.eager == 0 && !name.contains("::") {
            if let Some(close) = self.closing(open_params) {
                let toks = self.toks[open_params + 1..close].to_vec();
                let sig = self.param_sigs(&toks, &[]);
                name = self.overload_key(&name, sig, start)?;
            }
        }
        if !self.any_slots.is_empty() {
            let slots = std::mem::take(&mut self.any_slots);
            self.any_group_fns.insert(name.clone(), slots);
        }
        // Tile parameters: each tile's meta pair as hidden trailing parameters (`cg_tile_meta`).
        let tiles = std::mem::take(&mut self.tile_slots_now);
        // A function template's instance is named by its instantiation (the calls chose its
        // pairs there).
        let key = match (self.eager, self.instance_now.take()) {
            (1.., Some(m)) => m,
            _ => name.clone(),
        };
        let (hidden, hidden_defaults) =
            self.tile_meta_hidden(&key, tiles, self.param_count_now, at_params);
        params.extend(hidden);
        self.param_defaults.extend(hidden_defaults);
        let voids = std::mem::take(&mut self.void_now);
        if !voids.is_empty() {
            self.void_params.insert(name.clone(), voids);
        }
        let defaults = std::mem::take(&mut self.param_defaults);
        let own = std::mem::take(&mut self.pending_svars);
        let (entry2, _, bounds2) = self.qualifiers()?;
        if is_auto {
            if let Some(t) = self.trailing_return()? {
                ret = t;
                is_auto = false;
            }
        }
        // The function's name is declared from its declarator on ([basic.scope.pdecl]/1): a
        // prototype's or its own body may take its address (`fn_ptr_run`).
        if !is_auto && sret.is_none() {
            self.fn_types.entry(name.clone()).or_insert(ret);
        }
        // `int f(int, int) __asm("llvm.amdgcn.readlane");` ([`super::asm_label`]).
        if sret.is_none() {
            if let Some(f) = self.asm_label_decl(&name, ret, &params, start)? {
                self.fn_types.insert(f.name.clone(), f.ret);
                return Ok(Some(Some(f)));
            }
        }
        if self.eat(";") {
            // A prototype: nothing to run.
            if let Some(s) = sret {
                self.fn_ret.insert(name, s);
            }
            return Ok(None);
        }
        if !self.is_punct("{") {
            return self.err("`{` to start the function body");
        }
        if let Some(s) = &sret {
            self.fn_ret.insert(name.clone(), s.clone());
        }
        let open = self.pos;
        let kept = (self.scopes.len(), self.diags.len(), self.depth);
        let mut scope = HashMap::new();
        for p in &params {
            scope.insert(p.name.clone(), p.ty);
        }
        // A by-value struct's array members: local arrays of the body ([`structs::ParamCopy`]).
        for c in &copies {
            scope.insert(c.local.clone(), crate::types::Ty::Ptr(c.elem));
        }
        self.scopes.push(scope);
        // References to one value (not `T (&w)[8]`, which has dimensions).
        let refs = params
            .iter()
            .filter(|p| p.reference && !self.param_dims.iter().any(|(n, _)| *n == p.name))
            .map(|p| p.name.clone())
            .collect();
        let outer_refs = std::mem::replace(&mut self.value_refs, refs);
        let own_consts = std::mem::take(&mut self.param_consts);
        let outer_consts = std::mem::replace(&mut self.const_names, own_consts);
        for (n, dims) in std::mem::take(&mut self.param_dims) {
            self.note_dims(&n, dims);
        }
        for (n, len) in std::mem::take(&mut self.param_bounds) {
            self.note_dims(&n, vec![len]);
        }
        let body = (|| {
            for (n, sv) in own {
                let leaves = self.leaves(&sv.sname, start)?;
                self.declare_svar(&n, sv, &leaves);
            }
            if let Some(s) = &sret {
                let mut ret = self.ret_params(s, start)?;
                ret.append(&mut params);
                params = ret;
            }
            let saved = std::mem::replace(&mut self.ret_struct, sret.clone());
            let saved_val = std::mem::replace(
                &mut self.ret_val,
                match ret {
                    Ty::Val(v) if !is_auto => Some(v),
                    _ => None,
                },
            );
            // `constexpr` locals are constants of this function only.
            let consts = self.consts.clone();
            let auto_ret = std::mem::replace(&mut self.auto_ret, is_auto.then_some(None));
            let outer_fn = self.func_now.replace(super::scopes::func_name(&name));
            let body = self.own_destructibles(|p| p.stmt());
            self.func_now = outer_fn;
            let deduced = std::mem::replace(&mut self.auto_ret, auto_ret);
            // A class's static members (`Number<2>::value`) stay: a class template
            // instantiated in this body is not instantiated again where another function
            // (a template instance parsed later) names the member.
            let mut consts = consts;
            for (k, v) in std::mem::take(&mut self.consts) {
                if k.contains("::") {
                    consts.entry(k).or_insert(v);
                }
            }
            self.consts = consts;
            if is_auto {
                ret = self.auto_return_type(&name, deduced.flatten())?;
            }
            self.ret_struct = saved;
            self.ret_val = saved_val;
            body
        })();
        self.scopes.pop();
        self.value_refs = outer_refs;
        self.const_names = outer_consts;
        // A kernel beside others, or a function, whose body is refused: the error of each run
        // that reaches it ([`Self::refuse_kernel_body`]).
        let body = match body {
            Err(e) => self.refuse_kernel_body(&name, open, kept, e, entry || entry2)?,
            Ok(b) => b,
        };
        let body = self.with_param_copies(copies, body)?;
        self.refuse_stray_goto(&body)?;
        let vf_call_dim = self.vf_call_dim(start.line, body.end.line);
        let f = Function {
            name,
            entry: entry || entry2,
            ret,
            params,
            body,
            launch_bounds: bounds1.or(bounds2),
            vf_call_dim,
            span: start,
            snippet: false,
            defaults,
            empty_params,
        };
        self.record_constexpr(save, open_params, &f);
        for (param, stride, count) in leaf_pending {
            self.struct_leaves.push(crate::ast::StructLeaf {
                function: f.name.clone(),
                param,
                stride,
                count,
            });
        }
        self.fn_types.insert(f.name.clone(), f.ret);
        Ok(Some(Some(f)))
    }

    /// `__grid_constant__` among the qualifiers of the parameter starting at `from`: CUDA C++
    /// Programming Guide, "__grid_constant__": the annotation applies to a `const`-qualified
    /// kernel parameter of non-reference type, so one without `const`, or a reference or a
    /// pointer, is refused as nvcc refuses it; a `const` by-value parameter reads as any other.
    fn grid_constant_param(&self, from: usize) -> PResult<()> {
        let toks = self.toks;
        let Some(g) = toks[from..self.pos]
            .iter()
            .find(|t| matches!(&t.tok, Tok::Ident(w) if w == "__grid_constant__"))
        else {
            return Ok(());
        };
        // The parameter's tokens: to its `,` or `)` at depth 0.
        let mut depth = 0usize;
        let mut end = from;
        while end < toks.len() {
            match toks[end].tok {
                Tok::Punct("(" | "[" | "{" | "<") => depth += 1,
                Tok::Punct(")" | "]" | "}" | ">") if depth > 0 => depth -= 1,
                Tok::Punct(")" | ",") => break,
                Tok::Punct(">>") => depth = depth.saturating_sub(2),
                Tok::Eof => break,
                _ => {}
            }
            end += 1;
        }
        let part = &toks[from..end];
        let konst = part
            .iter()
            .any(|t| matches!(&t.tok, Tok::Ident(w) if w == "const"));
        let indirect = part
            .iter()
            .any(|t| matches!(t.tok, Tok::Punct("&" | "&&" | "*")));
        if konst && !indirect {
            return Ok(());
        }
        Err(KernelError::new(
            g.line,
            g.col,
            "`__grid_constant__` applies to a `const`-qualified kernel parameter passed by value \
             (CUDA C++ Programming Guide, \"__grid_constant__\"): write `const \
             __grid_constant__ T name`",
        ))
    }

    pub(super) fn params(&mut self) -> PResult<Vec<Param>> {
        let mut params = Vec::new();
        self.leaf_pending.clear();
        self.param_defaults.clear();
        self.param_consts.clear();
        self.any_slots.clear();
        self.tile_slots_now.clear();
        self.param_count_now = 0;
        self.cub_pending.clear();
        let mut slot = 0usize;
        self.void_now.clear();
        self.empty_params_now.clear();
        let mut index = 0usize;
        self.param_dims.clear();
        self.param_bounds.clear();
        if self.eat(")") {
            return Ok(params);
        }
        if self.is_punct("..") || self.is_punct("...") {
            let at = self.span();
            self.bump();
            self.expect_punct(")")?;
            self.diag(
                at,
                Level::Info,
                "`(..)`: the page elides the parameters (pseudo-code); the kernel takes none",
                "",
            );
            return Ok(params);
        }
        if self.is_word("void") && matches!(self.peek(1), Tok::Punct(")")) {
            self.bump();
            self.bump();
            return Ok(params);
        }
        loop {
            let p_index = index;
            index += 1;
            let at = self.span();
            let at_pos = self.pos;
            let this_slot = slot;
            slot += 1;
            self.param_count_now = slot;
            self.qualifiers()?;
            self.grid_constant_param(at_pos)?;
            if let Some((name, group)) = self.cg_param()? {
                // A group parameter holds the group's member mask; the body's uses of the
                // group are lowered by its kind.
                self.groups.insert(name.clone(), group);
                if let super::cg::Group::Tile(n) = group {
                    self.tile_slots_now.push((this_slot, name.clone(), n));
                }
                let hidden = (group == super::cg::Group::Any).then(|| {
                    self.any_slots.push(this_slot);
                    self.any_group_params(&name, at)
                });
                params.push(Param {
                    name,
                    ty: self.mask_ty(),
                    reference: false,
                    const_ref: false,
                    span: at,
                });
                params.extend(hidden.into_iter().flatten());
                if self.eat(")") {
                    return Ok(params);
                }
                self.expect_punct(",")?;
                continue;
            }
            let is_const = self.toks[at_pos..self.pos]
                .iter()
                .any(|t| matches!(&t.tok, Tok::Ident(w) if w == "const"))
                || self.is_word("const");
            if let Some(s) = self.struct_type()? {
                let leaves = self.struct_param(s, is_const, at)?;
                if leaves.is_empty() {
                    self.empty_params_now.push(this_slot);
                }
                params.extend(leaves);
                if self.eat("=") {
                    self.assign_expr()?;
                }
                if self.eat(")") {
                    return Ok(params);
                }
                self.expect_punct(",")?;
                continue;
            }
            // `const void * vx` that the body casts to a struct pointer: that struct pointer.
            if self.is_word("void") {
                let mut j = 1;
                while matches!(self.peek(j), Tok::Punct("*"))
                    || matches!(self.peek(j), Tok::Ident(w) if matches!(w.as_str(), "const" | "volatile" | "__restrict__" | "__restrict" | "restrict"))
                {
                    j += 1;
                }
                if let (Tok::Ident(n), true) = (self.peek(j).clone(), j > 1) {
                    if let Some(s) = self.void_param_struct(&n)? {
                        self.void_now.push((p_index, s.clone()));
                        self.bump();
                        let leaves = self.struct_param(s, is_const, at)?;
                        if leaves.is_empty() {
                            self.empty_params_now.push(this_slot);
                        }
                        params.extend(leaves);
                        if self.eat(")") {
                            return Ok(params);
                        }
                        self.expect_punct(",")?;
                        continue;
                    }
                    if let Some(v) = self.void_param_cells(&n) {
                        // Read through one pointer type only: its cells are that type.
                        let save = self.pos;
                        let base = self.base_type()?;
                        if let (Ty::Ptr(_), false) = self.pointers(base)? {
                            self.bump(); // the name
                            params.push(Param {
                                name: n,
                                ty: Ty::Ptr(v),
                                reference: false,
                                const_ref: false,
                                span: at,
                            });
                            if self.eat(")") {
                                return Ok(params);
                            }
                            self.expect_punct(",")?;
                            continue;
                        }
                        self.pos = save;
                    }
                }
            }
            // `op_t op` (a function pointer alias) or `float (*op)(float)`: the parameter
            // holds a function's id ([`super::fn_ptr_run`]).
            if let Some(sig) = self.fn_ptr_param_type() {
                let name = self.ident()?;
                self.fn_ptr_var(&name, sig);
                params.push(Param {
                    name,
                    ty: super::fn_ptr_run::id_ty(),
                    reference: false,
                    const_ref: false,
                    span: at,
                });
                if self.eat(")") {
                    return Ok(params);
                }
                self.expect_punct(",")?;
                continue;
            }
            let base = self.base_type()?;
            let (mut ty, reference) = self.pointers(base)?;
            // `const float* g`, `const float y`: `const` before the first `*` or `&`.
            let const_param = self.toks[at_pos..self.pos]
                .iter()
                .take_while(|t| !matches!(t.tok, Tok::Punct("*" | "&")))
                .any(|t| matches!(&t.tok, Tok::Ident(w) if w == "const"))
                && self.toks[at_pos..self.pos]
                    .iter()
                    .filter(|t| matches!(t.tok, Tok::Punct("*")))
                    .count()
                    <= 1;
            // `const float& y`, `float const & y` (east const, C++17 [dcl.type]/2: the
            // cv-qualifier may follow the type it qualifies): `const` after the last `*`
            // before the `&` qualifies the referenced type; `const float*& p` refers to a
            // pointer that is not const.
            let declarator = &self.toks[at_pos..self.pos];
            let amp = declarator
                .iter()
                .position(|t| matches!(t.tok, Tok::Punct("&" | "&&")))
                .unwrap_or(declarator.len());
            let star = declarator[..amp]
                .iter()
                .rposition(|t| matches!(t.tok, Tok::Punct("*")));
            let const_referred = declarator[star.map_or(0, |s| s + 1)..amp]
                .iter()
                .any(|t| matches!(&t.tok, Tok::Ident(w) if w == "const"));
            if const_param {
                if let Tok::Ident(n) = self.peek(0) {
                    self.param_consts.insert(n.clone());
                }
            }
            if let Some((name, sig)) = self.fn_ptr_declarator(ty)? {
                self.fn_ptr_var(&name, sig);
                params.push(Param {
                    name,
                    ty: super::fn_ptr_run::id_ty(),
                    reference: false,
                    const_ref: false,
                    span: at,
                });
                if self.eat(")") {
                    return Ok(params);
                }
                self.expect_punct(",")?;
                continue;
            }
            // `T (*p)`: a parenthesized declarator of a plain pointer ([dcl.meaning]/6: `( D )`
            // declares what `D` does), as rocPRIM's tests write `T (*device_input)`.
            let mut paren_ptr = false;
            if self.is_punct("(")
                && matches!(self.peek(1), Tok::Punct("*"))
                && matches!(self.peek(2), Tok::Ident(_))
                && matches!(self.peek(3), Tok::Punct(")"))
                && matches!(self.peek(4), Tok::Punct("," | ")" | "="))
                && !reference
            {
                if let Ty::Val(v) = ty {
                    self.bump();
                    self.bump();
                    ty = Ty::Ptr(v);
                    paren_ptr = true;
                }
            }
            // `T (&w)[8]`: a reference to an array ([dcl.ref]) reads and writes the caller's
            // array, as the pointer its elements decay to does.
            if self.is_punct("(") && matches!(self.peek(1), Tok::Punct("*")) {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    "this function pointer parameter form is not supported (only a named \
                     `RET (*name)(PARAMS)` or an alias's `op_t name` is); name the parameter: \
                     `float (*op)(float)`",
                ));
            }
            let array_ref = self.is_punct("(")
                && matches!(self.peek(1), Tok::Punct("&"))
                && matches!(self.peek(2), Tok::Ident(_))
                && matches!(self.peek(3), Tok::Punct(")"))
                && matches!(self.peek(4), Tok::Punct("["));
            if array_ref {
                self.bump();
                self.bump();
            }
            // An unnamed parameter (`int kind(T)`, a tag or an overload's marker,
            // [dcl.fct]/8): nothing in the body can name it.
            let name = if !array_ref && matches!(self.peek(0), Tok::Punct("," | ")")) {
                format!("<unnamed parameter {}>", params.len())
            } else {
                self.ident()?
            };
            if array_ref || paren_ptr {
                self.expect_punct(")")?;
            }
            if self.eat("[") {
                // `T (&w)[N]` names the caller's array, bound and all ([dcl.ref]): a constant
                // `N` (a template instance's too) is its length, for a range-based `for`.
                let from = self.pos;
                while !self.is_punct("]") && !matches!(self.peek(0), Tok::Eof) {
                    self.bump();
                }
                let to = self.pos;
                if array_ref && !matches!(self.peek(1), Tok::Punct("[")) {
                    self.pos = from;
                    let bound = self.ternary().ok().and_then(|e| self.fold_int(&e));
                    self.pos = to;
                    if let Some(n) = bound.and_then(|n| u64::try_from(n).ok()) {
                        self.param_bounds.push((name.clone(), n));
                    }
                }
                self.expect_punct("]")?;
                if let Ty::Val(v) = ty {
                    ty = Ty::Ptr(v);
                }
                // `float t[][33]`: a pointer to rows of 33 ([dcl.fct]/5), indexed `t[i][j]`.
                if self.is_punct("[") {
                    let inner = self.array_suffixes()?;
                    let dims = self.const_bounds(&name, &inner, at)?;
                    let mut all = vec![0];
                    all.extend(dims.into_iter().map(|d| d.unwrap_or(1)));
                    self.param_dims.push((name.clone(), all));
                }
            }
            if self.eat("=") {
                let d_at = self.span();
                let d = self.assign_expr()?;
                let mut d = self.lower_struct(d)?;
                // `int warp_size = detail::default_warp_size()` (tilelang's intrin.h): a call of
                // a `constexpr` function of the source is a constant expression ([expr.const]/2,
                // [dcl.constexpr]/2), folded here, since a default argument is not inlined as
                // a call in the body is.
                if matches!(d.kind, ExprKind::Call(..)) {
                    if let Some(v) = self.fold_int(&d).and_then(|v| i64::try_from(v).ok()) {
                        d = self.e_int(d_at, v);
                    }
                }
                self.param_defaults.push((name.clone(), d));
            }
            let ty = match (ty, reference) {
                (Ty::Val(v), true) => Ty::Ptr(v),
                (Ty::Void, _) => {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        "a parameter cannot be void",
                    ))
                }
                (t, _) => t,
            };
            // A plain parameter hides a group of the same name made elsewhere.
            self.groups.remove(&name);
            params.push(Param {
                name,
                ty,
                reference,
                const_ref: reference && (is_const || const_referred),
                span: at,
            });
            if self.eat(")") {
                return Ok(params);
            }
            self.expect_punct(",")?;
        }
    }

    /// The Ascend launch comment `// asc_vf_call parameter: dim3{1024, 1, 1}` (seed 000; seed 001
    /// writes `asc_vf_call参数：dim3{…}`) within the function's lines.
    pub(super) fn vf_call_dim(&self, from: u32, to: u32) -> Option<[u64; 3]> {
        let c = self.comments.iter().find(|c| {
            c.line >= from.saturating_sub(1) && c.line <= to && c.text.contains("asc_vf_call")
        })?;
        let after = c.text.split_once("dim3")?.1;
        let inner = after.split_once('{')?.1.split_once('}')?.0;
        let mut dims = [1u64; 3];
        for (k, part) in inner.split(',').take(3).enumerate() {
            dims[k] = part.trim().parse().ok()?;
        }
        Some(dims)
    }

    /// `using namespace X;` and `namespace cg = cooperative_groups;` (at file scope or in a
    /// function body): skipped with a note.
    pub(super) fn skip_namespace_line(&mut self) -> bool {
        let using_ns =
            self.is_word("using") && matches!(self.peek(1), Tok::Ident(w) if w == "namespace");
        let alias = self.is_word("namespace")
            && matches!(self.peek(1), Tok::Ident(_))
            && matches!(self.peek(2), Tok::Punct("="));
        if !(using_ns || alias) {
            return false;
        }
        let at = self.span();
        // `using namespace AscendC::Simt;` makes the SIMT API's names visible unqualified.
        let simt = using_ns
            && matches!(self.peek(2), Tok::Ident(w) if w == "AscendC")
            && matches!(self.peek(3), Tok::Punct("::"))
            && matches!(self.peek(4), Tok::Ident(w) if w == "Simt");
        self.simt_using |= simt;
        self.std_using |= using_ns
            && matches!(self.peek(2), Tok::Ident(w) if w == "std")
            && matches!(self.peek(3), Tok::Punct(";"));
        while !self.is_punct(";") && !matches!(self.peek(0), Tok::Eof) {
            self.bump();
        }
        self.eat(";");
        self.diag(
            at,
            Level::Info,
            "namespace line skipped: names are looked up without their namespace",
            "",
        );
        true
    }

    /// File-scope constructs the interpreter does not run, named at their line with what to do
    /// instead (never a bare "expected `;`").
    fn refuse_unsupported_item(&mut self) -> PResult<()> {
        let at = self.span();
        let Tok::Ident(w) = self.peek(0).clone() else {
            return Ok(());
        };
        let msg = match w.as_str() {
            "union" => "unions are not supported; use separate variables (or a struct)".to_string(),
            "struct" | "class" => format!(
                "this `{w}` form is not supported at file scope (only `{w} Name {{ … }};` \
                 definitions); declare variables inside a function"
            ),
            "namespace" => "this `namespace` form is not supported (blocks `namespace X { … }`, \
                 `namespace a::b { … }` and aliases `namespace N = X;` are); put the functions at \
                 file scope"
                .to_string(),
            _ => return Ok(()),
        };
        Err(KernelError::new(at.line, at.col, msg))
    }

    /// `__constant__ T name[N] = {v0, v1, …};` (size optional; `const`, `static`, `__device__`
    /// around it allowed), or `__constant__ T name[N];` for host code to fill
    /// ([`Parser::fill_constant_tables`]): a [`ConstTable`]. `None` (position restored) when no
    /// such array starts here.
    ///
    /// # Errors
    /// A multi-dimensional array, a size or value that is not a constant, or more values than
    /// the size.
    fn const_table(&mut self) -> PResult<Option<ConstTable>> {
        let save = self.pos;
        let at = self.span();
        while matches!(self.peek(0), Tok::Ident(w) if matches!(w.as_str(), "__constant__" | "const" | "static" | "__device__" | "constexpr"))
        {
            self.bump();
        }
        let alias_sig = self.fn_ptr_alias_type();
        let elem = if alias_sig.is_some() {
            ValTy::scalar(crate::types::Scalar::I32)
        } else {
            let Ok(Ty::Val(elem)) = self.base_type() else {
                self.pos = save;
                return Ok(None);
            };
            elem
        };
        let Tok::Ident(name) = self.peek(0).clone() else {
            self.pos = save;
            return Ok(None);
        };
        self.bump();
        if let Some(sig) = alias_sig {
            // A table of function pointers: each cell a function's id.
            self.fn_ptr_var(&name, sig);
            self.fn_ptr_tables.insert(name.clone());
        }
        if !self.eat("[") {
            self.pos = save;
            return Ok(None);
        }
        let empty = HashMap::new();
        let size = if self.eat("]") {
            None
        } else {
            let e = self.assign_expr()?;
            self.expect_punct("]")?;
            match const_eval(&e, &empty)
                .and_then(|v| v.int())
                .and_then(|n| usize::try_from(n).ok())
            {
                Some(n) => Some(n),
                None => return self.err("a constant size for the `__constant__` array"),
            }
        };
        if self.is_punct("[") {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "`__constant__ {name}[…][…]`: multi-dimensional `__constant__` arrays are not \
                     supported; flatten it to one dimension (`{name}[row * COLS + col]`)"
                ),
            ));
        }
        let initialized = self.eat("=");
        if !initialized && (size.is_none() || !self.is_punct(";")) {
            self.pos = save;
            return Ok(None);
        }
        let mut values = Vec::new();
        if initialized {
            self.expect_punct("{")?;
        }
        while initialized && !self.eat("}") {
            let v_at = self.span();
            let e = self.assign_expr()?;
            let Some(v) =
                Self::addr_cell(&e).or_else(|| const_eval(&e, &empty).and_then(|v| v.text()))
            else {
                return Err(KernelError::new(
                    v_at.line,
                    v_at.col,
                    format!(
                        "`{name}`: each initializer of a `__constant__` array must be a constant"
                    ),
                ));
            };
            values.push(v);
            if !self.is_punct("}") {
                self.expect_punct(",")?;
            }
        }
        self.expect_punct(";")?;
        let len = size.unwrap_or(values.len());
        // CUDA C++ Programming Guide, "Device Memory Accesses" / technical specifications:
        // constant memory is 64 KB; a larger table is not a real kernel's (and is never built).
        let cell = u64::from(elem.scalar.bits().div_ceil(8)) * u64::from(elem.lanes.max(1));
        let bytes = (len as u64).saturating_mul(cell);
        if bytes > 65_536 {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "`__constant__ {name}[{len}]` needs {bytes} bytes: constant memory holds 64 \
                     KB (65536 bytes); pass a larger table as a kernel parameter (a pointer)"
                ),
            ));
        }
        if values.len() > len {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "`{name}[{len}]` has {} initializers, more than its size",
                    values.len()
                ),
            ));
        }
        if initialized {
            // ISO C11 6.7.9p21: cells without an initializer are zero.
            values.resize(len, "0".to_string());
            self.diag(
                at,
                Level::Info,
                format!(
                    "`__constant__ {name}` ({len} cells of {}) is read-only data: each kernel \
                     gets it as a buffer `{name}` filled with its initializer (`--buffer \
                     {name}=…` replaces it)",
                    elem.name()
                ),
                CONSTANT_RULE,
            );
        }
        Ok(Some(ConstTable {
            name,
            elem,
            len,
            initial: values.clone(),
            values,
            copied_unread: false,
            span: at,
            device: false,
            scalar: false,
            copies: Vec::new(),
        }))
    }

    /// Whether a `__constant__` declaration starts here, or a `const`/`constexpr` one marked
    /// `__device__` (`static const __device__ T tab[N] = {…};`): device data nothing may write
    /// (CUDA C++ Programming Guide, Variable Memory Space Specifiers; C++ [dcl.type.cv]/4), so
    /// with a constant initializer it reads as the `__constant__` data of the same values.
    fn device_const_starts(&self) -> bool {
        let (mut constant, mut device, mut is_const) = (false, false, false);
        let mut k = 0;
        while let Tok::Ident(w) = self.peek(k) {
            match w.as_str() {
                "__constant__" => constant = true,
                "__device__" => device = true,
                "const" | "constexpr" => is_const = true,
                "static" => {}
                _ => break,
            }
            k += 1;
        }
        constant || (device && is_const)
    }

    /// A file-scope `const`/`constexpr` declaration whose every declarator has a constant
    /// initializer: its names become constants ([`Parser::consts`]). `None` (position restored)
    /// for anything else.
    fn global_const(&mut self) -> Option<Stmt> {
        let mut k = 0;
        let mut is_const = false;
        while let Tok::Ident(w) = self.peek(k) {
            match w.as_str() {
                // `__constant__` data with a constant initializer is read-only: a constant.
                "const" | "constexpr" | "__constant__" => is_const = true,
                "static" | "__device__" | "__host__" | "inline" => {}
                _ => break,
            }
            k += 1;
        }
        if !is_const && !self.const_after_type(k) {
            return None;
        }
        let save = self.pos;
        let save_diags = self.diags.len();
        let save_depth = self.depth;
        let restore = |p: &mut Self| {
            p.pos = save;
            p.diags.truncate(save_diags);
            p.depth = save_depth;
        };
        let Ok(stmt) = self.simple_stmt() else {
            restore(self);
            return None;
        };
        let StmtKind::Decl(storage, decls) = &stmt.kind else {
            restore(self);
            return None;
        };
        let empty = HashMap::new();
        let constant = !storage.shared
            && decls.iter().all(|d| {
                d.array.is_none()
                    && d.init
                        .as_ref()
                        .is_some_and(|e| const_eval(e, &empty).is_some())
            });
        if !constant {
            // A `const`/`constexpr` array of constants (`constexpr int kSizes[] = {32, 64};`):
            // each element is a constant too (C++17 [expr.const]/2.7.1, a const object
            // initialized with a constant expression), kept as `name[k]`
            // ([`Parser::const_element`]); the declaration itself is read as before.
            if !storage.shared {
                for d in decls {
                    self.record_const_elements(d);
                }
            }
            restore(self);
            return None;
        }
        for d in decls {
            if let (Some(init), Ty::Val(v)) = (&d.init, d.ty) {
                let e = Expr::new(
                    ExprKind::Cast(Ty::Val(v), Box::new(init.clone())),
                    init.span,
                );
                self.consts.insert(d.name.clone(), e);
            }
        }
        Some(stmt)
    }
}

/// The rule `__constant__` tables cite.
const CONSTANT_RULE: &str =
    "CUDA C++ Programming Guide, Variable Memory Space Specifiers (__constant__); cudaMemcpyToSymbol";

impl Parser<'_> {
    /// Fills each `__constant__` table declared without an initializer from host code's
    /// `cudaMemcpyToSymbol(table, h, …)` / `hipMemcpyToSymbol(HIP_SYMBOL(table), h, …)` when a
    /// simple loop or a literal list filled `h` ([`Parser::symbol_copies`]); says where each
    /// table's cells come from: the copy, undefined (a copy whose data could not be read), or
    /// zero (no copy: static storage starts zeroed, C++ [basic.start.static]).
    pub(super) fn fill_constant_tables(&mut self, program: &mut Program) {
        let taken = std::mem::take(&mut self.symbol_copies);
        let mut copies = self.split_struct_copies(taken);
        for t in &mut program.constants {
            super::symbol_range::place_copies(t, &mut copies);
            t.copies = copies
                .iter()
                .filter(|c| c.symbol == t.name)
                .map(|c| SymbolWrite {
                    at: c.at,
                    values: c.data.as_ref().map(|d| d.0.clone()),
                    line: c.line,
                })
                .collect();
        }
        for t in program.constants.iter_mut().filter(|t| t.values.is_empty()) {
            let copy = copies.iter().rev().find(|c| c.symbol == t.name);
            let (what, level) = match copy.map(|c| (&c.data, c.line)) {
                Some((Some((values, from, line)), _)) => {
                    let mut v = values.clone();
                    v.truncate(t.len);
                    // Cells a signed overflow left undefined in host code (`host_undef`).
                    let undef = crate::host_undef::split_marks(&mut v, 1);
                    t.values = v;
                    let times = copies.iter().filter(|c| c.symbol == t.name).count();
                    let mut what = if times > 1 {
                        format!("host code copies into it {times} times by cudaMemcpyToSymbol, the last from `{from}` (line {line}); each launch finds the last copy made before it")
                    } else {
                        format!("filled as host code fills `{from}` (line {line}) and copies it by cudaMemcpyToSymbol")
                    };
                    if !undef.is_empty() {
                        what.push_str(&format!(
                            "; undefined are {} (C++17 [expr]/4)",
                            crate::host_undef::describe(&undef)
                        ));
                    }
                    let level = if undef.is_empty() {
                        Level::Info
                    } else {
                        Level::Warning
                    };
                    (what, level)
                }
                Some((None, line)) => {
                    t.copied_unread = true;
                    (
                        format!("undefined: the cudaMemcpyToSymbol at line {line} copies data not read here; set it with --buffer {}=…", t.name),
                        Level::Warning,
                    )
                }
                None if t.device => (
                    super::device_vars::zero_fill_rule().to_string(),
                    Level::Info,
                ),
                None => (
                    "zero: nothing copies into it (static storage starts zeroed)".to_string(),
                    Level::Info,
                ),
            };
            let (kind, rule) = if t.device {
                (
                    "global memory every thread of the launch shares",
                    super::device_vars::DEVICE_VAR_RULE,
                )
            } else {
                ("read-only data", CONSTANT_RULE)
            };
            self.diag(
                t.span,
                level,
                format!(
                    "`{} {}` ({}) is {kind}, given to each kernel as a buffer: {what}",
                    t.spelled(),
                    t.name,
                    t.shape(),
                ),
                rule,
            );
        }
    }
}

/// Gives every kernel (`__global__` function) each `__constant__` table of `program` as a
/// trailing pointer parameter of the table's name, unless it has a parameter of that name: the
/// engine then allocates and fills it like any buffer ([`ConstTable`]), and device functions
/// see it as a file-scope name.
pub(super) fn add_constant_params(program: &mut Program) {
    let tables = &program.constants;
    for f in program
        .functions
        .iter_mut()
        .filter(|f| f.entry && !f.snippet)
    {
        for t in tables {
            if f.params.iter().all(|p| p.name != t.name) {
                f.params.push(Param {
                    name: t.name.clone(),
                    ty: Ty::Ptr(t.elem),
                    reference: false,
                    const_ref: false,
                    span: t.span,
                });
            }
        }
    }
}
