//! Array members (`int8_t qs[QK8_0];`), the layout of a struct (`sizeof`, `alignof`,
//! `offsetof`), and `typedef struct { … } name;`: the shapes of llama.cpp's quantization
//! blocks.
//!
//! An array member is one leaf holding all its elements. In a struct variable it is a local
//! array (`b.qs[32]`); in a struct array or pointer (`__shared__ block_q8_1 s[4]`, a
//! `block_q8_0* x` parameter) it is one array or buffer of `count` elements per struct
//! (`x.qs` holds `x[0].qs[0..32]`, then `x[1].qs[0..32]`, …), so `x[ib].qs[iqs]` is
//! `x.qs[ib * 32 + iqs]` and `x[ib].qs` is the pointer `x.qs + ib * 32`, as the array member
//! decays to a pointer to its first element ([conv.array]). A copy of a struct copies every
//! element ([class.copy.assign]: an array member is copied element by element).
//!
//! Layout: ISO C++ [class.mem]/20 (non-static data members of a struct are allocated at
//! increasing addresses in declaration order) and [basic.align] (each object at a multiple of
//! its alignment; an array has its element's alignment, [dcl.array]; a struct the largest of
//! its members', its size a multiple of it, [expr.sizeof]/2). Scalars align to their size in
//! the NVIDIA and AMD ABIs; the vector types follow the CUDA C++ Programming Guide, "Built-in
//! Vector Types", alignment table: `char2` 2, `char4`/`short2`/`half2`/`int1` 4, `int2`/
//! `float2` 8, `int4`/`float4`/`double2` 16, and a three-component vector only its
//! component's alignment (`float3`: 4). HIP's `hip_vector_types.h` keeps the same alignments.

use super::*;

/// Most elements in one array member (each struct copy writes them one by one).
pub(super) const MAX_ELEMENTS: u32 = 256;

/// A struct's layout: its size, its alignment and each leaf's byte offset.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Layout {
    /// `sizeof(S)` in bytes.
    pub(crate) size: u64,
    /// `alignof(S)` in bytes.
    pub(crate) align: u64,
    /// Each leaf's path (`d`, `qs`, `inner.x`) and byte offset from the struct's start.
    pub(crate) offsets: Vec<(String, u64)>,
}

/// Places a bit-field of `b.width` bits at the bit offset after `bit` (or at the byte `size`
/// when the member before was no bit-field), by the rule in [`super::bitfields`]: it moves to
/// the next multiple of its type's alignment when it would cross a unit of its type's size
/// (not in a packed struct), or always for a zero width. `size` becomes the bytes it reaches.
fn place_bits(size: &mut u64, bit: &mut Option<u64>, b: super::bitfields::Bits, packed: bool) {
    let (bytes, align) = value_layout(b.ty);
    let (unit, step) = (bytes * 8, align * 8);
    let w = u64::from(b.width);
    let mut off = bit.unwrap_or(*size * 8);
    if w == 0 {
        if !packed {
            off = off.div_ceil(step) * step;
        }
    } else if !packed && off / unit != (off + w - 1) / unit {
        off = off.div_ceil(step) * step;
    }
    *bit = Some(off + w);
    *size = (off + w).div_ceil(8);
}

/// Size and alignment in bytes of one value of type `v` (see the module's sources).
pub(crate) fn value_layout(v: ValTy) -> (u64, u64) {
    let one = u64::from(v.scalar.bits().max(8) / 8);
    let lanes = u64::from(v.lanes);
    let align = if v.lanes == 3 { one } else { one * lanes };
    (one * lanes, align)
}

