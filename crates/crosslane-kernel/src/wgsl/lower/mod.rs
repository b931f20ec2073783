//! naga's IR of a compute entry point lowered to the kernel engine's program form
//! ([`crate::ast`]), so WGSL runs on the same engine as C kernels: one program form,
//! not a second interpreter. Every statement and expression keeps its WGSL span.
//!
//! The mapping (WGSL spec section → engine form):
//! - built-in values (§ Built-in Values): `local_invocation_id` → `threadIdx`, `workgroup_id` →
//!   `blockIdx`, `num_workgroups` → `gridDim`, `global_invocation_id` → `blockIdx * blockDim +
//!   threadIdx`, `local_invocation_index` → the linearized `threadIdx`; `subgroup_invocation_id`
//!   → the lane, `subgroup_size` → the warp size, `subgroup_id` → index / size,
//!   `num_subgroups` → ⌈threads / size⌉. The spec leaves the index → subgroup mapping to the
//!   implementation; the engine's warps are the linear mapping (subgroup = index / size, lane =
//!   index % size) every known GPU uses for 1-D workgroups.
//! - `var<storage>` / `var<uniform>` → a kernel pointer parameter named by the variable (a
//!   scalar one is a one-cell buffer); `var<workgroup>` → `__shared__`; `var<private>` and
//!   function variables → per-invocation locals, zero-initialized as WGSL requires.
//! - `workgroupBarrier`/`storageBarrier` → the block barrier; atomics → the engine's atomics.
//! - subgroup and quad built-ins → calls of the WGSL registry ops by their names, the same
//!   entries the operation view runs.
//! - `let` bindings and built-in results become named locals (the trace shows the user's names).
//!
//! - helper functions (WGSL § Function Declaration) → device functions, which the engine
//!   inlines at each call; the module-scope variables sit in the entry's outer block, which an
//!   inlined helper sees (`Compiler::module_scopes`).
//!
//! - vectors (WGSL § Vector Expressions, component-wise), matrices and structs → one scalar
//!   per data cell: a vector local `v` is the locals `v.x`, `v.y`, …; a matrix or struct value
//!   is held at the cells of its memory layout (`matrix.rs`), padding never held. Buffers and
//!   workgroup variables are flat cells laid out as WGSL lays out their bytes (WGSL §
//!   Alignment and Size): vectors by component, matrices by column (a column aligned as a
//!   `vecR`), structs and arrays nested to any depth, a struct ending in a runtime-sized array
//!   (`types::runtime_tail`); one cell type per buffer (a struct mixing 32-bit types is `u32`
//!   bits, converted at each access; one mixing `f16` with 4-byte scalars is 2-byte cells,
//!   `types::HALF_WORDS`, each member read and written through a view of its type).
//!   `subgroupBallot`'s vec4 result stays a u64.
//!
//! - pointer parameters → reference parameters, one per data cell of the pointee, or (into
//!   storage, uniform or workgroup memory, or to an array) a pointer to the first cell.
//!
//! `switch` becomes an if/else chain. A function or private struct mixing `f16` with 4-byte
//! scalars is held by cells (`types::held_mixed_struct`); a private array of them, a 4-byte
//! vector beside `f16` members and an array inside a function-space struct indexed at run time
//! are refused with a message naming them.

use std::collections::{HashMap, HashSet};

use naga::{
    AddressSpace, ArraySize, AtomicFunction, BinaryOperator, BuiltIn, CollectiveOperation,
    Expression, GatherMode, Handle, Literal, MathFunction, ScalarKind, Statement,
    SubgroupOperation, TypeInner, UnaryOperator,
};

use super::naga::NagaShader;
use super::walk::find_statement;
use crate::ast::{self, Declarator, Expr, ExprKind, NodeId, Param, Stmt, StmtKind, Storage};
use crate::types::{BinOp, Scalar, Ty, UnOp, ValTy};
use crate::KernelError;

mod ballot;
mod build;
mod expressions;
mod math;
mod matrix;
mod names;
mod overrides;
mod places;
mod private;
mod ptr_member;
mod statements;
mod switch;
mod types;

use self::build::{bin, cast, depth_err, ex, int_lit, literal, stmt, zero};
use self::types::{
    comp_name, elem_of, expr_word, scalar_of, struct_layout, type_word, vec_comps_in,
};
pub use self::types::{components, runtime_tail};

/// A buffer binding of the shader: a `var<storage>` or `var<uniform>` at `@group`/`@binding`.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Binding {
    /// The variable's name (the kernel parameter's).
    pub name: String,
    /// `@group`.
    pub group: u32,
    /// `@binding`.
    pub binding: u32,
    /// `storage` (`read` or `read_write`) or `uniform`.
    pub space: String,
    /// Whether the shader may write it.
    pub writable: bool,
    /// The element type.
    pub elem: ValTy,
    /// The WGSL element type as written by the type (`u32`, `f16`, `atomic<u32>`).
    pub wgsl_elem: String,
    /// Fixed length in cells (`array<T, N>`: N; a scalar: 1; a vector's components count one
    /// cell each, in order); `None` for a runtime-sized array.
    pub fixed_len: Option<usize>,
    /// Cells per element: a `vecN` element's N components, else 1; a struct's or array's
    /// stride in cells (padding included); for a struct ending in a runtime-sized array,
    /// that array's stride.
    pub components: u32,
    /// Cells before the runtime-sized array a struct buffer ends with (its other members,
    /// padding included); 0 otherwise.
    pub head: u32,
    /// Which cells are padding (WGSL § Alignment and Size): never read or written by the
    /// shader, shown as padding rather than values.
    pub padding: Padding,
    /// Whether the entry point (or a helper it calls) uses the variable: a device pipeline
    /// with an automatic layout binds only those.
    pub used: bool,
}

