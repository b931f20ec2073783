//! Host arrays cell by cell: the cells of a host array (`T h[N];` or one whose length host code
//! told) that host code reads and writes through a subscript, a pointer or a C library call,
//! each applied where it stands in the program, the other cells keeping what they hold.
//!
//! - A store through a subscript or a pointer, `h[i] = v`, `*(h + 1) = v`, `p[j] += v`, `*p =
//!   v` with `p` a pointer host code set to `h`, `h + N` or `&h[N]` (C++17 [expr.add]/4,
//!   [expr.unary.op]/1, [expr.sub]/1: `E1[E2]` is `*((E1)+(E2))`), evaluated with the host
//!   statements ([`super::host_eval`]) so that a loop's stores land in the cells they name; a
//!   cell read the same way gives its value (`std::swap(h[0], h[3])` read as three assignments).
//! - `memset(d, c, n)`: the first `n` bytes at `d` each become `(unsigned char)c` (C11
//!   7.24.6.1), the cells' bytes in the host's little-endian order (x86-64 psABI 3.1.2).
//! - `memcpy(d, s, n)`, `memmove(d, s, n)`: `n` bytes from `s` to `d`; copying between
//!   overlapping bytes is undefined for `memcpy` (C11 7.24.2.1/2), as if through a temporary
//!   for `memmove` (7.24.2.2/2).
//! - `std::copy(first, last, out)`, `std::copy_n(first, n, out)`: `*(out + i) = *(first + i)`
//!   in increasing `i`, `out` not in `[first, last)` ([alg.copy]/2-3); `std::fill(first, last,
//!   v)`, `std::fill_n(first, n, v)`, `std::iota(first, last, v)` over that range only
//!   ([alg.fill], [numeric.iota]).
//!
//! A cell nothing wrote stays undefined (C++17 [dcl.init]/12); a cell host code wrote keeps
//! its value until it is written again. What is not read here (a count with no constant value,
//! a range outside the array, an undefined copy) makes the array unknown, with the reason,
//! never a guess.

use std::collections::HashMap;

use super::const_eval::HostVal;
use super::host::{member_call, source_text, split_commas, HostState};
use super::Parser;
use crate::ast::{Expr, ExprKind};
use crate::lexer::Tok;
use crate::types::{BinOp, Scalar};

/// Most cells of one host array read cell by cell (a larger one is left to the other readers).
const MAX_CELLS: i128 = 1 << 20;

/// The host statement evaluator (host_eval's `eval_mut`): an expression's value over the
/// named host values, assigning into them.
pub(super) type EvalFn = fn(&Expr, &mut HashMap<String, HostVal>) -> Option<HostVal>;

/// The text of a cell nothing wrote.
const UNDEF: &str = "undef";

/// The cells one host evaluation ([`super::host_eval`]) reads and writes: copies of the host
/// arrays its statement names, the pointers into them, and the arrays it wrote.
#[derive(Default)]
pub(super) struct RunCells {
    arrays: HashMap<String, (Vec<String>, Scalar)>,
    ptrs: HashMap<String, (String, i128)>,
    written: Vec<String>,
}

impl RunCells {
    /// How many cells host array (or `std::vector`) `h` holds now, when its cells are read in
    /// this evaluation (`h.size()`, C++17 [vector.capacity]).
    pub(super) fn len_of(&self, h: &str) -> Option<usize> {
        self.arrays.get(h).map(|(v, _)| v.len())
    }

    /// Whether host array `h`'s cells are read in this evaluation.
    pub(super) fn has_array(&self, h: &str) -> bool {
        self.arrays.contains_key(h)
    }

    /// `h.push_back(v)` / `h.emplace_back(v)` (C++17 [vector.modifiers]: appends `v`, converted
    /// to the element type), `h.reserve(n)` / `h.shrink_to_fit()` (no change), `h.clear()` or
    /// `h.resize(n[, v])` ([vector.capacity]/15: the new cells are
    /// value-initialized, 0, or copies of `v`; cells past `n` are erased) on host vector `h`'s
    /// cells, `vals` the arguments' values.
    pub(super) fn vec_member(&mut self, h: &str, m: &str, vals: &[HostVal]) -> Result<(), String> {
        let Some((v, s)) = self.arrays.get_mut(h) else {
            return Err(format!("`{h}` has no cells read here"));
        };
        let s = *s;
        let conv = |x: HostVal| {
            x.convert(s).and_then(HostVal::text).ok_or_else(|| {
                format!(
                    "the value stored in `{h}` does not convert to its element type \
                     (undefined, C++17 [conv.fpint]/1)"
                )
            })
        };
        let full = || format!("`{h}` grows past {MAX_CELLS} cells read here");
        match (m, vals) {
            ("push_back" | "emplace_back", [x]) => {
                if v.len() as i128 >= MAX_CELLS {
                    return Err(full());
                }
                v.push(conv(*x)?);
            }
            ("resize", [n, rest @ ..]) if rest.len() <= 1 => {
                let n = n
                    .int()
                    .filter(|n| (0..=MAX_CELLS).contains(n))
                    .ok_or_else(full)?;
                let fill = conv(rest.first().copied().unwrap_or(HostVal::Int(0)))?;
                v.resize(usize::try_from(n).map_err(|_| full())?, fill);
            }
            // [vector.capacity]/3, /9: `reserve` and `shrink_to_fit` leave the elements as
            // they are (only the capacity changes).
            ("reserve", [_]) | ("shrink_to_fit", []) => return Ok(()),
            // [sequence.reqmts]: `clear()` erases every element.
            ("clear", []) => v.clear(),
            _ => return Err(format!("`{h}.{m}(…)` is not read here")),
        }
        if !self.written.iter().any(|w| w == h) {
            self.written.push(h.to_string());
        }
        Ok(())
    }
}

