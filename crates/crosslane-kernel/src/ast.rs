//! The syntax tree of a kernel. Every node carries the line:column where it starts.

use std::sync::atomic::{AtomicU32, Ordering};

use serde::Serialize;

use super::types::{BinOp, Ty, UnOp, ValTy};

/// A source position (1-based line and column, in characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Span {
    /// Line.
    pub line: u32,
    /// Column.
    pub col: u32,
}

/// Columns from here up belong to nodes the front end synthesizes (a struct's member variables,
/// temporaries): `original column + SYNTH_COL × n`, unique per node (the compiler keys its maps
/// by position) while `col % SYNTH_COL` still names the source column ([`Span::shown`]).
pub const SYNTH_COL: u32 = 1 << 20;

/// The first column of the tokens of crosslane's rocPRIM declarations (`parser/rocprim_lib.rs`): past any line of a source (the lexer's
/// budget keeps a line far shorter), so a position at or past it is the declarations', and
/// below [`crate::ast::SYNTH_COL`] by more than their count, so a node the front end
/// synthesizes from one (`col + SYNTH_COL × n`, shown modulo `SYNTH_COL`) still shows it.
pub const ROCPRIM_PRELUDE_COL: u32 = SYNTH_COL - (1 << 17);

impl Span {
    /// Whether the position is in crosslane's library declarations (a column at or past
    /// [`ROCPRIM_PRELUDE_COL`], also for a node synthesized from one).
    pub fn in_library(self) -> bool {
        self.col % SYNTH_COL >= ROCPRIM_PRELUDE_COL
    }

    /// The span as a user sees it: a synthesized node's source column.
    pub fn shown(self) -> Span {
        Span {
            line: self.line,
            col: if self.col >= SYNTH_COL {
                (self.col % SYNTH_COL).max(1)
            } else {
                self.col
            },
        }
    }
}

/// The identity of one syntax-tree node: expressions and declarators get a fresh one when
/// they are made ([`Expr::new`], [`NodeId::fresh`]) and keep it when cloned. The compiler keys
/// what it resolves (a name's variable, a declarator's slot, a hoisted call's result) by
/// (inlined instance, node id), never by source position: two nodes from one macro expansion
/// or one synthesized lowering may share a position, never an id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NodeId(u32);

impl NodeId {
    /// A new id, distinct from every id made before it (it wraps after 2^32 nodes; the
    /// budgets keep one program far below that, and ids are compared within one program).
    pub fn fresh() -> NodeId {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        NodeId(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

/// An expression and where it starts.
#[derive(Clone, Debug, Serialize)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it starts.
    pub span: Span,
    /// Height of the tree under this node (1 for a leaf). The parser refuses trees higher than
    /// the depth budget ([`super::budget::Limits::max_depth`]), so every recursive walk of an
    /// expression (compiler, evaluator, `Drop`) is bounded whatever the input.
    #[serde(skip)]
    pub depth: u32,
    /// This node's identity (kept by a clone).
    #[serde(skip)]
    pub id: NodeId,
}

/// Two trees are equal when their forms and positions are: ids say which node is which, not
/// what it is.
impl PartialEq for Expr {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind && self.span == other.span
    }
}

impl Expr {
    /// A node over `kind` at `span`, its height computed from its children.
    pub fn new(kind: ExprKind, span: Span) -> Self {
        let mut below = 0;
        kind.for_each_child(|c| below = below.max(c.depth));
        Expr {
            kind,
            span,
            depth: below.saturating_add(1),
            id: NodeId::fresh(),
        }
    }

    /// Expression nodes in this tree (each call argument, operand and leaf counts one).
    pub fn nodes(&self) -> u64 {
        self.walk().count() as u64
    }