/// The padding cells of a buffer: `head` (absolute cell indices among the first
/// [`Binding::head`] cells, or among a fixed-size buffer's cells) and `element` (offsets
/// within each element of [`Binding::components`] cells after the head, repeating).
/// It also names the cells of a buffer of `u32` bits (a struct mixing 32-bit types) that
/// hold an `f32` or `i32` member, and every member cell of a buffer of 2-byte cells (a struct
/// mixing `f16` with 4-byte scalars), in the same two parts, so a view shows them as the
/// member's values.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Padding {
    /// Padding cells of the head (or of the whole buffer when it has no repeating part).
    pub head: Vec<u32>,
    /// Padding offsets within each repeating element.
    pub element: Vec<u32>,
    /// Cells of the head holding a member of another type than the cells': (cell, `"f32"`,
    /// `"i32"`, `"u32"`, `"f16"` or [`HIGH_HALF`]).
    pub retyped_head: Vec<(u32, String)>,
    /// Offsets within each element holding such a member.
    pub retyped_element: Vec<(u32, String)>,
}

impl Binding {
    /// Whether cell `c` of this buffer is padding.
    pub fn is_padding(&self, c: usize) -> bool {
        let head = self.head as usize;
        if c < head || (self.padding.element.is_empty() && head == 0) {
            return self.padding.head.binary_search(&(c as u32)).is_ok();
        }
        let per = self.components.max(1) as usize;
        let off = ((c - head) % per) as u32;
        self.padding.element.binary_search(&off).is_ok()
    }

    /// The WGSL type (`"f32"`, `"i32"`) of the member cell `c` holds when it is not the
    /// buffer's cell type (a struct mixing 32-bit types is held as `u32` bits). In 2-byte
    /// cells (a struct mixing `f16` with 4-byte scalars): `"f16"`, the 4-byte member's type at
    /// its first cell, [`HIGH_HALF`] at its second.
    pub fn member_type(&self, c: usize) -> Option<&str> {
        let head = self.head as usize;
        let (list, at) = if c < head || (self.padding.retyped_element.is_empty() && head == 0) {
            (&self.padding.retyped_head, c as u32)
        } else {
            let per = self.components.max(1) as usize;
            (&self.padding.retyped_element, ((c - head) % per) as u32)
        };
        list.binary_search_by_key(&at, |x| x.0)
            .ok()
            .map(|k| list[k].1.as_str())
    }
}

/// The padding of a buffer of type `inner` (see [`Padding`]); none past
/// [`PADDING_SCAN`] cells of one element.
fn padding_of(module: &naga::Module, inner: &TypeInner) -> Padding {
    let w = types::cell_width(module, inner);
    marks(module, inner, types::cell_scalar(module, inner).ok(), w)
}

/// [`padding_of`] with the buffer's cell type and width given (a runtime tail's elements are
/// cells of the whole struct's type).
fn marks(module: &naga::Module, inner: &TypeInner, cell: Option<naga::Scalar>, w: u32) -> Padding {
    // The padding cells of `t` (its first `size` cells), and its cells of another type.
    let holes = |t: &TypeInner, size: u32| -> (Vec<u32>, Vec<(u32, String)>) {
        if size as usize > PADDING_SCAN {
            return (Vec::new(), Vec::new());
        }
        match types::real_cells(module, t, w, PADDING_SCAN) {
            Ok(cells) => {
                let mut real = vec![false; size as usize];
                let mut retyped = Vec::new();
                for (c, s) in cells {
                    if let Some(r) = real.get_mut(c as usize) {
                        *r = true;
                    }
                    let name = match s.kind {
                        ScalarKind::Float => "f32",
                        ScalarKind::Sint => "i32",
                        _ => "u32",
                    };
                    if c < size
                        && cell
                            .is_some_and(|k| k != s && k.width == s.width && k != types::HALF_WORDS)
                    {
                        retyped.push((c, name.to_string()));
                    }
                    // 2-byte cells of structs mixing `f16` with 4-byte scalars
                    // (`types::HALF_WORDS`): an `f16` cell, and a 4-byte member's two cells
                    // (its value shown at the first, the second marked as its high half).
                    if c < size && cell == Some(types::HALF_WORDS) {
                        if s == naga::Scalar::F16 {
                            retyped.push((c, "f16".to_string()));
                        } else if s.width == 4 {
                            retyped.push((c, name.to_string()));
                            if let Some(r) = real.get_mut(c as usize + 1) {
                                *r = true;
                                retyped.push((c + 1, HIGH_HALF.to_string()));
                            }
                        }
                    }
                }
                ((0..size).filter(|&c| !real[c as usize]).collect(), retyped)
            }
            Err(_) => (Vec::new(), Vec::new()),
        }
    };
    let whole = |size: u32| {
        let (head, retyped_head) = holes(inner, size);
        Padding {
            head,
            retyped_head,
            ..Padding::default()
        }
    };
    match inner {
        TypeInner::Array { base, stride, .. } => {
            let (element, retyped_element) = holes(&module.types[*base].inner, stride / w);
            Padding {
                element,
                retyped_element,
                ..Padding::default()
            }
        }
        TypeInner::Struct { members, span } => match types::runtime_tail(module, inner) {
            Some((head, _)) => {
                let (head, retyped_head) = holes(inner, head);
                let tail = members
                    .last()
                    .map(|m| marks(module, &module.types[m.ty].inner, cell, w))
                    .unwrap_or_default();
                Padding {
                    head,
                    retyped_head,
                    ..tail
                }
            }
            None => whole(span / w),
        },
        TypeInner::Matrix { .. } => whole(types::layout_size(module, inner)),
        _ => Padding::default(),
    }
}

/// [`Binding::member_type`] of the second cell of a 4-byte member in 2-byte cells (a buffer
/// of structs mixing `f16` with 4-byte scalars): the member's high 16 bits, shown with the
/// member's value at the cell before.
pub const HIGH_HALF: &str = "high half";

/// The most cells of one buffer element (or fixed-size struct) whose padding is worked out.
const PADDING_SCAN: usize = 1 << 16;

/// The lowered entry point.
pub struct Lowered {
    /// The program (one entry function).
    pub program: ast::Program,
    /// `@workgroup_size`.
    pub workgroup_size: [u32; 3],
    /// The buffers, in `@group`, `@binding` order.
    pub bindings: Vec<Binding>,
    /// The entry point's name.
    pub entry: String,
}

