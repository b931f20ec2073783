//! naga's IR of a compute entry point lowered to the kernel engine's program form
//! ([`crate::kernel::ast`]), so WGSL runs on the same engine as C kernels: one program form,
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
//! - vectors (WGSL § Vector Expressions, component-wise) → one scalar per component: a vector
//!   local `v` is the locals `v.x`, `v.y`, …; a buffer or workgroup array of `vecN` is flat,
//!   N cells per element in component order (WGSL § Memory Layout: vec2/vec4 arrays are tightly
//!   packed, so the cells are the buffer's bytes; arrays of vec3, padded to 16 bytes, are
//!   refused). `subgroupBallot`'s vec4 result stays a u64.
//!
//! - structs in buffers → flat too: each element's members' cells in declaration order
//!   (`struct_layout`); only packed structs of one scalar type, the engine's buffers having one
//!   element type.
//!
//! `switch` becomes an if/else chain. Structs with padding or mixed scalar types, matrices, a
//! vector component chosen at run time, pointer parameters and vector results are refused with a
//! message naming them.

use std::collections::{HashMap, HashSet};

use naga::{
    AddressSpace, ArraySize, AtomicFunction, BinaryOperator, BuiltIn, CollectiveOperation,
    Expression, GatherMode, Handle, Literal, MathFunction, ScalarKind, Statement,
    SubgroupOperation, TypeInner, UnaryOperator,
};

use super::naga::{line_col, NagaShader};
use crate::kernel::ast::{self, Declarator, Expr, ExprKind, Param, Stmt, StmtKind, Storage};
use crate::kernel::types::{BinOp, Scalar, Ty, UnOp, ValTy};
use crate::kernel::KernelError;

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
    /// Cells per element: a `vecN` element's N components, else 1.
    pub components: u32,
}

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
        .text
        .find(&format!("fn {}", ep.name))
        .map_or((1, 1), |o| line_col(&shader.text, o));
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
        max_depth,
        lanes,
        loops: Vec::new(),
        lens,
    };
    for (h, g) in module.global_variables.iter() {
        let name = g
            .name
            .clone()
            .unwrap_or_else(|| format!("global{}", h.index()));
        let at = low.span_of(module.global_variables.get_span(h), fn_span);
        let (elem, count, wgsl_elem) = elem_of(module, g.ty).map_err(|m| at_err(at, &name, m))?;
        let comps = components(module, g.ty);
        // A vector variable or array of vectors is held flat, one cell per component.
        let cells = |c: Count| match c {
            Count::Scalar if comps > 1 => Count::Fixed(comps as usize),
            Count::Fixed(n) => Count::Fixed(n.saturating_mul(comps as usize)),
            other => other,
        };
        match g.space {
            AddressSpace::Storage { .. } | AddressSpace::Uniform => {
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
                    _ => ("uniform", false),
                };
                bindings.push(Binding {
                    name: name.clone(),
                    group: rb.map_or(0, |b| b.group),
                    binding: rb.map_or(0, |b| b.binding),
                    space: space.to_string(),
                    writable,
                    elem,
                    wgsl_elem,
                    fixed_len: match cells(count) {
                        Count::Scalar => Some(1),
                        Count::Fixed(n) => Some(n),
                        Count::Runtime => None,
                    },
                    components: comps,
                });
                params.push(Param {
                    name: name.clone(),
                    ty: Ty::Ptr(elem),
                    // A scalar is a one-cell buffer, read and written as `name[0]` (so an
                    // atomic can take its address).
                    reference: false,
                    span: low.uniq(at),
                });
            }
            AddressSpace::Private if comps > 1 && matches!(count, Count::Scalar) => {
                // A private vector: one per-invocation local per component, zeroed.
                if g.init.is_some() {
                    return Err(at_err(
                        at,
                        &name,
                        "an initialized private vector is not emulated yet",
                    ));
                }
                for k in 0..comps {
                    let span = low.uniq(at);
                    prelude.push(stmt(
                        StmtKind::Decl(
                            Storage::default(),
                            vec![Declarator {
                                name: comp_name(&name, k),
                                ty: Ty::Val(elem),
                                array: None,
                                init: Some(zero(elem, at)),
                                span,
                            }],
                        ),
                        at,
                    ));
                }
            }
            AddressSpace::WorkGroup | AddressSpace::Private => {
                let shared = g.space == AddressSpace::WorkGroup;
                let count = cells(count);
                let init = match (count, g.init, shared) {
                    (Count::Scalar, Some(e), _) => Some(low.global_const(e, at)?),
                    (Count::Scalar, None, false) => Some(zero(elem, at)),
                    _ => None,
                };
                let array = match count {
                    Count::Fixed(n) => Some(Some(int_lit(n as u64, at))),
                    // A workgroup scalar is a one-cell array (`name[0]`), so an atomic can take
                    // its address.
                    Count::Scalar if shared => Some(Some(int_lit(1, at))),
                    Count::Runtime => return Err(at_err(at, &name, "a runtime-sized array here")),
                    Count::Scalar => None,
                };
                let ty = if array.is_some() {
                    Ty::Ptr(elem)
                } else {
                    Ty::Val(elem)
                };
                if shared {
                    zeroing.push((name.clone(), elem, count, at));
                }
                prelude.push(stmt(
                    StmtKind::Decl(
                        Storage {
                            shared,
                            external: false,
                        },
                        vec![Declarator {
                            name,
                            ty,
                            array,
                            init,
                            span: low.uniq(at),
                        }],
                    ),
                    at,
                ));
            }
            _ => {
                return Err(at_err(
                    at,
                    &name,
                    "this address space (textures, samplers, push constants) is not emulated",
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
        },
        workgroup_size: ep.workgroup_size,
        bindings,
        entry: ep.name.clone(),
    })
}

#[derive(Clone, Copy)]
enum Count {
    Scalar,
    Fixed(usize),
    Runtime,
}

fn at_err(at: ast::Span, name: &str, m: impl std::fmt::Display) -> KernelError {
    KernelError::new(at.line, at.col, format!("`{name}`: {m}"))
}

fn scalar_of(s: naga::Scalar) -> Option<Scalar> {
    Some(match (s.kind, s.width) {
        (ScalarKind::Sint, 4) => Scalar::I32,
        (ScalarKind::Uint, 4) => Scalar::U32,
        (ScalarKind::Sint, 8) => Scalar::I64,
        (ScalarKind::Uint, 8) => Scalar::U64,
        (ScalarKind::Float, 4) => Scalar::F32,
        (ScalarKind::Float, 2) => Scalar::F16,
        (ScalarKind::Float, 8) => Scalar::F64,
        (ScalarKind::Bool, _) => Scalar::Bool,
        _ => return None,
    })
}

fn wgsl_scalar_name(s: naga::Scalar) -> String {
    match (s.kind, s.width) {
        (ScalarKind::Sint, 4) => "i32".into(),
        (ScalarKind::Uint, 4) => "u32".into(),
        (ScalarKind::Float, 4) => "f32".into(),
        (ScalarKind::Float, 2) => "f16".into(),
        (ScalarKind::Bool, _) => "bool".into(),
        (k, w) => format!("{k:?}{}", w * 8),
    }
}

/// Cells a value of type `inner` takes: a vector's size, a struct's members' cells in
/// declaration order (see [`struct_layout`]), else 1.
fn vec_comps_in(module: &naga::Module, inner: &TypeInner) -> u32 {
    match inner {
        TypeInner::Vector { size, .. } => *size as u32,
        // Members that are scalars or vectors (the only ones `struct_layout` accepts); no
        // recursion into nested structs.
        TypeInner::Struct { members, .. } => members
            .iter()
            .map(|m| match &module.types[m.ty].inner {
                TypeInner::Vector { size, .. } => *size as u32,
                _ => 1,
            })
            .sum(),
        _ => 1,
    }
}