    /// Every node of this tree in source order (a node before its operands, operands left to
    /// right), each once: an explicit stack, so no recursion in the tree's height.
    pub fn walk(&self) -> impl Iterator<Item = &Expr> {
        let mut stack = vec![self];
        std::iter::from_fn(move || {
            let e = stack.pop()?;
            let at = stack.len();
            e.kind.for_each_child(|c| stack.push(c));
            stack[at..].reverse();
            Some(e)
        })
    }
}

impl ExprKind {
    /// Calls `f` on each operand directly under this node, left to right (a call's arguments,
    /// a binary operator's two sides, `?:`'s three). The one place that knows which forms have
    /// children: every walk of the tree goes through it or [`Self::for_each_child_mut`].
    pub fn for_each_child<'a>(&'a self, mut f: impl FnMut(&'a Expr)) {
        match self {
            ExprKind::Member(b, _)
            | ExprKind::Unary(_, b)
            | ExprKind::Deref(b)
            | ExprKind::AddrOf(b)
            | ExprKind::Cast(_, b)
            | ExprKind::IncDec { target: b, .. } => f(b),
            ExprKind::Index(a, b)
            | ExprKind::Binary(_, a, b)
            | ExprKind::Logical(_, a, b)
            | ExprKind::Assign(_, a, b)
            | ExprKind::Comma(a, b) => {
                f(a);
                f(b);
            }
            ExprKind::Ternary(a, b, c) => {
                f(a);
                f(b);
                f(c);
            }
            ExprKind::Call(_, args) => args.iter().for_each(f),
            ExprKind::Int { .. }
            | ExprKind::Float { .. }
            | ExprKind::Bool(_)
            | ExprKind::Ident(_)
            | ExprKind::SizeOf(_)
            | ExprKind::Str(_) => {}
        }
    }

    /// [`Self::for_each_child`] with each operand mutable, for rewrites of the tree.
    pub fn for_each_child_mut(&mut self, mut f: impl FnMut(&mut Expr)) {
        match self {
            ExprKind::Member(b, _)
            | ExprKind::Unary(_, b)
            | ExprKind::Deref(b)
            | ExprKind::AddrOf(b)
            | ExprKind::Cast(_, b)
            | ExprKind::IncDec { target: b, .. } => f(b),
            ExprKind::Index(a, b)
            | ExprKind::Binary(_, a, b)
            | ExprKind::Logical(_, a, b)
            | ExprKind::Assign(_, a, b)
            | ExprKind::Comma(a, b) => {
                f(a);
                f(b);
            }
            ExprKind::Ternary(a, b, c) => {
                f(a);
                f(b);
                f(c);
            }
            ExprKind::Call(_, args) => args.iter_mut().for_each(f),
            ExprKind::Int { .. }
            | ExprKind::Float { .. }
            | ExprKind::Bool(_)
            | ExprKind::Ident(_)
            | ExprKind::SizeOf(_)
            | ExprKind::Str(_) => {}
        }
    }
}

/// Expression forms.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum ExprKind {
    /// An integer literal of the literal's C type.
    Int {
        /// Value.
        value: u64,
        /// Whether the literal is unsigned.
        unsigned: bool,
        /// Whether the literal is 64-bit.
        long: bool,
    },
    /// A floating literal (`single` for an `f` suffix).
    Float {
        /// Value.
        value: f64,
        /// Whether it is `float` rather than `double`.
        single: bool,
    },
    /// `true` / `false`.
    Bool(bool),
    /// A name.
    Ident(String),
    /// `base.field` (`threadIdx.x`, a vector component).
    Member(Box<Expr>, String),
    /// `base[index]`.
    Index(Box<Expr>, Box<Expr>),
    /// A call by name.
    Call(String, Vec<Expr>),
    /// A unary operator.
    Unary(UnOp, Box<Expr>),
    /// `*p`.
    Deref(Box<Expr>),
    /// `&lvalue`.
    AddrOf(Box<Expr>),
    /// A binary operator.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `&&` (`true`) or `||` (`false`), short-circuiting per lane.
    Logical(bool, Box<Expr>, Box<Expr>),
    /// `lhs = rhs` or `lhs op= rhs`.
    Assign(Option<BinOp>, Box<Expr>, Box<Expr>),
    /// `++x` / `--x` (`inc`), prefix when `prefix`.
    IncDec {
        /// Increment (true) or decrement.
        inc: bool,
        /// Prefix (value after) or postfix (value before).
        prefix: bool,
        /// The operand.
        target: Box<Expr>,
    },
    /// `c ? a : b`.
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `(T)e`, `T(e)`, `static_cast<T>(e)`.
    Cast(Ty, Box<Expr>),
    /// `a, b`.
    Comma(Box<Expr>, Box<Expr>),
    /// `sizeof(T)` in bytes.
    SizeOf(u64),
    /// A string literal: a `printf` format, or a value (a pointer to its read-only characters,
    /// C++17 [lex.string]/8).
    Str(String),
}