/// The compute entry points of a module, by name.
pub fn compute_entries(module: &naga::Module) -> Vec<String> {
    module
        .entry_points
        .iter()
        .filter(|e| e.stage == naga::ShaderStage::Compute)
        .map(|e| e.name.clone())
        .collect()
}

/// Lowers the compute entry point `entry` (default: the first) of `shader`.
///
/// `lens` gives each runtime-sized buffer's length (for `arrayLength`); `max_depth` bounds the
/// expression trees built (the engine's nesting budget); `lanes` is the subgroup size.
///
/// # Errors
/// [`KernelError`] at the construct the engine cannot run, naming it.
pub fn lower(
    shader: &NagaShader,
    entry: Option<&str>,
    lens: &HashMap<String, usize>,
    max_depth: u32,
    lanes: usize,
) -> Result<Lowered, KernelError> {
    let module = &shader.module;
    let computes: Vec<usize> = (0..module.entry_points.len())
        .filter(|&k| module.entry_points[k].stage == naga::ShaderStage::Compute)
        .collect();
    let idx = match entry {
        Some(name) => computes
            .iter()
            .copied()
            .find(|&k| module.entry_points[k].name == name)
            .ok_or_else(|| {
                KernelError::new(
                    1,
                    1,
                    format!(
                        "no compute entry point `{name}`; the shader has: {}",
                        compute_entries(module).join(", ")
                    ),
                )
            })?,
        None => *computes
            .first()
            .ok_or_else(|| KernelError::new(1, 1, "no `@compute` entry point in the shader"))?,
    };
    let ep = &module.entry_points[idx];
    let fn_at = shader
        .fn_offsets
        .get(&ep.name)
        .map_or((1, 1), |&o| shader.lines.line_col(o));
    let fn_span = ast::Span {
        line: fn_at.0,
        col: fn_at.1,
    };

    let mut bindings = Vec::new();
    let mut params = Vec::new();
    let mut prelude = Vec::new();
    let mut zeroing = Vec::new();
    let mut low = Lower {
        shader,
        func: &ep.function,
        finfo: shader.info.get_entry_point(idx),
        entry_args: true,
        baked: HashMap::new(),
        ballots: HashSet::new(),
        used: HashSet::new(),
        bumped: HashMap::new(),
        max_depth,
        lanes,
        loops: Vec::new(),
        lens,
        vec_ret: None,
        local_names: names::local_names(module, &ep.function),
    };
    for (h, g) in module.global_variables.iter() {
        let name = g
            .name
            .clone()
            .unwrap_or_else(|| format!("global{}", h.index()));
        let at = low.span_of(module.global_variables.get_span(h), fn_span);
        let (elem, mut count, wgsl_elem) = if g.space == AddressSpace::Private {
            elem_of(module, g.ty)
        } else {
            types::memory_elem_of(module, g.ty)
        }
        .map_err(|m| at_err(at, &name, m))?;
        if g.space != AddressSpace::Private {
            // Held by cells only in a variable of the invocation's own (`held_mixed_struct`).
            types::cell_scalar(module, &module.types[g.ty].inner)
                .map_err(|m| at_err(at, &name, m))?;
        } else if elem.scalar == Scalar::U16 && !matches!(count, Count::Scalar) {
            // An array of structs mixing `f16` with 4-byte scalars: held in 2-byte cells in
            // storage, uniform, workgroup and function memory only. One such struct (arrays
            // and nested structs in it included) is held one local per data cell, as a
            // function `var` is (`private_var`).
            return Err(at_err(
                at,
                &name,
                "a private array of structs mixing `f16` with 4-byte scalars is not emulated \
                 yet (a private struct of them is, and so is such an array as a function `var` \
                 or in workgroup or storage memory): declare it inside the function",
            ));
        }
        if let TypeInner::Array {
            size: ArraySize::Pending(o),
            ..
        } = module.types[g.ty].inner
        {
            // A workgroup array sized by an override: its value at pipeline creation.
            let n = shader.override_values.count_of(o).ok_or_else(|| {
                at_err(
                    at,
                    &name,
                    "the array's size is an override expression the emulator cannot work out \
                     (set the overrides it names with --override NAME=VALUE)",
                )
            })?;
            if n == 0 {
                // WGSL spec, Array Types: an override-expression element count must be
                // positive; otherwise pipeline creation fails.
                return Err(at_err(
                    at,
                    &name,
                    "the array's size is 0: an override-sized array needs at least one \
                     element (a pipeline-creation error)",
                ));
            }
            count = Count::Fixed(n as usize);
        }
        let comps = components(module, g.ty);
        // A vector variable or array of vectors is held flat, one cell per component.
        let cells = |c: Count| match c {
            Count::Scalar if comps > 1 => Count::Fixed(comps as usize),
            Count::Fixed(n) => Count::Fixed(n.saturating_mul(comps as usize)),
            other => other,
        };
        match g.space {
            // `var<immediate>` (WGSL spec, Address Spaces: immediate data, set by the API
            // before the dispatch and read-only in the shader) is held as a uniform buffer
            // without a binding, filled as any buffer (`--buffer NAME=…`).
            AddressSpace::Storage { .. } | AddressSpace::Uniform | AddressSpace::Immediate => {
                let rb = g.binding.as_ref();
                let (space, writable) = match g.space {
                    AddressSpace::Storage { access } => (
                        if access.contains(naga::StorageAccess::STORE) {
                            "storage, read_write"
                        } else {
                            "storage, read"
                        },
                        access.contains(naga::StorageAccess::STORE),
                    ),
                    AddressSpace::Immediate => ("immediate", false),
                    _ => ("uniform", false),
                };
                // A struct ending in a runtime-sized array: its length comes with the launch.
                let tail = match &module.types[g.ty].inner {
                    t @ TypeInner::Struct { .. } => types::runtime_tail(module, t),
                    _ => None,
                };
                bindings.push(Binding {
                    name: name.clone(),
                    group: rb.map_or(0, |b| b.group),
                    binding: rb.map_or(0, |b| b.binding),
                    space: space.to_string(),
                    writable,
                    elem,
                    wgsl_elem,
                    fixed_len: match (cells(count), tail) {
                        (_, Some(_)) => None,
                        (Count::Scalar, _) => Some(1),
                        (Count::Fixed(n), _) => Some(n),
                        (Count::Runtime, _) => None,
                    },
                    components: tail.map_or(comps, |t| t.1),
                    head: tail.map_or(0, |t| t.0),
                    padding: padding_of(module, &module.types[g.ty].inner),
                    used: !shader.info.get_entry_point(idx)[h].is_empty(),
                });
                params.push(Param {
                    name: name.clone(),
                    ty: Ty::Ptr(elem),
                    // A scalar is a one-cell buffer, read and written as `name[0]` (so an
                    // atomic can take its address).
                    reference: false,
                    const_ref: false,
                    span: low.uniq(at),
                });
            }
            // One the entry point never uses (nor the helpers it calls) is not declared: its
            // initializer may name an override the pipeline leaves unset, which is an error
            // only when used (WGSL spec, Override Declarations).
            AddressSpace::Private if shader.info.get_entry_point(idx)[h].is_empty() => {}
            AddressSpace::Private => {
                // WGSL § 7.3 var Declarations: per invocation, its initializer's value, else
                // the zero value (`private.rs`).
                let decls = low.private_var(&name, g.ty, g.init, elem, count, at)?;
                prelude.extend(decls);
            }
            AddressSpace::WorkGroup => {
                // WGSL § var Declarations: a workgroup variable has no initializer; it
                // starts as the zero value, stored by `zero_workgroup`.
                let count = cells(count);
                let array = match count {
                    Count::Fixed(n) => int_lit(n as u64, at),
                    // A workgroup scalar is a one-cell array (`name[0]`), so an atomic can take
                    // its address.
                    Count::Scalar => int_lit(1, at),
                    Count::Runtime => return Err(at_err(at, &name, "a runtime-sized array here")),
                };
                zeroing.push((name.clone(), elem, count, at));
                prelude.push(stmt(
                    StmtKind::Decl(
                        Storage {
                            shared: true,
                            external: false,
                        },
                        vec![Declarator {
                            name,
                            ty: Ty::Ptr(elem),
                            array: Some(Some(array)),
                            init: None,
                            span: low.uniq(at),
                            id: NodeId::fresh(),
                        }],
                    ),
                    at,
                ));
            }
            _ => {
                return Err(at_err(
                    at,
                    &name,
                    "this address space (textures, samplers) is not emulated",
                ))
            }
        }
    }
    bindings.sort_by_key(|b| (b.group, b.binding));
    if !zeroing.is_empty() {
        let z = low.zero_workgroup(&zeroing, fn_span)?;
        prelude.extend(z);
    }
    let body = low.function_body(fn_span, prelude)?;
    let mut functions = low.helpers(fn_span)?;
    let function = ast::Function {
        name: ep.name.clone(),
        entry: true,
        ret: Ty::Void,
        params,
        body,
        launch_bounds: None,
        vf_call_dim: None,
        span: fn_span,
        snippet: false,
        defaults: Vec::new(),
        empty_params: Vec::new(),
    };
    Ok(Lowered {
        program: ast::Program {
            functions: {
                functions.push(function);
                functions
            },
            aliases: Vec::new(),
            // A shader's dispatch comes from `--workgroups`, never from host code.
            launches: Vec::new(),
            constants: Vec::new(),
            kernel_scopes: Vec::new(),
            struct_leaves: Vec::new(),
            element_arrays: Vec::new(),
            library_lines: Vec::new(),
            readbacks: Vec::new(),
            type_errors: Vec::new(),
            refused_kernels: Vec::new(),
            enumerators: Vec::new(),
        },
        workgroup_size: ep.workgroup_size,
        bindings,
        entry: ep.name.clone(),
    })
}