impl Parser<'_> {
    /// The layout of struct `sname`: each leaf placed at the next multiple of its alignment,
    /// nested structs at their own alignment, the total rounded up to the largest alignment.
    pub(crate) fn struct_layout(&self, sname: &str, at: Span) -> PResult<Layout> {
        // Nested structs: an explicit stack of (struct, next field, base offset, size so
        // far, alignment so far, prefix) frames, bounded by the nesting budget.
        struct Frame {
            s: String,
            k: usize,
            /// How many of this struct the parent holds here (an array of structs: `n`).
            times: u64,
            size: u64,
            align: u64,
            prefix: String,
            /// After a bit-field: the bit offset the next one may start at ([`super::bitfields`]).
            bit: Option<u64>,
            /// The unnamed bit-fields placed so far.
            pad: usize,
        }
        let mut offsets = Vec::new();
        let mut stack = vec![Frame {
            s: sname.to_string(),
            k: 0,
            times: 1,
            size: 0,
            align: 1,
            prefix: String::new(),
            bit: None,
            pad: 0,
        }];
        // The offset a frame's start has in the outermost struct.
        let mut bases: Vec<u64> = vec![0];
        while let Some(top) = stack.last_mut() {
            let Some(def) = self.structs.get(&top.s) else {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!("`{}` is not a complete struct here", top.s),
                ));
            };
            let packed = self.is_packed(&top.s);
            // The unnamed bit-fields before this member (or before the end).
            while let Some(&(before, b)) = def.bit_pads.get(top.pad) {
                if before != top.k {
                    break;
                }
                place_bits(&mut top.size, &mut top.bit, b, packed);
                top.pad += 1;
            }
            if let Some(b) = def
                .fields
                .get(top.k)
                .and_then(|f| def.bitfields.get(&f.name))
                .copied()
            {
                place_bits(&mut top.size, &mut top.bit, b, packed);
                if !packed {
                    top.align = top.align.max(value_layout(b.ty).1);
                }
                top.k += 1;
                continue;
            }
            top.bit = None;
            let Some(f) = def.fields.get(top.k).cloned() else {
                // The struct ends: round its size up; place it in its parent.
                let done = stack.pop();
                bases.pop();
                let Some(mut done) = done else { break };
                done.align = done.align.max(self.declared_alignment(&done.s, at)?);
                let size = done.size.div_ceil(done.align) * done.align;
                match stack.last_mut() {
                    Some(parent) => {
                        parent.size += size * done.times;
                        if !self.is_packed(&parent.s) {
                            parent.align = parent.align.max(done.align);
                        }
                        parent.k += 1;
                    }
                    None => {
                        return Ok(Layout {
                            size,
                            align: done.align,
                            offsets,
                        })
                    }
                }
                continue;
            };
            let path = format!("{}{}", top.prefix, f.name);
            let (bytes, align) = match &f.ty {
                FieldTy::Val(v) => value_layout(*v),
                FieldTy::Arr(v, n) => {
                    let (b, a) = value_layout(*v);
                    (b * u64::from(*n), a)
                }
                FieldTy::Ptr(_) => (8, 8),
                FieldTy::Struct(inner) | FieldTy::SArr(inner, _) => {
                    let times = match f.ty {
                        FieldTy::SArr(_, n) => u64::from(n),
                        _ => 1,
                    };
                    // In a packed struct a member struct sits at the next byte (its own
                    // layout kept: GCC manual, `packed`).
                    let a = if self.is_packed(&top.s) {
                        1
                    } else {
                        self.struct_layout_align(inner, at)?
                    };
                    top.size = top.size.div_ceil(a) * a;
                    top.align = top.align.max(a);
                    let base = bases.last().copied().unwrap_or(0) + top.size;
                    if stack.len() > self.max_depth as usize {
                        return Err(KernelError::new(
                            at.line,
                            at.col,
                            format!("struct `{sname}` nests too deeply"),
                        ));
                    }
                    stack.push(Frame {
                        s: inner.clone(),
                        k: 0,
                        times,
                        size: 0,
                        align: 1,
                        prefix: format!("{path}."),
                        bit: None,
                        pad: 0,
                    });
                    bases.push(base);
                    continue;
                }
            };
            // A packed struct's members have alignment 1 ([`super::super::packed`]).
            let align = if self.is_packed(&top.s) { 1 } else { align };
            top.size = top.size.div_ceil(align) * align;
            offsets.push((path, bases.last().copied().unwrap_or(0) + top.size));
            top.size += bytes;
            top.align = top.align.max(align);
            top.k += 1;
        }
        Err(KernelError::new(
            at.line,
            at.col,
            format!("`{sname}` is not a complete struct here"),
        ))
    }

    /// The alignment `S` was declared with (`struct alignas(16) S`; 1 without one), read by
    /// [`super::super::attributes::struct_alignments`] before the attributes were dropped.
    ///
    /// # Errors
    /// An alignment written as an expression (`alignas(sizeof(T) * N)`): not evaluated here, so
    /// the layout is refused rather than given without it.
    fn declared_alignment(&self, sname: &str, at: Span) -> PResult<u64> {
        let base = sname.split('<').next().unwrap_or(sname);
        match self.struct_aligns.get(base) {
            None => Ok(1),
            Some(Some(n)) => Ok(*n),
            Some(None) => Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "the layout of `{sname}` (its sizeof, alignof, offsets) depends on its \
                     alignment attribute, written as an expression, which is not evaluated here: \
                     write the alignment as a number (`alignas(16)`)"
                ),
            )),
        }
    }

    /// Whether struct `sname` (or the class template it instantiates) is declared
    /// `__attribute__((packed))` ([`super::super::packed`]).
    pub(super) fn is_packed(&self, sname: &str) -> bool {
        self.struct_packed
            .contains(sname.split('<').next().unwrap_or(sname))
    }

    /// `alignof(S)`: its declared alignment and, unless it is packed, the largest alignment
    /// among its members, a member struct counting its own `alignof` (at least 1). An explicit
    /// stack of the structs still to read, each read once, bounded by the nesting budget.
    fn struct_layout_align(&self, sname: &str, at: Span) -> PResult<u64> {
        let mut align = 1;
        let mut todo: Vec<(String, usize)> = vec![(sname.to_string(), 0)];
        // Each struct read once: its alignment does not depend on where it is nested.
        let mut seen = std::collections::HashSet::new();
        while let Some((s, depth)) = todo.pop() {
            if !seen.insert(s.clone()) {
                continue;
            }
            align = align.max(self.declared_alignment(&s, at)?);
            if self.is_packed(&s) {
                continue;
            }
            let Some(def) = self.structs.get(&s) else {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!("`{s}` is not a complete struct here"),
                ));
            };
            for f in &def.fields {
                match &f.ty {
                    FieldTy::Val(v) | FieldTy::Arr(v, _) => align = align.max(value_layout(*v).1),
                    FieldTy::Ptr(_) => align = align.max(8),
                    FieldTy::Struct(inner) | FieldTy::SArr(inner, _) => {
                        if depth >= self.max_depth as usize {
                            return Err(KernelError::new(
                                at.line,
                                at.col,
                                format!("struct `{sname}` nests too deeply"),
                            ));
                        }
                        todo.push((inner.clone(), depth + 1));
                    }
                }
            }
        }
        Ok(align)
    }

    /// The `[N]` after an array member's name: a constant length in 1..=[`MAX_ELEMENTS`].
    ///
    /// # Errors
    /// A length that is not a constant, out of range, or a second dimension.
    pub(super) fn array_member_len(&mut self, fname: &str) -> PResult<u32> {
        let at = self.span();
        self.expect_punct("[")?;
        let e = self.expr()?;
        self.expect_punct("]")?;
        let n = self.fold_int(&e).ok_or_else(|| {
            KernelError::new(
                at.line,
                at.col,
                format!("the length of array member `{fname}` must be a constant expression"),
            )
        })?;
        if n < 1 || n > i128::from(MAX_ELEMENTS) {
            return Err(KernelError::new(
                at.line,
                at.col,
                format!(
                    "array member `{fname}` has {n} elements; 1 to {MAX_ELEMENTS} are supported"
                ),
            ));
        }
        if self.is_punct("[") {
            return self.unsupported(
                "arrays of arrays as members are not supported; use one dimension \
                 (`qs[A * B]`, indexed `qs[i * B + j]`)",
            );
        }
        Ok(n as u32)
    }

    /// The element count of each leaf of struct `s`, in leaf order.
    pub(super) fn leaf_counts(&self, s: &str, at: Span) -> PResult<Vec<u32>> {
        Ok(self.leaves(s, at)?.iter().map(|l| l.count).collect())
    }

    /// Element `j` of an array leaf's value: `src[j]`, or element `j` of a braced list
    /// (zero after its end), or zero for a value-initialized array (`src` the literal 0).
    fn element_of(&mut self, src: &Expr, j: u32, span: Span) -> PResult<Expr> {
        match &src.kind {
            ExprKind::Call(n, items) if n == "@brace" => {
                Ok(items.get(j as usize).cloned().unwrap_or_else(|| zero(span)))
            }
            ExprKind::Int { value: 0, .. } => Ok(zero(span)),
            _ => {
                let idx = Expr::new(
                    ExprKind::Int {
                        value: u64::from(j),
                        unsigned: false,
                        long: false,
                    },
                    span,
                );
                let sp = self.syn_span(span);
                self.node(ExprKind::Index(Box::new(src.clone()), Box::new(idx)), sp)
            }
        }
    }

    /// `dst = src` for an array leaf of `count` elements: one assignment per element, joined
    /// by commas in a balanced tree (its depth grows with log2 of the count).
    pub(super) fn copy_elements(
        &mut self,
        dst: &Expr,
        src: &Expr,
        count: u32,
        span: Span,
    ) -> PResult<Expr> {
        if let ExprKind::Call(n, items) = &src.kind {
            if n == "@brace" && items.len() > count as usize {
                return Err(KernelError::new(
                    span.line,
                    span.col,
                    format!(
                        "{} initializers for an array member of {count} elements",
                        items.len()
                    ),
                ));
            }
        }
        let mut list = Vec::new();
        for j in 0..count {
            let d = self.element_of(dst, j, span)?;
            let s = self.element_of(src, j, span)?;
            let s = self.lower_struct(s)?;
            let sp = self.syn_span(span);
            list.push(Expr::new(
                ExprKind::Assign(None, Box::new(d), Box::new(s)),
                sp,
            ));
        }
        self.comma_tree(list, span)
    }

    /// Expressions joined by commas, evaluated left to right, as a balanced tree.
    pub(super) fn comma_tree(&mut self, mut list: Vec<Expr>, span: Span) -> PResult<Expr> {
        if list.is_empty() {
            return Ok(zero(span));
        }
        while list.len() > 1 {
            let mut next = Vec::with_capacity(list.len().div_ceil(2));
            let mut it = list.into_iter();
            while let Some(a) = it.next() {
                match it.next() {
                    Some(b) => {
                        let sp = self.syn_span(span);
                        next.push(self.node(ExprKind::Comma(Box::new(a), Box::new(b)), sp)?);
                    }
                    None => next.push(a),
                }
            }
            list = next;
        }
        Ok(list.pop().unwrap_or_else(|| zero(span)))
    }

    /// The integer literal `n` (an array length).
    pub(super) fn count_expr(&self, n: u32, span: Span) -> Expr {
        Expr::new(
            ExprKind::Int {
                value: u64::from(n),
                unsigned: false,
                long: false,
            },
            span,
        )
    }

    /// The offset of struct element `i` in an array leaf of `count` elements: `i * count`.
    pub(super) fn scaled(&mut self, i: Expr, count: u32, span: Span) -> PResult<Expr> {
        let n = Expr::new(
            ExprKind::Int {
                value: u64::from(count),
                unsigned: false,
                long: false,
            },
            span,
        );
        let sp = self.syn_span(span);
        self.node(ExprKind::Binary(BinOp::Mul, Box::new(i), Box::new(n)), sp)
    }

    /// `typedef struct [Tag] { members } Name;` at file scope: the struct, named `Tag` when
    /// it has one, and `Name` an alias of it ([dcl.typedef]/9: an unnamed class takes the
    /// typedef name for linkage purposes).
    pub(crate) fn typedef_struct(&mut self) -> PResult<()> {
        self.bump(); // typedef
        self.struct_def_typedef()
    }

    /// `alignof(T)` / `__alignof__(T)` for a struct or value type, and `offsetof(S, m)` (a
    /// member path `inner.x` too; [support.types.layout]: the byte offset of the member), if
    /// one starts here.
    pub(crate) fn layout_query(&mut self) -> PResult<Option<Expr>> {
        let at = self.span();
        let word = match self.peek(0) {
            Tok::Ident(w) if matches!(w.as_str(), "alignof" | "__alignof__" | "offsetof") => {
                w.clone()
            }
            _ => return Ok(None),
        };
        if !matches!(self.peek(1), Tok::Punct("(")) {
            return Ok(None);
        }
        self.bump();
        self.bump();
        let st = self.struct_type()?;
        let bytes = if word == "offsetof" {
            let Some(st) = st else {
                return self.err("a struct type as `offsetof`'s first argument");
            };
            self.expect_punct(",")?;
            let mut path = self.ident()?;
            while self.eat(".") {
                path.push('.');
                path.push_str(&self.ident()?);
            }
            if self.bitfield_path(&st, &path).is_some() {
                return Err(KernelError::new(
                    at.line,
                    at.col,
                    format!(
                        "`{path}` is a bit-field, which has no byte offset: `offsetof` of one is \
                         ill-formed ([support.types.layout]/1)"
                    ),
                ));
            }
            let layout = self.struct_layout(&st, at)?;
            let mut found = layout.offsets.iter().find(|(p, _)| *p == path).map(|x| x.1);
            if found.is_none() {
                // A union view: its held member's offset plus its own within it.
                if let Some(v) = self.view_of_struct(&st, &path) {
                    found = layout
                        .offsets
                        .iter()
                        .find(|(p, _)| *p == v.field)
                        .map(|x| x.1 + v.offset);
                }
            }
            match found {
                Some(o) => o,
                None => {
                    // A nested struct member: the offset of its first leaf.
                    let prefix = format!("{path}.");
                    layout
                        .offsets
                        .iter()
                        .find(|(p, _)| p.starts_with(&prefix))
                        .map(|x| x.1)
                        .ok_or_else(|| {
                            KernelError::new(
                                at.line,
                                at.col,
                                format!("`{st}` has no member `{path}`"),
                            )
                        })?
                }
            }
        } else if let Some(st) = st {
            let (ty, _) = self.pointers(Ty::Void)?;
            match ty {
                Ty::Void => self.struct_layout(&st, at)?.align,
                _ => 8,
            }
        } else {
            let base = self.base_type()?;
            let (ty, _) = self.pointers(base)?;
            match ty {
                Ty::Val(v) => value_layout(v).1,
                _ => 8,
            }
        };
        self.expect_punct(")")?;
        self.node(ExprKind::SizeOf(bytes), at).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::parse;
    use crate::ast::*;

    /// The value `o[0] = EXPR;` stores, folded by the parser.
    fn stored(src: &str) -> ExprKind {
        let p = parse(src).unwrap_or_else(|e| panic!("{src}: {e:?}"));
        let k = p.program.functions.last().expect("a kernel");
        let StmtKind::Block(list) = &k.body.kind else {
            panic!()
        };
        let StmtKind::Expr(e) = &list[0].kind else {
            panic!("{:?}", list[0].kind)
        };
        let ExprKind::Assign(None, _, rhs) = &e.kind else {
            panic!()
        };
        rhs.kind.clone()
    }

    #[test]
    fn quantization_blocks_have_the_c_layout() {
        let blocks = "#define QK 32\ntypedef struct { half d; int8_t qs[QK]; } block_q8_0;\n\
                      struct block_q4_0 { half d; uint8_t qs[QK / 2]; };\n\
                      typedef struct { half2 ds; int8_t qs[QK]; } block_q8_1;\n\
                      struct S { char c; float3 v; double x; };\n\
                      struct N { char c; block_q8_1 b; };\n";
        // half (2) + 32 bytes: 34, alignment 2. half (2) + 16: 18. half2 (4, align 4) + 32:
        // 36. char at 0, float3 (12 bytes, align 4) at 4, double at 16: 24, align 8. char at
        // 0, block_q8_1 (align 4) at 4: 40.
        for (q, want) in [
            ("sizeof(block_q8_0)", 34),
            ("alignof(block_q8_0)", 2),
            ("offsetof(block_q8_0, qs)", 2),
            ("sizeof(block_q4_0)", 18),
            ("sizeof(block_q8_1)", 36),
            ("alignof(block_q8_1)", 4),
            ("offsetof(block_q8_1, qs)", 4),
            ("sizeof(S)", 24),
            ("offsetof(S, v)", 4),
            ("offsetof(S, x)", 16),
            ("alignof(float4)", 16),
            ("alignof(float3)", 4),
            ("sizeof(N)", 40),
            ("offsetof(N, b)", 4),
            ("offsetof(N, b.qs)", 8),
        ] {
            let src = format!("{blocks}__global__ void k(int* o) {{ o[0] = {q}; }}");
            assert_eq!(stored(&src), ExprKind::SizeOf(want), "{q}");
        }
    }
}