/// One declarator of a declaration: `name`, `name[N]`, `name = init`.
#[derive(Clone, Debug, Serialize)]
pub struct Declarator {
    /// Variable name.
    pub name: String,
    /// Its type (arrays become [`Ty::Ptr`] with `array`).
    pub ty: Ty,
    /// `Some(None)` for `name[]`, `Some(Some(n))` for `name[n]`.
    pub array: Option<Option<Expr>>,
    /// Initializer.
    pub init: Option<Expr>,
    /// Where the name is.
    pub span: Span,
    /// This declarator's identity (kept by a clone; each maker writes `NodeId::fresh()`).
    #[serde(skip)]
    pub id: NodeId,
}

/// Equal when all but the ids are (see [`Expr`]'s equality).
impl PartialEq for Declarator {
    fn eq(&self, other: &Self) -> bool {
        (&self.name, &self.ty, &self.array, &self.init, self.span)
            == (
                &other.name,
                &other.ty,
                &other.array,
                &other.init,
                other.span,
            )
    }
}

/// Storage of a declaration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Storage {
    /// `__shared__`.
    pub shared: bool,
    /// `extern`.
    pub external: bool,
}

/// A statement and where it starts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stmt {
    /// What it is.
    pub kind: StmtKind,
    /// Where it starts.
    pub span: Span,
    /// Where it ends (exclusive end position of its last token).
    pub end: Span,
}

/// Statement forms.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum StmtKind {
    /// A declaration with one or more declarators.
    Decl(Storage, Vec<Declarator>),
    /// An expression statement.
    Expr(Expr),
    /// `if (c) a else b`.
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    /// `while (c) body`.
    While(Expr, Box<Stmt>),
    /// `do body while (c);`.
    DoWhile(Box<Stmt>, Expr),
    /// `for (init; cond; step) body`.
    For(Option<Box<Stmt>>, Option<Expr>, Option<Expr>, Box<Stmt>),
    /// `break;`
    Break,
    /// `continue;`
    Continue,
    /// `return e;`
    Return(Option<Expr>),
    /// `{ … }`
    Block(Vec<Stmt>),
    /// `;`
    Empty,
    /// `...` — an elision in a vendor's pseudo-code; runs as nothing.
    Elided,
}

/// The name a function's key stands for: one of several functions or templates of a name
/// (overloads) is kept as `name`, `name#2`, … (`scale#2` → `scale`).
pub fn overload_base(key: &str) -> &str {
    key.split('#').next().unwrap_or(key)
}