/// The most cells a matrix or struct value held in locals may have (one local per cell).
const VALUE_CELLS: usize = 1024;

#[derive(Clone, Copy)]
enum Count {
    Scalar,
    Fixed(usize),
    Runtime,
}

fn at_err(at: ast::Span, name: &str, m: impl std::fmt::Display) -> KernelError {
    KernelError::new(at.line, at.col, format!("`{name}`: {m}"))
}

struct LoopCx {
    continuing: Vec<Stmt>,
    /// A `switch` rather than a loop: `break` ends the case (WGSL § switch), `continue` belongs
    /// to the loop around it.
    switch: bool,
    /// A switch lowered inside a `do { … } while (false)`, so a `break` before the end of a
    /// case leaves it.
    wrapped: bool,
}

struct Lower<'a> {
    shader: &'a NagaShader,
    func: &'a naga::Function,
    finfo: &'a naga::valid::FunctionInfo,
    entry_args: bool,
    /// Expressions held in a named local (a `let`, a built-in's result): the local's name.
    baked: HashMap<Handle<Expression>, String>,
    /// Expressions that are `subgroupBallot` results (held as a u64 of components x, y).
    ballots: HashSet<Handle<Expression>>,
    /// Spans already given to an identifier or declarator (the engine resolves names by span).
    used: HashSet<ast::Span>,
    /// The last span [`Lower::uniq`] gave for each wanted span, where its next search starts
    /// (naga gives every use of a local the local's one span: searching from the wanted span
    /// each time made lowering quadratic in the uses).
    bumped: HashMap<ast::Span, ast::Span>,
    max_depth: u32,
    lanes: usize,
    loops: Vec<LoopCx>,
    lens: &'a HashMap<String, usize>,
    /// A helper returning a vector: its size (the result goes out through the reference
    /// parameters `_ret.x`, `_ret.y`, …).
    vec_ret: Option<Vec<(u32, ValTy)>>,
    /// Each function variable's engine name (`names::local_names`: one per declaration).
    local_names: HashMap<Handle<naga::LocalVariable>, String>,
}

