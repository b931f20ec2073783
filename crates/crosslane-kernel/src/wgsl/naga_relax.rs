//! Two refusals of naga 30's validator that the WGSL spec and Tint (Chrome's compiler) do not
//! share, each answered by validating a *copy* of the module with the one rule the validator
//! gets wrong taken out of the way; the module the emulator lowers stays as parsed, and the
//! copy's [`naga::valid::ModuleInfo`] (each expression's type, in the same arenas) is used with
//! it.
//!
//! - `@builtin(subgroup_invocation_id)` or `@builtin(subgroup_id)` in an entry point whose
//!   `@workgroup_size` has a y or z above 1: naga 30 refuses it ("Workgroup size is multi
//!   dimensional"); the WGSL spec (§ Built-in Values, `subgroup_invocation_id`,
//!   `subgroup_id`) puts no such limit, and Tint accepts it (Dawn's
//!   `subgroup_id_nonlinear_workgroup.wgsl`, the WebGPU CTS subgroup tests at workgroup sizes
//!   such as 8×8×1 or 15×3×3). The copy's entry points get the flattened size `[x·y·z, 1, 1]`;
//!   the emulator maps invocations to subgroups by `local_invocation_index` as it does for
//!   every workgroup shape (SEMANTICS.md: the spec leaves the mapping to the device).
//! - A pointer parameter in the `storage`, `uniform` or `workgroup` address space: naga 30
//!   refuses any pointer parameter outside `function` and `private`; the WGSL language
//!   extension `unrestricted_pointer_parameters` (WGSL spec, § Language Extensions; Chrome
//!   ships it, and Tint accepts such shaders) allows them. In the copy, the parameter is
//!   replaced inside the function by the global variable the first call passes (same type),
//!   or, when that call passes a view into one (`f(&buf.v)`), by a stand-in global of the
//!   parameter's pointee type added to the copy, and dropped from the function's parameters
//!   and from every call of it; the emulator runs
//!   the module as written, where such a parameter points at the caller's cells
//!   (`lower/places.rs`, `pointer_kind`).

use naga::valid::{EntryPointError, FunctionError, ValidationError, VaryingError};
use naga::{AddressSpace, Expression, Function, Handle, Module, Statement};

/// Which of naga 30's refusals an error is, when it is one the copy can take out of the way.
pub enum Relax {
    /// A subgroup id built-in in an entry point with a 2-D or 3-D workgroup size.
    FlattenWorkgroups,
    /// Parameter `index` of function `function` is a pointer in the storage, uniform or
    /// workgroup address space.
    PointerParameter {
        /// The helper function.
        function: Handle<Function>,
        /// The parameter's index.
        index: u32,
    },
}

/// Classifies a validation error (see the module documentation).
pub fn classify(e: &ValidationError) -> Option<Relax> {
    match e {
        ValidationError::EntryPoint {
            source:
                EntryPointError::Argument(_, VaryingError::InvalidMultiDimensionalSubgroupBuiltIn),
            ..
        } => Some(Relax::FlattenWorkgroups),
        ValidationError::Function {
            handle,
            source:
                FunctionError::InvalidArgumentPointerSpace {
                    index,
                    space:
                        AddressSpace::Storage { .. } | AddressSpace::Uniform | AddressSpace::WorkGroup,
                    ..
                },
            ..
        } => Some(Relax::PointerParameter {
            function: *handle,
            index: *index as u32,
        }),
        _ => None,
    }
}

/// Applies one relaxation to the validation copy. Returns false when it cannot (nothing
/// changed, or no call passes a global variable for the parameter), so the caller reports
/// naga's error.
pub fn apply(copy: &mut Module, r: &Relax) -> bool {
    match *r {
        Relax::FlattenWorkgroups => {
            let mut changed = false;
            for ep in copy.entry_points.iter_mut() {
                let [x, y, z] = ep.workgroup_size;
                if y > 1 || z > 1 {
                    ep.workgroup_size = [x.saturating_mul(y).saturating_mul(z), 1, 1];
                    changed = true;
                }
            }
            changed
        }
        Relax::PointerParameter { function, index } => {
            drop_pointer_parameter(copy, function, index)
        }
    }
}