/// A part directly inside a statement: an expression it holds or a statement nested in it.
pub enum StmtPart<'a> {
    /// An expression the statement holds (a declarator's bound or initializer, a condition, a
    /// `for` step, an expression statement, a returned value).
    Expr(&'a mut Expr),
    /// A statement nested in it (a branch, a loop body, a `for` init, a block's statements).
    Stmt(&'a mut Stmt),
}

/// [`StmtPart`], read only.
pub enum StmtPartRef<'a> {
    /// An expression the statement holds.
    Expr(&'a Expr),
    /// A statement nested in it.
    Stmt(&'a Stmt),
}

impl StmtKind {
    /// Calls `f` on each part directly inside this statement, in source order. The one place
    /// that knows which statement forms hold what: walks of the statement tree go through it
    /// or [`Self::for_each_part_mut`].
    pub fn for_each_part<'a>(&'a self, mut f: impl FnMut(StmtPartRef<'a>)) {
        use StmtPartRef::{Expr as E, Stmt as S};
        match self {
            StmtKind::Decl(_, decls) => {
                for d in decls {
                    if let Some(Some(n)) = &d.array {
                        f(E(n));
                    }
                    if let Some(i) = &d.init {
                        f(E(i));
                    }
                }
            }
            StmtKind::Expr(x) | StmtKind::Return(Some(x)) => f(E(x)),
            StmtKind::If(c, a, b) => {
                f(E(c));
                f(S(a));
                if let Some(b) = b {
                    f(S(b));
                }
            }
            StmtKind::While(c, body) => {
                f(E(c));
                f(S(body));
            }
            StmtKind::DoWhile(body, c) => {
                f(S(body));
                f(E(c));
            }
            StmtKind::For(init, c, step, body) => {
                if let Some(i) = init {
                    f(S(i));
                }
                if let Some(c) = c {
                    f(E(c));
                }
                if let Some(st) = step {
                    f(E(st));
                }
                f(S(body));
            }
            StmtKind::Block(list) => list.iter().for_each(|x| f(S(x))),
            StmtKind::Return(None)
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Empty
            | StmtKind::Elided => {}
        }
    }

    /// [`Self::for_each_part`] with each part mutable, for rewrites of the tree.
    pub fn for_each_part_mut(&mut self, mut f: impl FnMut(StmtPart<'_>)) {
        use StmtPart::{Expr as E, Stmt as S};
        match self {
            StmtKind::Decl(_, decls) => {
                for d in decls {
                    if let Some(Some(n)) = &mut d.array {
                        f(E(n));
                    }
                    if let Some(i) = &mut d.init {
                        f(E(i));
                    }
                }
            }
            StmtKind::Expr(x) | StmtKind::Return(Some(x)) => f(E(x)),
            StmtKind::If(c, a, b) => {
                f(E(c));
                f(S(a));
                if let Some(b) = b {
                    f(S(b));
                }
            }
            StmtKind::While(c, body) => {
                f(E(c));
                f(S(body));
            }
            StmtKind::DoWhile(body, c) => {
                f(S(body));
                f(E(c));
            }
            StmtKind::For(init, c, step, body) => {
                if let Some(i) = init {
                    f(S(i));
                }
                if let Some(c) = c {
                    f(E(c));
                }
                if let Some(st) = step {
                    f(E(st));
                }
                f(S(body));
            }
            StmtKind::Block(list) => list.iter_mut().for_each(|x| f(S(x))),
            StmtKind::Return(None)
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Empty
            | StmtKind::Elided => {}
        }
    }
}

/// A parameter of a kernel.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Param {
    /// Name.
    pub name: String,
    /// Type; pointers, arrays and references are [`Ty::Ptr`].
    pub ty: Ty,
    /// Whether it was written as a reference (`uint64_t& res`): a one-element buffer.
    pub reference: bool,
    /// Whether it is a reference to const (`const float& x`): it may also bind a temporary, a
    /// copy of the argument's value (C++17 [dcl.init.ref]/5.2), where a reference to non-const
    /// needs an lvalue.
    #[serde(skip)]
    pub const_ref: bool,
    /// Where.
    pub span: Span,
}

/// A function definition.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Function {
    /// Name.
    pub name: String,
    /// `__global__` or `__simt_vf__` (a kernel entry); otherwise `__device__` or plain.
    pub entry: bool,
    /// Result type.
    pub ret: Ty,
    /// Parameters (`(..)` in pseudo-code gives none).
    pub params: Vec<Param>,
    /// Body.
    pub body: Stmt,
    /// `__launch_bounds__(N)`.
    pub launch_bounds: Option<u64>,
    /// The launch shape from an `asc_vf_call … dim3{x, y, z}` comment in or before the body.
    pub vf_call_dim: Option<[u64; 3]>,
    /// Where the definition starts.
    pub span: Span,
    /// Whether this is the implicit kernel around a bare snippet of statements.
    pub snippet: bool,
    /// Default arguments by parameter name (`int width = warpSize`): a call that leaves out
    /// trailing arguments gets these (C++17 [dcl.fct.default]/1), evaluated at the call.
    pub defaults: Vec<(String, Expr)>,
    /// The source positions (counted from 0) of by-value parameters of a class without data
    /// members (a stateless functor, `Op op`): they take no [`Param`], so a launch's arguments
    /// skip their slots when they are bound to [`Self::params`].
    pub empty_params: Vec<usize>,
}

/// A parsed program: functions, or, for a bare snippet of statements, one implicit kernel.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Program {
    /// Functions in source order.
    pub functions: Vec<Function>,
    /// Type aliases (`using v2f32 = __NATIVE_VECTOR__(2, float);`), name and type.
    pub aliases: Vec<(String, ValTy)>,
    /// Kernel launches read from host code (`k<<<g, b>>>(…)`, `hipLaunchKernelGGL(…)`), in
    /// source order; host functions themselves are not run.
    pub launches: Vec<HostLaunch>,
    /// File-scope `__constant__` arrays with a constant initializer, in source order.
    pub constants: Vec<ConstTable>,
    /// Kernels defined inside a named namespace: (the name the flattened source uses, the
    /// qualified name, `ops::k`), for the trace's `launch.entry` (ISO C++ [basic.namespace]).
    pub kernel_scopes: Vec<(String, String)>,
    /// The parameters a struct parameter is lowered to (`ps.v`, `ps.n` of `const P* ps`), each
    /// with its struct's layout size and its elements per struct: the parser's one layout
    /// ([`StructLeaf`]), by which host code's buffers are sized.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub struct_leaves: Vec<StructLeaf>,
    /// Lane-local arrays the trace shows as each lane's elements instead of a pointer to the
    /// lane's buffer: a `wmma::fragment`'s `x`, as `F.x` for each fragment variable `F`
    /// ([`crate::wmma_lint::fragment_arrays`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub element_arrays: Vec<String>,
    /// Unknown types met inside a function, by the function's name: each is an error of every
    /// run that compiles the function (its kernel, or a device function the kernel calls), and
    /// no error of a run that does not reach it (a `curandState` setup kernel beside the
    /// kernel launched): (function, line, column, message).
    #[serde(skip)]
    pub type_errors: Vec<(String, u32, u32, String)>,
    /// Kernels whose bodies were refused in a file of several kernels (their errors are in
    /// [`Program::type_errors`]): a run whose launches reach one stops before it starts.
    #[serde(skip)]
    pub refused_kernels: Vec<String>,
    /// Lines of library code the front end supplies (crosslane's `<mma.h>` text, on its
    /// `#include` line): a step there is shown at the user's call that runs it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub library_lines: Vec<u32>,
    /// Device-to-host copies of cells launches left (`cudaMemcpy(h, d, …,
    /// cudaMemcpyDeviceToHost)` after a launch given `d`), whose values host code goes on to
    /// use: `sequence/readback.rs` runs those launches and reads the program again with the
    /// copied values in `h`.
    #[serde(skip)]
    pub readbacks: Vec<Readback>,
    /// Every enumerator of the file's enums, with its value (ISO C++ [dcl.enum]/2): a scalar
    /// parameter of an enum type takes an enumerator's name as its argument (`--arg
    /// op=Mode::Xor`, `host_launch::enumerator_args`).
    #[serde(skip)]
    pub enumerators: Vec<(String, i64)>,
}

