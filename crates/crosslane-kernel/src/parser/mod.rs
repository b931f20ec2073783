//! A recursive-descent parser with precedence climbing for the kernel subset of C/C++.
//!
//! Accepted: comments and `#` lines (skipped); `__global__`, `__device__`, `__simt_vf__`,
//! `__launch_bounds__(N)`, `inline`, `static`, `extern`, `__gm__`, `__shared__`; `using T =
//! __NATIVE_VECTOR__(N, S);` and `typedef`; the scalar types of every dialect; declarations with
//! several declarators and arrays; C expressions with C precedence, compound assignment, `++`/`--`,
//! `?:`, casts; `if`/`else`, `for`, `while`, `do … while`, `break`, `continue`, `return`; a bare
//! list of statements (a snippet) becomes one implicit kernel. Whole files: host
//! functions are read for their launches (`host`); other host items (test-framework blocks,
//! host classes, functions returning host types) are skipped with a note (`host_items`);
//! function templates of one name form an overload set chosen by substitution failure
//! (`sfinae`); `#define` constants and function-like
//! macros expand (`macros`); file-scope `const`/`constexpr` constants; function templates
//! (`templates`) and class templates; `auto`, `if constexpr`, `static_assert`; cooperative
//! groups (`cg`); structs and classes lowered to their members' scalars (`structs`); lambdas
//! lowered to closure structs (`lambda`); `NULL`/`nullptr`; constructs outside the subset are
//! named at their line with what to do instead.
//!
//! The seeds' own faults are reported at their line rather than refused: the MACA vector names
//! `vNtB` (`v2u32`, `v4f32`) are understood even where the page never declares them; an unknown
//! type name (seed 002's `f2f16`) is an error diagnostic naming the closest known type, which is
//! then used; `(..)` parameters and `...` statements of pseudo-code run as nothing, with a note.
//! Nesting is bounded (no input can overflow the stack): both the parser's own recursion and the
//! height of every expression tree, where a flat chain (`1+1+…`, `a[0][0]…`, a comma list) counts
//! one level per operator ([`super::budget::Limits::max_depth`]). Tokens after macro expansion,
//! counting every expansion call, are bounded by [`super::budget::Limits::max_tokens`].

mod alias_templates;
mod aligned_storage;
mod amdgcn_ballot;
pub(crate) mod amdgcn_ids;
mod amdgcn_int;
mod arrays;
mod asc_big_tile;
mod asc_reduce;
mod ascend_simt;
mod asm;
mod asm_alu;
mod asm_block;
mod asm_cvt;
mod asm_label;
mod asm_mem;
mod asm_ops;
mod asm_sreg;
mod atomic_ref;
mod attributes;
mod bit_cast;
mod build;
mod cccl_warp;
mod cg;
mod cg_any;
mod cg_async;
mod cg_big_tile;
mod cg_collect;
mod cg_lower;
mod cg_match;
mod cg_operator;
mod cg_scan;
mod cg_tile_meta;
mod cg_vec;
mod explicit_spec;
mod ext_vector;
pub(crate) use cg::HIDDEN_META_PREFIX;
pub(crate) use cg_lower::{GRID_SYNC, GRID_SYNC_ANY, GRID_SYNC_REFUSAL};
pub(crate) use fn_ptr_run::FN_NULL;
pub(crate) use overload::type_of_words;
mod cond_lvalue;
mod const_arrays;
mod const_bits;
mod const_eval;
mod const_struct;
mod crtp;
mod deduce_class;
mod deferred_types;
mod device_lambda;
mod device_ptr;
mod device_vars;
pub(crate) use const_eval::const_eval;
mod constexpr_fn;
mod constexpr_tmpl;
mod cub;
mod cub_alg_param;
mod cub_direct;
mod cub_exchange;
mod cub_functor_vars;
mod cub_kv;
mod cub_load;
mod cub_local;
mod cub_object;
mod cub_prefix;
mod cub_ptx;
mod cub_raking;
mod cub_record;
mod cub_scan;
mod cub_scan_items;
mod cub_segmented;
mod cub_sort;
mod cub_traits;
mod cub_union;
mod cub_warp_load;
mod cuda_std;
mod discard;
mod entry_list;
mod enum_def;
mod enum_targs;
mod expr;
mod expr_type;
mod file_shared;
mod fn_ptr;
mod fn_ptr_run;
mod fn_spec;
mod fn_types;
mod goto;
mod helper_math;
mod hip_launch_parm;
mod hip_sync;
mod host;
mod host_align;
mod host_bind;
mod host_calloc;
mod host_calls;
mod host_cells;
mod host_class_const;
mod host_copy;
pub(crate) mod host_d2d;
mod host_decl;
pub(crate) mod host_device;
mod host_eval;
mod host_fill_call;
mod host_fill_loop;
mod host_fn_spec;
mod host_for_each;
mod host_for_scope;
mod host_globals;
mod host_items;
mod host_kernel_choice;
mod host_kernel_ptr;
mod host_lambda;
mod host_launch_api;
mod host_launch_ex;
mod host_loop_exit;
mod host_loop_launch;
mod host_main_reach;
mod host_math;
mod host_mem;
mod host_nested;
mod host_out_param;
mod host_pitch;
mod host_ptr;
mod host_ptr_step;
mod host_range_for;
mod host_recur;
mod host_ref_out;
mod host_returns;
mod host_sizeof;
mod host_slice;
mod host_state;
mod host_static_switch;
mod host_switch;
mod host_template_launch;
mod host_text;
mod host_tmpl_call;
mod host_tmpl_deduce;
mod host_vec;
mod host_vf;
mod host_view;
mod int_seq;
mod items;
mod lambda;
mod lambda_generic;
mod lambda_struct_ret;
mod lib_functors;
mod lib_helpers;
mod limits;
mod local_ref;
mod member_splice;
mod member_templates;
mod member_types;
mod memcpy;
mod method_templates;
mod ns_members;
mod operator_names;
mod operators;
mod overload;
mod packed;
mod packs;
mod param_list;
mod partial_spec;
mod phase6;
mod ptr_alias;
mod range_for;
mod ref_cast;
mod refused_alias;
mod refused_kernel;
mod rocprim_blocks;
mod rocprim_lib;
mod rocprim_prelude;
mod rocprim_shuffle;
mod scopes;
mod sfinae;
mod sizeof_op;
mod std_constants;
mod std_fns;
mod std_functional;
mod stmt;
mod struct_bind;
mod structs;
mod switch;
mod swizzle;
mod symbol_range;
mod sync_vote;
mod targ_undeclared;
mod targs;
mod template_entry;
mod templates;
mod throw_expr;
mod thrust_pair;
mod type_traits;
mod types;
mod unsupported;
mod var_templates;

use std::collections::{HashMap, HashSet};

use super::ast::*;
use super::budget::{Limits, DEPTH_CEILING};
use super::lexer::{Comment, Tok, Token};
use super::pp::{preprocess, PpOptions, PpRecord};
use super::types::{BinOp, Ty, UnOp, ValTy};
use super::{KernelDiagnostic, KernelError};
use crosslane_core::result::Level;
use types::{cuda_vector, maca_vector, QUALIFIERS, TYPE_WORDS};

/// A parsed source: the program and the diagnostics found while parsing.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Parsed {
    /// The program.
    pub program: Program,
    /// Notes, warnings and errors that did not stop parsing (seed typos, pseudo-code elisions).
    pub diagnostics: Vec<KernelDiagnostic>,
    /// The instantiation an entry template-id named (`reduce4<int,128>`), when one was asked.
    pub entry: Option<String>,
    /// Which branch each preprocessor conditional took and which lines it skipped.
    pub preprocess: PpRecord,
}