/// A struct held flat: its members' scalars in declaration order, one cell each. Only
/// structs whose members are scalars or vectors of one scalar type, without padding (WGSL §
/// Memory Layout: each member's offset is the cells before it times the scalar's size), so
/// the cells are the buffer's bytes. Returns (the scalar, the cells, each member's first
/// cell).
fn struct_layout(
    module: &naga::Module,
    inner: &TypeInner,
) -> Result<(naga::Scalar, u32, Vec<u32>), String> {
    let TypeInner::Struct { members, span } = inner else {
        return Err("not a struct".into());
    };
    let mut first: Option<naga::Scalar> = None;
    let mut cells = 0u32;
    let mut starts = Vec::new();
    for m in members {
        let (sc, n) = match &module.types[m.ty].inner {
            TypeInner::Scalar(sc) => (*sc, 1),
            TypeInner::Vector { size, scalar } => (*scalar, *size as u32),
            _ => {
                return Err(format!(
                    "member `{}`: only scalar and vector members are emulated yet",
                    m.name.as_deref().unwrap_or("?")
                ))
            }
        };
        if first.is_some_and(|f| f != sc) {
            return Err(format!(
                "member `{}`: structs whose members mix scalar types are not emulated yet",
                m.name.as_deref().unwrap_or("?")
            ));
        }
        first = Some(sc);
        if m.offset != cells * u32::from(sc.width) {
            return Err(format!(
                "member `{}` sits after padding (offset {} bytes); only packed structs are \
                 emulated yet",
                m.name.as_deref().unwrap_or("?"),
                m.offset
            ));
        }
        starts.push(cells);
        cells += n;
    }
    let sc = first.ok_or("an empty struct")?;
    if *span != cells * u32::from(sc.width) {
        return Err(format!(
            "the struct ends in padding ({span} bytes for {cells} values); only packed structs \
             are emulated yet"
        ));
    }
    Ok((sc, cells, starts))
}

/// Components of each element of a variable of type `ty`: an array's element's, or the
/// variable's own (see [`vec_comps`]). Each component is one cell.
pub fn components(module: &naga::Module, ty: Handle<naga::Type>) -> u32 {
    match &module.types[ty].inner {
        TypeInner::Array { base, .. } => vec_comps_in(module, &module.types[*base].inner),
        other => vec_comps_in(module, other),
    }
}

/// The name of component `k` of a vector held as one local per component: `v.x`, `v.y`, …
fn comp_name(name: &str, k: u32) -> String {
    match ["x", "y", "z", "w"].get(k as usize) {
        Some(c) => format!("{name}.{c}"),
        None => format!("{name}.{k}"),
    }
}

/// The element type of a variable of type `ty`: a scalar, an atomic, a vector (its component
/// type; see [`components`]), or an array of one of those.
fn elem_of(
    module: &naga::Module,
    ty: Handle<naga::Type>,
) -> Result<(ValTy, Count, String), String> {
    let scalar = |inner: &TypeInner| -> Result<(ValTy, String), String> {
        match inner {
            TypeInner::Scalar(s) => scalar_of(*s)
                .map(|k| (ValTy::scalar(k), wgsl_scalar_name(*s)))
                .ok_or_else(|| format!("type {s:?} is not emulated")),
            TypeInner::Atomic(s) => scalar_of(*s)
                .map(|k| {
                    (
                        ValTy::scalar(k),
                        format!("atomic<{}>", wgsl_scalar_name(*s)),
                    )
                })
                .ok_or_else(|| format!("type {s:?} is not emulated")),
            // A vector is held as its components, one cell each (WGSL § Memory Layout:
            // vec2 and vec4 arrays are tightly packed, so the cells are the buffer's bytes).
            TypeInner::Vector { size, scalar } => scalar_of(*scalar)
                .map(|k| {
                    (
                        ValTy::scalar(k),
                        format!("vec{}<{}>", *size as u32, wgsl_scalar_name(*scalar)),
                    )
                })
                .ok_or_else(|| format!("type {scalar:?} is not emulated")),
            // A packed struct of one scalar type: its members' cells in declaration order.
            TypeInner::Struct { .. } => {
                let (sc, _, _) = struct_layout(module, inner)?;
                let name = module
                    .types
                    .iter()
                    .find(|(_, t)| &t.inner == inner)
                    .and_then(|(_, t)| t.name.clone())
                    .unwrap_or_else(|| "struct".into());
                scalar_of(sc)
                    .map(|k| (ValTy::scalar(k), name))
                    .ok_or_else(|| format!("type {sc:?} is not emulated"))
            }
            _ => Err("this type is not emulated".into()),
        }
    };
    match &module.types[ty].inner {
        TypeInner::Array { base, size, .. } => {
            if let TypeInner::Vector {
                size: naga::VectorSize::Tri,
                ..
            } = module.types[*base].inner
            {
                // WGSL § Memory Layout: an array<vec3<T>> element takes 16 bytes, 4 of them
                // padding; the cells here have no padding.
                return Err(
                    "arrays of vec3 (16-byte stride with padding) are not emulated \
                            yet; use vec4 or separate arrays"
                        .into(),
                );
            }
            let (e, n) = scalar(&module.types[*base].inner)?;
            let count = match size {
                ArraySize::Constant(n) => Count::Fixed(n.get() as usize),
                ArraySize::Dynamic => Count::Runtime,
                ArraySize::Pending(_) => {
                    return Err("override-sized arrays are not emulated".into())
                }
            };
            Ok((e, count, n))
        }
        other => scalar(other).map(|(e, n)| (e, Count::Scalar, n)),
    }
}

fn stmt(kind: StmtKind, span: ast::Span) -> Stmt {
    Stmt {
        kind,
        span,
        end: span,
    }
}

fn ex(kind: ExprKind, span: ast::Span) -> Expr {
    Expr::new(kind, span)
}

fn int_lit(v: u64, at: ast::Span) -> Expr {
    ex(
        ExprKind::Int {
            value: v,
            unsigned: true,
            long: false,
        },
        at,
    )
}

fn cast(s: Scalar, e: Expr, at: ast::Span) -> Expr {
    ex(ExprKind::Cast(Ty::Val(ValTy::scalar(s)), Box::new(e)), at)
}

fn bin(op: BinOp, a: Expr, b: Expr, at: ast::Span) -> Expr {
    ex(ExprKind::Binary(op, Box::new(a), Box::new(b)), at)
}

fn zero(t: ValTy, at: ast::Span) -> Expr {
    let lit = if t.scalar.is_float() {
        ex(
            ExprKind::Float {
                value: 0.0,
                single: true,
            },
            at,
        )
    } else if t.scalar == Scalar::Bool {
        ex(ExprKind::Bool(false), at)
    } else {
        int_lit(0, at)
    };
    cast(t.scalar, lit, at)
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
    max_depth: u32,
    lanes: usize,
    loops: Vec<LoopCx>,
    lens: &'a HashMap<String, usize>,
}