/// One device-to-host copy of cells launches left ([`Program::readbacks`]; CUDA Runtime API,
/// cudaMemcpy).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Readback {
    /// The copy call's line and column, and which time the reading met that call (0 the
    /// first; a copy back in a host loop is met once per iteration): where the reading again
    /// puts the values.
    pub key: (u32, u32, u32),
    /// The copy's place among the launches: it comes after the launch of [`HostLaunch::id`]
    /// `id - 1`.
    pub id: u32,
    /// What the copied cells hold as a launch given them there would find them: the
    /// allocation, the element offset, host code's values (the base), the launches
    /// (`prior_ids`), the host writes after them (`host_cells`) and copies of other launches'
    /// cells (`dev_copies`).
    pub arg: HostArg,
    /// Host code's own values of the copied cells, under the launches' (`undef` where none).
    pub base: Vec<String>,
    /// The host array the copy fills.
    pub host: String,
}

/// One parameter a struct parameter of a function is lowered to: a member of the struct, its
/// array members one buffer of every struct's elements in turn (`ps.v` holds `ps[0].v[0..4]`,
/// then `ps[1].v[0..4]`, …). `sizeof` of the struct is the parser's layout (C++17
/// [class.mem]/17-18, [expr.sizeof]/2, the System V x86-64 psABI §3.1.2 the host compilers
/// use), so `cudaMalloc(&d, n * sizeof(P))` gives `n` structs: `n * count` cells of this member.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StructLeaf {
    /// The function (a kernel, an instance's mangled name).
    pub function: String,
    /// The lowered parameter's name (`ps.v`, `ps.in.k`).
    pub param: String,
    /// `sizeof` the struct, in bytes.
    pub stride: u64,
    /// The member's elements per struct: an array member's length, else 1.
    pub count: u32,
}