use serde::Serialize;

/// Parses a kernel source within the default [`Limits`].
///
/// # Errors
/// [`KernelError`] at the first token that cannot continue the program, with what was expected,
/// or where a budget (nesting, tokens) ran out.
pub fn parse(source: &str) -> Result<Parsed, KernelError> {
    parse_with(source, &Limits::default())
}

/// Parses a kernel source within `limits` (nesting depth and tokens after macro expansion).
///
/// # Errors
/// As [`parse`]; the message of a budget names the flag that raises it.
pub fn parse_with(source: &str, limits: &Limits) -> Result<Parsed, KernelError> {
    parse_with_entry(source, limits, None)
}

/// As [`parse_with`], and when `entry` is a template-id (`reduce4<int, 128>`), instantiates
/// it; [`Parsed::entry`] then holds the instantiation's name (`reduce4<int,128>`).
///
/// # Errors
/// As [`parse`]; an entry template-id that names no template or does not parse.
pub fn parse_with_entry(
    source: &str,
    limits: &Limits,
    entry: Option<&str>,
) -> Result<Parsed, KernelError> {
    let (dialect, _) = super::dialect_guess::infer_dialect(source);
    parse_preprocessed(
        source,
        limits,
        entry,
        dialect,
        dialect.default_lanes(),
        &PpOptions::default(),
    )
}

/// As [`parse_with_entry`], preprocessing for `dialect` on `lanes`-wide warps with `pp`'s user
/// defines and target ([`super::pp::preprocess`]).
///
/// # Errors
/// As [`parse`], and the preprocessor's ([`super::pp::preprocess`]: `#error`, a malformed
/// directive, an `--arch` the dialect does not take).
pub fn parse_preprocessed(
    source: &str,
    limits: &Limits,
    entry: Option<&str>,
    dialect: crosslane_core::Dialect,
    lanes: usize,
    pp: &PpOptions,
) -> Result<Parsed, KernelError> {
    // A position inside crosslane's rocPRIM declarations is placed at the source's call
    // into them ([`rocprim_lib::place_error`]).
    match parse_preprocessed_at(source, limits, entry, dialect, lanes, pp) {
        Ok(mut parsed) => {
            for d in &mut parsed.diagnostics {
                rocprim_lib::place_error(source, &mut d.line, &mut d.col, &d.message);
            }
            for (_, line, col, m) in &mut parsed.program.type_errors {
                rocprim_lib::place_error(source, line, col, m);
            }
            Ok(parsed)
        }
        Err(mut e) => {
            rocprim_lib::place_error(source, &mut e.line, &mut e.col, &e.message);
            Err(e)
        }
    }
}