impl Lower<'_> {
    fn module(&self) -> &naga::Module {
        &self.shader.module
    }

    fn span_of(&self, s: naga::Span, fallback: ast::Span) -> ast::Span {
        match s.to_range() {
            Some(r) if s.is_defined() => {
                let (line, col) = self.shader.lines.line_col(r.start);
                ast::Span { line, col }
            }
            _ => fallback,
        }
    }

    fn end_of(&self, s: naga::Span, fallback: ast::Span) -> ast::Span {
        match s.to_range() {
            Some(r) if s.is_defined() => {
                let (line, col) = self.shader.lines.line_col(r.end);
                ast::Span { line, col }
            }
            _ => fallback,
        }
    }

    /// A span no other identifier or declarator has (the engine keys names by span); a clash
    /// moves the column right by one.
    fn uniq(&mut self, wanted: ast::Span) -> ast::Span {
        // Every span from `wanted` to the last one given for it is taken (spans are only
        // ever added to `used`), so the search resumes after it.
        let mut s = self.bumped.get(&wanted).copied().unwrap_or(wanted);
        while !self.used.insert(s) {
            s.col = s.col.saturating_add(1);
        }
        self.bumped.insert(wanted, s);
        s
    }

    /// The engine name of local variable `l` (`names::local_names`).
    fn local_name(&self, l: Handle<naga::LocalVariable>) -> String {
        self.local_names
            .get(&l)
            .cloned()
            .unwrap_or_else(|| format!("local{}", l.index()))
    }

    fn ident(&mut self, name: &str, at: ast::Span) -> Expr {
        let s = self.uniq(at);
        ex(ExprKind::Ident(name.to_string()), s)
    }

    fn espan(&self, h: Handle<Expression>, fallback: ast::Span) -> ast::Span {
        self.span_of(self.func.expressions.get_span(h), fallback)
    }

    fn ty_inner(&self, h: Handle<Expression>) -> &TypeInner {
        self.finfo[h].ty.inner_with(&self.module().types)
    }

    /// The size of `h`'s vector type when it is one held by components (not a
    /// `subgroupBallot` result, held as a u64).
    fn vector(&self, h: Handle<Expression>) -> Option<u32> {
        match self.ty_inner(h) {
            TypeInner::Vector { size, .. } if !self.is_ballot_expr(h) => Some(*size as u32),
            _ => None,
        }
    }

    /// The cells a value of `h`'s type is held in, each with its type: a vector's
    /// components, a matrix's or struct's data cells at their layout positions (WGSL §
    /// Alignment and Size; padding cells are never held). `None` for scalars and for the
    /// values held otherwise (a `subgroupBallot` result, `modf`/`frexp` and
    /// `atomicCompareExchangeWeak` results, read through their members).
    fn value_cells(&self, h: Handle<Expression>) -> Option<Vec<(u32, ValTy)>> {
        if self.is_ballot_expr(h)
            || self.is_modf_frexp(h)
            || matches!(self.func.expressions[h], Expression::AtomicResult { .. })
        {
            return None;
        }
        self.type_cells(self.ty_inner(h))
    }

    /// [`Self::value_cells`] of a type.
    fn type_cells(&self, inner: &TypeInner) -> Option<Vec<(u32, ValTy)>> {
        let module = self.module();
        let cells = match inner {
            TypeInner::Vector { .. }
            | TypeInner::Matrix { .. }
            | TypeInner::Struct { .. }
            | TypeInner::Array {
                size: ArraySize::Constant(_),
                ..
            } => {
                let w = types::cell_width(module, inner);
                types::real_cells(module, inner, w, VALUE_CELLS).ok()?
            }
            _ => return None,
        };
        cells
            .into_iter()
            .map(|(c, s)| scalar_of(s).map(|k| (c, ValTy::scalar(k))))
            .collect()
    }

    /// The type of cell `k` of `h` (a component of a vector, a cell of a matrix or struct);
    /// `h`'s own type for a scalar.
    fn cell_ty(
        &self,
        h: Handle<Expression>,
        k: Option<u32>,
        at: ast::Span,
    ) -> Result<ValTy, KernelError> {
        if let (Some(k), Some(cells)) = (k, self.value_cells(h)) {
            if let Some((_, t)) = cells.iter().find(|c| c.0 == k) {
                return Ok(*t);
            }
        }
        self.comp_ty(h, at)
    }

    /// The type of one component of `h` (of `h` itself for a scalar).
    fn comp_ty(&self, h: Handle<Expression>, at: ast::Span) -> Result<ValTy, KernelError> {
        match self.ty_inner(h) {
            TypeInner::Vector { scalar, .. } | TypeInner::Matrix { scalar, .. }
                if !self.is_ballot_expr(h) =>
            {
                scalar_of(*scalar)
                    .map(ValTy::scalar)
                    .ok_or_else(|| KernelError::new(at.line, at.col, "type not emulated"))
            }
            _ => self.scalar_ty(h, at),
        }
    }

    /// The component type `TypeInner::Scalar` of `h`'s type (itself for a scalar).
    fn comp_inner(&self, h: Handle<Expression>) -> TypeInner {
        match self.ty_inner(h) {
            TypeInner::Vector { scalar, .. } | TypeInner::Matrix { scalar, .. } => {
                TypeInner::Scalar(*scalar)
            }
            other => other.clone(),
        }
    }

    /// What a pointer expression points at: (components of the pointee when it is a vector,
    /// components of its elements when it is an array of vectors).
    fn pointee(&self, p: Handle<Expression>) -> (u32, u32) {
        let types = &self.module().types;
        match self.ty_inner(p) {
            TypeInner::Pointer { base, .. } => match &types[*base].inner {
                TypeInner::Array {
                    base: e, stride, ..
                } => (1, types::stride_cells(self.module(), *e, *stride)),
                other => (vec_comps_in(self.module(), other), 1),
            },
            TypeInner::ValuePointer { size: Some(s), .. } => (*s as u32, 1),
            _ => (1, 1),
        }
    }

    /// Each member's first cell when `p` points at a struct.
    fn struct_pointee(&self, p: Handle<Expression>) -> Option<Vec<u32>> {
        match self.ty_inner(p) {
            TypeInner::Pointer { base, .. } => {
                let inner = &self.module().types[*base].inner;
                if matches!(inner, TypeInner::Struct { .. }) {
                    struct_layout(self.module(), inner).ok().map(|l| l.2)
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// The column stride in cells when `p` points at a matrix (see `types::column_stride`).
    fn matrix_pointee(&self, p: Handle<Expression>) -> Option<u32> {
        match self.ty_inner(p) {
            TypeInner::Pointer { base, .. } => match &self.module().types[*base].inner {
                TypeInner::Matrix { rows, scalar, .. } => Some(types::column_stride(
                    *rows,
                    *scalar,
                    u32::from(scalar.width),
                )),
                _ => None,
            },
            _ => None,
        }
    }

    fn scalar_ty(&self, h: Handle<Expression>, at: ast::Span) -> Result<ValTy, KernelError> {
        match self.ty_inner(h) {
            TypeInner::Scalar(s) | TypeInner::Atomic(s) => scalar_of(*s)
                .map(ValTy::scalar)
                .ok_or_else(|| KernelError::new(at.line, at.col, "type not emulated")),
            TypeInner::Vector { .. } if self.ballots.contains(&h) => Ok(ValTy::scalar(Scalar::U64)),
            other => Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "a value of type {} is not emulated yet (scalars, built-in ids and \
                     subgroupBallot's result are)",
                    type_word(other)
                ),
            )),
        }
    }

    /// The module's helper functions (WGSL § Function Declaration) as the engine's device
    /// functions, which it inlines at each call (recursion is a WGSL error, so the inlining
    /// ends). Parameters and results are scalars; each statement keeps its WGSL span. naga's
    /// appended `subgroupElect` helper (a gap of naga 30) is not one: its calls run the
    /// registry's op.
    fn helpers(&mut self, fallback: ast::Span) -> Result<Vec<ast::Function>, KernelError> {
        let shader = self.shader;
        let module = &shader.module;
        let mut out = Vec::new();
        let reached = called_from(module, self.func);
        for (fh, f) in module.functions.iter() {
            if !reached.contains(&fh) {
                // A helper the entry point never calls is not lowered (nor refused).
                continue;
            }
            let name = f
                .name
                .clone()
                .unwrap_or_else(|| format!("function{}", fh.index()));
            if shader.elect_appended && name == "subgroupElect" {
                continue;
            }
            let at = self.span_of(module.functions.get_span(fh), fallback);
            let at = shader.fn_offsets.get(&name).map_or(at, |&o| {
                let (line, col) = shader.lines.line_col(o);
                ast::Span { line, col }
            });
            let mut params = Vec::new();
            for (k, a) in f.arguments.iter().enumerate() {
                let pname = a.name.clone().unwrap_or_else(|| format!("arg{k}"));
                let inner = &module.types[a.ty].inner;
                if let TypeInner::Pointer { base, space } = inner {
                    // WGSL § Pointer Types: a pointer parameter names the caller's memory. Into
                    // storage, uniform or workgroup memory, or to an array: a pointer to the
                    // first cell; else reference parameters, one per cell of the pointee.
                    let pointee = &module.types[*base].inner;
                    if places::pointer_kind(*space, pointee) {
                        let t = types::cell_scalar(module, pointee)
                            .ok()
                            .and_then(scalar_of)
                            .ok_or_else(|| {
                                at_err(
                                    at,
                                    &name,
                                    format!("parameter `{pname}`: a pointer to this type is not emulated"),
                                )
                            })?;
                        params.push(Param {
                            name: pname,
                            ty: Ty::Ptr(ValTy::scalar(t)),
                            reference: false,
                            const_ref: false,
                            span: self.uniq(at),
                        });
                        continue;
                    }
                    let cells = match pointee {
                        TypeInner::Scalar(s) => {
                            scalar_of(*s).map(|t| vec![(None, ValTy::scalar(t))])
                        }
                        other => self
                            .type_cells(other)
                            .map(|c| c.into_iter().map(|(k, t)| (Some(k), t)).collect()),
                    }
                    .ok_or_else(|| {
                        at_err(
                            at,
                            &name,
                            format!("parameter `{pname}`: a pointer to this type is not emulated"),
                        )
                    })?;
                    for (c, t) in cells {
                        params.push(Param {
                            name: c.map_or_else(|| pname.clone(), |c| comp_name(&pname, c)),
                            ty: Ty::Val(t),
                            reference: true,
                            const_ref: false,
                            span: self.uniq(at),
                        });
                    }
                    continue;
                }
                if let Some(cells) = self.type_cells(inner) {
                    // A vector, matrix or struct parameter: one parameter per cell, `v.x`, …
                    for (c, t) in cells {
                        params.push(Param {
                            name: comp_name(&pname, c),
                            ty: Ty::Val(t),
                            reference: false,
                            const_ref: false,
                            span: self.uniq(at),
                        });
                    }
                    continue;
                }
                let t = match inner {
                    TypeInner::Scalar(s) => scalar_of(*s),
                    _ => None,
                }
                .ok_or_else(|| {
                    at_err(
                        at,
                        &name,
                        format!(
                            "parameter `{pname}` of type {} is not emulated yet (scalars, \
                             vectors, matrices, structs and pointers are)",
                            type_word(inner)
                        ),
                    )
                })?;
                params.push(Param {
                    name: pname,
                    ty: Ty::Val(ValTy::scalar(t)),
                    reference: false,
                    const_ref: false,
                    span: self.uniq(at),
                });
            }
            let mut vec_ret = None;
            let ret = match &f.result {
                None => Ty::Void,
                Some(r) => match &module.types[r.ty].inner {
                    TypeInner::Scalar(s) => scalar_of(*s).map(|k| Ty::Val(ValTy::scalar(k))),
                    other => match self.type_cells(other) {
                        // A vector, matrix or struct result goes out through reference
                        // parameters, one per cell, after the others: the engine's functions
                        // return one scalar.
                        Some(cells) => {
                            for &(c, t) in &cells {
                                params.push(Param {
                                    name: comp_name("_ret", c),
                                    ty: Ty::Val(t),
                                    reference: true,
                                    const_ref: false,
                                    span: self.uniq(at),
                                });
                            }
                            vec_ret = Some(cells);
                            Some(Ty::Void)
                        }
                        None => None,
                    },
                }
                .ok_or_else(|| {
                    at_err(
                        at,
                        &name,
                        "a result of this type is not emulated yet (scalars, vectors, \
                         matrices and structs are)",
                    )
                })?,
            };
            let mut low = Lower {
                shader,
                func: f,
                finfo: &shader.info[fh],
                entry_args: false,
                baked: HashMap::new(),
                ballots: HashSet::new(),
                used: std::mem::take(&mut self.used),
                bumped: std::mem::take(&mut self.bumped),
                max_depth: self.max_depth,
                lanes: self.lanes,
                loops: Vec::new(),
                lens: self.lens,
                vec_ret,
                local_names: names::local_names(module, f),
            };
            let body = low.function_body(at, Vec::new());
            self.used = low.used;
            self.bumped = low.bumped;
            out.push(ast::Function {
                name,
                entry: false,
                ret,
                params,
                body: body?,
                launch_bounds: None,
                vf_call_dim: None,
                span: at,
                snippet: false,
                defaults: Vec::new(),
                empty_params: Vec::new(),
            });
        }
        Ok(out)
    }

    /// `for (_zero_index = 0; _zero_index < n; ++_zero_index) name[_zero_index] = 0`: the
    /// `n` cells of the array `name` zeroed by a loop (one statement whatever `n`).
    fn zero_loop(&mut self, name: &str, elem: ValTy, n: usize, at: ast::Span) -> Stmt {
        let k = "_zero_index";
        let kspan = self.uniq(at);
        let init = stmt(
            StmtKind::Decl(
                Storage::default(),
                vec![Declarator {
                    name: k.into(),
                    ty: Ty::Val(ValTy::scalar(Scalar::U32)),
                    array: None,
                    init: Some(int_lit(0, at)),
                    span: kspan,
                    id: NodeId::fresh(),
                }],
            ),
            at,
        );
        let cond = {
            let kk = self.ident(k, at);
            bin(BinOp::Lt, kk, int_lit(n as u64, at), at)
        };
        let step = {
            let kk = self.ident(k, at);
            ex(
                ExprKind::IncDec {
                    inc: true,
                    prefix: true,
                    target: Box::new(kk),
                },
                at,
            )
        };
        let idx = self.ident(k, at);
        let target = self.ident(name, at);
        let target = ex(ExprKind::Index(Box::new(target), Box::new(idx)), at);
        let a = stmt(
            StmtKind::Expr(ex(
                ExprKind::Assign(None, Box::new(target), Box::new(zero(elem, at))),
                at,
            )),
            at,
        );
        stmt(
            StmtKind::For(Some(Box::new(init)), Some(cond), Some(step), Box::new(a)),
            at,
        )
    }

    /// WGSL § "var<workgroup>": workgroup memory starts zeroed. Done as wgpu and Dawn do it:
    /// invocation 0 stores the zeros, then a workgroup barrier, before the body; the trace shows
    /// those steps at the variable's line.
    fn zero_workgroup(
        &mut self,
        vars: &[(String, ValTy, Count, ast::Span)],
        fn_span: ast::Span,
    ) -> Result<Vec<Stmt>, KernelError> {
        let mut body = Vec::new();
        for (name, elem, count, at) in vars {
            let at = *at;
            let assign = |me: &mut Self, idx: Option<Expr>| {
                let target = me.ident(name, at);
                let target = match idx {
                    Some(i) => ex(ExprKind::Index(Box::new(target), Box::new(i)), at),
                    None => target,
                };
                stmt(
                    StmtKind::Expr(ex(
                        ExprKind::Assign(None, Box::new(target), Box::new(zero(*elem, at))),
                        at,
                    )),
                    at,
                )
            };
            match count {
                Count::Scalar => body.push(assign(self, Some(int_lit(0, at)))),
                Count::Fixed(n) => body.push(self.zero_loop(name, *elem, *n, at)),
                Count::Runtime => {}
            }
        }
        let li = self.builtin_value(BuiltIn::LocalInvocationIndex, None, fn_span)?;
        let first = bin(BinOp::Eq, li, int_lit(0, fn_span), fn_span);
        Ok(vec![
            stmt(
                StmtKind::If(first, Box::new(stmt(StmtKind::Block(body), fn_span)), None),
                fn_span,
            ),
            stmt(
                StmtKind::Expr(ex(ExprKind::Call("__syncthreads".into(), vec![]), fn_span)),
                fn_span,
            ),
        ])
    }

    fn function_body(
        &mut self,
        fn_span: ast::Span,
        prelude: Vec<Stmt>,
    ) -> Result<Stmt, KernelError> {
        // The prelude (module-scope variables) in the outer block, the function's own names in
        // an inner one: the engine lets an inlined helper see the outer scopes only
        // (`Compiler::module_scopes`), so an entry's local never hides a global from a helper.
        let mut out = Vec::new();
        let func = self.func;
        for (h, lv) in func.local_variables.iter() {
            let at = self.span_of(func.local_variables.get_span(h), fn_span);
            let name = self.local_name(h);
            let (elem, count, _) =
                elem_of(self.module(), lv.ty).map_err(|m| at_err(at, &name, m))?;
            let comps = components(self.module(), lv.ty);
            let cells = self.type_cells(&self.module().types[lv.ty].inner);
            if let (Some(cells), Count::Scalar) = (cells, count) {
                // A vector, matrix or struct variable: one local per component or data cell,
                // `v.x`, `v.y`, … (padding is never held).
                for (k, elem) in cells {
                    let init = match lv.init {
                        Some(e) => self.expr_c(e, Some(k), 0)?,
                        None => zero(elem, at),
                    };
                    let span = self.uniq(at);
                    out.push(stmt(
                        StmtKind::Decl(
                            Storage::default(),
                            vec![Declarator {
                                name: comp_name(&name, k),
                                ty: Ty::Val(elem),
                                array: None,
                                init: Some(init),
                                span,
                                id: NodeId::fresh(),
                            }],
                        ),
                        at,
                    ));
                }
                continue;
            }
            let count = match count {
                Count::Fixed(n) => Count::Fixed(n.saturating_mul(comps as usize)),
                other => other,
            };
            let (ty, array, init) = match count {
                Count::Scalar => (
                    Ty::Val(elem),
                    None,
                    Some(match lv.init {
                        Some(e) => self.expr(e, 0)?,
                        None => zero(elem, at),
                    }),
                ),
                Count::Fixed(n) => (Ty::Ptr(elem), Some(Some(int_lit(n as u64, at))), None),
                Count::Runtime => return Err(at_err(at, &name, "a runtime-sized local array")),
            };
            let span = self.uniq(at);
            out.push(stmt(
                StmtKind::Decl(
                    Storage::default(),
                    vec![Declarator {
                        name: name.clone(),
                        ty,
                        array,
                        init,
                        span,
                        id: NodeId::fresh(),
                    }],
                ),
                at,
            ));
            if let Count::Fixed(n) = count {
                // WGSL § var Declarations: a function variable without an initializer holds
                // its type's zero value; one with an initializer (`var a = array(…)`) holds
                // that value. The engine's array starts unwritten, so both are stored here.
                out.push(self.zero_loop(&name, elem, n, at));
                let given = lv
                    .init
                    .filter(|e| !matches!(func.expressions[*e], naga::Expression::ZeroValue(_)));
                if let Some(e) = given {
                    if n > VALUE_CELLS {
                        return Err(at_err(
                            at,
                            &name,
                            format!(
                                "an initializer of more than {VALUE_CELLS} cells for a local \
                                 array (assign its elements in a loop instead)"
                            ),
                        ));
                    }
                    // 2-byte cells of structs mixing `f16` with 4-byte scalars
                    // (`types::HALF_WORDS`): each member's cell once, written through a view
                    // of its type (a 4-byte member's second cell is part of it).
                    let halves = if elem.scalar == Scalar::U16 {
                        let inner = &self.module().types[lv.ty].inner;
                        let cells = types::real_cells(self.module(), inner, 2, VALUE_CELLS)
                            .map_err(|m| at_err(at, &name, m))?;
                        Some(cells)
                    } else {
                        None
                    };
                    let cells: Vec<(u32, Option<Scalar>)> = match &halves {
                        Some(c) => c.iter().map(|&(k, s)| (k, scalar_of(s))).collect(),
                        None => (0..n as u32).map(|k| (k, None)).collect(),
                    };
                    for (k, view) in cells {
                        let value = self.expr_c(e, Some(k), 0)?;
                        let target = self.ident(&name, at);
                        let target = ex(
                            ExprKind::Index(Box::new(target), Box::new(int_lit(u64::from(k), at))),
                            at,
                        );
                        let target = match view {
                            Some(t) => {
                                let addr = ex(ExprKind::AddrOf(Box::new(target)), at);
                                let ptr = ex(
                                    ExprKind::Cast(Ty::Ptr(ValTy::scalar(t)), Box::new(addr)),
                                    at,
                                );
                                ex(ExprKind::Deref(Box::new(ptr)), at)
                            }
                            None => target,
                        };
                        out.push(stmt(
                            StmtKind::Expr(ex(
                                ExprKind::Assign(None, Box::new(target), Box::new(value)),
                                at,
                            )),
                            at,
                        ));
                    }
                }
            }
        }
        let body = self.block(&func.body, fn_span)?;
        out.extend(body);
        let mut outer = prelude;
        outer.push(Stmt {
            kind: StmtKind::Block(out),
            span: fn_span,
            end: fn_span,
        });
        Ok(Stmt {
            kind: StmtKind::Block(outer),
            span: fn_span,
            end: fn_span,
        })
    }

    fn block(&mut self, b: &naga::Block, outer: ast::Span) -> Result<Vec<Stmt>, KernelError> {
        let mut out = Vec::new();
        for (s, sp) in b.span_iter() {
            let at = self.span_of(*sp, outer);
            let end = self.end_of(*sp, at);
            for mut st in self.statement(s, at)? {
                if st.end == st.span && st.span == at {
                    st.end = end;
                }
                out.push(st);
            }
        }
        Ok(out)
    }

    fn decl(&mut self, name: &str, t: ValTy, init: Expr, at: ast::Span) -> Stmt {
        let span = self.uniq(at);
        stmt(
            StmtKind::Decl(
                Storage::default(),
                vec![Declarator {
                    name: name.to_string(),
                    ty: Ty::Val(t),
                    array: None,
                    init: Some(init),
                    span,
                    id: NodeId::fresh(),
                }],
            ),
            at,
        )
    }

    /// Names the result of a built-in call: the user's `let` name, else `_rN`.
    fn result_name(&mut self, h: Handle<Expression>) -> String {
        let name = self
            .func
            .named_expressions
            .get(&h)
            .cloned()
            .unwrap_or_else(|| format!("_r{}", h.index()));
        self.baked.insert(h, name.clone());
        name
    }

    fn call_stmt(
        &mut self,
        result: Option<Handle<Expression>>,
        call: Expr,
        t: Option<ValTy>,
        at: ast::Span,
    ) -> Result<Stmt, KernelError> {
        Ok(match (result, t) {
            (Some(r), Some(t)) => {
                let name = self.result_name(r);
                self.decl(&name, t, call, at)
            }
            (Some(r), None) => {
                let t = self.scalar_ty(r, at)?;
                let name = self.result_name(r);
                self.decl(&name, t, call, at)
            }
            (None, _) => stmt(StmtKind::Expr(call), at),
        })
    }
}

/// The helper functions `entry` calls, directly or through other helpers (each visited once;
/// no recursion).
fn called_from(module: &naga::Module, entry: &naga::Function) -> HashSet<Handle<naga::Function>> {
    let mut seen = HashSet::new();
    let mut bodies = vec![&entry.body];
    while let Some(b) = bodies.pop() {
        find_statement(b, |s, _| {
            if let Statement::Call { function, .. } = s {
                if seen.insert(*function) {
                    bodies.push(&module.functions[*function].body);
                }
            }
            None::<()>
        });
    }
    seen
}