impl Lower<'_> {
    fn module(&self) -> &naga::Module {
        &self.shader.module
    }

    fn span_of(&self, s: naga::Span, fallback: ast::Span) -> ast::Span {
        match s.to_range() {
            Some(r) if s.is_defined() => {
                let (line, col) = line_col(&self.shader.text, r.start);
                ast::Span { line, col }
            }
            _ => fallback,
        }
    }

    fn end_of(&self, s: naga::Span, fallback: ast::Span) -> ast::Span {
        match s.to_range() {
            Some(r) if s.is_defined() => {
                let (line, col) = line_col(&self.shader.text, r.end);
                ast::Span { line, col }
            }
            _ => fallback,
        }
    }

    /// A span no other identifier or declarator has (the engine keys names by span); a clash
    /// moves the column right by one.
    fn uniq(&mut self, mut s: ast::Span) -> ast::Span {
        while !self.used.insert(s) {
            s.col = s.col.saturating_add(1);
        }
        s
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

    /// The type of one component of `h` (of `h` itself for a scalar).
    fn comp_ty(&self, h: Handle<Expression>, at: ast::Span) -> Result<ValTy, KernelError> {
        match self.ty_inner(h) {
            TypeInner::Vector { scalar, .. } if !self.is_ballot_expr(h) => scalar_of(*scalar)
                .map(ValTy::scalar)
                .ok_or_else(|| KernelError::new(at.line, at.col, "type not emulated")),
            _ => self.scalar_ty(h, at),
        }
    }

    /// The component type `TypeInner::Scalar` of `h`'s type (itself for a scalar).
    fn comp_inner(&self, h: Handle<Expression>) -> TypeInner {
        match self.ty_inner(h) {
            TypeInner::Vector { scalar, .. } => TypeInner::Scalar(*scalar),
            other => other.clone(),
        }
    }

    /// What a pointer expression points at: (components of the pointee when it is a vector,
    /// components of its elements when it is an array of vectors).
    fn pointee(&self, p: Handle<Expression>) -> (u32, u32) {
        let types = &self.module().types;
        match self.ty_inner(p) {
            TypeInner::Pointer { base, .. } => match &types[*base].inner {
                TypeInner::Array { base: e, .. } => {
                    (1, vec_comps_in(self.module(), &types[*e].inner))
                }
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
            let at = shader.text.find(&format!("fn {name}")).map_or(at, |o| {
                let (line, col) = line_col(&shader.text, o);
                ast::Span { line, col }
            });
            let mut params = Vec::new();
            for (k, a) in f.arguments.iter().enumerate() {
                let pname = a.name.clone().unwrap_or_else(|| format!("arg{k}"));
                if let TypeInner::Vector { size, scalar } = &module.types[a.ty].inner {
                    // A vector parameter: one parameter per component, `v.x`, `v.y`, …
                    let t = scalar_of(*scalar).ok_or_else(|| {
                        at_err(at, &name, format!("parameter `{pname}`: type not emulated"))
                    })?;
                    for c in 0..*size as u32 {
                        params.push(Param {
                            name: comp_name(&pname, c),
                            ty: Ty::Val(ValTy::scalar(t)),
                            reference: false,
                            span: self.uniq(at),
                        });
                    }
                    continue;
                }
                let t = match &module.types[a.ty].inner {
                    TypeInner::Scalar(s) => scalar_of(*s),
                    _ => None,
                }
                .ok_or_else(|| {
                    at_err(
                        at,
                        &name,
                        format!(
                            "parameter `{pname}` of type {} is not emulated yet (scalars and vectors are)",
                            type_word(&module.types[a.ty].inner)
                        ),
                    )
                })?;
                params.push(Param {
                    name: pname,
                    ty: Ty::Val(ValTy::scalar(t)),
                    reference: false,
                    span: self.uniq(at),
                });
            }
            let ret = match &f.result {
                None => Ty::Void,
                Some(r) => match &module.types[r.ty].inner {
                    TypeInner::Scalar(s) => scalar_of(*s).map(|k| Ty::Val(ValTy::scalar(k))),
                    _ => None,
                }
                .ok_or_else(|| at_err(at, &name, "a non-scalar result is not emulated yet"))?,
            };
            let mut low = Lower {
                shader,
                func: f,
                finfo: &shader.info[fh],
                entry_args: false,
                baked: HashMap::new(),
                ballots: HashSet::new(),
                used: std::mem::take(&mut self.used),
                max_depth: self.max_depth,
                lanes: self.lanes,
                loops: Vec::new(),
                lens: self.lens,
            };
            let body = low.function_body(at, Vec::new());
            self.used = low.used;
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
            });
        }
        Ok(out)
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
                Count::Fixed(n) => {
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
                            }],
                        ),
                        at,
                    );
                    let cond = {
                        let kk = self.ident(k, at);
                        bin(BinOp::Lt, kk, int_lit(*n as u64, at), at)
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
                    let a = assign(self, Some(idx));
                    body.push(stmt(
                        StmtKind::For(Some(Box::new(init)), Some(cond), Some(step), Box::new(a)),
                        at,
                    ));
                }
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
            let name = lv
                .name
                .clone()
                .unwrap_or_else(|| format!("local{}", h.index()));
            let (elem, count, _) =
                elem_of(self.module(), lv.ty).map_err(|m| at_err(at, &name, m))?;
            let comps = components(self.module(), lv.ty);
            if comps > 1 && matches!(count, Count::Scalar) {
                // A vector variable: one local per component, `v.x`, `v.y`, …
                for k in 0..comps {
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
                        name,
                        ty,
                        array,
                        init,
                        span,
                    }],
                ),
                at,
            ));
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

    fn statement(&mut self, s: &Statement, at: ast::Span) -> Result<Vec<Stmt>, KernelError> {
        let call = |name: &str, args: Vec<Expr>| ex(ExprKind::Call(name.to_string(), args), at);
        Ok(match s {
            Statement::Emit(range) => {
                let mut v = Vec::new();
                for h in range.clone() {
                    let Some(name) = self.func.named_expressions.get(&h).cloned() else {
                        continue;
                    };
                    if matches!(
                        self.ty_inner(h),
                        TypeInner::Pointer { .. } | TypeInner::ValuePointer { .. }
                    ) {
                        continue; // `let p = &x;` is an alias; uses lower through it
                    }
                    let eat = self.espan(h, at);
                    if let Some(n) = self.vector(h) {
                        // A vector `let`: one local per component, `v.x`, `v.y`, …
                        let t = self.comp_ty(h, eat)?;
                        for k in 0..n {
                            let init = self.expr_c(h, Some(k), 0)?;
                            v.push(self.decl(&comp_name(&name, k), t, init, eat));
                        }
                        self.baked.insert(h, name);
                        continue;
                    }
                    let t = self.scalar_ty(h, eat)?;
                    let init = self.expr(h, 0)?;
                    if self.is_ballot_expr(h) {
                        self.ballots.insert(h);
                    }
                    v.push(self.decl(&name, t, init, eat));
                    self.baked.insert(h, name);
                }
                v
            }
            Statement::Block(b) => vec![stmt(StmtKind::Block(self.block(b, at)?), at)],
            Statement::If {
                condition,
                accept,
                reject,
            } => {
                let c = self.expr(*condition, 0)?;
                let a = self.block(accept, at)?;
                let r = self.block(reject, at)?;
                vec![stmt(
                    StmtKind::If(
                        c,
                        Box::new(stmt(StmtKind::Block(a), at)),
                        (!r.is_empty()).then(|| Box::new(stmt(StmtKind::Block(r), at))),
                    ),
                    at,
                )]
            }
            Statement::Switch { selector, cases } => self.switch(*selector, cases, at)?,
            Statement::Loop {
                body,
                continuing,
                break_if,
            } => {
                let mut cont = self.block(continuing, at)?;
                if let Some(b) = break_if {
                    let c = self.expr(*b, 0)?;
                    cont.push(stmt(
                        StmtKind::If(c, Box::new(stmt(StmtKind::Break, at)), None),
                        at,
                    ));
                }
                self.loops.push(LoopCx {
                    continuing: cont.clone(),
                    switch: false,
                    wrapped: false,
                });
                let inner = self.block(body, at);
                self.loops.pop();
                let mut inner = inner?;
                inner.extend(cont);
                vec![stmt(
                    StmtKind::While(
                        ex(ExprKind::Bool(true), at),
                        Box::new(stmt(StmtKind::Block(inner), at)),
                    ),
                    at,
                )]
            }
            Statement::Break if self.loops.last().is_some_and(|l| l.switch && l.wrapped) => {
                vec![stmt(StmtKind::Break, at)]
            }
            Statement::Break if self.loops.last().is_some_and(|l| l.switch) => {
                // A `break` that ends a case is dropped by `case_body`; one elsewhere in the case
                // would need a jump out of the if/else chain.
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    "`break` inside a `switch` case before its end is not emulated yet",
                ));
            }
            Statement::Break => vec![stmt(StmtKind::Break, at)],
            Statement::Continue => {
                // The continuing block runs before the next iteration (WGSL § continuing).
                let mut v = self
                    .loops
                    .last()
                    .map(|l| l.continuing.clone())
                    .unwrap_or_default();
                v.push(stmt(StmtKind::Continue, at));
                vec![stmt(StmtKind::Block(v), at)]
            }
            Statement::Return { value } => {
                let v = match value {
                    Some(e) => Some(self.expr(*e, 0)?),
                    None => None,
                };
                vec![stmt(StmtKind::Return(v), at)]
            }
            Statement::ControlBarrier(flags) => {
                let name = if flags.contains(naga::Barrier::SUB_GROUP) {
                    "__syncwarp"
                } else {
                    "__syncthreads"
                };
                vec![stmt(StmtKind::Expr(call(name, vec![])), at)]
            }
            Statement::MemoryBarrier(_) => {
                vec![stmt(
                    StmtKind::Expr(call("__threadfence_block", vec![])),
                    at,
                )]
            }
            Statement::Store { pointer, value } if self.vector(*value).is_some() => {
                // Component by component, through temporaries first: `v = v.yx` reads the old
                // components (WGSL § Assignment: the right side is evaluated first).
                let n = self.vector(*value).unwrap_or(1);
                let t = self.comp_ty(*value, at)?;
                let tmp = format!("_store{}", value.index());
                let mut v = Vec::new();
                for k in 0..n {
                    let e = self.expr_c(*value, Some(k), 0)?;
                    v.push(self.decl(&comp_name(&tmp, k), t, e, at));
                }
                for k in 0..n {
                    let p = self.place_c(*pointer, Some(k), 0)?;
                    let src = self.ident(&comp_name(&tmp, k), at);
                    v.push(stmt(
                        StmtKind::Expr(ex(ExprKind::Assign(None, Box::new(p), Box::new(src)), at)),
                        at,
                    ));
                }
                vec![stmt(StmtKind::Block(v), at)]
            }
            Statement::Store { pointer, value } => {
                let p = self.place(*pointer, 0)?;
                let v = self.expr(*value, 0)?;
                vec![stmt(
                    StmtKind::Expr(ex(ExprKind::Assign(None, Box::new(p), Box::new(v)), at)),
                    at,
                )]
            }
            Statement::Atomic {
                pointer,
                fun,
                value,
                result,
            } => {
                let name = match fun {
                    AtomicFunction::Add => "atomicAdd",
                    AtomicFunction::Subtract => "atomicSub",
                    AtomicFunction::And => "atomicAnd",
                    AtomicFunction::InclusiveOr => "atomicOr",
                    AtomicFunction::ExclusiveOr => "atomicXor",
                    AtomicFunction::Min => "atomicMin",
                    AtomicFunction::Max => "atomicMax",
                    AtomicFunction::Exchange { compare: None } => "atomicExch",
                    AtomicFunction::Exchange { compare: Some(cmp) } => {
                        return self.compare_exchange(*pointer, *cmp, *value, *result, at);
                    }
                };
                let p = self.place(*pointer, 0)?;
                let v = self.expr(*value, 0)?;
                let c = call(name, vec![ex(ExprKind::AddrOf(Box::new(p)), at), v]);
                vec![self.call_stmt(*result, c, None, at)?]
            }
            Statement::WorkGroupUniformLoad { pointer, result } => {
                // WGSL § workgroupUniformLoad: a workgroup barrier, then the load.
                let p = self.place(*pointer, 0)?;
                let t = self.scalar_ty(*result, at)?;
                let name = self.result_name(*result);
                vec![
                    stmt(StmtKind::Expr(call("__syncthreads", vec![])), at),
                    self.decl(&name, t, p, at),
                ]
            }
            Statement::Call {
                function,
                arguments,
                result,
            } => {
                let f = &self.module().functions[*function];
                if self.shader.elect_appended && f.name.as_deref() == Some("subgroupElect") {
                    // naga 30 gap (wgpu 6042): the registry's subgroupElect, not the helper.
                    let c = call("subgroupElect", vec![]);
                    vec![self.call_stmt(*result, c, Some(ValTy::scalar(Scalar::Bool)), at)?]
                } else {
                    // A helper function: the engine inlines the device function of its name
                    // (see `helpers`), its result held in a local named as the user's `let`.
                    let name = f
                        .name
                        .clone()
                        .unwrap_or_else(|| format!("function{}", function.index()));
                    let mut args = Vec::new();
                    for a in arguments {
                        match self.vector(*a) {
                            // A vector argument: its components, as the parameters are.
                            Some(n) => {
                                for c in 0..n {
                                    args.push(self.expr_c(*a, Some(c), 0)?);
                                }
                            }
                            None => args.push(self.expr(*a, 0)?),
                        }
                    }
                    vec![self.call_stmt(*result, call(&name, args), None, at)?]
                }
            }
            Statement::SubgroupBallot { result, predicate } => {
                let p = match predicate {
                    Some(p) => self.expr(*p, 0)?,
                    None => ex(ExprKind::Bool(true), at),
                };
                self.ballots.insert(*result);
                let c = call("subgroupBallot", vec![p]);
                vec![self.call_stmt(Some(*result), c, Some(ValTy::scalar(Scalar::U64)), at)?]
            }
            Statement::SubgroupGather {
                mode,
                argument,
                result,
            } => {
                let arg = self.expr(*argument, 0)?;
                let (name, extra) = match mode {
                    GatherMode::BroadcastFirst => ("subgroupBroadcastFirst", None),
                    GatherMode::Broadcast(id) => {
                        self.require_const(*id, "subgroupBroadcast", "id", at)?;
                        ("subgroupBroadcast", Some(*id))
                    }
                    GatherMode::Shuffle(id) => ("subgroupShuffle", Some(*id)),
                    GatherMode::ShuffleDown(d) => ("subgroupShuffleDown", Some(*d)),
                    GatherMode::ShuffleUp(d) => ("subgroupShuffleUp", Some(*d)),
                    GatherMode::ShuffleXor(m) => ("subgroupShuffleXor", Some(*m)),
                    GatherMode::QuadBroadcast(id) => {
                        self.require_const(*id, "quadBroadcast", "id", at)?;
                        ("quadBroadcast", Some(*id))
                    }
                    GatherMode::QuadSwap(naga::Direction::X) => ("quadSwapX", None),
                    GatherMode::QuadSwap(naga::Direction::Y) => ("quadSwapY", None),
                    GatherMode::QuadSwap(naga::Direction::Diagonal) => ("quadSwapDiagonal", None),
                };
                let mut args = vec![arg];
                if let Some(x) = extra {
                    let e = self.expr(x, 0)?;
                    let eat = self.espan(x, at);
                    // An i32 id or delta (the spec allows it; naga 30 only u32) as u32.
                    args.push(cast(Scalar::U32, e, eat));
                }
                vec![self.call_stmt(Some(*result), call(name, args), None, at)?]
            }
            Statement::SubgroupCollectiveOperation {
                op,
                collective_op,
                argument,
                result,
            } => {
                let base = match op {
                    SubgroupOperation::All => "All",
                    SubgroupOperation::Any => "Any",
                    SubgroupOperation::Add => "Add",
                    SubgroupOperation::Mul => "Mul",
                    SubgroupOperation::Min => "Min",
                    SubgroupOperation::Max => "Max",
                    SubgroupOperation::And => "And",
                    SubgroupOperation::Or => "Or",
                    SubgroupOperation::Xor => "Xor",
                };
                let name = match collective_op {
                    CollectiveOperation::Reduce => format!("subgroup{base}"),
                    CollectiveOperation::InclusiveScan => format!("subgroupInclusive{base}"),
                    CollectiveOperation::ExclusiveScan => format!("subgroupExclusive{base}"),
                };
                let arg = self.expr(*argument, 0)?;
                let t = if matches!(op, SubgroupOperation::All | SubgroupOperation::Any) {
                    Some(ValTy::scalar(Scalar::Bool))
                } else {
                    None
                };
                vec![self.call_stmt(Some(*result), call(&name, vec![arg]), t, at)?]
            }
            Statement::Kill => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    "`discard` is for fragment shaders",
                ))
            }
            _ => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    "this statement (texture, ray query, cooperative matrix) is not emulated",
                ))
            }
        })
    }

    /// WGSL § atomicCompareExchangeWeak: one atomicCAS; its result struct is held as the
    /// locals `r.old_value` and `r.exchanged` (old value == `cmp`). The spec lets the weak
    /// form fail spuriously; the emulator never does (it has no contention to model).
    fn compare_exchange(
        &mut self,
        pointer: Handle<Expression>,
        cmp: Handle<Expression>,
        value: Handle<Expression>,
        result: Option<Handle<Expression>>,
        at: ast::Span,
    ) -> Result<Vec<Stmt>, KernelError> {
        let p = self.place(pointer, 0)?;
        let c = self.expr(cmp, 0)?;
        let v = self.expr(value, 0)?;
        let t = self.scalar_ty(value, at)?;
        let call = ex(
            ExprKind::Call(
                "atomicCAS".into(),
                vec![ex(ExprKind::AddrOf(Box::new(p)), at), c, v],
            ),
            at,
        );
        let Some(r) = result else {
            return Ok(vec![stmt(StmtKind::Expr(call), at)]);
        };
        let name = self.result_name(r);
        let old = format!("{name}.old_value");
        let first = self.decl(&old, t, call, at);
        let o = self.ident(&old, at);
        let c2 = self.expr(cmp, 0)?;
        let second = self.decl(
            &format!("{name}.exchanged"),
            ValTy::scalar(Scalar::Bool),
            bin(BinOp::Eq, o, c2, at),
            at,
        );
        Ok(vec![first, second])
    }

    /// WGSL § switch as an if/else chain: the selector once into a local, each group of cases
    /// (naga's `fall_through` joins `case 1, 2:`) tested in order, the default group last (the
    /// case values are distinct, so the order does not matter).
    fn switch(
        &mut self,
        selector: Handle<Expression>,
        cases: &[naga::SwitchCase],
        at: ast::Span,
    ) -> Result<Vec<Stmt>, KernelError> {
        let t = self.scalar_ty(selector, at)?;
        let name = format!("_switch{}", selector.index());
        let sel = self.expr(selector, 0)?;
        let mut out = vec![self.decl(&name, t, sel, at)];
        let mut groups: Vec<(Vec<&naga::SwitchValue>, &naga::Block)> = Vec::new();
        let mut pending: Vec<&naga::SwitchValue> = Vec::new();
        for c in cases {
            pending.push(&c.value);
            if !c.fall_through {
                groups.push((std::mem::take(&mut pending), &c.body));
            }
        }
        let mut chain: Option<Stmt> = None;
        let mut default: Option<Stmt> = None;
        let mut tests = Vec::new();
        // A `break` before the end of a case leaves the switch: the chain goes inside
        // `do { … } while (false)`, whose `break` does that. A `continue` there would continue
        // the do-while rather than the loop around the switch, so that pair is refused.
        let wrapped = groups.iter().any(|(_, b)| early_break(b));
        if wrapped && groups.iter().any(|(_, b)| has_continue(b)) {
            return Err(KernelError::new(
                at.line,
                at.col,
                "a `switch` with both a `break` before the end of a case and a `continue` is \
                 not emulated yet",
            ));
        }
        for (values, body) in groups {
            self.loops.push(LoopCx {
                continuing: Vec::new(),
                switch: true,
                wrapped,
            });
            let lowered = self.case_body(body, at);
            self.loops.pop();
            let block = stmt(StmtKind::Block(lowered?), at);
            if values
                .iter()
                .any(|v| matches!(v, naga::SwitchValue::Default))
            {
                default = Some(block);
                continue;
            }
            let mut cond: Option<Expr> = None;
            for v in values {
                let lit = match v {
                    naga::SwitchValue::I32(n) => literal(Literal::I32(*n), at),
                    naga::SwitchValue::U32(n) => literal(Literal::U32(*n), at),
                    naga::SwitchValue::Default => continue,
                };
                let id = self.ident(&name, at);
                let eq = bin(BinOp::Eq, id, lit, at);
                cond = Some(match cond {
                    None => eq,
                    Some(c) => ex(ExprKind::Logical(false, Box::new(c), Box::new(eq)), at),
                });
            }
            if let Some(c) = cond {
                tests.push((c, block));
            }
        }
        for (c, block) in tests.into_iter().rev() {
            let els = chain.take().or(default.take()).map(Box::new);
            chain = Some(stmt(StmtKind::If(c, Box::new(block), els), at));
        }
        let chain = chain.or(default);
        if wrapped {
            if let Some(c) = chain {
                out.push(stmt(
                    StmtKind::DoWhile(Box::new(c), ex(ExprKind::Bool(false), at)),
                    at,
                ));
            }
        } else {
            out.extend(chain);
        }
        Ok(vec![stmt(StmtKind::Block(out), at)])
    }

    /// A case's statements, less the `break` that ends it.
    fn case_body(&mut self, body: &naga::Block, at: ast::Span) -> Result<Vec<Stmt>, KernelError> {
        let n = body.len();
        let mut out = Vec::new();
        for (k, (s, sp)) in body.span_iter().enumerate() {
            if k + 1 == n && matches!(s, Statement::Break) {
                break;
            }
            let sat = self.span_of(*sp, at);
            out.extend(self.statement(s, sat)?);
        }
        Ok(out)
    }

    fn is_ballot_expr(&self, h: Handle<Expression>) -> bool {
        match self.func.expressions[h] {
            Expression::SubgroupBallotResult => true,
            _ => self.ballots.contains(&h),
        }
    }

    /// WGSL § subgroupBroadcast / quadBroadcast: `id` must be a const-expression.
    fn require_const(
        &self,
        id: Handle<Expression>,
        op: &str,
        arg: &str,
        at: ast::Span,
    ) -> Result<(), KernelError> {
        let is_const = match self.func.expressions[id] {
            Expression::Literal(_) | Expression::Constant(_) | Expression::ZeroValue(_) => true,
            Expression::As { expr, .. } => matches!(
                self.func.expressions[expr],
                Expression::Literal(_) | Expression::Constant(_)
            ),
            _ => false,
        } || self.func.expressions.is_empty();
        if is_const {
            Ok(())
        } else {
            let s = self.espan(id, at);
            Err(KernelError::new(
                s.line,
                s.col,
                format!(
                    "{op}: `{arg}` must be a const-expression (WGSL spec, Subgroup Built-in \
                     Functions: {op}; a value computed at run time is a shader-creation error)"
                ),
            ))
        }
    }

    fn global_const(&mut self, e: Handle<Expression>, at: ast::Span) -> Result<Expr, KernelError> {
        match &self.module().global_expressions[e] {
            Expression::Literal(l) => Ok(literal(*l, at)),
            Expression::ZeroValue(t) => {
                let (elem, _, _) =
                    elem_of(self.module(), *t).map_err(|m| KernelError::new(at.line, at.col, m))?;
                Ok(zero(elem, at))
            }
            _ => Err(KernelError::new(
                at.line,
                at.col,
                "only literal constants are emulated here",
            )),
        }
    }

    /// The lvalue a pointer expression names (`buf[i]`, `x`).
    fn place(&mut self, h: Handle<Expression>, depth: u32) -> Result<Expr, KernelError> {
        self.place_c(h, None, depth)
    }

    /// The lvalue of component `k` of what the pointer `h` names when that is a vector (held
    /// flat: `buf[i * N + k]`, or the local `v.x`); as [`Self::place`] otherwise.
    fn place_c(
        &mut self,
        h: Handle<Expression>,
        k: Option<u32>,
        depth: u32,
    ) -> Result<Expr, KernelError> {
        let at = self.espan(h, ast::Span { line: 1, col: 1 });
        if depth > self.max_depth {
            return Err(depth_err(at, self.max_depth));
        }
        let (own, _) = self.pointee(h);
        let k = if own > 1 {
            Some(k.ok_or_else(|| {
                KernelError::new(at.line, at.col, "a whole vector here is not emulated yet")
            })?)
        } else {
            None
        };
        let cell = |i: Expr, n: u32, k: u32| {
            if n > 1 {
                bin(
                    BinOp::Add,
                    bin(
                        BinOp::Mul,
                        cast(Scalar::U32, i, at),
                        int_lit(n.into(), at),
                        at,
                    ),
                    int_lit(k.into(), at),
                    at,
                )
            } else {
                i
            }
        };
        match &self.func.expressions[h] {
            Expression::GlobalVariable(g) => {
                let var = &self.module().global_variables[*g];
                let name = var
                    .name
                    .clone()
                    .unwrap_or_else(|| format!("global{}", g.index()));
                let private = matches!(var.space, AddressSpace::Private);
                let one_cell = !private
                    && !matches!(self.module().types[var.ty].inner, TypeInner::Array { .. });
                if let Some(k) = k {
                    if private {
                        return Ok(self.ident(&comp_name(&name, k), at));
                    }
                    let id = self.ident(&name, at);
                    return Ok(ex(
                        ExprKind::Index(Box::new(id), Box::new(int_lit(k.into(), at))),
                        at,
                    ));
                }
                let id = self.ident(&name, at);
                Ok(if one_cell {
                    ex(ExprKind::Index(Box::new(id), Box::new(int_lit(0, at))), at)
                } else {
                    id
                })
            }
            Expression::LocalVariable(l) => {
                let name = self.func.local_variables[*l]
                    .name
                    .clone()
                    .unwrap_or_else(|| format!("local{}", l.index()));
                Ok(match k {
                    Some(k) => self.ident(&comp_name(&name, k), at),
                    None => self.ident(&name, at),
                })
            }
            Expression::Access { base, index } => {
                let (vec_base, elem_comps) = self.pointee(*base);
                if vec_base > 1 {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        "a vector component chosen at run time (`v[i]`) is not emulated yet; use \
                         .x/.y/.z/.w",
                    ));
                }
                let b = self.place(*base, depth + 1)?;
                let i = self.expr(*index, depth + 1)?;
                let i = cell(i, elem_comps, k.unwrap_or(0));
                Ok(ex(ExprKind::Index(Box::new(b), Box::new(i)), at))
            }
            Expression::AccessIndex { base, index } => {
                if let Some(starts) = self.struct_pointee(*base) {
                    // A member: its first cell in the struct, plus the component of a vector
                    // member.
                    let first = starts.get(*index as usize).copied().unwrap_or(0);
                    return self.place_c(*base, Some(first + k.unwrap_or(0)), depth + 1);
                }
                let (vec_base, elem_comps) = self.pointee(*base);
                if vec_base > 1 {
                    return self.place_c(*base, Some(*index), depth + 1);
                }
                let b = self.place(*base, depth + 1)?;
                let i = cell(int_lit(u64::from(*index), at), elem_comps, k.unwrap_or(0));
                Ok(ex(ExprKind::Index(Box::new(b), Box::new(i)), at))
            }
            _ => self.expr_c(h, k, depth),
        }
    }

    fn builtin_value(
        &mut self,
        b: BuiltIn,
        comp: Option<u32>,
        at: ast::Span,
    ) -> Result<Expr, KernelError> {
        let field = |k: u32| ["x", "y", "z"].get(k as usize).copied().unwrap_or("x");
        let member = |me: &mut Self, base: &str, k: u32| {
            let id = me.ident(base, at);
            ex(ExprKind::Member(Box::new(id), field(k).to_string()), at)
        };
        let warp = |me: &mut Self| cast(Scalar::U32, me.ident("warpSize", at), at);
        let linear = |me: &mut Self| {
            // x + X * (y + Y * z)
            let tx = member(me, "threadIdx", 0);
            let ty = member(me, "threadIdx", 1);
            let tz = member(me, "threadIdx", 2);
            let bx = member(me, "blockDim", 0);
            let by = member(me, "blockDim", 1);
            bin(
                BinOp::Add,
                tx,
                bin(
                    BinOp::Mul,
                    bx,
                    bin(BinOp::Add, ty, bin(BinOp::Mul, by, tz, at), at),
                    at,
                ),
                at,
            )
        };
        let vec3 = matches!(
            b,
            BuiltIn::LocalInvocationId
                | BuiltIn::GlobalInvocationId
                | BuiltIn::WorkGroupId
                | BuiltIn::NumWorkGroups
        );
        if vec3 && comp.is_none() {
            return Err(KernelError::new(
                at.line,
                at.col,
                "a built-in vec3 is emulated through its components (`.x`, `.y`, `.z`)",
            ));
        }
        let k = comp.unwrap_or(0);
        Ok(match b {
            BuiltIn::LocalInvocationId => member(self, "threadIdx", k),
            BuiltIn::WorkGroupId => member(self, "blockIdx", k),
            BuiltIn::NumWorkGroups => member(self, "gridDim", k),
            BuiltIn::GlobalInvocationId => {
                let bi = member(self, "blockIdx", k);
                let bd = member(self, "blockDim", k);
                let ti = member(self, "threadIdx", k);
                bin(BinOp::Add, bin(BinOp::Mul, bi, bd, at), ti, at)
            }
            BuiltIn::LocalInvocationIndex => linear(self),
            BuiltIn::SubgroupInvocationId => cast(
                Scalar::U32,
                ex(ExprKind::Call("__lane_id".into(), vec![]), at),
                at,
            ),
            BuiltIn::SubgroupSize => warp(self),
            BuiltIn::SubgroupId => {
                let l = linear(self);
                let w = warp(self);
                bin(BinOp::Div, l, w, at)
            }
            BuiltIn::NumSubgroups => {
                let bx = member(self, "blockDim", 0);
                let by = member(self, "blockDim", 1);
                let bz = member(self, "blockDim", 2);
                let n = bin(BinOp::Mul, bin(BinOp::Mul, bx, by, at), bz, at);
                let w1 = warp(self);
                let w2 = warp(self);
                bin(
                    BinOp::Div,
                    bin(BinOp::Sub, bin(BinOp::Add, n, w1, at), int_lit(1, at), at),
                    w2,
                    at,
                )
            }
            other => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!("built-in {other:?} is not a compute built-in the emulator has"),
                ))
            }
        })
    }

    fn arg_builtin(&self, i: u32) -> Option<BuiltIn> {
        if !self.entry_args {
            return None;
        }
        match self.func.arguments.get(i as usize)?.binding {
            Some(naga::Binding::BuiltIn(b)) => Some(b),
            _ => None,
        }
    }

    fn expr(&mut self, h: Handle<Expression>, depth: u32) -> Result<Expr, KernelError> {
        self.expr_c(h, None, depth)
    }

    /// Component `k` of the vector `h` (vectors are held by components: WGSL § Vector
    /// Expressions are component-wise); `h` itself when it is a scalar (`k` is ignored, so a
    /// scalar operand of a vector operation is read for each component).
    fn expr_c(
        &mut self,
        h: Handle<Expression>,
        k: Option<u32>,
        depth: u32,
    ) -> Result<Expr, KernelError> {
        let at = self.espan(h, ast::Span { line: 1, col: 1 });
        if depth > self.max_depth {
            return Err(depth_err(at, self.max_depth));
        }
        let k = match self.vector(h) {
            Some(_) => Some(k.ok_or_else(|| {
                KernelError::new(
                    at.line,
                    at.col,
                    "a whole vector here is not emulated yet (vectors are emulated component \
                     by component: in arithmetic, constructors, swizzles, loads and stores)",
                )
            })?),
            None => None,
        };
        if let Some(name) = self.baked.get(&h).cloned() {
            return Ok(match k {
                Some(k) => self.ident(&comp_name(&name, k), at),
                None => self.ident(&name, at),
            });
        }
        let d = depth + 1;
        Ok(match &self.func.expressions[h] {
            Expression::Literal(l) => literal(*l, at),
            Expression::Constant(c) => {
                let init = self.module().constants[*c].init;
                self.global_const(init, at)?
            }
            Expression::ZeroValue(_) => {
                let t = self.comp_ty(h, at)?;
                zero(t, at)
            }
            Expression::Splat { value, .. } => self.expr(*value, d)?,
            Expression::Swizzle {
                vector, pattern, ..
            } => {
                let c = pattern[k.unwrap_or(0) as usize] as u32;
                self.expr_c(*vector, Some(c), d)?
            }
            Expression::Compose { components, .. } if k.is_some() => {
                // `vec4(a.xy, b, c)`: the k-th scalar of the components laid end to end.
                let mut k = k.unwrap_or(0);
                let mut pick = None;
                for &c in components {
                    let n = self.vector(c).unwrap_or(1);
                    if k < n {
                        pick = Some((c, k));
                        break;
                    }
                    k -= n;
                }
                let (c, kk) = pick.ok_or_else(|| {
                    KernelError::new(at.line, at.col, "a vector constructor with too few values")
                })?;
                self.expr_c(c, Some(kk), d)?
            }
            Expression::FunctionArgument(i) => match self.arg_builtin(*i) {
                Some(b) => self.builtin_value(b, k, at)?,
                // A helper's parameter: the device function's parameter of its name.
                None if !self.entry_args => {
                    let name = self
                        .func
                        .arguments
                        .get(*i as usize)
                        .and_then(|a| a.name.clone())
                        .unwrap_or_else(|| format!("arg{i}"));
                    match k {
                        Some(c) => self.ident(&comp_name(&name, c), at),
                        None => self.ident(&name, at),
                    }
                }
                None => {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        "entry point arguments must be built-in values",
                    ))
                }
            },
            Expression::AccessIndex { base, index } => {
                if let Expression::FunctionArgument(i) = self.func.expressions[*base] {
                    if let Some(b) = self.arg_builtin(i) {
                        return self.builtin_value(b, Some(*index), at);
                    }
                }
                if self.is_ballot_expr(*base) || self.baked_ballot(*base) {
                    return self.ballot_component(*base, *index, at, d);
                }
                if matches!(
                    self.ty_inner(*base),
                    TypeInner::Pointer { .. } | TypeInner::ValuePointer { .. }
                ) {
                    self.place_c(h, k, d)?
                } else if self.vector(*base).is_some() {
                    self.expr_c(*base, Some(*index), d)?
                } else if let (Some(name), TypeInner::Struct { members, .. }) =
                    (self.baked.get(base).cloned(), self.ty_inner(*base))
                {
                    // A member of a held struct result (atomicCompareExchangeWeak's).
                    let member = members
                        .get(*index as usize)
                        .and_then(|m| m.name.clone())
                        .unwrap_or_default();
                    self.ident(&format!("{name}.{member}"), at)
                } else {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        "a component of a vector or struct value is not emulated yet",
                    ));
                }
            }
            Expression::Access { .. } => self.place_c(h, k, d)?,
            Expression::GlobalVariable(_) | Expression::LocalVariable(_) => {
                self.place_c(h, k, d)?
            }
            Expression::Load { pointer } => self.place_c(*pointer, k, d)?,
            Expression::Unary { op, expr } => {
                let e = self.expr_c(*expr, k, d)?;
                if *op == UnaryOperator::Negate
                    && matches!(self.comp_inner(h), TypeInner::Scalar(s) if s.kind == ScalarKind::Sint && s.width == 4)
                {
                    // WGSL: -MIN wraps to MIN (C: undefined): 0u - u32(e), reinterpreted.
                    return Ok(cast(
                        Scalar::I32,
                        bin(BinOp::Sub, int_lit(0, at), cast(Scalar::U32, e, at), at),
                        at,
                    ));
                }
                let op = match op {
                    UnaryOperator::Negate => UnOp::Neg,
                    UnaryOperator::LogicalNot => UnOp::Not,
                    UnaryOperator::BitwiseNot => UnOp::BitNot,
                };
                ex(ExprKind::Unary(op, Box::new(e)), at)
            }
            Expression::Binary { op, left, right } => {
                // Component-wise on vectors (WGSL § Arithmetic Expressions): component k of
                // each vector operand, a scalar operand as itself.
                let t = self.comp_inner(h);
                if !matches!(t, TypeInner::Scalar(_)) {
                    return Err(KernelError::new(
                        at.line,
                        at.col,
                        "matrix arithmetic is not emulated yet",
                    ));
                }
                let a = self.expr_c(*left, k, d)?;
                let mut b = self.expr_c(*right, k, d)?;
                let op = match op {
                    BinaryOperator::Add => BinOp::Add,
                    BinaryOperator::Subtract => BinOp::Sub,
                    BinaryOperator::Multiply => BinOp::Mul,
                    BinaryOperator::Divide => BinOp::Div,
                    BinaryOperator::Modulo => BinOp::Rem,
                    BinaryOperator::Equal => BinOp::Eq,
                    BinaryOperator::NotEqual => BinOp::Ne,
                    BinaryOperator::Less => BinOp::Lt,
                    BinaryOperator::LessEqual => BinOp::Le,
                    BinaryOperator::Greater => BinOp::Gt,
                    BinaryOperator::GreaterEqual => BinOp::Ge,
                    BinaryOperator::And => BinOp::And,
                    BinaryOperator::ExclusiveOr => BinOp::Xor,
                    BinaryOperator::InclusiveOr => BinOp::Or,
                    BinaryOperator::LogicalAnd => {
                        return Ok(ex(ExprKind::Logical(true, Box::new(a), Box::new(b)), at))
                    }
                    BinaryOperator::LogicalOr => {
                        return Ok(ex(ExprKind::Logical(false, Box::new(a), Box::new(b)), at))
                    }
                    BinaryOperator::ShiftLeft | BinaryOperator::ShiftRight => {
                        // WGSL § Bit Expressions: the shift count is taken modulo the width.
                        let bits = match t {
                            TypeInner::Scalar(s) => u64::from(s.width) * 8,
                            _ => 32,
                        };
                        b = bin(BinOp::And, b, int_lit(bits - 1, at), at);
                        if *op == BinaryOperator::ShiftLeft {
                            BinOp::Shl
                        } else {
                            BinOp::Shr
                        }
                    }
                };
                let int = match t {
                    TypeInner::Scalar(s)
                        if s.kind != ScalarKind::Float && s.kind != ScalarKind::Bool =>
                    {
                        Some(s)
                    }
                    _ => None,
                };
                let signed = int.is_some_and(|s| s.kind == ScalarKind::Sint);
                let e = match (op, int) {
                    // WGSL § Arithmetic Expressions: integer division by zero gives e1 and
                    // `%` gives 0, as do MIN / -1 and MIN % -1 (C calls them undefined):
                    // divide by 1 in those lanes, which gives exactly that.
                    (BinOp::Div | BinOp::Rem, Some(s)) => {
                        let ks = scalar_of(s).unwrap_or(Scalar::U32);
                        let b2 = self.expr_c(*right, k, d)?;
                        let mut bad = bin(BinOp::Eq, b2, cast(ks, int_lit(0, at), at), at);
                        if signed {
                            let a2 = self.expr_c(*left, k, d)?;
                            let b3 = self.expr_c(*right, k, d)?;
                            let min = literal(Literal::I32(i32::MIN), at);
                            let neg1 = literal(Literal::I32(-1), at);
                            let both = ex(
                                ExprKind::Logical(
                                    true,
                                    Box::new(bin(BinOp::Eq, a2, min, at)),
                                    Box::new(bin(BinOp::Eq, b3, neg1, at)),
                                ),
                                at,
                            );
                            bad = ex(ExprKind::Logical(false, Box::new(bad), Box::new(both)), at);
                        }
                        let divisor = ex(
                            ExprKind::Ternary(
                                Box::new(bad),
                                Box::new(cast(ks, int_lit(1, at), at)),
                                Box::new(b),
                            ),
                            at,
                        );
                        bin(op, a, divisor, at)
                    }
                    // WGSL: i32 arithmetic wraps (two's complement); C calls signed overflow
                    // undefined: compute in u32 and reinterpret.
                    (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl, Some(s))
                        if signed && s.width == 4 =>
                    {
                        cast(
                            Scalar::I32,
                            bin(op, cast(Scalar::U32, a, at), cast(Scalar::U32, b, at), at),
                            at,
                        )
                    }
                    _ => bin(op, a, b, at),
                };
                match t {
                    // C's comparisons give int; WGSL's give bool.
                    TypeInner::Scalar(s) if s.kind == ScalarKind::Bool => e,
                    TypeInner::Scalar(s) => match scalar_of(s) {
                        // C promotes f16 and small ints; WGSL keeps the operand type.
                        Some(k) => cast(k, e, at),
                        None => e,
                    },
                    _ => e,
                }
            }
            Expression::Select {
                condition,
                accept,
                reject,
            } => {
                let c = self.expr_c(*condition, k, d)?;
                let a = self.expr_c(*accept, k, d)?;
                let r = self.expr_c(*reject, k, d)?;
                ex(ExprKind::Ternary(Box::new(c), Box::new(a), Box::new(r)), at)
            }
            Expression::Math {
                fun,
                arg,
                arg1,
                arg2,
                ..
            } => {
                if *fun == MathFunction::Dot {
                    // WGSL § dot: the sum of the component products, in component order.
                    let t = self.scalar_ty(h, at)?;
                    let n = self.vector(*arg).unwrap_or(1);
                    let other = arg1.unwrap_or(*arg);
                    let mut sum: Option<Expr> = None;
                    for k in 0..n {
                        let x = self.expr_c(*arg, Some(k), d)?;
                        let y = self.expr_c(other, Some(k), d)?;
                        let p = cast(t.scalar, bin(BinOp::Mul, x, y, at), at);
                        sum = Some(match sum {
                            None => p,
                            Some(s) => cast(t.scalar, bin(BinOp::Add, s, p, at), at),
                        });
                    }
                    return sum.ok_or_else(|| KernelError::new(at.line, at.col, "empty dot"));
                }
                // The other math built-ins here are component-wise.
                let a = self.expr_c(*arg, k, d)?;
                let t = self.comp_ty(h, at)?;
                let c = |n: &str, v: Vec<Expr>| ex(ExprKind::Call(n.into(), v), at);
                let e = match fun {
                    MathFunction::Min | MathFunction::Max => {
                        let b = self.expr_c(arg1.unwrap_or(*arg), k, d)?;
                        let n = if *fun == MathFunction::Min {
                            "min"
                        } else {
                            "max"
                        };
                        c(n, vec![a, b])
                    }
                    MathFunction::Clamp => {
                        let lo = self.expr_c(arg1.unwrap_or(*arg), k, d)?;
                        let hi = self.expr_c(arg2.unwrap_or(*arg), k, d)?;
                        c("min", vec![c("max", vec![a, lo]), hi])
                    }
                    MathFunction::Abs => c("abs", vec![a]),
                    MathFunction::Sqrt => c("sqrt", vec![a]),
                    MathFunction::Floor => c("floor", vec![a]),
                    MathFunction::Ceil => c("ceil", vec![a]),
                    MathFunction::CountOneBits => c("__popc", vec![a]),
                    other => {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            format!("the math built-in {other:?} is not emulated yet"),
                        ))
                    }
                };
                cast(t.scalar, e, at)
            }
            Expression::As {
                expr,
                kind,
                convert,
            } => {
                let e = self.expr_c(*expr, k, d)?;
                let from = self.comp_ty(*expr, at)?.scalar;
                let to = self.comp_ty(h, at)?.scalar;
                match convert {
                    Some(_) => cast(to, e, at),
                    None => {
                        let name = match (from.is_float(), *kind) {
                            (true, ScalarKind::Uint) => Some("__float_as_uint"),
                            (true, ScalarKind::Sint) => Some("__float_as_int"),
                            (false, ScalarKind::Float) if from == Scalar::U32 => {
                                Some("__uint_as_float")
                            }
                            (false, ScalarKind::Float) => Some("__int_as_float"),
                            _ => None,
                        };
                        match name {
                            Some(n) if from.bits() == 32 && to.bits() == 32 => {
                                ex(ExprKind::Call(n.into(), vec![e]), at)
                            }
                            None => cast(to, e, at),
                            Some(_) => {
                                return Err(KernelError::new(
                                    at.line,
                                    at.col,
                                    "bitcast between these types is not emulated yet",
                                ))
                            }
                        }
                    }
                }
            }
            Expression::ArrayLength(p) => {
                let name = match &self.func.expressions[*p] {
                    Expression::GlobalVariable(g) => {
                        self.module().global_variables[*g].name.clone()
                    }
                    _ => None,
                }
                .unwrap_or_default();
                match self.lens.get(&name) {
                    Some(n) => int_lit(*n as u64, at),
                    None => {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            "arrayLength of this pointer is not emulated",
                        ))
                    }
                }
            }
            Expression::CallResult(_)
            | Expression::AtomicResult { .. }
            | Expression::SubgroupBallotResult
            | Expression::SubgroupOperationResult { .. }
            | Expression::WorkGroupUniformLoadResult { .. } => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    "a built-in's result used before its call",
                ))
            }
            other => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!("this expression ({}) is not emulated yet", expr_word(other)),
                ))
            }
        })
    }

    fn baked_ballot(&self, h: Handle<Expression>) -> bool {
        self.ballots.contains(&h)
    }

    /// Component `k` of a `subgroupBallot` result, held as a u64 of x (bits 0..32) and y
    /// (bits 32..64) by the registry op: x and y are its halves; z and w are 0 for subgroups
    /// of up to 64 invocations (the only ones whose ballot the u64 holds).
    fn ballot_component(
        &mut self,
        base: Handle<Expression>,
        k: u32,
        at: ast::Span,
        d: u32,
    ) -> Result<Expr, KernelError> {
        let b = self.expr(base, d)?;
        Ok(match k {
            0 => cast(
                Scalar::U32,
                bin(BinOp::And, b, int_lit(0xffff_ffff, at), at),
                at,
            ),
            1 => cast(Scalar::U32, bin(BinOp::Shr, b, int_lit(32, at), at), at),
            _ if self.lanes <= 64 => {
                let _ = b;
                int_lit(0, at)
            }
            _ => {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    "ballot components z, w (invocations 64..128) are not emulated yet; use a \
                     subgroup size of at most 64",
                ))
            }
        })
    }
}

