//! The syntax tree of a kernel. Every node carries the line:column where it starts.

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

/// An expression and where it starts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it starts.
    pub span: Span,
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
    /// A string literal (a `printf` format); it has no value in a lane.
    Str(String),
}

/// One declarator of a declaration: `name`, `name[N]`, `name = init`.
#[derive(Clone, Debug, PartialEq, Serialize)]
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

/// A parameter of a kernel.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Param {
    /// Name.
    pub name: String,
    /// Type; pointers, arrays and references are [`Ty::Ptr`].
    pub ty: Ty,
    /// Whether it was written as a reference (`uint64_t& res`): a one-element buffer.
    pub reference: bool,
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
}

/// A parsed program: functions, or, for a bare snippet of statements, one implicit kernel.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Program {
    /// Functions in source order.
    pub functions: Vec<Function>,
    /// Type aliases (`using v2f32 = __NATIVE_VECTOR__(2, float);`), name and type.
    pub aliases: Vec<(String, ValTy)>,
}