/// Cell `i` of a host array: the array's length, its element type, and the cell's text (`None`
/// when `i` is outside the array); `None` for no array read here.
type CellOf<'a> = dyn Fn(&str, usize) -> Option<(usize, Scalar, Option<String>)> + 'a;

/// A cell bound as a name for one evaluation: the name, its array, its index, and the text it
/// held.
struct Bound {
    name: String,
    arr: String,
    at: usize,
    old: String,
}

/// The value of cell text `t` in scalar type `s`; `None` for a cell without a value.
fn cell_val(t: &str, s: Scalar) -> Option<HostVal> {
    let v = match t.parse::<i128>() {
        Ok(n) => HostVal::Int(n),
        Err(_) => HostVal::Float(t.parse::<f64>().ok().filter(|x| x.is_finite())?),
    };
    v.convert(s)
}

/// The bytes of cell text `t` of type `s` (`eb` bytes), little-endian: `Ok(None)` for a cell
/// without a value, `Err` for a type whose bytes are not modelled here.
fn cell_bytes(t: &str, s: Scalar, eb: usize) -> Result<Option<Vec<u8>>, ()> {
    if !byte_type(s, eb) {
        return Err(());
    }
    let Some(v) = cell_val(t, s) else {
        return Ok(None);
    };
    let b = match (s, v) {
        (Scalar::F32, HostVal::F32(x)) => x.to_bits().to_le_bytes().to_vec(),
        (Scalar::F64, HostVal::Float(x)) => x.to_bits().to_le_bytes().to_vec(),
        (_, v) if !s.is_float() => {
            let n = v.int().ok_or(())?;
            (n as u128).to_le_bytes()[..eb].to_vec()
        }
        _ => return Err(()),
    };
    Ok(Some(b))
}

/// Whether cells of type `s` of `eb` bytes are read as bytes here: the integer types and IEEE
/// `float` and `double`.
fn byte_type(s: Scalar, eb: usize) -> bool {
    let bits = match s {
        Scalar::F32 => 32,
        Scalar::F64 => 64,
        // `bool`: one byte, 0 or 1 (x86-64 psABI 3.1.2: only the low bit, the rest zero).
        Scalar::Bool => 8,
        s if s.is_float() => return false,
        s => s.bits(),
    };
    usize::try_from(bits / 8).ok() == Some(eb) && eb > 0
}

/// The cell text of `bytes` (little-endian) in type `s`; `None` when they are no value host
/// code's fill carries (a NaN or infinity pattern).
fn bytes_cell(bytes: &[u8], s: Scalar) -> Option<String> {
    match s {
        Scalar::F32 => {
            let x = f32::from_le_bytes(bytes.try_into().ok()?);
            x.is_finite().then(|| HostVal::F32(x).text())?
        }
        Scalar::F64 => {
            let x = f64::from_le_bytes(bytes.try_into().ok()?);
            x.is_finite().then(|| HostVal::Float(x).text())?
        }
        Scalar::Bool => match bytes {
            [b @ (0 | 1)] => Some(b.to_string()),
            _ => None,
        },
        s => {
            let mut w = [0u8; 16];
            w[..bytes.len()].copy_from_slice(bytes);
            let n = u128::from_le_bytes(w) as i128;
            HostVal::Int(n).convert(s)?.text()
        }
    }
}