/// [`parse_preprocessed`] before its positions inside crosslane's rocPRIM declarations are
/// placed.
fn parse_preprocessed_at(
    source: &str,
    limits: &Limits,
    entry: Option<&str>,
    dialect: crosslane_core::Dialect,
    lanes: usize,
    pp: &PpOptions,
) -> Result<Parsed, KernelError> {
    // `#include <mma.h>` stands for crosslane's `nvcuda::wmma` ([`crate::wmma_header`]).
    let source = if dialect == crosslane_core::Dialect::Cuda {
        crate::wmma_header::expand(source)
    } else {
        std::borrow::Cow::Borrowed(source)
    };
    // `#include <cuda/barrier>` stands for crosslane's `cuda::barrier` ([`crate::barrier_header`]).
    let source = if dialect == crosslane_core::Dialect::Cuda {
        match crate::barrier_header::expand(&source) {
            std::borrow::Cow::Owned(s) => std::borrow::Cow::Owned(s),
            std::borrow::Cow::Borrowed(_) => source,
        }
    } else {
        source
    };
    let mut pre = preprocess(&source, dialect, lanes, pp, limits)?;
    // `--entry 'k<bfloat16, 4>'` with `#define bfloat16 maca_bfloat16` in the source: the
    // template arguments read as the source's own text would ([`template_entry::entry_macros`]).
    let expanded_entry = entry
        .filter(|e| e.contains('<'))
        .map(|e| template_entry::entry_macros(e, &pre.object_macros));
    let entry = expanded_entry.as_deref().or(entry);
    // `rocprim::detail::warp_move_dpp` and `warp_swizzle` as the HIP builtins they call
    // ([`rocprim_shuffle`]), then `rocprim::warp_reduce` and kin declared before the source
    // ([`rocprim_lib`]).
    // HIP's `__hip_ds_swizzlef_N<P>(x)` and kin first, as the builtins they call.
    let hip_n = rocprim_shuffle::hip_template_lane_ops(std::mem::take(&mut pre.tokens));
    pre.tokens = rocprim_lib::rocprim_lib(rocprim_shuffle::rocprim_shuffles(hip_n));
    // `cub::Traits<T>` declared before a source that names it ([`cub_traits`]).
    pre.tokens = cub_traits::cub_traits(std::mem::take(&mut pre.tokens));
    // CCCL's `cuda::device::warp_shuffle_*` declared before the source ([`cccl_warp`]).
    if dialect == crosslane_core::Dialect::Cuda {
        pre.tokens = cccl_warp::cccl_warp(std::mem::take(&mut pre.tokens));
    }
    // The CUDA samples' `helper_math.h` vector operators, where the source includes it
    // ([`helper_math`]).
    pre.tokens = helper_math::helper_math(&source, std::mem::take(&mut pre.tokens));
    // `auto op = hipcub::Sum();` written out at its uses ([`cub_functor_vars`]).
    pre.tokens = cub_functor_vars::cub_functor_vars(std::mem::take(&mut pre.tokens));
    // rocPRIM's host-side `common::device_ptr<T>` as the HIP calls it makes ([`device_ptr`]).
    pre.tokens = device_ptr::device_ptr(std::mem::take(&mut pre.tokens));
    // `--entry ns::kernel<2>`: the name as the flattened source spells it.
    let given_entry = entry;
    // Kernels of one name in several namespaces keep their qualified names (`a::k`).
    let mut kernel_scopes = scopes::kernel_scopes(&pre.tokens);
    let mut clashing = scopes::clashing_kernels(&mut kernel_scopes);
    // Functions, constants, arrays, structs and aliases of one name in two scopes keep their
    // qualified names too ([basic.lookup.qual]: `a::f` and `b::f` are two functions).
    clashing.extend(ns_members::clashing_members(
        &ns_members::namespace_members(&pre.tokens),
    ));
    for (n, q) in kernel_scopes.iter_mut() {
        if clashing.contains(q.as_str()) {
            n.clone_from(q);
        }
    }
    let unqualified =
        entry.map(|e| scopes::unqualify_entry(e, &scopes::scope_names(&pre.tokens), &clashing));
    let entry = unqualified.as_deref();
    let mut macro_diags = pre.diagnostics;
    let tokens = scopes::flatten_scopes(pre.tokens, &clashing, &mut macro_diags);
    // A use of `fragment.x[i]` that may show the unspecified element mapping.
    macro_diags.extend(crate::wmma_lint::mapping_warnings(&tokens));
    let element_arrays = crate::wmma_lint::fragment_arrays(&tokens);
    let library_lines = crate::wmma_lint::header_lines(&tokens);
    let tokens = ext_vector::ext_vector_typedefs(tokens);
    attributes::refuse_value_attributes(&tokens)?;
    let mut struct_aligns = attributes::struct_alignments(&tokens);
    let struct_attrs = packed::packed_structs(&tokens)?;
    for (name, a) in struct_attrs.tail_aligns {
        let merged = match (struct_aligns.get(&name), a) {
            (Some(Some(m)), Some(n)) => Some((*m).max(n)),
            (Some(None), _) | (_, None) => None,
            (None, Some(n)) => Some(n),
        };
        struct_aligns.insert(name, merged);
    }
    let tokens = attributes::strip_attributes(tokens);
    let tokens = if dialect == crosslane_core::Dialect::Ascend {
        asc_big_tile::big_tile_prelude(tokens)
    } else {
        tokens
    };
    let tokens = file_shared::scope_file_shared(thrust_pair::thrust_pair(
        aligned_storage::aligned_storage(file_shared::hoist_shared(tokens)),
    ));
    let tokens = crtp::crtp(alias_templates::alias_templates(int_seq::int_seq(
        std_constants::std_constants(var_templates::var_templates(tokens)),
    )));
    let tokens = ptr_alias::pointer_aliases(device_lambda::device_lambdas(tokens));
    // HIP's first launch interface, `hipLaunchParm lp` (`hip_launch_parm`).
    let tokens = if dialect == crosslane_core::Dialect::Hip {
        hip_launch_parm::hip_launch_parm(tokens)
    } else {
        tokens
    };
    let tokens = range_for::range_for(phase6::phase6(std_fns::std_swap(std_fns::std_move(
        cuda_std::cuda_std(tokens),
    ))));
    let comments = pre.comments;
    let mut p = Parser::new(&tokens, &comments, limits.depth());
    p.std_functors(&tokens);
    p.struct_aligns = struct_aligns;
    p.struct_packed = struct_attrs.packed;
    p.diags = macro_diags;
    p.hip = dialect == crosslane_core::Dialect::Hip;
    p.cuda = dialect == crosslane_core::Dialect::Cuda;
    p.ascend = dialect == crosslane_core::Dialect::Ascend;
    // MACA's warps are 64 threads (MACA programming guide, seed 002 §3.4.1): its `*_sync`
    // functions name 64 lanes, as HIP's do on a wave64.
    p.sync64 = p.hip || dialect == crosslane_core::Dialect::Maca;
    p.wave = if p.sync64 {
        lanes.clamp(1, 64) as u32
    } else {
        32
    };
    p.enums = enum_targs::scan_enums(&tokens);
    // HIP's device `warpSize` is a constant expression ([`Parser::hip_warp_size`]).
    let at = tokens.first().map_or(Span { line: 1, col: 1 }, |t| Span {
        line: t.line,
        col: t.col,
    });
    if let Some(wave) = p.hip_warp_size(at) {
        p.consts.insert("warpSize".to_string(), wave);
    }
    if p.cuda {
        // `sm_86`, `compute_75`, `sm_90a`: the digits (the preprocessor has checked the form).
        p.arch_sm = pp.arch.as_deref().map_or(90, |a| {
            let d: String = a.chars().filter(char::is_ascii_digit).collect();
            d.parse().unwrap_or(90)
        });
    }
    p.instance_tokens = limits.max_tokens.saturating_sub(tokens.len() as u64);
    // Each reading counts its copies back from the first (`host_d2d`'s `read_back`).
    host_d2d::READBACKS_SEEN.with(|s| s.borrow_mut().clear());
    host_d2d::READBACKS_USED.with(|s| s.borrow_mut().clear());
    let mut program = p.program().map_err(|e| {
        hint_flattened(
            unsupported::name_ascend_vector(unsupported::name_unsupported(e, &tokens), &tokens),
            &comments,
            &tokens,
        )
    })?;
    p.read_deferred_main();
    p.read_pending_host_calls();
    p.drop_uncalled_launches();
    p.link_vf_calls();
    p.resolve_launches();
    let superseded = std::mem::take(&mut p.superseded);
    let (gone, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut p.launch_diags)
        .into_iter()
        .partition(|(l, _)| superseded.contains(l));
    let kept: std::collections::HashSet<_> = kept.into_iter().map(|(_, d)| d).collect();
    let dropped: std::collections::HashSet<_> = gone
        .into_iter()
        .map(|(_, d)| d)
        .filter(|d| !kept.contains(d))
        .collect();
    if !dropped.is_empty() {
        p.diags
            .retain(|d| !dropped.contains(&(d.line, d.col, d.message.clone())));
    }
    program.readbacks = std::mem::take(&mut p.readbacks);
    program.launches = std::mem::take(&mut p.launches)
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !superseded.contains(i))
        .map(|(_, l)| l)
        .collect();
    let has_kernel = program.functions.iter().any(|f| f.entry);
    let entry = match entry {
        Some(e) if e.contains('<') => Some(p.entry_instance(e)?),
        // `--entry k` of a kernel template whose parameters all have defaults, or no entry and
        // one such template the only kernel: it runs as `k<>`.
        named => match p.default_entry(named, has_kernel) {
            Some(name) if !program.functions.iter().any(|f| f.name == name) => {
                Some(p.entry_instance(&format!("{name}<>"))?)
            }
            // A qualified name: the function's own.
            _ => named
                .filter(|n| Some(*n) != given_entry)
                .map(str::to_string),
        },
    };
    p.instantiate_pending(&mut program.functions).map_err(|e| {
        hint_flattened(
            unsupported::name_unsupported(e, &tokens),
            &comments,
            &tokens,
        )
    })?;
    let no_kernel = !program.functions.iter().any(|f| f.entry);
    if entry.is_none()
        && no_kernel
        && ((program.functions.is_empty() && !p.templates.is_empty()) || p.has_kernel_template())
    {
        // Every kernel is a template (beside device functions, if any): none runs until its
        // arguments are named; say which `--entry` values there are.
        return Err(p.template_only_error());
    }
    program.kernel_scopes = kernel_scopes;
    program.struct_leaves = std::mem::take(&mut p.struct_leaves);
    program.enumerators = std::mem::take(&mut p.enumerators);
    program.element_arrays = element_arrays;
    program.library_lines = library_lines;
    p.fill_constant_tables(&mut program);
    // Before the tables become parameters, which would hide the scalars' names.
    device_vars::rewrite_scalars(&mut program);
    items::add_constant_params(&mut program);
    for (from, to) in fn_ptr_run::drop_kernel_pickers(&mut program) {
        p.diags.retain(|d| {
            let at = (d.line, d.col);
            !(d.level == Level::Error
                && d.message.starts_with("unknown type `")
                && from <= at
                && at <= to)
        });
    }
    if let Some((at, note)) = fn_ptr_run::lower_program(&mut program)? {
        p.diag(at, Level::Info, note, fn_ptr_run::FN_PTR_RULE);
    }
    // An error the front end met while it went on reading (an unknown type read as `int`, so
    // that every such error is reported at once) still ends the parse: nothing runs after a
    // front-end error (docs/kernels.md, "Errors and outcomes").
    deferred_types::defer_type_errors(&mut program, &mut p.diags, &tokens);
    for (k, line, col, m) in std::mem::take(&mut p.refused_bodies) {
        // A refusal no function of the program carries (its body was parsed under another
        // name) could be compiled by no call: the file's error, so that no run reads the
        // empty body left in its place and says "finished".
        let Some(f) = program.functions.iter().find(|f| f.name == k) else {
            return Err(KernelError::new(line, col, m));
        };
        // Shown on a run that does not reach the kernel too ([`refused_kernel`]).
        let said = if f.entry {
            format!("kernel `{k}` does not run here: {m}; the file's other kernels run")
        } else {
            format!(
                "device function `{k}` does not run here: {m}; the runs that call it stop, \
                 the others run"
            )
        };
        p.diag(Span { line, col }, Level::Warning, said, "");
        program.refused_kernels.push(k.clone());
        program.type_errors.push((k, line, col, m));
    }
    let mut errors: Vec<KernelError> = Vec::new();
    for d in p.diags.iter().filter(|d| d.level == Level::Error) {
        let e = KernelError::new(d.line, d.col, d.message.clone());
        if !errors.contains(&e) {
            errors.push(e);
        }
    }
    if let Some(e) = crate::join_errors(errors) {
        return Err(e);
    }
    Ok(Parsed {
        program,
        diagnostics: p.diags,
        entry,
        preprocess: pre.record,
    })
}