/// The helper functions `entry` calls, directly or through other helpers (each visited once;
/// no recursion).
fn called_from(module: &naga::Module, entry: &naga::Function) -> HashSet<Handle<naga::Function>> {
    let mut seen = HashSet::new();
    let mut bodies = vec![&entry.body];
    while let Some(b) = bodies.pop() {
        let mut stack = vec![b];
        while let Some(b) = stack.pop() {
            for s in b.iter() {
                match s {
                    Statement::Call { function, .. } if seen.insert(*function) => {
                        bodies.push(&module.functions[*function].body);
                    }
                    Statement::If { accept, reject, .. } => {
                        stack.push(accept);
                        stack.push(reject);
                    }
                    Statement::Block(i) => stack.push(i),
                    Statement::Loop {
                        body, continuing, ..
                    } => {
                        stack.push(body);
                        stack.push(continuing);
                    }
                    Statement::Switch { cases, .. } => {
                        stack.extend(cases.iter().map(|c| &c.body));
                    }
                    _ => {}
                }
            }
        }
    }
    seen
}

/// Whether a case body has a `break` of its switch other than its last statement (one inside
/// an `if` or block of the case; a nested loop's or switch's own `break`s do not count).
fn early_break(body: &naga::Block) -> bool {
    let n = body.len();
    let mut stack: Vec<&naga::Block> = Vec::new();
    for (k, s) in body.iter().enumerate() {
        match s {
            Statement::Break if k + 1 < n => return true,
            Statement::If { accept, reject, .. } => {
                stack.push(accept);
                stack.push(reject);
            }
            Statement::Block(b) => stack.push(b),
            _ => {}
        }
    }
    while let Some(b) = stack.pop() {
        for s in b.iter() {
            match s {
                Statement::Break => return true,
                Statement::If { accept, reject, .. } => {
                    stack.push(accept);
                    stack.push(reject);
                }
                Statement::Block(b) => stack.push(b),
                _ => {}
            }
        }
    }
    false
}