impl Parser<'_> {
    /// The element type of host array `n` when its cells are read one by one here: a one-
    /// dimensional array of an arithmetic type whose length host code told, not unknown.
    fn cell_array(&self, st: &HostState, n: &str) -> Option<Scalar> {
        let s = *self.host_scalars.get(n)?;
        // Unknown unless a fill came after what made it so (a fill replaces every cell).
        let unknown = st.unknown.contains_key(n) && !st.fills.contains_key(n);
        if st.cols.contains_key(n) || unknown || n.contains('.') {
            return None;
        }
        (st.fills.contains_key(n) || st.arrays.contains_key(n)).then_some(s)
    }

    /// Host array `n`'s cells now: its fill, else its declared length of cells nothing wrote.
    fn cells_now(st: &HostState, n: &str) -> Option<Vec<String>> {
        // The declared length, when told: a fill of the first cells leaves the others as they
        // were (undefined when nothing wrote them).
        let len = match st.arrays.get(n) {
            Some(&len) if (0..=MAX_CELLS).contains(&len) => Some(usize::try_from(len).ok()?),
            Some(_) => return None,
            None => None,
        };
        let mut v = match st.fills.get(n) {
            Some((v, _)) => v.clone(),
            None => Vec::new(),
        };
        match len {
            Some(len) if len > v.len() => v.resize(len, UNDEF.to_string()),
            None if v.is_empty() => return None,
            _ => {}
        }
        Some(v)
    }

    /// The pointer host code set `p` to, into a host array: the array and the element.
    fn host_cell_ptr(st: &HostState, p: &str) -> Option<(String, i128)> {
        if st.unknown.contains_key(p) || st.ptrs.contains_key(p) {
            return None;
        }
        st.host_array_ptrs.get(p).cloned()
    }

    /// The host array and element a pointer expression `e` points at: `h`, `p`, `X + N`,
    /// `N + X`, `X - N`, `&X[N]` with `N` a host constant under `env`.
    fn cell_base(
        &self,
        e: &Expr,
        env: &HashMap<String, HostVal>,
        look: &dyn Fn(&str) -> Option<(String, i128)>,
    ) -> Option<(String, i128)> {
        let fold = |x: &Expr| self.host_fold(x, env).and_then(HostVal::int);
        match &e.kind {
            ExprKind::Ident(n) => look(n),
            ExprKind::Binary(BinOp::Add, a, b) => match self.cell_base(a, env, look) {
                Some((h, o)) => Some((h, o.checked_add(fold(b)?)?)),
                None => {
                    let (h, o) = self.cell_base(b, env, look)?;
                    Some((h, o.checked_add(fold(a)?)?))
                }
            },
            ExprKind::Binary(BinOp::Sub, a, b) => {
                let (h, o) = self.cell_base(a, env, look)?;
                Some((h, o.checked_sub(fold(b)?)?))
            }
            ExprKind::AddrOf(x) => match &x.kind {
                ExprKind::Index(a, j) => {
                    let (h, o) = self.cell_base(a, env, look)?;
                    Some((h, o.checked_add(fold(j)?)?))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// The array and element host expression `a..b` points at (see [`Self::cell_base`]); also
    /// `std::begin(h)`, `std::end(h)`, `h.data()`.
    pub(super) fn host_cells_at(
        &mut self,
        st: &HostState,
        a: usize,
        b: usize,
    ) -> Option<(String, i128)> {
        let toks = self.toks;
        let words: Vec<&Tok> = toks.get(a..b)?.iter().map(|t| &t.tok).collect();
        if let [Tok::Ident(s), Tok::Punct("::"), Tok::Ident(f), Tok::Punct("("), Tok::Ident(n), Tok::Punct(")")] =
            words.as_slice()
        {
            if s == "std" && (f == "begin" || f == "end") {
                self.cell_array(st, n)?;
                let len = Self::cells_now(st, n)?.len();
                let at = if f == "end" { len as i128 } else { 0 };
                return Some((n.clone(), at));
            }
        }
        if let Some(n) = member_call(&toks[a..b], "data") {
            self.cell_array(st, &n)?;
            return Some((n, 0));
        }
        let e = self.sub_expr(a, b)?;
        let look = |n: &str| match self.cell_array(st, n) {
            Some(_) => Some((n.to_string(), 0)),
            None => Self::host_cell_ptr(st, n),
        };
        self.cell_base(&e, &st.env, &look)
    }

    /// `e` with each cell of a host array it reads (`h[j]`, `*(h + j)`, `p[j]`, `*p`) replaced
    /// by its name `h[j]`, and the host variables with those names bound to the cells' values;
    /// `None` when it reads no such cell. For `host_value`: reads only.
    pub(super) fn bind_host_cells(
        &self,
        st: &HostState,
        e: &Expr,
    ) -> Option<(Expr, HashMap<String, HostVal>)> {
        if st.fills.is_empty() {
            return None;
        }
        let look = |n: &str| match self.cell_array(st, n) {
            Some(_) => Some((n.to_string(), 0)),
            None => Self::host_cell_ptr(st, n),
        };
        let cells = |n: &str, i: usize| -> Option<(usize, Scalar, Option<String>)> {
            let s = self.cell_array(st, n)?;
            let fill = st.fills.get(n).map(|f| f.0.as_slice()).unwrap_or(&[]);
            let declared = match st.arrays.get(n) {
                Some(&l) => usize::try_from(l).ok()?,
                None => 0,
            };
            let len = fill.len().max(declared);
            let text = (i < len).then(|| fill.get(i).cloned().unwrap_or_else(|| UNDEF.to_string()));
            Some((len, s, text))
        };
        if !e.walk().any(|x| match &x.kind {
            ExprKind::Index(a, _) | ExprKind::Deref(a) => {
                self.cell_base(a, &st.env, &look).is_some()
            }
            _ => false,
        }) {
            return None;
        }
        let mut out = e.clone();
        let mut env = st.env.clone();
        let mut bound = Vec::new();
        self.bind_in(&mut out, &mut env, &look, &cells, &mut bound)
            .ok()?;
        Some((out, env))
    }

    /// Binds the cells under `e` (see [`Self::bind_host_cells`]), recording each in `bound`.
    /// Recursion only as deep as the parsed expression (the parser bounds its depth).
    fn bind_in(
        &self,
        e: &mut Expr,
        env: &mut HashMap<String, HostVal>,
        look: &dyn Fn(&str) -> Option<(String, i128)>,
        cells: &CellOf<'_>,
        bound: &mut Vec<Bound>,
    ) -> Result<(), String> {
        // `&h[2]` is a pointer, not a read of the cell.
        if matches!(e.kind, ExprKind::AddrOf(_)) {
            return Ok(());
        }
        let target = match &mut e.kind {
            ExprKind::Index(a, j) => match self.cell_base(a, env, look) {
                Some((h, o)) => {
                    self.bind_in(j, env, look, cells, bound)?;
                    let at = self
                        .host_fold(j, env)
                        .and_then(HostVal::int)
                        .ok_or_else(|| format!("the index of `{h}` has no constant value"))?;
                    Some((h, o.checked_add(at).ok_or("an index out of range")?))
                }
                None => None,
            },
            ExprKind::Deref(a) => self.cell_base(a, env, look),
            _ => None,
        };
        let Some((h, at)) = target else {
            let mut r = Ok(());
            e.kind.for_each_child_mut(|c| {
                if r.is_ok() {
                    r = self.bind_in(c, env, look, cells, bound);
                }
            });
            return r;
        };
        let i = usize::try_from(at).unwrap_or(usize::MAX);
        let (len, s, text) = cells(&h, i).ok_or_else(|| format!("`{h}` has no cells read here"))?;
        let Some(text) = text else {
            return Err(format!(
                "it reaches `{h}[{at}]`, outside its {len} cells (undefined behavior, C++17 \
                 [expr.add]/4)"
            ));
        };
        let name = format!("{h}[{i}]");
        match cell_val(&text, s) {
            Some(v) => env.insert(name.clone(), v),
            None => env.remove(&name),
        };
        bound.push(Bound {
            name: name.clone(),
            arr: h,
            at: i,
            old: text,
        });
        e.kind = ExprKind::Ident(name);
        Ok(())
    }

    /// The cells host statement `k..end` may read or write: copies of the host arrays it names
    /// and of those its pointers point into.
    pub(super) fn run_cells(&self, st: &HostState, k: usize, end: usize) -> RunCells {
        let mut out = RunCells::default();
        for t in self.toks.get(k..end).unwrap_or(&[]) {
            let Tok::Ident(n) = &t.tok else { continue };
            let arr = match Self::host_cell_ptr(st, n) {
                Some((h, o)) => {
                    out.ptrs.insert(n.clone(), (h.clone(), o));
                    h
                }
                None => n.clone(),
            };
            if out.arrays.contains_key(&arr) {
                continue;
            }
            if let (Some(s), Some(v)) = (self.cell_array(st, &arr), Self::cells_now(st, &arr)) {
                out.arrays.insert(arr, (v, s));
            }
        }
        out
    }

    /// The host arrays statement `k..end` may write through a pointer (`*(h + 1) = v`, `*p =
    /// v`, `p[0] = v`): made unknown when the statement is not evaluated.
    pub(super) fn pointer_targets(&self, st: &HostState, k: usize, end: usize) -> Vec<String> {
        let toks = self.toks.get(k..end).unwrap_or(&[]);
        let mut out: Vec<String> = Vec::new();
        for (i, t) in toks.iter().enumerate() {
            let Tok::Ident(n) = &t.tok else { continue };
            let arr = match Self::host_cell_ptr(st, n) {
                Some((h, _)) => h,
                None if self.cell_array(st, n).is_some()
                    && !matches!(toks.get(i + 1).map(|t| &t.tok), Some(Tok::Punct("["))) =>
                {
                    n.clone()
                }
                None => continue,
            };
            if !out.contains(&arr) {
                out.push(arr);
            }
        }
        out
    }

    /// Evaluates `e` with `eval` (host_eval's `eval_mut`, passed in so that this module does
    /// not name the evaluator that names it) with the cells of `cells` bound, and stores back
    /// each cell it assigned, converted to the array's element type ([expr.ass]/3).
    pub(super) fn eval_cells(
        &self,
        e: &Expr,
        env: &mut HashMap<String, HostVal>,
        cells: &mut RunCells,
        eval: EvalFn,
    ) -> Result<Option<HostVal>, String> {
        if cells.arrays.is_empty() {
            return Ok(eval(&self.fold_helper_calls(e, env), env));
        }
        let mut out = e.clone();
        let mut bound = Vec::new();
        let r = {
            let arrays = &cells.arrays;
            let ptrs = &cells.ptrs;
            let look = |n: &str| {
                if arrays.contains_key(n) {
                    Some((n.to_string(), 0))
                } else {
                    ptrs.get(n).cloned()
                }
            };
            let get = |n: &str, i: usize| {
                let (v, s) = arrays.get(n)?;
                Some((v.len(), *s, v.get(i).cloned()))
            };
            self.bind_in(&mut out, env, &look, &get, &mut bound)
        };
        let v = match r {
            Ok(()) => eval(&self.fold_helper_calls(&out, env), env),
            Err(why) => {
                for b in &bound {
                    env.remove(&b.name);
                }
                return Err(why);
            }
        };
        let mut failed = None;
        for b in bound {
            let Some(new) = env.remove(&b.name) else {
                continue;
            };
            let Some((values, s)) = cells.arrays.get_mut(&b.arr) else {
                continue;
            };
            if cell_val(&b.old, *s).and_then(HostVal::text) == new.text() {
                continue;
            }
            match new.convert(*s).and_then(HostVal::text) {
                Some(t) => {
                    values[b.at] = t;
                    if !cells.written.contains(&b.arr) {
                        cells.written.push(b.arr.clone());
                    }
                }
                None => {
                    failed = Some(format!(
                        "the value stored in `{}` does not convert to its element type \
                         (undefined, C++17 [conv.fpint]/1)",
                        b.name
                    ));
                }
            }
        }
        match failed {
            Some(why) => Err(why),
            None => Ok(v),
        }
    }

    /// After an evaluation succeeded: the arrays it wrote hold their new cells, filled at
    /// `line`.
    pub(super) fn commit_cells(st: &mut HostState, cells: RunCells, line: u32) {
        let RunCells {
            mut arrays,
            written,
            ..
        } = cells;
        for h in written {
            if let Some((v, _)) = arrays.remove(&h) {
                st.unknown.remove(&h);
                // A vector's `push_back` / `resize`: its length is the cells' count.
                if let Some(len) = st.arrays.get_mut(&h) {
                    *len = v.len() as i128;
                }
                st.fills.insert(h, (v, line));
            }
        }
    }

    /// An expression statement at `k` that stores into a host array's cell through a pointer
    /// or with an operator other than `=` (`*(h + 1) = v;`, `*p = v;`, `p[1] = v;`, `h[i] +=
    /// v;`, `++*p;`): evaluated ([`super::host_eval`]). `None` for any other statement.
    pub(super) fn host_cells_stmt(
        &mut self,
        st: &mut HostState,
        k: usize,
        close: usize,
    ) -> Option<usize> {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        let ours = match tok(k)? {
            Tok::Punct("*") => true,
            // `++*p;`, `--*(h + 1);`.
            Tok::Punct("++" | "--") => matches!(tok(k + 1), Some(Tok::Punct("*"))),
            Tok::Ident(n) => {
                (matches!(tok(k + 1), Some(Tok::Punct("[")))
                    && (self.cell_array(st, n).is_some() || Self::host_cell_ptr(st, n).is_some()))
                    // `h.push_back(v);`, `h.resize(n);` of a host vector.
                    || (matches!(tok(k + 1), Some(Tok::Punct(".")))
                        && matches!(tok(k + 2), Some(Tok::Ident(m))
                            if matches!(m.as_str(), "push_back" | "emplace_back" | "resize"
                                | "reserve" | "shrink_to_fit" | "clear"))
                        && self.cell_array(st, n).is_some())
            }
            _ => false,
        };
        if !ours {
            return None;
        }
        let end = self.stmt_extent(k, close)?;
        if super::host::launches_in(&toks[k..end]) {
            return None;
        }
        // `*m = v;` of managed memory no launch was given yet: its cell 0 (`m[0] = v`).
        if let (Some(Tok::Punct("*")), Some(Tok::Ident(m)), Some(Tok::Punct("="))) =
            (tok(k), tok(k + 1), tok(k + 2))
        {
            let m = m.clone();
            // `end` is past the statement's `;`.
            let value = self
                .host_value(st, k + 3, end.saturating_sub(1))
                .and_then(HostVal::text);
            if self.managed_first_cell(st, &m, Some(0), value) {
                if let Some(f) = st.fills.get_mut(&m) {
                    f.1 = toks[k].line;
                }
                return Some(end);
            }
        }
        self.host_eval_stmt(st, k, end)
    }

    /// `T *p = X;` or `p = X;` over `k..end` with `X` a pointer into a host array whose cells
    /// are read here: records where `p` points; `true` when the statement was taken. An
    /// assignment of anything else to a pointer recorded forgets it.
    pub(super) fn host_cells_ptr_assign(
        &mut self,
        st: &mut HostState,
        k: usize,
        end: usize,
    ) -> bool {
        let toks = self.toks;
        let tok = |i: usize| toks.get(i).map(|t| &t.tok);
        let Some(eq) = (k..end).find(|&i| matches!(tok(i), Some(Tok::Punct("=")))) else {
            return false;
        };
        let Some(Tok::Ident(name)) = eq.checked_sub(1).and_then(tok) else {
            return false;
        };
        let name = name.clone();
        // `p = X`, or a declaration `T *p = X` (words, then one `*`).
        let lhs: Vec<&Tok> = toks[k..eq - 1].iter().map(|t| &t.tok).collect();
        let decl = matches!(lhs.last(), Some(Tok::Punct("*")))
            && lhs[..lhs.len() - 1]
                .iter()
                .all(|t| matches!(t, Tok::Ident(_) | Tok::Punct("::")));
        if !(lhs.is_empty() || decl)
            || (k..end).any(|i| matches!(tok(i), Some(Tok::Punct(","))) && eq > i)
        {
            return false;
        }
        match self.host_cells_at(st, eq + 1, end) {
            Some(v) => {
                st.host_array_ptrs.insert(name.clone(), v);
                st.unknown.remove(&name);
                st.ptrs.remove(&name);
                st.env.remove(&name);
                true
            }
            None => {
                st.host_array_ptrs.remove(&name);
                false
            }
        }
    }
}

impl Parser<'_> {
    /// A statement `k..end` the host reading does not otherwise follow that passes a pointer
    /// into a host array to a call (`init(p, n)`, `fread(p, …)`): the call may write the array
    /// through it, so the array's cells are no longer known (as `host_mem`'s `note_escapes`
    /// does for the array's own name).
    pub(super) fn host_ptr_escapes(&mut self, st: &mut HostState, k: usize, end: usize) {
        let toks = self.toks;
        let Some(part) = toks.get(k..end) else { return };
        if st.host_array_ptrs.is_empty()
            || super::host::launches_in(part)
            || part.iter().any(|t| {
                matches!(&t.tok, Tok::Ident(n) if super::host::READ_CALLS.contains(&n.as_str())
                    || matches!(n.as_str(), "printf" | "fprintf" | "free" | "delete" | "return"))
            })
        {
            return;
        }
        let line = toks[k].line;
        for (i, t) in part.iter().enumerate() {
            let Tok::Ident(n) = &t.tok else { continue };
            let arg = i > 0 && matches!(part[i - 1].tok, Tok::Punct("(" | ","));
            let Some((h, _)) = Self::host_cell_ptr(st, n).filter(|_| arg) else {
                continue;
            };
            let why = format!(
                "`{}` at line {line} is given `{n}`, a pointer into it, and may write it",
                source_text(part)
            );
            Self::mark_unknown(st, std::slice::from_ref(&h), &why);
        }
    }

    /// A C library or `<algorithm>` call over host arrays (see the module doc) whose name is
    /// `f` and whose parentheses open at `open`. `false` when its destination is no host array
    /// read cell by cell here (left to the other readers).
    pub(super) fn host_cells_call(&mut self, st: &mut HostState, f: &str, open: usize) -> bool {
        let toks = self.toks;
        if !matches!(toks.get(open).map(|t| &t.tok), Some(Tok::Punct("("))) {
            return false;
        }
        let Some(c) = self.closing(open) else {
            return false;
        };
        let parts = split_commas(toks, open + 1, c);
        let dst_arg = match f {
            "memset" | "memcpy" | "memmove" | "fill" | "fill_n" | "iota" => parts.first(),
            "copy" => parts.get(2),
            "copy_n" => parts.get(2),
            _ => return false,
        };
        let Some(&(da, db)) = dst_arg else {
            return false;
        };
        let Some((dst, doff)) = self.host_cells_at(st, da, db) else {
            return false;
        };
        let line = toks[open].line;
        let call = format!("`{f}({})` at line {line}", source_text(&toks[open + 1..c]));
        let r = match f {
            "memset" => self.cells_memset(st, &parts, (&dst, doff)),
            "memcpy" | "memmove" => self.cells_memcpy(st, f, &parts, (&dst, doff)),
            "copy" | "copy_n" => self.cells_copy(st, f, &parts, (&dst, doff)),
            _ => self.cells_fill(st, f, &parts, (&dst, doff)),
        };
        match r {
            Ok(cells) => {
                st.unknown.remove(&dst);
                st.fills.insert(dst, (cells, line));
            }
            Err(why) => {
                let reason = format!("{call} is not read here: {why}");
                Self::mark_unknown(st, std::slice::from_ref(&dst), &reason);
            }
        }
        true
    }

    /// An integer argument `p` of a call.
    fn int_arg(&mut self, st: &HostState, p: Option<&(usize, usize)>) -> Result<i128, String> {
        let &(a, b) = p.ok_or("an argument is missing")?;
        self.host_value(st, a, b)
            .and_then(HostVal::int)
            .ok_or_else(|| format!("`{}` has no constant value", source_text(&self.toks[a..b])))
    }

    /// Array `h`'s cells, type and element bytes.
    fn cells_typed(&self, st: &HostState, h: &str) -> Result<(Vec<String>, Scalar, usize), String> {
        let s = self
            .cell_array(st, h)
            .ok_or_else(|| format!("the cells of `{h}` are not known here"))?;
        let v =
            Self::cells_now(st, h).ok_or_else(|| format!("the length of `{h}` is not known"))?;
        let eb = self
            .host_elems
            .get(h)
            .and_then(|&b| usize::try_from(b).ok())
            .ok_or_else(|| format!("the element size of `{h}` is not known"))?;
        Ok((v, s, eb))
    }

    /// `memset(d, c, n)`.
    fn cells_memset(
        &mut self,
        st: &HostState,
        parts: &[(usize, usize)],
        (dst, doff): (&str, i128),
    ) -> Result<Vec<String>, String> {
        let c = self.int_arg(st, parts.get(1))?;
        let n = self.int_arg(st, parts.get(2))?;
        let (mut cells, s, eb) = self.cells_typed(st, dst)?;
        let byte = (c & 0xff) as u8;
        let start = doff.checked_mul(eb as i128).ok_or("a size out of range")?;
        write_bytes(&mut cells, s, eb, start, n, |_| Some(byte))?;
        Ok(cells)
    }

    /// `memcpy(d, s, n)` / `memmove(d, s, n)`.
    fn cells_memcpy(
        &mut self,
        st: &HostState,
        f: &str,
        parts: &[(usize, usize)],
        (dst, doff): (&str, i128),
    ) -> Result<Vec<String>, String> {
        let &(sa, sb) = parts.get(1).ok_or("an argument is missing")?;
        let (src, soff) = self.host_cells_at(st, sa, sb).ok_or_else(|| {
            format!(
                "its source `{}` is no host array read here",
                source_text(&self.toks[sa..sb])
            )
        })?;
        let n = self.int_arg(st, parts.get(2))?;
        let (mut cells, s, eb) = self.cells_typed(st, dst)?;
        let (from, ss, seb) = self.cells_typed(st, &src)?;
        let d0 = doff.checked_mul(eb as i128).ok_or("a size out of range")?;
        let s0 = soff.checked_mul(seb as i128).ok_or("a size out of range")?;
        let dlen = (cells.len() * eb) as i128;
        let slen = (from.len() * seb) as i128;
        if n < 0 || d0 < 0 || s0 < 0 || d0 + n > dlen || s0 + n > slen {
            return Err(format!(
                "it reaches outside `{dst}` ({dlen} bytes) or `{src}` ({slen} bytes) (undefined \
                 behavior, C11 7.24.1/1)"
            ));
        }
        if f == "memcpy" && src == dst && d0 < s0 + n && s0 < d0 + n && n > 0 {
            return Err(
                "its source and destination overlap (undefined behavior, C11 \
                        7.24.2.1/2; memmove copies overlapping bytes)"
                    .to_string(),
            );
        }
        // Whole cells of one type: their texts (any mark a cell carries goes with it).
        if s == ss
            && eb == seb
            && d0 % eb as i128 == 0
            && s0 % eb as i128 == 0
            && n % eb as i128 == 0
        {
            let (d, sfrom, k) = (
                (d0 / eb as i128) as usize,
                (s0 / eb as i128) as usize,
                (n / eb as i128) as usize,
            );
            let part: Vec<String> = from[sfrom..sfrom + k].to_vec();
            cells[d..d + k].clone_from_slice(&part);
            return Ok(cells);
        }
        // Bytes: the source's first, as if through a temporary (7.24.2.2/2).
        let mut bytes: Vec<Option<u8>> = Vec::with_capacity(usize::try_from(n).unwrap_or(0));
        for i in 0..n {
            let at = s0 + i;
            let cell = (at / seb as i128) as usize;
            let b = cell_bytes(&from[cell], ss, seb).map_err(|()| {
                format!("the bytes of `{src}`'s element type are not modelled here")
            })?;
            bytes.push(b.map(|b| b[(at % seb as i128) as usize]));
        }
        write_bytes(&mut cells, s, eb, d0, n, |i| bytes[i])?;
        Ok(cells)
    }

    /// `std::copy(first, last, out)` / `std::copy_n(first, n, out)`.
    fn cells_copy(
        &mut self,
        st: &HostState,
        f: &str,
        parts: &[(usize, usize)],
        (dst, doff): (&str, i128),
    ) -> Result<Vec<String>, String> {
        let &(sa, sb) = parts.first().ok_or("an argument is missing")?;
        let (src, soff) = self.host_cells_at(st, sa, sb).ok_or_else(|| {
            format!(
                "`{}` is no host array read here",
                source_text(&self.toks[sa..sb])
            )
        })?;
        let n = if f == "copy" {
            let &(la, lb) = parts.get(1).ok_or("an argument is missing")?;
            let (last, loff) = self.host_cells_at(st, la, lb).ok_or_else(|| {
                format!(
                    "`{}` is no pointer into `{src}` read here",
                    source_text(&self.toks[la..lb])
                )
            })?;
            if last != src {
                return Err(format!(
                    "`{}` does not point into `{src}`",
                    source_text(&self.toks[la..lb])
                ));
            }
            loff - soff
        } else {
            self.int_arg(st, parts.get(1))?
        };
        let (mut cells, s, _) = self.cells_typed(st, dst)?;
        let (from, ss, _) = self.cells_typed(st, &src)?;
        if n < 0
            || soff < 0
            || doff < 0
            || soff + n > from.len() as i128
            || doff + n > cells.len() as i128
        {
            return Err(format!(
                "the range reaches outside `{src}` or `{dst}` (undefined behavior)"
            ));
        }
        if src == dst && doff >= soff && doff < soff + n {
            return Err(
                "its destination starts inside its source range (undefined behavior, \
                        C++17 [alg.copy]/2)"
                    .to_string(),
            );
        }
        for i in 0..n as usize {
            let (si, di) = (soff as usize + i, doff as usize + i);
            // In increasing order: a destination before the source reads cells already copied.
            let t = if src == dst {
                cells[si].clone()
            } else {
                from[si].clone()
            };
            cells[di] = match cell_val(&t, ss) {
                _ if ss == s => t,
                Some(v) => v
                    .convert(s)
                    .and_then(HostVal::text)
                    .ok_or("a value does not convert to the destination's type (undefined)")?,
                None => UNDEF.to_string(),
            };
        }
        Ok(cells)
    }

    /// `std::fill(first, last, v)`, `std::fill_n(first, n, v)`, `std::iota(first, last, v)`.
    fn cells_fill(
        &mut self,
        st: &HostState,
        f: &str,
        parts: &[(usize, usize)],
        (dst, doff): (&str, i128),
    ) -> Result<Vec<String>, String> {
        let [_, second, (va, vb)] = parts else {
            return Err("it does not take three arguments".to_string());
        };
        let n = if f == "fill_n" {
            self.int_arg(st, Some(second))?
        } else {
            let (last, loff) = self.host_cells_at(st, second.0, second.1).ok_or_else(|| {
                format!(
                    "`{}` is no pointer into `{dst}` read here",
                    source_text(&self.toks[second.0..second.1])
                )
            })?;
            if last != dst {
                return Err(format!(
                    "`{}` does not point into `{dst}`",
                    source_text(&self.toks[second.0..second.1])
                ));
            }
            loff - doff
        };
        let v = self.host_value(st, *va, *vb).ok_or_else(|| {
            format!(
                "`{}` has no constant value",
                source_text(&self.toks[*va..*vb])
            )
        })?;
        let (mut cells, s, _) = self.cells_typed(st, dst)?;
        if n < 0 || doff < 0 || doff + n > cells.len() as i128 {
            return Err(format!(
                "the range reaches outside `{dst}` (undefined behavior)"
            ));
        }
        for i in 0..n {
            // `++value` each cell ([numeric.iota]/1): in the value's type.
            let x = if f == "iota" {
                super::const_eval::binary(BinOp::Add, v, HostVal::Int(i)).and_then(|x| v.retype(x))
            } else {
                Some(v)
            };
            cells[(doff + i) as usize] = x
                .and_then(|x| x.convert(s))
                .and_then(HostVal::text)
                .ok_or("a value has no result in the element type (undefined)")?;
        }
        Ok(cells)
    }
}

/// Writes `n` bytes starting at byte `start` of `cells` (type `s`, `eb` bytes each): byte `i`
/// of them is `byte(i)` (`None`: an undefined byte). A cell any of whose bytes is undefined
/// has no value.
fn write_bytes(
    cells: &mut [String],
    s: Scalar,
    eb: usize,
    start: i128,
    n: i128,
    byte: impl Fn(usize) -> Option<u8>,
) -> Result<(), String> {
    let total = (cells.len() * eb) as i128;
    if n < 0 || start < 0 || start + n > total {
        return Err(format!(
            "it reaches outside the array's {total} bytes (undefined behavior, C11 7.24.1/1)"
        ));
    }
    if n == 0 {
        return Ok(());
    }
    let (first, last) = (
        (start / eb as i128) as usize,
        ((start + n - 1) / eb as i128) as usize,
    );
    if !byte_type(s, eb) {
        // All-zero bytes over whole cells are 0 in any arithmetic type (a half's +0.0); any
        // other byte of such a type is not modelled here.
        let whole = start % eb as i128 == 0 && n % eb as i128 == 0;
        if whole && (0..n as usize).all(|i| byte(i) == Some(0)) {
            for cell in &mut cells[first..=last] {
                *cell = "0".to_string();
            }
            return Ok(());
        }
        return Err("the bytes of its element type are not modelled here".to_string());
    }
    for (c, cell) in cells.iter_mut().enumerate().take(last + 1).skip(first) {
        let old =
            cell_bytes(cell, s, eb).map_err(|()| "an element's bytes are not modelled here")?;
        let mut bytes: Vec<Option<u8>> = match old {
            Some(b) => b.into_iter().map(Some).collect(),
            None => vec![None; eb],
        };
        for (j, b) in bytes.iter_mut().enumerate() {
            let at = (c * eb + j) as i128;
            if at >= start && at < start + n {
                *b = byte((at - start) as usize);
            }
        }
        *cell = match bytes.iter().copied().collect::<Option<Vec<u8>>>() {
            Some(b) => bytes_cell(&b, s).ok_or_else(|| {
                format!("element {c} gets a NaN or infinity bit pattern, which is not read here")
            })?,
            None => UNDEF.to_string(),
        };
    }
    Ok(())
}
