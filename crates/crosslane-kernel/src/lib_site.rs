//! Where a run-time diagnostic raised inside crosslane's library declarations is shown.
//!
//! The declarations crosslane lexes as headers (rocPRIM's, `parser/rocprim_prelude.rs`; CCCL's
//! warp shuffles, `parser/cccl_warp.rs`; `cub::Traits`, `parser/cub_traits.rs`) take columns
//! of their own past any source line ([`crate::ast::ROCPRIM_PRELUDE_COL`]): a statement of them
//! has no place in the user's file. The compiler records, for each inlined instance of such a
//! declaration called from the user's code, that call ([`LibSite`]: the calling statement, the
//! call's position and the library function's name); an instance the library calls in turn
//! keeps the outermost one. At run time a step or a diagnostic at a library position is shown
//! at that call, and a diagnostic's message names the library function it was raised in. A
//! library position with no such call (which the compiler does not make) is shown at column 1
//! of its line, never at a column past the line's end.

use std::collections::HashMap;

use crate::ast::{Function, Span, Stmt};
use crate::machine::StepDiag;

/// The user's call into library code that an inlined instance runs for.
#[derive(Clone, Debug)]
pub(crate) struct LibSite {
    /// The statement holding the call (start and end), where a library step is shown.
    pub(crate) stmt: (Span, Span),
    /// The call expression's position, where a library diagnostic is shown.
    pub(crate) at: Span,
    /// The library function the user's code called (as the front end names the instance:
    /// `warp_reduce<int,64,0>::reduce<plus<int>>`).
    pub(crate) name: String,
}

/// The compiler's record of library call sites ([`LibSite`]) by inlined instance.
#[derive(Clone, Debug, Default)]
pub(crate) struct LibSites {
    /// The user's statement being compiled now (the last one entered outside library code).
    stmt: Option<(Span, Span)>,
    /// Each inlined instance of library code (and what it calls) with the user's call.
    pub(crate) by_inst: HashMap<u32, LibSite>,
}

impl LibSites {
    /// A statement of instance `inst` is compiled: one of the user's own (outside library
    /// code) becomes the statement a library call in it is shown at.
    pub(crate) fn enter_stmt(&mut self, inst: u32, s: &Stmt) {
        if !self.by_inst.contains_key(&inst) && !s.span.in_library() {
            self.stmt = Some((s.span, s.end));
        }
    }

    /// Instance `inst` inlines `f`, called at `call` from instance `caller`: it runs for the
    /// caller's library call when the caller is library code, else for this call when `f` is a
    /// library declaration called from the user's code.
    pub(crate) fn enter_call(&mut self, caller: u32, inst: u32, call: Span, f: &Function) {
        if let Some(s) = self.by_inst.get(&caller).cloned() {
            self.by_inst.insert(inst, s);
        } else if !call.in_library() && f.span.in_library() {
            // The statement holding the call, else (a statement the front end made, such as a
            // hoisted temporary's declaration) the call's whole line.
            let key = |s: Span| (s.line, s.shown().col);
            let stmt = self
                .stmt
                .filter(|(a, b)| key(*a) <= key(call) && key(call) < key(*b))
                .unwrap_or((
                    Span {
                        line: call.line,
                        col: 1,
                    },
                    Span {
                        line: call.line,
                        col: crate::ast::ROCPRIM_PRELUDE_COL - 1,
                    },
                ));
            let site = LibSite {
                stmt,
                at: call,
                name: shown_name(&f.name),
            };
            self.by_inst.insert(inst, site);
        }
    }
}

/// A function's name as the user wrote it: the front end's overload marks (`#2` after the name
/// of a second overload, `striped_to_blocked#2<int>`) dropped.
fn shown_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '#' && chars.peek().is_some_and(char::is_ascii_digit) {
            while chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The words a diagnostic raised inside library code gains: which library function it was in,
/// shown at the user's call of it.
pub(crate) fn inside_note(name: &str) -> String {
    format!(" (inside the library function `{name}` called here)")
}

impl LibSites {
    /// An error of the compiler at `span` in instance `inst`: at a library position, moved to
    /// the user's call with the library function named (as [`relocate`] moves a run's).
    pub(crate) fn place(&self, inst: u32, span: Span, mut message: String) -> (Span, String) {
        if !span.in_library() {
            return (span, message);
        }
        match self.by_inst.get(&inst) {
            Some(site) => {
                message.push_str(&inside_note(&site.name));
                (site.at, message)
            }
            None => (
                Span {
                    line: span.line,
                    col: 1,
                },
                message,
            ),
        }
    }
}

/// A step at `span`..`end` of instance `inst`, with its diagnostics `diags`, placed in the
/// user's source: library positions moved to the user's call ([`LibSite`]), each moved
/// diagnostic naming the library function. Returns the step's position.
pub(crate) fn relocate(
    sites: &HashMap<u32, LibSite>,
    inst: u32,
    (span, end): (Span, Span),
    diags: &mut [StepDiag],
) -> (Span, Span) {
    let site = sites.get(&inst);
    let outside = |s: Span| Span {
        line: s.line,
        col: 1,
    };
    for d in diags.iter_mut().filter(|d| d.1.in_library()) {
        match site {
            Some(site) => {
                d.1 = site.at;
                let note = inside_note(&site.name);
                match d.2.find(" (e.g. ") {
                    Some(k) => d.2.insert_str(k, &note),
                    None => d.2.push_str(&note),
                }
            }
            None => d.1 = outside(d.1),
        }
    }
    match (span.in_library(), site) {
        (false, _) => (span, end),
        (true, Some(site)) => site.stmt,
        (true, None) => (outside(span), outside(span)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overload_marks_are_not_shown() {
        assert_eq!(
            shown_name("warp_exchange<int,2,16>::striped_to_blocked#2<int>"),
            "warp_exchange<int,2,16>::striped_to_blocked<int>"
        );
        assert_eq!(shown_name("a#b"), "a#b");
    }

    /// A compiler error at a library position of an instance with a recorded call is moved
    /// to that call and names the function; one with no call keeps its line at column 1; a
    /// user position is left as it is.
    #[test]
    fn compiler_errors_at_library_positions_are_placed() {
        let lib = Span {
            line: 3,
            col: crate::ast::ROCPRIM_PRELUDE_COL + 40,
        };
        let call = Span { line: 7, col: 12 };
        let mut sites = LibSites::default();
        sites.by_inst.insert(
            2,
            LibSite {
                stmt: (call, call),
                at: call,
                name: "warp_shuffle_idx<32,int>".into(),
            },
        );
        let (at, m) = sites.place(2, lib, "bad".into());
        assert_eq!(at, call);
        assert_eq!(
            m,
            "bad (inside the library function `warp_shuffle_idx<32,int>` called here)"
        );
        assert_eq!(
            sites.place(5, lib, "bad".into()).0,
            Span { line: 3, col: 1 }
        );
        assert_eq!(sites.place(2, call, "x".into()), (call, "x".to_string()));
    }
}