/// The global variable the first call of `callee` (in any function or entry point) passes as
/// argument `index`, when it is a global variable itself.
fn first_global_argument(
    module: &Module,
    callee: Handle<Function>,
    index: u32,
) -> Option<Handle<naga::GlobalVariable>> {
    let bodies = module
        .functions
        .iter()
        .map(|(_, f)| f)
        .chain(module.entry_points.iter().map(|ep| &ep.function));
    for f in bodies {
        let found = super::walk::find_statement(&f.body, |s, _| match s {
            Statement::Call {
                function,
                arguments,
                ..
            } if *function == callee => arguments.get(index as usize).copied(),
            _ => None,
        });
        if let Some(arg) = found {
            return match f.expressions[arg] {
                Expression::GlobalVariable(g) => Some(g),
                _ => None,
            };
        }
    }
    None
}

/// In the copy: `callee`'s parameter `index` becomes the global the first call passes, the
/// later parameters move down by one, and every call of `callee` drops that argument.
fn drop_pointer_parameter(copy: &mut Module, callee: Handle<Function>, index: u32) -> bool {
    let Some(global) =
        first_global_argument(copy, callee, index).or_else(|| stand_in_global(copy, callee, index))
    else {
        return false;
    };
    let f = &mut copy.functions[callee];
    if (index as usize) >= f.arguments.len() {
        return false;
    }
    f.arguments.remove(index as usize);
    for (_, e) in f.expressions.iter_mut() {
        if let Expression::FunctionArgument(i) = e {
            if *i == index {
                *e = Expression::GlobalVariable(global);
            } else if *i > index {
                *i -= 1;
            }
        }
    }
    for (_, f) in copy.functions.iter_mut() {
        drop_call_argument(&mut f.body, callee, index);
    }
    for ep in copy.entry_points.iter_mut() {
        drop_call_argument(&mut ep.function.body, callee, index);
    }
    true
}

/// A global of the parameter's pointee type and address space, added to the copy only, for a
/// parameter whose first call passes a view into a global rather than the whole variable
/// (`f(&buf.v)`, `f(&wg.w)`: WGSL § Memory Views; Tint accepts them). The copy validates the
/// callee's body against it (the same type as the parameter's pointer); the module as written
/// is lowered, where the pointer names the caller's cells (`lower/statements.rs`,
/// `pointer_argument`). A storage or uniform stand-in takes a binding no resource uses (the
/// copy is never bound to a pipeline).
fn stand_in_global(
    copy: &mut Module,
    callee: Handle<Function>,
    index: u32,
) -> Option<Handle<naga::GlobalVariable>> {
    let arg = copy.functions[callee].arguments.get(index as usize)?;
    let naga::TypeInner::Pointer { base, space } = copy.types[arg.ty].inner else {
        return None;
    };
    let binding = match space {
        AddressSpace::WorkGroup => None,
        AddressSpace::Storage { .. } | AddressSpace::Uniform => {
            let group = copy
                .global_variables
                .iter()
                .filter_map(|(_, g)| g.binding.as_ref().map(|b| b.group))
                .max()
                .map_or(0, |g| g.saturating_add(1));
            Some(naga::ResourceBinding {
                group,
                binding: index,
            })
        }
        _ => return None,
    };
    let g = naga::GlobalVariable {
        name: Some(format!("__crosslane_view{}", index)),
        space,
        binding,
        ty: base,
        init: None,
        memory_decorations: Default::default(),
    };
    Some(copy.global_variables.append(g, naga::Span::UNDEFINED))
}

/// Removes argument `index` from every call of `callee` in `block` and the blocks it holds
/// (a worklist of blocks, no recursion).
fn drop_call_argument(block: &mut naga::Block, callee: Handle<Function>, index: u32) {
    let mut work: Vec<&mut naga::Block> = vec![block];
    while let Some(b) = work.pop() {
        for s in b.iter_mut() {
            match s {
                Statement::Call {
                    function,
                    arguments,
                    ..
                } if *function == callee && (index as usize) < arguments.len() => {
                    arguments.remove(index as usize);
                }
                Statement::Block(inner) => work.push(inner),
                Statement::If { accept, reject, .. } => {
                    work.push(accept);
                    work.push(reject);
                }
                Statement::Loop {
                    body, continuing, ..
                } => {
                    work.push(body);
                    work.push(continuing);
                }
                Statement::Switch { cases, .. } => {
                    for c in cases.iter_mut() {
                        work.push(&mut c.body);
                    }
                }
                _ => {}
            }
        }
    }
}