impl Program {
    /// Function `name` as C++ names it: qualified by its namespaces when it is a kernel defined
    /// inside one (`k` → `ops::k`, an instance `k<int>` → `ops::k<int>`), else `name`.
    pub fn qualified_name(&self, name: &str) -> String {
        let (base, args) = name.split_at(name.find('<').unwrap_or(name.len()));
        self.kernel_scopes
            .iter()
            .find(|(n, _)| n == base)
            .map_or_else(|| name.to_string(), |(_, q)| format!("{q}{args}"))
    }
}

/// A file-scope one-dimensional `__constant__` array (`__constant__ float w[4] = {…};`, or
/// `__constant__ float w[4];` that host code fills by `cudaMemcpyToSymbol`): read-only data
/// every thread of the grid reads. It is given to each kernel as a global buffer of that name,
/// filled with the initializer (cells past it zero, ISO C11 6.7.9p21) or the host copy, which
/// `--buffer NAME=…` may replace. Source: CUDA C++ Programming Guide,
/// "Variable Memory Space Specifiers" (`__constant__`: constant memory space, lifetime of the
/// application, accessible from all threads of the grid).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConstTable {
    /// The array's name.
    pub name: String,
    /// Its element type.
    pub elem: ValTy,
    /// Cells.
    pub len: usize,
    /// Every cell's value, as a number's text, in order: the initializer's or the host copy's;
    /// empty when neither gives them.
    pub values: Vec<String>,
    /// Without values: whether host code copies into it (`cudaMemcpyToSymbol`) from data that
    /// could not be read (then its cells are undefined; else zero, as static storage starts).
    pub copied_unread: bool,
    /// Where it is declared.
    pub span: Span,
    /// A file-scope `__device__` / `__managed__` variable rather than `__constant__` data:
    /// global memory the kernel may write (CUDA C++ Programming Guide, "Variable Memory Space
    /// Specifiers").
    pub device: bool,
    /// Declared as a scalar (`__device__ int n;`): one cell, every use of its name in device
    /// code rewritten as that cell.
    pub scalar: bool,
    /// The initializer's values, every cell (empty without one: zero, as static storage
    /// starts); `values` may be a host copy's instead.
    #[serde(skip)]
    pub initial: Vec<String>,
    /// Host code's copies into it (`cudaMemcpyToSymbol`), in host code's order: each launch
    /// finds the last one made before it (`sequence_vars.rs`).
    #[serde(skip)]
    pub copies: Vec<SymbolWrite>,
}

/// One `cudaMemcpyToSymbol` / `hipMemcpyToSymbol` into a [`ConstTable`], as host code makes it
/// between its launches.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SymbolWrite {
    /// How many launches host code made before it: it comes after the launch of
    /// [`HostLaunch::id`] `at - 1` and before the one of `at`.
    pub at: u32,
    /// The values copied, from the table's first cell; `None` when they are not read here.
    pub values: Option<Vec<String>>,
    /// The copy's line.
    pub line: u32,
}

impl ConstTable {
    /// Its shape in words: `a scalar of int`, `256 cells of float`.
    pub fn shape(&self) -> String {
        if self.scalar {
            format!("a scalar of {}", self.elem.name())
        } else {
            format!("{} cells of {}", self.len, self.elem.name())
        }
    }

    /// How the source declares it: `__device__` or `__constant__`.
    pub fn spelled(&self) -> &'static str {
        if self.device {
            "__device__"
        } else {
            "__constant__"
        }
    }
}