/// Web pages often flatten a code block onto one line; a `//` comment then swallows the rest of
/// the kernel (seed 001's examples). Say so when a parse fails on such a line.
///
/// Only when the error stands at or after the last token (the swallowed code left the input
/// short) and the comment follows code on its own line: a whole-file's commented-out statement
/// (`// out[i] = x;` on a line of its own) is no sign of lost line breaks.
fn hint_flattened(mut e: KernelError, comments: &[Comment], tokens: &[Token]) -> KernelError {
    let last = tokens
        .iter()
        .rev()
        .find(|t| !matches!(t.tok, Tok::Eof))
        .map_or((0, 0), |t| (t.line, t.col));
    if (e.line, e.col) < last {
        return e;
    }
    let after_code = |c: &Comment| {
        tokens
            .iter()
            .any(|t| t.line == c.line && t.col < c.col && !matches!(t.tok, Tok::Eof))
    };
    let swallowed = comments
        .iter()
        .find(|c| (c.text.contains(';') || c.text.contains('}')) && after_code(c));
    if let Some(c) = swallowed {
        e.message.push_str(&format!(
            " (the `//` comment at {}:{} runs to the end of its line and contains code — the \
             text seems to have lost its line breaks)",
            c.line, c.col
        ));
    }
    e
}