/// Whether a case body has a `continue` (of the loop around the switch; a nested loop's own
/// do not count, a nested switch's do).
fn has_continue(body: &naga::Block) -> bool {
    let mut stack = vec![body];
    while let Some(b) = stack.pop() {
        for s in b.iter() {
            match s {
                Statement::Continue => return true,
                Statement::If { accept, reject, .. } => {
                    stack.push(accept);
                    stack.push(reject);
                }
                Statement::Block(b) => stack.push(b),
                Statement::Switch { cases, .. } => stack.extend(cases.iter().map(|c| &c.body)),
                _ => {}
            }
        }
    }
    false
}

fn depth_err(at: ast::Span, max: u32) -> KernelError {
    KernelError::new(
        at.line,
        at.col,
        format!(
            "expression nested deeper than the nesting limit of {max}; raise it with --max-depth"
        ),
    )
}

fn literal(l: Literal, at: ast::Span) -> Expr {
    let int = |v: u64, unsigned: bool, long: bool| {
        ex(
            ExprKind::Int {
                value: v,
                unsigned,
                long,
            },
            at,
        )
    };
    let neg_int = |v: i64, s: Scalar| {
        if v < 0 {
            cast(
                s,
                ex(
                    ExprKind::Unary(UnOp::Neg, Box::new(int(v.unsigned_abs(), false, true))),
                    at,
                ),
                at,
            )
        } else {
            cast(s, int(v as u64, false, s == Scalar::I64), at)
        }
    };
    match l {
        Literal::U32(v) => int(u64::from(v), true, false),
        Literal::U16(v) => cast(Scalar::U16, int(u64::from(v), true, false), at),
        Literal::I16(v) => neg_int(i64::from(v), Scalar::I16),
        Literal::I32(v) => neg_int(i64::from(v), Scalar::I32),
        Literal::U64(v) => int(v, true, true),
        Literal::I64(v) => neg_int(v, Scalar::I64),
        Literal::AbstractInt(v) => neg_int(v, Scalar::I64),
        Literal::F32(v) => ex(
            ExprKind::Float {
                value: f64::from(v),
                single: true,
            },
            at,
        ),
        Literal::F16(v) => cast(
            Scalar::F16,
            ex(
                ExprKind::Float {
                    value: f64::from(v.to_f32()),
                    single: true,
                },
                at,
            ),
            at,
        ),
        Literal::F64(v) | Literal::AbstractFloat(v) => ex(
            ExprKind::Float {
                value: v,
                single: false,
            },
            at,
        ),
        Literal::Bool(b) => ex(ExprKind::Bool(b), at),
    }
}

fn type_word(t: &TypeInner) -> &'static str {
    match t {
        TypeInner::Vector { .. } => "vector",
        TypeInner::Matrix { .. } => "matrix",
        TypeInner::Struct { .. } => "struct",
        TypeInner::Array { .. } => "array",
        TypeInner::Pointer { .. } | TypeInner::ValuePointer { .. } => "pointer",
        _ => "this",
    }
}

fn expr_word(e: &Expression) -> &'static str {
    match e {
        Expression::Compose { .. } => "a vector or struct constructor",
        Expression::Splat { .. } => "a vector splat",
        Expression::Swizzle { .. } => "a swizzle",
        Expression::Relational { .. } => "all/any",
        Expression::Derivative { .. } => "a derivative",
        Expression::ImageSample { .. } | Expression::ImageLoad { .. } => "a texture access",
        Expression::Override(_) => "an override",
        _ => "this kind",
    }
}