/// A kernel launch written in host code, with what could be read as a constant.
///
/// Source: CUDA C++ Programming Guide, "Execution Configuration" (`<<<Dg, Db, Ns, S>>>`: grid,
/// block, dynamic shared bytes, stream); HIP Programming Guide, "Kernel launch"
/// (`hipLaunchKernelGGL(kernel, grid, block, sharedBytes, stream, args…)`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct HostLaunch {
    /// The kernel launched.
    pub kernel: String,
    /// Where the launch is.
    pub span: Span,
    /// Blocks (x, y, z) when constant.
    pub grid: Option<[u64; 3]>,
    /// Threads per block (x, y, z) when constant.
    pub block: Option<[u64; 3]>,
    /// Dynamic shared memory in bytes when constant.
    pub shared_bytes: Option<u64>,
    /// The arguments, in order.
    pub args: Vec<HostArg>,
    /// The block as written (tokens joined), for a message about its value.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub block_text: String,
    /// Each part of the configuration (`"grid"`, `"block"`) that host code gives but that is
    /// not a constant here, with why (a variable host code changes in a way not evaluated):
    /// the run says so rather than quietly using its default.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unread: Vec<(String, String)>,
    /// The launch's place in host code's reading order (unique in the file; a later launch
    /// has a larger one): what [`HostArg::prior_ids`] names, and the order in which a launch
    /// sequence runs (`sequence.rs`).
    #[serde(skip)]
    pub id: u32,
    /// Whether the launch stands under an `if` whose condition host code cannot evaluate, so
    /// that only one branch's launches run on the device: it runs only when traced, never
    /// before or after another launch (`sequence.rs`).
    #[serde(skip)]
    pub undecided: bool,
    /// Whether `kernel` is the overload the launch's argument types chose among several
    /// kernels of its name (C++17 [over.match.best]; `parser/overload.rs`): the key names that
    /// one function even where it is the bare name the first overload is kept under.
    #[serde(skip)]
    pub overload_chosen: bool,
    /// Whether the launch is a cooperative one (`cudaLaunchCooperativeKernel`,
    /// `hipLaunchCooperativeKernel`): only such a launch may synchronize its grid (CUDA C++
    /// Programming Guide, Cooperative Groups, Grid Synchronization; `machine/coop_launch.rs`).
    #[serde(skip)]
    pub cooperative: bool,
    /// Whether the launch is of an Ascend C launcher whose `asc_vf_call` is its own launch in
    /// [`Program::launches`] (`parser/host_vf.rs`): the launcher runs no kernel itself, so a
    /// launch sequence does not run it (`sequence.rs`).
    pub vf_launcher: bool,
}