struct Parser<'a> {
    toks: &'a [Token],
    comments: &'a [Comment],
    pos: usize,
    aliases: HashMap<String, ValTy>,
    /// Template type parameters bound to a pointer type (`PtrT` of `template <typename PtrT>
    /// f(PtrT w)` given an `int32_t*`): the pointee, read as `Ty::Ptr` where the name is
    /// written as a type (C++17 [temp.deduct.call]/2, [temp.arg.type]/1).
    ptr_aliases: HashMap<String, ValTy>,
    diags: Vec<KernelDiagnostic>,
    depth: u32,
    /// Operands being read that run only in some lanes: a `?:` operand or the right operand
    /// of `&&`/`||` (C++17 [expr.cond]/1, [expr.log.and]/1, [expr.log.or]/1). A lowering that
    /// moves work before the statement (a call through a function pointer) is refused there,
    /// since it would run in every lane.
    conditional: u32,
    max_depth: u32,
    elision_noted: bool,
    /// Unknown type names given a closest-name suggestion so far (each costs a scan of the
    /// known names; past [`MAX_SUGGESTIONS`] the name is read as `int` without one).
    suggestions: u32,
    /// `const`/`constexpr` globals with a constant initializer, by name: a use is replaced by
    /// the initializer (they are compile-time constants in every dialect).
    consts: HashMap<String, Expr>,
    /// `constexpr` functions by name, for constants ([`constexpr_fn`]).
    constexpr_fns: HashMap<String, constexpr_fn::ConstFn>,
    /// Whether `>` ends the expression being read (a template argument, [temp.names]/3).
    no_gt: bool,
    /// The position after a `>>` whose second `>` still closes a template argument list.
    gt_owed: Option<usize>,
    /// Every function's and instance's return type by name ([`fn_types`]).
    fn_types: HashMap<String, Ty>,
    /// While an `auto` function's body is parsed: its first valued `return`'s type (`Err`:
    /// one whose type is unknown, where).
    auto_ret: Option<Option<Result<ValTy, Span>>>,
    /// How many instantiations parsed at their call enclose this parser ([`fn_types`]).
    eager: u32,
    /// How many class template instantiations enclose this parser: a class whose body names
    /// the next instance (`Unroll<I + 1, N>::run`) instantiates it nested, on the stack
    /// ([`templates::MAX_CLASS_NEST`]).
    class_nest: u32,
    /// The live block-scope objects whose class has a destructor with statements, in order of
    /// declaration ([`structs::Destructible`]).
    destructibles: Vec<structs::Destructible>,
    /// Per enclosing loop or `switch` body: the length of [`Parser::destructibles`] at its
    /// start, and whether it is a loop (`continue`'s target).
    jump_bases: Vec<(usize, bool)>,
    /// Whether the last constant folding stopped at its bound ([`constexpr_fn`]).
    fold_stopped: std::cell::Cell<bool>,
    /// Whether the fold under way reads host code, where host helper functions are evaluated
    /// (`constexpr_fn`'s `host_fold`).
    fold_host: std::cell::Cell<bool>,
    /// Launches read from host functions so far.
    launches: Vec<HostLaunch>,
    /// The `asc_vf_call` launches among them, completed by `link_vf_calls`.
    vf_calls: Vec<host_vf::VfCall>,
    /// Host functions and host function templates read so far, read again at a call from
    /// other host code with their parameters bound ([`host_calls`]).
    host_fns: std::collections::HashMap<String, host_calls::HostFn>,
    /// Host function templates of an overload set by their template keys (`f`, `f#2`, …),
    /// whose host calls choose one by substitution ([`host_tmpl_call`]).
    host_fn_keys: std::collections::HashMap<String, host_calls::HostFn>,
    /// Host function template instances a host expression calls for their value
    /// (`expandPrecision<int>(v)`), kept as host functions ([`host_tmpl_call`]).
    host_tmpl_values: std::collections::HashSet<String>,
    /// Where in the tokens the host slice being parsed alone starts ([`Parser::sub_expr`]),
    /// for the declarations of the names it uses ([`host_tmpl_deduce`]).
    host_slice_at: Option<usize>,
    /// Launches read from a host function's own definition that a call with bound
    /// parameters read again: dropped once the parse ends.
    superseded: std::collections::HashSet<usize>,
    /// A launch's index and a warning about it alone (`host_launch_api`: its argument array
    /// not read; line, column, message), dropped with the launch when a call with bound
    /// parameters read it again (unless a launch kept says the same).
    launch_diags: Vec<(usize, (u32, u32, String))>,
    /// The host functions `main`'s reading calls, directly or through others, and the range
    /// of launches that reading found ([`host_calls::Parser::drop_uncalled_launches`]).
    main_calls: host_calls::MainCalls,
    /// Launches host loops were read into, one per iteration (`host_loop_launch`).
    unrolled: usize,
    /// How many host loops being read per iteration enclose the reading now.
    unroll_depth: u32,
    /// Token ranges of `if` statements whose condition host code cannot evaluate and that
    /// hold a launch: their launches are `HostLaunch::undecided`.
    undecided: Vec<(usize, usize, Option<u32>)>,
    /// The number the next reading of a host function body gets (`HostState::reading`).
    readings: u32,
    /// Host calls being read, nested, and read in all ([`host_calls`]).
    host_call_depth: u32,
    /// gtest type lists and typed suites → their first value type ([`host_items`]).
    typed_suites: std::collections::HashMap<String, ValTy>,
    /// Host calls to functions not defined yet, read once the file is parsed.
    pending_calls: Vec<host_calls::CallSite>,
    /// The caller's device pointers a host call just read wrote back (`host_calls::read_call`):
    /// what the callee's launches and writes left in them, so the call is no unknown write.
    call_written: Vec<String>,
    /// `main`, kept to be read once the whole file is (`host_calls::defer_main`): it calls a
    /// host function defined below it, whose launches run at the call, in `main`'s order.
    deferred_main: Option<(Vec<String>, Span, usize, usize)>,
    /// Kernels whose bodies were refused in a file of several kernels: (kernel, line, column,
    /// message), each an error of the runs that reach it ([`refused_kernel`]).
    refused_bodies: Vec<(String, u32, u32, String)>,
    /// File-scope aliases not declared because their type is refused: name, and the reason a
    /// use of the name gives ([`refused_alias`]).
    refused_aliases: std::collections::HashMap<String, String>,
    host_calls_read: u32,
    /// Whether the warning that host calls past the budget are not read was given.
    host_call_budget_said: bool,
    /// A host structured binding's call (`host_bind`): the call depth whose `return`'s pair
    /// or tuple elements are wanted, and those elements once read.
    want_parts: Option<u32>,
    bind_parts: Option<Vec<Option<const_eval::HostVal>>>,
    /// `cudaMemcpyToSymbol` copies read in host code: the symbol, the host data's values, array
    /// and fill line when a simple loop or literal filled it, and the copy's line.
    symbol_copies: Vec<host::SymbolCopy>,
    /// Device-to-host copies of launches' cells read so far (`host_d2d`).
    readbacks: Vec<crate::ast::Readback>,
    /// `__constant__` variables of a struct type, by name: their members' tables
    /// (`const_struct`).
    const_structs: HashMap<String, const_struct::ConstStruct>,
    /// Whether the qualifiers read since the start of the current item named `__device__`.
    q_device: bool,
    /// Whether they named `__host__`.
    q_host: bool,
    /// The explicit instantiations read (`template __global__ void k<float, 4>(…);`): the
    /// template's name and the template-id as `--entry` takes it ([`entry_list`]).
    explicit_instances: Vec<(String, String)>,
    /// Function templates by name (a later template of a name under `name#N`, [`sfinae`]).
    templates: HashMap<String, templates::Template>,
    /// The non-static member function templates among them: key (`S::get`) to struct
    /// ([`method_templates`]).
    method_templates: HashMap<String, String>,
    /// The later templates' keys of each overloaded function template name ([`sfinae`]).
    overloads: HashMap<String, Vec<String>>,
    /// The non-template functions of each name, in declaration order ([`overload`]).
    fn_sets: HashMap<String, Vec<overload::FnOverload>>,
    /// Host launches' argument types by launch index, for choosing among kernel overloads.
    launch_arg_types: Vec<(usize, overload::ArgTypes)>,
    /// Whether this parser reads a host expression (a launch's configuration), where
    /// `blockDim` may be a host variable rather than the built-in.
    host_expr: bool,
    /// Host pointers and arrays declared so far → their element's bytes, for `sizeof(p[0])`
    /// and `sizeof(*p)` in host code ([`host_sizeof`]).
    host_elems: HashMap<String, u64>,
    /// Host pointers and arrays of a scalar type declared so far → that type, for a fill that
    /// reads cells back (`h[i] = h[i - 1] * 2 + 1;`, [`host_recur`]).
    host_scalars: HashMap<String, crate::types::Scalar>,
    /// Names host declarations at file scope declare (`static uint *d_tmp;`), shared by the
    /// host functions that name them ([`host_globals`]).
    file_scope_vars: std::collections::HashSet<String>,
    /// Host arrays of structs declared so far → their struct's name ([`host_sizeof`]).
    host_struct_of: HashMap<String, String>,
    /// The struct parameters' lowered members of the functions parsed so far
    /// ([`crate::ast::StructLeaf`]).
    struct_leaves: Vec<crate::ast::StructLeaf>,
    /// The enumerators defined so far, with their values ([`crate::ast::Program::enumerators`]).
    enumerators: Vec<(String, i64)>,
    /// The function whose parameters are being read: its struct parameters' members (name,
    /// struct size, elements per struct), named once the function is.
    leaf_pending: Vec<(String, u64, u32)>,
    /// Instantiations named so far (mangled), in order.
    instances: Vec<String>,
    /// Instantiations named but not parsed yet.
    pending: Vec<templates::Pending>,
    /// Declared names and their types, innermost scope last (for template and `auto`
    /// deduction).
    scopes: Vec<HashMap<String, Ty>>,
    /// Arrays of several dimensions: the scope depth (`scopes.len()`) they were declared at,
    /// name and bounds ([`arrays`]).
    array_dims: Vec<(usize, String, Vec<u64>)>,
    /// The dimensions of each array of several dimensions a generic lambda captures, by (the
    /// closure struct, the member): its `__call` instances index the member as the array
    /// ([`lambda_generic`]).
    closure_dims: HashMap<(String, String), Vec<u64>>,
    /// Parameters written as arrays of several dimensions (`float t[][33]`) in the parameter
    /// list just read, with their bounds (the first unknown: 0), noted when the body's scope
    /// opens.
    param_dims: Vec<(String, Vec<u64>)>,
    /// The constant bounds of the `T (&w)[N]` parameters read last (one dimension).
    param_bounds: Vec<(String, u64)>,
    /// The current function's reference parameters to one value (`T& best`, `const X& x`):
    /// recorded as pointers, read as the value they name ([`Parser::expr_type`]).
    value_refs: HashSet<String>,
    /// The current function's variables and parameters declared const or pointing to const
    /// (`const float* g`, `const float y`), for overload resolution ([`overload`]).
    const_names: HashSet<String>,
    /// The struct declaration [`Parser::struct_decl`] reads next is written `const`.
    struct_decl_const: bool,
    /// The parameters of the list [`Parser::params`] read last that are const
    /// ([`Parser::const_names`] of the function's body).
    param_consts: HashSet<String>,
    /// Cooperative-groups variables and the group each names.
    groups: HashMap<String, cg::Group>,
    /// Groups made in place and passed on (`f(cg::this_thread_block())`,
    /// `f(cg::tiled_partition<32>(block))`): the group of each such members expression, by its
    /// node, so that a template's `Group` parameter is deduced from it ([`Parser::group_of`]).
    made_groups: HashMap<crate::ast::NodeId, cg::Group>,
    /// A tile of a tile made in place and passed on: its `meta_group_rank` and
    /// `meta_group_size` expressions, by the members expression's id (`cg_tile_meta`).
    made_meta: HashMap<crate::ast::NodeId, (crate::ast::Expr, crate::ast::Expr)>,
    /// Template type parameters bound to a group (`template <typename Group>` deduced from a
    /// group argument).
    group_alias: HashMap<String, cg::Group>,
    /// Lanes per warp the groups are lowered for (32; HIP's wavefront: 64 or 32).
    wave: u32,
    /// The CUDA architecture as `sm_XY`'s XY (`--arch`, sm_90 when none is given); 0 for
    /// another dialect. Inline PTX instructions newer than it are refused ([`asm_alu`]).
    arch_sm: u32,
    /// Whether groups lower to HIP's operations (`__shfl`, `__ballot`, 64-bit masks) rather
    /// than CUDA's (`__shfl_sync`, `__ballot_sync`, 32-bit masks).
    hip: bool,
    /// Whether the dialect is CUDA (`sync_vote`: the block votes CUDA and HIP define).
    cuda: bool,
    /// Whether the dialect is Ascend C (its globals `block_idx`, `block_num`).
    ascend: bool,
    /// Whether `using namespace AscendC::Simt;` was read: the SIMT API's names unqualified.
    simt_using: bool,
    /// Whether `using namespace std;` was read: `min<int>(a, b)` names `std::min`
    /// ([namespace.udir]/2, [`std_fns`]).
    std_using: bool,
    /// The `*_sync` warp functions take a 64-bit mask over the whole warp (HIP, MACA), not
    /// CUDA's 32-bit one ([`hip_sync`]).
    sync64: bool,
    /// The closing bracket of each opening one (`usize::MAX`: none), built on first use.
    brackets: std::cell::OnceCell<Vec<usize>>,
    /// Tokens the template instantiations may still parse (the token budget's rest).
    instance_tokens: u64,
    /// Struct and class definitions (and class-template instances, lambdas' closure types)
    /// by name.
    structs: HashMap<String, structs::StructDef>,
    /// Class templates by name.
    class_templates: HashMap<String, templates::Template>,
    /// Class template partial specializations by the primary's name.
    partial_specs: HashMap<String, Vec<partial_spec::PartialSpec>>,
    /// The default arguments the last parameter list gave (name, expression).
    param_defaults: Vec<(String, Expr)>,
    /// Names that stand for a struct here: a template type parameter bound to one, a class
    /// template's own name inside its instance.
    struct_alias: HashMap<String, String>,
    /// Struct variables in scope, keyed by (scope index, name); see `Parser::var_struct`.
    svars: HashMap<(usize, String), structs::SVar>,
    /// The struct variables of `svars` that are pointers to a local struct (`S* p = &s;`),
    /// by scope depth and name ([`structs`]' `local_ptr`).
    local_struct_ptrs: std::collections::HashSet<(usize, String)>,
    /// Struct pointer members that step several cells per element, by (scope depth, member
    /// variable): `structs/layout_view.rs`.
    strided_vars: HashMap<(usize, String), u32>,
    /// Inside the default-initialization of a struct variable (`P p;`): members without an
    /// initializer get no value (`structs/member_init.rs`).
    default_init: bool,
    /// Each constructor's parameter types by its device function (`P::P/1`): two constructors
    /// of one parameter count and different types are refused ([`structs`]).
    ctor_types: HashMap<String, Vec<crate::types::Ty>>,
    /// Struct parameters read by `params`, declared when the function's scope opens.
    pending_svars: Vec<(String, structs::SVar)>,
    /// Array members of by-value struct parameters read by `params`, copied when the body
    /// starts ([`structs::ParamCopy`]).
    param_copies: Vec<structs::ParamCopy>,
    /// Functions that return a struct (lowered to `__ret.*` reference parameters), by name.
    fn_ret: HashMap<String, String>,
    /// Names of function pointer types (`using fn_t = float (*)(float);`), see [`fn_ptr`].
    fn_ptr_types: std::collections::HashSet<String>,
    /// Signatures of the function pointer aliases whose types parse, by alias ([`fn_ptr_run`]).
    fn_ptr_sigs: HashMap<String, fn_ptr_run::FnSig>,
    /// Choosing the instance `--entry` names (`k<float, 8>`), which no call gives arguments:
    /// overloads are told apart by their template arguments alone (an `enable_if` in the
    /// return type), not by a count or types of call arguments.
    entry_call: bool,
    /// Function pointer variables, parameters and tables, by name ([`fn_ptr_run`]).
    fn_ptr_vars: HashMap<String, fn_ptr_run::FnSig>,
    /// File-scope tables of function pointers (`__device__ op_t table[] = {…};`).
    fn_ptr_tables: std::collections::HashSet<String>,
    /// The file-scope `__constant__` and `__device__` variables by name: what a pointer
    /// template parameter's argument names ([`fn_ptr`]: `pick<table>`).
    global_vars: std::collections::HashSet<String>,
    /// Per function, its `void*` parameters read as struct pointers (parameter index, struct),
    /// see `structs::void_ptr`; `void_now` collects the parameter list being read.
    void_params: HashMap<String, Vec<(usize, String)>>,
    void_now: Vec<(usize, String)>,
    /// The source positions of the parameter list being read whose struct type has no data
    /// members (`Function::empty_params`).
    empty_params_now: Vec<usize>,
    /// Statements a lowered expression needs before its statement (temporaries).
    pre: Vec<Stmt>,
    /// Counter of synthesized nodes (each gets its own column past [`crate::ast::SYNTH_COL`]).
    syn: u32,
    /// Set by an expression statement that is one call of a struct-valued function: its
    /// value is discarded, so no conversion function is called on it ([stmt.expr]/1).
    value_unused: bool,
    /// The struct whose member function is being parsed.
    self_struct: Option<String>,
    /// Set while a class's member functions are registered before any body is read (a
    /// member function body is a complete-class context, C++17 [class.mem]/6): the head is
    /// read and registered, the body skipped.
    declare_only: bool,
    /// The name of the function whose body is being read, as `__func__` gives it (C++17
    /// [dcl.fct.def.general]/8: the unqualified name, without template arguments).
    func_now: Option<String>,
    /// The struct the function being parsed returns.
    ret_struct: Option<String>,
    /// The member operator being parsed returns a reference to its own struct
    /// (`V& operator+=(…)`): its `return *this;` ends the call ([`operators`]).
    ret_this: bool,
    /// In a member function returning a scalar by reference (`float& at(int i)`): `return e;`
    /// returns `&e` ([`structs`]'s `Method::by_ref`).
    ret_addr: bool,
    /// Each struct's member operators other than `()` and `[]`, by struct ([`operators`]).
    member_ops: HashMap<String, Vec<operators::MemberOp>>,
    /// The value type the function being parsed returns (`return {};` value-initializes it).
    ret_val: Option<ValTy>,
    /// The lambda whose body is being parsed.
    lambda: Option<lambda::LambdaCtx>,
    /// Device functions made by the front end: member functions, constructors, lambdas.
    extra_fns: Vec<Function>,
    /// CUB / hipCUB collective classes by alias (`using BlockReduce = cub::BlockReduce<…>`).
    cub: cub::CubNames,
    /// Aliases of a CUB class's storage (`using TS = typename R::TempStorage;`), by name.
    cub_storage_types: cub::CubNames,
    /// Named collective objects (`WarpScan ws(temp);`): each one's class alias and storage
    /// ([`cub_object`]).
    cub_objects: HashMap<String, (String, Expr)>,
    /// The storage of the named object whose method call is being read: taken by the class's
    /// call in place of its `(storage).` ([`cub_object`]).
    cub_object_storage: Option<Expr>,
    /// CUB / libcu++ operators by alias (`using MaxOp = cuda::maximum<>;`).
    cub_ops: HashMap<String, cub::Op>,
    /// Named library function objects (`cub::Max m;`), by name ([`lib_functors`]).
    lib_objects: HashMap<String, lib_functors::LibOp>,
    /// Library function object types by alias (`using M = cuda::maximum<>;`).
    lib_aliases: HashMap<String, lib_functors::LibOp>,
    /// Locals declared `cuda::atomic_ref<T, …> r(x);` ([`atomic_ref`]): pointers to `x`.
    atomic_refs: atomic_ref::AtomicRefs,
    /// `cub::Sum` / `Max` / `Min` already warned of (removed in CCCL 3.0; once a name).
    cub_removed_warned: std::collections::HashSet<String>,
    /// Unions of CUB TempStorages defined as types (`union S { … };`), their members
    /// (`cub_union`).
    cub_union_types: HashMap<String, Vec<(cub::CubClass, String, Span)>>,
    /// Structs declared with an alignment attribute, by name (`attributes::struct_alignments`).
    struct_aligns: HashMap<String, Option<u64>>,
    /// Structs declared `__attribute__((packed))`, by name (`packed::packed_structs`).
    struct_packed: std::collections::HashSet<String>,
    /// Local references in scope and the places they name (`local_ref`).
    local_refs: local_ref::LocalRefs,
    /// Hidden locals made for references' indices so far (their names' numbers).
    ref_count: u32,
    /// The names of every struct's bit-fields (`structs::bitfields`): a member spelled so may
    /// be one.
    bitfield_names: std::collections::HashSet<String>,
    /// The member expression being lowered as a bit-field's place, not its read.
    bf_skip: Option<crate::ast::NodeId>,
    /// `TempStorage` variables and the collective each serves.
    cub_storage: cub::CubNames,
    /// Functions with `thread_group` parameters: the user's argument positions of those
    /// (`cg_any`).
    any_group_fns: HashMap<String, Vec<usize>>,
    /// Device allocations host code made so far (`cudaMalloc`, `hipMalloc`, …), numbering
    /// each ([`crate::ast::HostArg::alloc_id`]).
    alloc_serial: u32,
    /// The `thread_group` positions of the parameter list read last.
    any_slots: Vec<usize>,
    /// Plain functions with tile parameters: their user parameter count and the positions
    /// whose tile's `meta_group_rank`/`meta_group_size` a call appends (`cg_tile_meta`).
    tile_meta_fns: HashMap<String, cg_tile_meta::TileFn>,
    /// Template instances whose calls appended tile pairs: the positions (`cg_tile_meta`).
    tile_meta_expect: HashMap<String, Vec<usize>>,
    /// The tile parameters of the parameter list read last (`cg_tile_meta`).
    tile_slots_now: cg_tile_meta::TileSlots,
    /// The user's parameter count of the parameter list read last.
    param_count_now: usize,
    /// The mangled name of the function template instance this parser reads, if any.
    instance_now: Option<String>,
    /// Block collectives' `TempStorage` used since the last `__syncthreads()` in this
    /// function, with the use's position (`cub`: the reuse warning).
    cub_pending: HashMap<String, Span>,
    /// The source's enumerations ([`enum_targs`]).
    enums: enum_targs::Enums,
    /// The value template parameters bound in the instance read here: each one's
    /// enumeration, `None` for an integer one ([`enum_targs`]).
    value_param_enum: HashMap<String, Option<String>>,
    /// The kinds of the explicit template arguments of the call being resolved
    /// ([`enum_targs`]).
    call_targ_kinds: Vec<enum_targs::TargKind>,
    /// A `TempStorage` declaration without `__shared__` is being read ([`cub_local`]).
    cub_local: bool,
}

