//! The engine name of each function variable.
//!
//! naga hoists every `var` of a function to the function's `local_variables` (one handle per
//! declaration, WGSL § var Declarations), and the lowering declares them all at the top of the
//! function body. Two `var`s of one name in sibling scopes (`for (var d …) … for (var d …)`)
//! are two variables in WGSL (§ Declaration and Scope: each declaration is its own), so they
//! cannot share the engine name `d`: the later declaration would hide the earlier one from
//! every use, and both would read and write one cell. A hoisted `var` would likewise hide a
//! `let`, parameter or module-scope variable of the same name in scopes where WGSL sees that
//! one instead. So each local whose name is also the name of another local, a `let`, a
//! parameter or a module-scope variable is named `name#k` (k: 1, 2, … in declaration order;
//! `#` is no WGSL identifier character, so it never meets a user's name), and the trace shows
//! which declaration a value belongs to.

use std::collections::HashMap;

use naga::{Handle, LocalVariable};

/// Each local variable of `func` → its engine name (see the module comment).
pub(super) fn local_names(
    module: &naga::Module,
    func: &naga::Function,
) -> HashMap<Handle<LocalVariable>, String> {
    let plain = |h: Handle<LocalVariable>, lv: &LocalVariable| {
        lv.name
            .clone()
            .unwrap_or_else(|| format!("local{}", h.index()))
    };
    // How many locals carry each name, and whether another kind of name shares it.
    let mut count: HashMap<String, u32> = HashMap::new();
    for (h, lv) in func.local_variables.iter() {
        *count.entry(plain(h, lv)).or_insert(0) += 1;
    }
    let others = func
        .named_expressions
        .values()
        .cloned()
        .chain(func.arguments.iter().filter_map(|a| a.name.clone()))
        .chain(
            module
                .global_variables
                .iter()
                .filter_map(|(_, g)| g.name.clone()),
        );
    for n in others {
        if let Some(c) = count.get_mut(&n) {
            // Clashes with a non-local: number the locals even when only one carries it.
            *c = (*c).max(2);
        }
    }
    let mut seen: HashMap<String, u32> = HashMap::new();
    func.local_variables
        .iter()
        .map(|(h, lv)| {
            let n = plain(h, lv);
            let name = if count[&n] > 1 {
                let k = seen.entry(n.clone()).or_insert(0);
                *k += 1;
                format!("{n}#{k}")
            } else {
                n
            };
            (h, name)
        })
        .collect()
}