/// One argument of a host launch.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct HostArg {
    /// The argument as written (tokens joined).
    pub text: String,
    /// Its value when it is a constant (a literal, a `#define`, a `const`/`constexpr` or a
    /// host variable initialised by a constant), as a number's text.
    pub scalar: Option<String>,
    /// Bytes given to `cudaMalloc`/`hipMalloc` for this device pointer, when constant.
    pub malloc_bytes: Option<u64>,
    /// The allocating call and its line, as a length's origin is shown (`cudaMalloc at line
    /// 12`); empty without `malloc_bytes`.
    pub malloc_from: String,
    /// The host array copied into it by `cudaMemcpy`/`hipMemcpy` before the launch, when a
    /// simple loop or a literal list filled that array: its values, in order.
    pub fill: Option<Vec<String>>,
    /// The host array the fill was copied from.
    pub fill_from: String,
    /// That host array's element type, when host code declares it (`float hx[N]`): a buffer
    /// the kernel reads through several pointer types (a `void*` parameter) gets its bytes.
    pub fill_scalar: Option<crate::types::Scalar>,
    /// Where the fill is written (the loop or the array).
    pub fill_line: u32,
    /// The host array copied into it whose values could not be read (a loop over non-constant
    /// values, a call the reader does not know): named so that the run says so and leaves the
    /// buffer's cells undefined (never a made-up fill).
    pub fill_unread: Option<String>,
    /// Why a scalar argument has no value here (a host variable changed by a host loop the
    /// reader could not evaluate, a call's result, a value copied back from the device), when
    /// `scalar` is `None` and a reason is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unknown: Option<String>,
    /// A struct passed by value whose members host code sets one by one (`Params p; p.n =
    /// 20;`): each member's path below the variable (`n`, `inner.k`) and its value.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<(String, String)>,
    /// Why the device buffer holds no defined value at the launch: allocated
    /// (`cudaMalloc`, which does not clear memory) and never written before it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uninit: Option<String>,
    /// A `cudaMemset`/`hipMemset` the buffer holds at the launch: its fill (typed bytes,
    /// `u8:1`) and the call with its line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memset: Option<(String, String)>,
    /// Whether `fill` is what host code wrote into managed memory (`cudaMallocManaged`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub managed: bool,
    /// A write into the buffer before the launch that is not read here (a call given the
    /// pointer, a device-to-device copy, a memset of no constant size): what and where.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write_unread: Option<String>,
    /// Earlier launches in host code given this buffer since host code last wrote it: they
    /// run first (`sequence.rs`); one that could not run leaves what it wrote missing,
    /// which the launch says.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub prior_launches: Vec<String>,
    /// Elements past the device pointer's start the argument points at (`d + 16`, `&d[16]`,
    /// C++17 [expr.add]/4): the buffer is the allocation from that element on, its cells the
    /// fill from there.
    #[serde(skip_serializing_if = "is_zero")]
    pub offset: u64,
    /// The device pointer variable of host code the argument points into (`d` of `d`, `d +
    /// 16`, `&d[16]`), empty for anything else: two arguments of one launch with the same
    /// `device` view one memory.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub device: String,
    /// Which allocation of `device` (numbered in host code's order across its functions): a
    /// helper called once per type (`runTest<int>()`, `runTest<float>()`) allocates its own
    /// `d_a` each time, and launches on another allocation of the same name do not write
    /// this one. `None` when not known (a pointer a caller passed in).
    #[serde(skip)]
    pub alloc_id: Option<u32>,
    /// A host array of structs copied into the buffer whose members host code filled one by
    /// one (`h[i].x = …`): each member's path (`x`, `in.k`) and its values.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<(String, Vec<String>)>,
    /// The same launches as `prior_launches`, each as its [`HostLaunch::id`] and the index of
    /// the argument it was given this buffer as: the buffer the last of them leaves is what
    /// this launch finds (`sequence.rs` runs them first).
    #[serde(skip)]
    pub prior_ids: Vec<(u32, usize)>,
    /// The earlier launches whose result this buffer holds because they were run first
    /// (`sequence.rs`), named for the launch's note; empty otherwise.
    #[serde(skip)]
    pub ran_before: Vec<String>,
    /// Managed memory (`cudaMallocManaged`) that host code writes after the earlier launches
    /// in `prior_ids` and before this one: each cell it writes (index from the argument's
    /// start) and its value. It lies over what those launches left (`sequence.rs`), as host
    /// and device share the one allocation (CUDA C++ Programming Guide, "Unified Memory
    /// Programming").
    #[serde(skip)]
    pub overlay: Vec<(u64, String)>,
    /// The line of host code's last write in `overlay`.
    #[serde(skip)]
    pub overlay_line: u32,
    /// Cells of the argument's view (start and length, in its elements) host code wrote after
    /// the newest of `prior_launches` (a `cudaMemset` or `cudaMemcpy` of part of the buffer):
    /// they hold host code's values, the rest what that launch left (`sequence.rs`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub host_cells: Vec<(u64, u64)>,
    /// A struct passed by value whose pointer members host code allocated (`cudaMalloc(&p.x,
    /// …)`): each member's path (`x`) and what the launch finds through it, as an argument of
    /// its own would.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub member_args: Vec<(String, HostArg)>,
    /// The argument names a parameter of the host function read (an Ascend launcher's
    /// `GM_ADDR x`, a host helper's `float *d` no call binds): its memory comes from a caller
    /// not read, so the run's own default for an unset buffer applies, as for a kernel alone.
    #[serde(skip)]
    pub from_param: bool,
    /// Device-to-device copies into the argument's view of cells launches left in another
    /// allocation (`cudaMemcpy(b + 4, a + 8, …, cudaMemcpyDeviceToDevice)` after a launch
    /// given `a`), oldest first: `sequence.rs` runs those launches first and puts the cells
    /// over the buffer's (CUDA Runtime API, cudaMemcpy).
    #[serde(skip)]
    pub dev_copies: Vec<DevCopy>,
}

/// One device-to-device copy of cells earlier launches left (CUDA Runtime API, cudaMemcpy:
/// "Copies count bytes from the memory area pointed to by src to the memory area pointed to by
/// dst"), as [`HostArg::dev_copies`] records it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DevCopy {
    /// The first cell written, counted from the start of the argument's view.
    pub at: u64,
    /// Cells copied.
    pub len: u64,
    /// The launches given the source since host code last wrote it, each as its
    /// [`HostLaunch::id`] and argument index, oldest first: the cells are what they left.
    pub src: Vec<(u32, usize)>,
    /// The source's allocation in host code.
    pub src_device: String,
    /// The element of the source's allocation copied into cell `at`.
    pub src_at: u64,
    /// Elements of the source's allocation (start, length) host code wrote after those
    /// launches: the copy takes host code's value there, already in the buffer's fill.
    pub src_keep: Vec<(u64, u64)>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}