impl<'a> Parser<'a> {
    /// A parser at the start of `toks` (which must end in [`Tok::Eof`]).
    fn new(toks: &'a [Token], comments: &'a [Comment], max_depth: u32) -> Self {
        Parser {
            toks,
            comments,
            pos: 0,
            aliases: HashMap::new(),
            ptr_aliases: HashMap::new(),
            diags: Vec::new(),
            depth: 0,
            conditional: 0,
            max_depth,
            elision_noted: false,
            suggestions: 0,
            consts: HashMap::new(),
            constexpr_fns: HashMap::new(),
            no_gt: false,
            gt_owed: None,
            fn_types: HashMap::new(),
            auto_ret: None,
            eager: 0,
            class_nest: 0,
            destructibles: Vec::new(),
            jump_bases: Vec::new(),
            fold_stopped: std::cell::Cell::new(false),
            fold_host: std::cell::Cell::new(false),
            launches: Vec::new(),
            host_fns: std::collections::HashMap::new(),
            host_fn_keys: std::collections::HashMap::new(),
            host_tmpl_values: std::collections::HashSet::new(),
            host_slice_at: None,
            superseded: std::collections::HashSet::new(),
            launch_diags: Vec::new(),
            main_calls: host_calls::MainCalls::default(),
            unrolled: 0,
            unroll_depth: 0,
            undecided: Vec::new(),
            readings: 0,
            host_call_depth: 0,
            pending_calls: Vec::new(),
            call_written: Vec::new(),
            deferred_main: None,
            refused_bodies: Vec::new(),
            refused_aliases: std::collections::HashMap::new(),
            typed_suites: std::collections::HashMap::new(),
            host_calls_read: 0,
            host_call_budget_said: false,
            want_parts: None,
            bind_parts: None,
            vf_calls: Vec::new(),
            symbol_copies: Vec::new(),
            readbacks: Vec::new(),
            const_structs: HashMap::new(),
            q_device: false,
            q_host: false,
            overloads: HashMap::new(),
            fn_sets: HashMap::new(),
            launch_arg_types: Vec::new(),
            host_expr: false,
            host_elems: HashMap::new(),
            host_scalars: HashMap::new(),
            file_scope_vars: std::collections::HashSet::new(),
            host_struct_of: HashMap::new(),
            struct_leaves: Vec::new(),
            enumerators: Vec::new(),
            leaf_pending: Vec::new(),
            explicit_instances: Vec::new(),
            templates: HashMap::new(),
            method_templates: HashMap::new(),
            instances: Vec::new(),
            pending: Vec::new(),
            // A file-level scope: a snippet's variables live here.
            scopes: vec![HashMap::new()],
            array_dims: Vec::new(),
            closure_dims: HashMap::new(),
            param_dims: Vec::new(),
            param_bounds: Vec::new(),
            value_refs: HashSet::new(),
            const_names: HashSet::new(),
            struct_decl_const: false,
            param_consts: HashSet::new(),
            groups: HashMap::new(),
            made_groups: HashMap::new(),
            made_meta: HashMap::new(),
            group_alias: HashMap::new(),
            wave: 32,
            arch_sm: 0,
            hip: false,
            cuda: false,
            ascend: false,
            simt_using: false,
            std_using: false,
            sync64: false,
            brackets: std::cell::OnceCell::new(),
            instance_tokens: u64::MAX,
            structs: HashMap::new(),
            class_templates: HashMap::new(),
            partial_specs: HashMap::new(),
            param_defaults: Vec::new(),
            struct_alias: HashMap::new(),
            svars: HashMap::new(),
            local_struct_ptrs: std::collections::HashSet::new(),
            strided_vars: HashMap::new(),
            default_init: false,
            ctor_types: HashMap::new(),
            pending_svars: Vec::new(),
            param_copies: Vec::new(),
            fn_ret: HashMap::new(),
            fn_ptr_types: std::collections::HashSet::new(),
            fn_ptr_sigs: HashMap::new(),
            entry_call: false,
            fn_ptr_vars: HashMap::new(),
            fn_ptr_tables: std::collections::HashSet::new(),
            global_vars: std::collections::HashSet::new(),
            void_params: HashMap::new(),
            void_now: Vec::new(),
            empty_params_now: Vec::new(),
            pre: Vec::new(),
            syn: 0,
            value_unused: false,
            self_struct: None,
            declare_only: false,
            func_now: None,
            ret_struct: None,
            ret_this: false,
            ret_addr: false,
            member_ops: HashMap::new(),
            ret_val: None,
            lambda: None,
            extra_fns: Vec::new(),
            cub: HashMap::new(),
            cub_storage_types: HashMap::new(),
            cub_objects: HashMap::new(),
            cub_object_storage: None,
            cub_ops: HashMap::new(),
            lib_objects: HashMap::new(),
            lib_aliases: HashMap::new(),
            atomic_refs: Default::default(),
            cub_removed_warned: Default::default(),
            struct_aligns: HashMap::new(),
            struct_packed: std::collections::HashSet::new(),
            local_refs: HashMap::new(),
            ref_count: 0,
            bitfield_names: std::collections::HashSet::new(),
            bf_skip: None,
            cub_union_types: HashMap::new(),
            cub_storage: HashMap::new(),
            any_group_fns: HashMap::new(),
            alloc_serial: 0,
            any_slots: Vec::new(),
            tile_meta_fns: HashMap::new(),
            tile_meta_expect: HashMap::new(),
            tile_slots_now: Vec::new(),
            param_count_now: 0,
            instance_now: None,
            cub_pending: HashMap::new(),
            enums: enum_targs::Enums::default(),
            value_param_enum: HashMap::new(),
            call_targ_kinds: Vec::new(),
            cub_local: false,
        }
    }
}

/// Most unknown type names that get a closest-name suggestion.
const MAX_SUGGESTIONS: u32 = 64;

type PResult<T> = Result<T, KernelError>;

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev.last().copied().unwrap_or(0)
}

impl<'a> Parser<'a> {
    fn tok(&self) -> &Token {
        // The token list always ends in Eof, and `bump` never passes it.
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn peek(&self, k: usize) -> &Tok {
        &self.toks[(self.pos + k).min(self.toks.len() - 1)].tok
    }

    fn span(&self) -> Span {
        let t = self.tok();
        Span {
            line: t.line,
            col: t.col,
        }
    }

    fn bump(&mut self) -> Token {
        let t = self.tok().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn last_end(&self) -> Span {
        let t = &self.toks[self.pos.saturating_sub(1).min(self.toks.len() - 1)];
        Span {
            line: t.end.0,
            col: t.end.1,
        }
    }

    /// Whether the next token is the punctuator `p`. After the first half of a `>>` closed a
    /// template argument list, its second half is owed to the enclosing list
    /// (`close_angle`, [temp.names]/3): until that list takes it, the next token is
    /// that `>`, not what follows, so `A<B<C>>::value` does not read `::value` as `B<C>`'s.
    fn is_punct(&self, p: &str) -> bool {
        if self.gt_owed == Some(self.pos) {
            return false;
        }
        matches!(self.peek(0), Tok::Punct(q) if *q == p)
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(0), Tok::Ident(q) if q == w)
    }

    fn eat(&mut self, p: &str) -> bool {
        if self.is_punct(p) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn describe(t: &Tok) -> String {
        match t {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Int { value, .. } => format!("`{value}`"),
            Tok::Float { value, .. } => format!("`{value}`"),
            Tok::Str(_) => "a string".into(),
            Tok::Char(_) | Tok::PrefixedChar { .. } => "a character".into(),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::Eof => "the end of the input".into(),
        }
    }

    fn err<T>(&self, what: &str) -> PResult<T> {
        let t = self.tok();
        Err(KernelError::new(
            t.line,
            t.col,
            format!("expected {what}, found {}", Self::describe(&t.tok)),
        ))
    }

    fn expect_punct(&mut self, p: &str) -> PResult<()> {
        if self.eat(p) {
            Ok(())
        } else {
            self.err(&format!("`{p}`"))
        }
    }

    fn ident(&mut self) -> PResult<String> {
        match self.peek(0).clone() {
            Tok::Ident(s) => {
                self.bump();
                Ok(s)
            }
            _ => self.err("a name"),
        }
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > self.max_depth {
            let s = self.span();
            return Err(KernelError::new(
                s.line,
                s.col,
                format!(
                    "nesting deeper than {} levels; raise it with --max-depth (at most {DEPTH_CEILING})",
                    self.max_depth
                ),
            ));
        }
        Ok(())
    }

    fn diag(&mut self, span: Span, level: Level, message: impl Into<String>, rule: &str) {
        self.diags
            .push(KernelDiagnostic::new(span, level, message, rule));
    }

    /// Whether `w` names a type here: a type word or alias that no variable in scope hides
    /// ([`types::KEYWORD_TYPES`]: `int half = 2;` makes `half` the variable in its scope).
    pub(super) fn is_type_word(&self, w: &str) -> bool {
        if !types::KEYWORD_TYPES.contains(&w) && self.var_type(w).is_some() {
            return false;
        }
        TYPE_WORDS.contains(&w)
            || self.aliases.contains_key(w)
            || maca_vector(w).is_some()
            || cuda_vector(w).is_some()
    }

    /// Whether a declaration (or a parameter, or a cast's type) starts here.
    fn type_starts(&self) -> bool {
        match self.peek(0) {
            Tok::Ident(w) => {
                QUALIFIERS.contains(&w.as_str())
                    || self.is_type_word(w)
                    || self.is_struct_name(w)
                    || self.cub_kv_starts()
                    || self.trait_type_starts()
                    || self.member_type_starts()
                    || (matches!(self.peek(1), Tok::Ident(n) if !QUALIFIERS.contains(&n.as_str())))
            }
            _ => false,
        }
    }
}

/// A constant integer expression (literals, unary minus, + - * << |), for sizes and bounds.
pub fn const_int(e: &Expr) -> Option<i128> {
    match &e.kind {
        ExprKind::Int { value, .. } => Some(*value as i128),
        ExprKind::Unary(UnOp::Neg, x) => const_int(x).map(|v| -v),
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (const_int(a)?, const_int(b)?);
            match op {
                BinOp::Add => a.checked_add(b),
                BinOp::Sub => a.checked_sub(b),
                BinOp::Mul => a.checked_mul(b),
                BinOp::Shl if (0..64).contains(&b) => a.checked_mul(1i128 << b),
                BinOp::Or => Some(a | b),
                _ => None,
            }
        }
        // Casts (a template value parameter is bound as one), division, comparisons, `?:`.
        _ => const_eval::const_eval(e, &HashMap::new()).and_then(|v| v.int()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence_is_c() {
        let p = parse("int x = 1 + 2 * 3 << 1 == 14 && 1;").unwrap();
        let f = &p.program.functions[0];
        assert!(f.snippet);
        let StmtKind::Block(b) = &f.body.kind else {
            panic!("block")
        };
        let StmtKind::Decl(_, d) = &b[0].kind else {
            panic!("decl")
        };
        let init = d[0].init.as_ref().unwrap();
        // && at the top, == under it, << under that.
        let ExprKind::Logical(true, l, _) = &init.kind else {
            panic!("{init:?}")
        };
        let ExprKind::Binary(BinOp::Eq, l, _) = &l.kind else {
            panic!("eq")
        };
        assert!(matches!(l.kind, ExprKind::Binary(BinOp::Shl, _, _)));
    }

    #[test]
    fn errors_have_line_and_column() {
        let e = parse("__global__ void k(int* d) {\n  int x = ;\n}").unwrap_err();
        assert_eq!((e.line, e.col), (2, 11));
        assert!(
            e.message.contains("expected an expression"),
            "{}",
            e.message
        );
    }

    #[test]
    fn seed_typo_is_reported_with_suggestion() {
        // An unknown type inside a function is an error of the runs that compile the function
        // (`Program::type_errors`); the parse reports it at its line, naming the declared type
        // it resembles.
        let src = "using v2f16 = __NATIVE_VECTOR__(2, _Float16);\n__global__ void test_mxc_pk_fma_f16(v2f16 *d, v2f16 *a, v2f16 *b, f2f16 *c) {\n  d[0] = a[0];\n}";
        let p = parse(src).unwrap();
        let d = p
            .diagnostics
            .iter()
            .find(|d| d.message.contains("f2f16"))
            .unwrap();
        assert_eq!(d.line, 2);
        assert!(d.message.contains("v2f16"));
        assert_eq!(p.program.type_errors.len(), 1);
        assert_eq!(p.program.type_errors[0].0, "test_mxc_pk_fma_f16");
    }

    #[test]
    fn deep_nesting_is_an_error() {
        // The parser recurses once per level up to the depth budget; a debug build's frames are
        // about ten times a release build's, so the test runs where the CLI runs the front end:
        // on a thread with room for the budget (the hostile suite checks release builds on 1 MiB).
        let src = format!("int x = {}1{};", "(".repeat(5000), ")".repeat(5000));
        let refused = std::thread::Builder::new()
            .stack_size(16 << 20)
            .spawn(move || parse(&src).is_err())
            .expect("a thread")
            .join()
            .expect("no stack overflow");
        assert!(refused);
    }
}
