//! The loop IR: typed scalar variables, scalar expressions, loads and stores on memory blocks, and structured control
//! flow (`for`, `while`, `if`). It is what the hybrid pull arrays of `lower.rs` turn into, and what the memory stage
//! decorates: every array that exists at run time lives in a [`Block`] and is read through an index function (a
//! [`Layout`]: offset plus one (extent, stride) pair per dimension, i.e. an LMAD whose terms are IR expressions).
//!
//! Parallel structure is explicit (in the spirit of Futhark's SegMap and SegRed):
//! - [`Stmt::ParallelFor`] (`parfor i < n { ... }`) is a parallel map: its iterations are independent. The body
//!   assigns no mutable variable declared outside it, has no effect other than stores and APL errors (no print, file,
//!   clock or random numbers), allocates only blocks it frees again, and distinct iterations store to distinct
//!   positions and load no position that another iteration stores. The checker verifies the first three; the last is
//!   established by the pass that makes the loop parallel (`parallelise.rs`), which proves it from the LMAD of the
//!   stores.
//! - [`Stmt::ParallelReduce`] (`reduce acc : t = addd(-0.0) for k < n { ...; yield x }`) is a parallel reduction
//!   with an associative operator and its neutral element. Its value is defined by a fixed chunking that does not
//!   depend on the number of threads: the element range is cut into chunks of [`REDUCTION_CHUNK`] elements, each chunk
//!   is folded from the neutral element left to right (`part := op(part, x)`), and the chunks' results are folded
//!   left to right in chunk order. The chunking never depends on the thread count, so a floating-point `+/` prints the
//!   same digits whatever the thread count. Within a chunk, native code lets LLVM reassociate a double `+` (APL's
//!   licence; it vectorises the fold into lane sums) but not a `×` (see `codegen/llvm/translate.rs`), and an OpenCL
//!   kernel folds a chunk in 256 lanes that a work-group combines as a tree (`codegen/opencl/kernel.rs`; a `×` in
//!   order too), so the backends agree up to the rounding of a 4,096-element partial sum, below the printed digits in
//!   practice but not bit for bit. Each backend's order is fixed: never the thread count, the work-group size or a tuning parameter.
//! - A scan (`f\`) is no construct of its own: lowering writes a row longer than one chunk as two parallel maps
//!   over its chunks around a sequential loop over the chunks' totals (`crate::lower`'s `scan.rs`), so the same
//!   chunks define a double `+\` as they define `+/`.
//! - A segmented reduction (one result per row) is a parallel map over the rows whose body reduces its row: a
//!   nested `reduce` when the row's length is not known to be at most one chunk (`passes/interchange.rs` makes the
//!   row's fold one), so a long row keeps the chunks' bound as well; a sequential fold when it is (one chunk is the
//!   same fold), or when the interchange put the rows in i-k-j order (an inner product's rows, of one chunk each
//!   in practice).
//! - Everything else is sequential: `for` and `while` loops stay for what is sequential (⍣, folds whose operator is
//!   not associative, compress with its running write position).
//!
//! One kernel per parallel construct is the natural OpenCL translation; a chunked loop over the threads of a pool is
//! the CPU one (`codegen/llvm/translate/parallel.rs`). A parallel construct nested in another one runs sequentially
//! inside it.
//!
//! Scalar operations reuse TAIL's scalar operators ([`Op`]) with exactly their semantics (`crate::tail::scalar_ops`),
//! so `divd` by zero is the same DOMAIN ERROR in every backend, and APL's int `addi subi muli negi` stop the program
//! on overflow. Index arithmetic (positions, sizes, strides, cursors) uses the wrapping `addw subw mulw negw`, which
//! lowering generates only where the result fits, and `divi`, `resi`, `mini`, `maxi` and the comparisons; the printer
//! writes these infix where that reads better (`(i + 1)`, `(k % n)`). A `reduce` with `addi` on ints is the exact sum
//! of its elements (DOMAIN ERROR only when that sum does not fit), however the chunks' partial sums fall.

use crate::runtime::error::AplErrorKind;
use crate::source::Span;
use crate::tail::ast::{BaseType, Op, Type};
use std::rc::Rc;

/// The element and variable types. A complex number is one value (two doubles: the real part, then the imaginary
/// part); constants are `mkx(re, im)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarType {
    Int,
    Double,
    Bool,
    Char,
    Complex,
}

impl ScalarType {
    /// The loop type of a TAIL base type (`None` for unresolved type variables).
    pub fn from_base(base: BaseType) -> Option<ScalarType> {
        match base {
            BaseType::Int => Some(ScalarType::Int),
            BaseType::Double => Some(ScalarType::Double),
            BaseType::Bool => Some(ScalarType::Bool),
            BaseType::Char => Some(ScalarType::Char),
            BaseType::Complex => Some(ScalarType::Complex),
            BaseType::Var(_) => None,
        }
    }

    pub fn base(self) -> BaseType {
        match self {
            ScalarType::Int => BaseType::Int,
            ScalarType::Double => BaseType::Double,
            ScalarType::Bool => BaseType::Bool,
            ScalarType::Char => BaseType::Char,
            ScalarType::Complex => BaseType::Complex,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ScalarType::Int => "int",
            ScalarType::Double => "double",
            ScalarType::Bool => "bool",
            ScalarType::Char => "char",
            ScalarType::Complex => "complex",
        }
    }

    /// The fill (prototype) element: 0, 0.0, ff, ' ', 0J0.
    pub fn fill(self) -> Expr {
        match self {
            ScalarType::Int => Expr::Int(0),
            ScalarType::Double => Expr::Double(0.0),
            ScalarType::Bool => Expr::Bool(false),
            ScalarType::Char => Expr::Char(' '),
            ScalarType::Complex => Expr::complex(0.0, 0.0),
        }
    }
}

/// A scalar variable. Identity is the id; the hint only makes the printed IR readable.
#[derive(Clone, Debug)]
pub struct Var {
    pub id: u32,
    pub ty: ScalarType,
    pub hint: Rc<str>,
}

impl PartialEq for Var {
    fn eq(&self, other: &Var) -> bool {
        self.id == other.id
    }
}

impl Eq for Var {}

impl Var {
    /// The printed name: the hint followed by the id (with `_` between when the hint ends in a digit).
    pub fn name(&self) -> String {
        if self.hint.ends_with(|c: char| c.is_ascii_digit()) {
            format!("{}_{}", self.hint, self.id)
        } else {
            format!("{}{}", self.hint, self.id)
        }
    }
}

/// A memory block: a run-time buffer of one element type, stored as [`Storage`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Block {
    pub id: u32,
    pub element: ScalarType,
    pub storage: Storage,
}

/// How a block holds its elements in memory. Every block starts [`Storage::Natural`]; the last memory pass
/// (`passes/narrow_storage.rs`) makes an int block whose stored values provably fit a narrower signed int
/// [`Storage::Int8`], [`Storage::Int16`] or [`Storage::Int32`]: a store truncates to that width and a load
/// sign-extends back to 64 bits, so the program computes with the same ints and moves an eighth (a quarter, a half)
/// of the bytes. Only blocks that no run-time call reads or fills are narrowed (the run-time library's arrays are
/// 64-bit ints), which the checker verifies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Storage {
    /// The element type's own layout (see `aplc_runtime::abi::ElementKind`).
    Natural,
    Int8,
    Int16,
    Int32,
}

impl Storage {
    /// The narrow storage of an int, by bit count (8, 16 or 32).
    pub fn narrow_int(bits: u32) -> Option<Storage> {
        match bits {
            8 => Some(Storage::Int8),
            16 => Some(Storage::Int16),
            32 => Some(Storage::Int32),
            _ => None,
        }
    }

    /// The bits of a narrow int's storage (None for the natural layout).
    pub fn narrow_bits(self) -> Option<u32> {
        match self {
            Storage::Natural => None,
            Storage::Int8 => Some(8),
            Storage::Int16 => Some(16),
            Storage::Int32 => Some(32),
        }
    }

    /// Whether an int value fits the storage.
    pub fn holds(self, value: i64) -> bool {
        match self.narrow_bits() {
            None => true,
            Some(bits) => {
                let limit = 1i64 << (bits - 1);
                (-limit..limit).contains(&value)
            }
        }
    }
}

impl Block {
    /// A block of the element type's natural layout.
    pub fn new(id: u32, element: ScalarType) -> Block {
        Block {
            id,
            element,
            storage: Storage::Natural,
        }
    }

    pub fn name(&self) -> String {
        format!("mem{}", self.id)
    }

    /// The name of what one element of the block is in memory: the element type's name (`int`), or for a narrow int
    /// block its width (`int8`, `int16`, `int32`), as `alloc` lines print it.
    pub fn storage_name(&self) -> String {
        match self.storage.narrow_bits() {
            Some(bits) => format!("{}{bits}", self.element.name()),
            None => self.element.name().to_string(),
        }
    }
}

/// A scalar expression. Expressions have no effects except the APL errors of their operators and `roll`, which
/// advances the program's random generator (see [`Expr::draws_random_numbers`]); [`Expr::Select`] is lazy (only the
/// chosen branch is evaluated).
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Int(i64),
    Double(f64),
    Bool(bool),
    Char(char),
    Var(Var),
    /// A TAIL scalar operator applied to its arguments (as many as its arity).
    Prim(Op, Vec<Expr>),
    /// `block[index]`, a bounds-checked read (out of bounds is an internal error, not an APL error).
    Load {
        block: Block,
        index: Box<Expr>,
    },
    /// `cond ? then : otherwise`.
    Select(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `at(START, END, e)`: e, an operation that may raise an APL error (a division, an int sum that may overflow), as
    /// the code of the APL text at the span `START..END`: its error points there. Lowering puts sites only around the
    /// scalar operations of APL primitives that can fail; every pass treats a site as its operand.
    At(Span, Box<Expr>),
    /// `reached(name, value)`: whether `value` reaches the program parameter `name` (`value >= name`), the run-time
    /// choice between the versions of a multi-versioned construct (see `parameters.rs`). A bool; no effect, no error.
    /// The backends read the parameter through the run-time library and tell it the value compared (for `aplc tune`).
    Threshold {
        name: String,
        value: Box<Expr>,
    },
}

/// The scalar type an operator returns, from its type scheme (`None` for non-scalar operators).
pub fn prim_result_type(op: Op) -> Option<ScalarType> {
    let mut ty = &op.scheme().body;
    while let Type::Function(_, result) = ty {
        ty = result;
    }
    match ty {
        Type::Array(base, _) | Type::Singleton(base, _) => ScalarType::from_base(*base),
        _ => None,
    }
}

/// The scalar argument types of an operator, from its type scheme.
pub fn prim_argument_types(op: Op) -> Vec<Option<ScalarType>> {
    let mut types = Vec::new();
    let mut ty = &op.scheme().body;
    while let Type::Function(argument, result) = ty {
        types.push(match &**argument {
            Type::Array(base, _) | Type::Singleton(base, _) => ScalarType::from_base(*base),
            _ => None,
        });
        ty = result;
    }
    types
}

impl Expr {
    pub fn var(var: &Var) -> Expr {
        Expr::Var(var.clone())
    }

    /// A complex constant: `mkx(re, im)` (complex numbers have no literal of their own in the loop IR).
    pub fn complex(re: f64, im: f64) -> Expr {
        Expr::Prim(Op::MakeX, vec![Expr::Double(re), Expr::Double(im)])
    }

    /// The type of the expression (Int for an ill-formed one; the checker reports those).
    pub fn ty(&self) -> ScalarType {
        match self {
            Expr::Int(_) => ScalarType::Int,
            Expr::Double(_) => ScalarType::Double,
            Expr::Bool(_) => ScalarType::Bool,
            Expr::Char(_) => ScalarType::Char,
            Expr::Var(var) => var.ty,
            Expr::Prim(op, _) => prim_result_type(*op).unwrap_or(ScalarType::Int),
            Expr::Load { block, .. } => block.element,
            Expr::Select(_, then, _) => then.ty(),
            Expr::At(_, inner) => inner.ty(),
            Expr::Threshold { .. } => ScalarType::Bool,
        }
    }

    /// `e` as the code of the APL text at `site` ([`Expr::At`]); an expression that already has a site keeps it.
    pub fn at(site: Span, expr: Expr) -> Expr {
        match expr {
            Expr::At(..) => expr,
            other => Expr::At(site, Box::new(other)),
        }
    }

    /// The expression under its sites: what patterns over operations look at.
    pub fn without_site(&self) -> &Expr {
        match self {
            Expr::At(_, inner) => inner.without_site(),
            other => other,
        }
    }

    /// Whether two constants are the same bit for bit (`-0.0` and `0.0` are not, though they compare equal as
    /// numbers); other expressions compare as `==` does.
    pub fn same_bits(&self, other: &Expr) -> bool {
        match (self, other) {
            (Expr::Double(a), Expr::Double(b)) => a.to_bits() == b.to_bits(),
            (a, b) => a == b,
        }
    }

    /// Whether evaluating the expression draws from the random generator (`roll`). Such an expression must be
    /// evaluated exactly where and as often as the program says: a pass may not hoist it out of a loop, duplicate it,
    /// or merge two equal ones, since every backend must draw the same numbers in the same order.
    pub fn draws_random_numbers(&self) -> bool {
        match self {
            Expr::Prim(op, arguments) => *op == Op::Roll || arguments.iter().any(Expr::draws_random_numbers),
            Expr::Load { index, .. } => index.draws_random_numbers(),
            Expr::Select(condition, then, otherwise) => {
                condition.draws_random_numbers() || then.draws_random_numbers() || otherwise.draws_random_numbers()
            }
            Expr::At(_, inner) | Expr::Threshold { value: inner, .. } => inner.draws_random_numbers(),
            Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_) | Expr::Var(_) => false,
        }
    }

    /// Constants and variables: cheap to duplicate.
    pub fn is_trivial(&self) -> bool {
        matches!(
            self,
            Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_) | Expr::Var(_)
        )
    }

    pub fn as_int(&self) -> Option<i64> {
        match self {
            Expr::Int(n) => Some(*n),
            _ => None,
        }
    }

    // ---- Smart constructors for index arithmetic (fold constants, drop neutral operands) ----

    pub fn add_int(a: Expr, b: Expr) -> Expr {
        match (a.as_int(), b.as_int()) {
            (Some(x), Some(y)) => Expr::Int(x.wrapping_add(y)),
            (Some(0), _) => b,
            (_, Some(0)) => a,
            _ => Expr::Prim(Op::AddW, vec![a, b]),
        }
    }

    pub fn sub_int(a: Expr, b: Expr) -> Expr {
        match (a.as_int(), b.as_int()) {
            (Some(x), Some(y)) => Expr::Int(x.wrapping_sub(y)),
            (_, Some(0)) => a,
            _ => Expr::Prim(Op::SubW, vec![a, b]),
        }
    }

    pub fn mul_int(a: Expr, b: Expr) -> Expr {
        match (a.as_int(), b.as_int()) {
            (Some(x), Some(y)) => Expr::Int(x.wrapping_mul(y)),
            (Some(0), _) | (_, Some(0)) => Expr::Int(0),
            (Some(1), _) => b,
            (_, Some(1)) => a,
            _ => Expr::Prim(Op::MulW, vec![a, b]),
        }
    }

    /// Floor division (`divi`); only used with positive divisors.
    pub fn div_int(a: Expr, b: Expr) -> Expr {
        match (a.as_int(), b.as_int()) {
            (_, Some(1)) => a,
            _ => Expr::Prim(Op::DivI, vec![a, b]),
        }
    }

    /// `a mod n` (APL residue `n|a`, in 0..n-1 for n > 0).
    pub fn modulo(a: Expr, n: Expr) -> Expr {
        match n.as_int() {
            Some(1) => Expr::Int(0),
            _ => Expr::Prim(Op::ResI, vec![n, a]),
        }
    }

    pub fn neg_int(a: Expr) -> Expr {
        match a.as_int() {
            Some(n) => Expr::Int(n.wrapping_neg()),
            None => Expr::Prim(Op::NegW, vec![a]),
        }
    }

    pub fn max(a: Expr, b: Expr) -> Expr {
        match (a.as_int(), b.as_int()) {
            (Some(x), Some(y)) => Expr::Int(x.max(y)),
            _ => Expr::Prim(Op::MaxI, vec![a, b]),
        }
    }

    pub fn min(a: Expr, b: Expr) -> Expr {
        match (a.as_int(), b.as_int()) {
            (Some(x), Some(y)) => Expr::Int(x.min(y)),
            _ => Expr::Prim(Op::MinI, vec![a, b]),
        }
    }

    pub fn lt(a: Expr, b: Expr) -> Expr {
        match (a.as_int(), b.as_int()) {
            (Some(x), Some(y)) => Expr::Bool(x < y),
            _ => Expr::Prim(Op::LtI, vec![a, b]),
        }
    }

    pub fn eq(a: Expr, b: Expr) -> Expr {
        match (a.as_int(), b.as_int()) {
            (Some(x), Some(y)) => Expr::Bool(x == y),
            _ => Expr::Prim(Op::EqI, vec![a, b]),
        }
    }

    pub fn not_bool(a: Expr) -> Expr {
        match a {
            Expr::Bool(b) => Expr::Bool(!b),
            other => Expr::Prim(Op::NotB, vec![other]),
        }
    }

    pub fn and(a: Expr, b: Expr) -> Expr {
        match (&a, &b) {
            (Expr::Bool(true), _) => b,
            (_, Expr::Bool(true)) => a,
            (Expr::Bool(false), _) | (_, Expr::Bool(false)) => Expr::Bool(false),
            _ => Expr::Prim(Op::AndB, vec![a, b]),
        }
    }

    pub fn or(a: Expr, b: Expr) -> Expr {
        match (&a, &b) {
            (Expr::Bool(false), _) => b,
            (_, Expr::Bool(false)) => a,
            (Expr::Bool(true), _) | (_, Expr::Bool(true)) => Expr::Bool(true),
            _ => Expr::Prim(Op::OrB, vec![a, b]),
        }
    }

    pub fn load(block: Block, index: Expr) -> Expr {
        Expr::Load {
            block,
            index: Box::new(index),
        }
    }

    pub fn select(condition: Expr, then: Expr, otherwise: Expr) -> Expr {
        match condition {
            Expr::Bool(true) => then,
            Expr::Bool(false) => otherwise,
            condition => Expr::Select(Box::new(condition), Box::new(then), Box::new(otherwise)),
        }
    }

    /// The product of a list of int expressions (1 for none).
    pub fn product(factors: &[Expr]) -> Expr {
        factors.iter().cloned().fold(Expr::Int(1), Expr::mul_int)
    }
}

/// Where an array's elements are in its block: `offset + Σ index_k × stride_k` (an LMAD over IR expressions).
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub offset: Expr,
    pub strides: Vec<Expr>,
}

impl Layout {
    /// The row-major layout of a shape at offset 0.
    pub fn row_major(shape: &[Expr]) -> Layout {
        let mut strides = vec![Expr::Int(1); shape.len()];
        for axis in (0..shape.len().saturating_sub(1)).rev() {
            strides[axis] = Expr::mul_int(strides[axis + 1].clone(), shape[axis + 1].clone());
        }
        Layout {
            offset: Expr::Int(0),
            strides,
        }
    }

    /// The position of a multi-index.
    pub fn position(&self, index: &[Expr]) -> Expr {
        index
            .iter()
            .zip(&self.strides)
            .fold(self.offset.clone(), |sum, (i, stride)| {
                Expr::add_int(sum, Expr::mul_int(i.clone(), stride.clone()))
            })
    }

    /// Whether the layout is row-major for `shape` (up to its offset): flat index i is at `offset + i`.
    pub fn is_row_major(&self, shape: &[Expr]) -> bool {
        self.strides == Layout::row_major(shape).strides
    }
}

/// A run-time array handed to the runtime (print, program result): a row-major block at offset 0 with its shape.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayRef {
    pub block: Block,
    pub shape: Vec<Expr>,
}

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `let x = e` (immutable).
    Let { var: Var, value: Expr },
    /// `var x = e` (a mutable scalar, assigned later).
    Mutable { var: Var, value: Expr },
    /// `x := e`.
    Assign { var: Var, value: Expr },
    /// `for i < count { body }`: i runs 0, 1, ..., count-1 (no iterations when count ≤ 0).
    For { index: Var, count: Expr, body: Vec<Stmt> },
    /// `while cond { body }`: cond is re-evaluated before every iteration.
    While { condition: Expr, body: Vec<Stmt> },
    /// `parfor i < count { body }`: a parallel map (see the module documentation for what the body may do).
    ParallelFor { index: Var, count: Expr, body: Vec<Stmt> },
    /// `reduce result : t = op(neutral) for k < count { body; yield element }`: `result` is the reduction of the
    /// `element`s of the iterations, in the chunked order of the module documentation. The body computes one element
    /// and may do what a parallel map's body may.
    ParallelReduce {
        result: Var,
        reduction: Reduction,
        index: Var,
        count: Expr,
        body: Vec<Stmt>,
        element: Expr,
        /// The APL reduction this is (its DOMAIN ERRORs, a sum that is not finite, say, point there).
        site: Option<Span>,
    },
    If {
        condition: Expr,
        then: Vec<Stmt>,
        otherwise: Vec<Stmt>,
    },
    /// `alloc block : elem[size]`; `site` is the APL text whose array this is (a WS FULL points there).
    Alloc {
        block: Block,
        size: Expr,
        site: Option<Span>,
    },
    /// `store block[index] = value`.
    Store { block: Block, index: Expr, value: Expr },
    /// `free block`.
    Free { block: Block },
    /// `swap a, b`: exchanges the buffers behind two blocks of the same element type (double buffering).
    Swap { first: Block, second: Block },
    /// Runtime call: print an array (through the host, formatted as the TAIL interpreter does) with a print code
    /// (`⎕PP`, an int in 1..17, plus 100 × `⎕PW` where ⎕PW is not 80: `aplc_runtime::display::PrintSettings`).
    PrintArray { array: ArrayRef, precision: Expr },
    /// Runtime call: print a scalar with a print precision.
    PrintScalar { value: Expr, precision: Expr },
    /// Runtime call: raise an APL error (the explicit checks of lowering end here). `site` is the APL text whose
    /// check this is (a span of the program's source), when the check comes from one.
    Error {
        kind: AplErrorKind,
        message: String,
        site: Option<Span>,
    },
    /// Runtime call: `⎕ReadFile`, `⎕ReadIntVecFile`, `⎕ReadDoubleVecFile`: the runtime reads the text file named by
    /// the char vector `path` as elements of `result`'s type (chars, ints or doubles), allocates `result` and defines
    /// its length in `length`.
    /// `site` is the APL text of the reading system function (its FILE I/O or DOMAIN ERROR points there).
    ReadFile {
        path: ArrayRef,
        result: Block,
        length: Var,
        site: Option<Span>,
    },
    /// Runtime call: `clock var`, the wall clock in milliseconds (`⎕NOW`, and the start of a `⎕BENCH` loop).
    ReadClock { var: Var },
    /// Runtime call: `report_bench(iterations, start)`, report on standard error how long `iterations` applications
    /// took since the clock read `start` (the end of a `⎕BENCH` loop).
    ReportBench { iterations: Expr, start: Expr },
    /// Runtime call: `⍕` of an array (`matrix`: the rank-2 form) with a print precision. The runtime allocates
    /// `result` (chars, row-major) and defines the extents in `shape` (one variable for a vector, two for a matrix).
    Format {
        source: ArrayRef,
        precision: Expr,
        matrix: bool,
        result: Block,
        shape: Vec<Var>,
        /// The `⍕` whose result this is (a WS FULL of the run-time library's allocation points there).
        site: Option<Span>,
    },
    /// `call result = f(args) at START..END`: a call of the program's function `f` ([`Function`]). An array
    /// argument is a row-major block at offset 0 that the callee reads and never frees; an array result is a block
    /// the callee allocated, which the caller owns from then on (the call defines it, as an `alloc` would, and its
    /// extents). Opaque to every pass: the callee may raise any APL error (WS FULL when calls nest deeper than
    /// `aplc_runtime::abi::MAX_CALL_DEPTH`, reported at `site`, the APL call), and may print. A loop whose body calls
    /// is never parallel.
    Call {
        result: Slot,
        function: String,
        args: Vec<Argument>,
        site: Option<Span>,
    },
    /// A memory decoration with no run-time effect: the array `name` lives in `block`, element `i` of it at
    /// `layout.position(i)` (printed with its LMAD, see `memory.rs`).
    View {
        name: String,
        block: Block,
        shape: Vec<Expr>,
        layout: Layout,
    },
}

/// The start of a parallel reduction with operator `op` when `op` may fold in chunks (associative, and exactly so
/// where the order could show: see `crate::lower`'s `folds_in_any_order`, which this decides): an element `e` with
/// `op(e, x) = x` bit for bit for every `x` (-0.0 for a double sum, since 0.0 + -0.0 is 0.0). `None` for the other
/// operators.
pub fn chunked_reduction_start(op: Op) -> Option<Expr> {
    Some(match op {
        Op::AddI | Op::OrI | Op::XorI => Expr::Int(0),
        Op::MaxI => Expr::Int(i64::MIN),
        Op::MinI => Expr::Int(i64::MAX),
        Op::AndI => Expr::Int(-1),
        Op::AndB | Op::EqB => Expr::Bool(true),
        Op::OrB | Op::XorB => Expr::Bool(false),
        Op::AddD => Expr::Double(-0.0),
        Op::MulD => Expr::Double(1.0),
        _ => return None,
    })
}

/// The chunk length of [`Stmt::ParallelReduce`]: part of its meaning (floating-point sums are rounded per chunk), so a
/// constant of the IR rather than a tuning parameter.
pub const REDUCTION_CHUNK: i64 = 4096;

/// The operator of a parallel reduction: a scalar operator that is associative (so chunks may be folded apart) with
/// its neutral element (`op(neutral, x) = x`, bit for bit), and whether it is also commutative (all of today's are;
/// the chunked order never needs it, but an OpenCL tree reduction may).
#[derive(Clone, Debug, PartialEq)]
pub struct Reduction {
    pub op: Op,
    pub neutral: Expr,
    pub commutative: bool,
}

/// The value a program returns (shown after everything it printed).
#[derive(Clone, Debug, PartialEq)]
pub enum ResultValue {
    Scalar(Expr),
    Array(ArrayRef),
    Tuple(Vec<ResultValue>),
}

/// A whole loop program: its functions, statements, then the result.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// The recursive functions the statements call ([`Stmt::Call`]); empty for most programs.
    pub functions: Vec<Function>,
    pub body: Vec<Stmt>,
    pub result: ResultValue,
}

impl Program {
    /// A program without functions.
    pub fn new(body: Vec<Stmt>, result: ResultValue) -> Program {
        Program {
            functions: Vec::new(),
            body,
            result,
        }
    }

    /// The largest id of a variable or block of the program, its functions included (see [`largest_id`]).
    pub fn largest_id(&self) -> u32 {
        self.functions
            .iter()
            .map(|function| {
                let parameters = function
                    .parameters
                    .iter()
                    .flat_map(|slot| {
                        slot.variables()
                            .into_iter()
                            .map(|var| var.id)
                            .chain(slot.block().map(|b| b.id))
                    })
                    .max()
                    .unwrap_or(0);
                parameters.max(largest_id(&function.body))
            })
            .fold(largest_id(&self.body), u32::max)
    }

    /// The function named `name`.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|function| function.name == name)
    }
}

/// `fun f(x1 : int, mem2 : double[n3]) -> int { body; return e }`: a function of scalars and arrays, called by
/// [`Stmt::Call`] (a recursive APL dfn). Its body reads only its parameters and the blocks it allocates itself; the
/// variable and block ids are unique in the whole program. An array result (`return mem7 : int[n8]`) is a block the
/// body allocated (never a parameter's).
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: String,
    pub parameters: Vec<Slot>,
    pub body: Vec<Stmt>,
    /// A scalar or an array, never a tuple.
    pub result: ResultValue,
}

/// A parameter of a function, or what a call defines: a scalar variable, or an array: its block (row-major from
/// position 0) and a variable for each extent.
#[derive(Clone, Debug, PartialEq)]
pub enum Slot {
    Scalar(Var),
    Array { block: Block, shape: Vec<Var> },
}

impl Slot {
    /// The variables the slot defines (the scalar, or the extents).
    pub fn variables(&self) -> Vec<&Var> {
        match self {
            Slot::Scalar(var) => vec![var],
            Slot::Array { shape, .. } => shape.iter().collect(),
        }
    }

    /// The block of an array slot.
    pub fn block(&self) -> Option<Block> {
        match self {
            Slot::Scalar(_) => None,
            Slot::Array { block, .. } => Some(*block),
        }
    }
}

/// An argument of a call: a scalar, or an array (a row-major block at offset 0 with its extents).
#[derive(Clone, Debug, PartialEq)]
pub enum Argument {
    Scalar(Expr),
    Array(ArrayRef),
}

impl Argument {
    /// The expressions the argument evaluates (the scalar, or the extents).
    pub fn expressions(&self) -> Vec<&Expr> {
        match self {
            Argument::Scalar(expr) => vec![expr],
            Argument::Array(array) => array.shape.iter().collect(),
        }
    }

    /// [`Argument::expressions`], mutably.
    pub fn expressions_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            Argument::Scalar(expr) => vec![expr],
            Argument::Array(array) => array.shape.iter_mut().collect(),
        }
    }
}

/// A lowered REPL line: the loop program and the blocks its inputs must be bound to.
#[derive(Clone, Debug)]
pub struct LineProgram {
    pub program: Program,
    /// `(input number, block)`, one entry per input the program reads, in order of first use.
    pub inputs: Vec<InputBlock>,
}

/// The block an input is read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputBlock {
    pub index: usize,
    pub block: Block,
}

impl Stmt {
    /// The statement lists nested directly in this statement (loop bodies, branches), in order. Walks that only need
    /// to reach every statement use this, so that a new kind of statement with a body is handled in one place.
    pub fn nested_lists(&self) -> Vec<&Vec<Stmt>> {
        match self {
            Stmt::For { body, .. }
            | Stmt::While { body, .. }
            | Stmt::ParallelFor { body, .. }
            | Stmt::ParallelReduce { body, .. } => vec![body],
            Stmt::If { then, otherwise, .. } => vec![then, otherwise],
            _ => Vec::new(),
        }
    }

    /// [`Stmt::nested_lists`], mutably.
    pub fn nested_lists_mut(&mut self) -> Vec<&mut Vec<Stmt>> {
        match self {
            Stmt::For { body, .. }
            | Stmt::While { body, .. }
            | Stmt::ParallelFor { body, .. }
            | Stmt::ParallelReduce { body, .. } => vec![body],
            Stmt::If { then, otherwise, .. } => vec![then, otherwise],
            _ => Vec::new(),
        }
    }

    /// Whether the statement is a loop of any kind (its body may run many times).
    pub fn is_loop(&self) -> bool {
        matches!(
            self,
            Stmt::For { .. } | Stmt::While { .. } | Stmt::ParallelFor { .. } | Stmt::ParallelReduce { .. }
        )
    }

    /// Whether the statement is a parallel construct.
    pub fn is_parallel(&self) -> bool {
        matches!(self, Stmt::ParallelFor { .. } | Stmt::ParallelReduce { .. })
    }
}

/// Visits every statement, nested ones included, in order.
pub fn for_each_statement(statements: &[Stmt], visit: &mut dyn FnMut(&Stmt)) {
    for statement in statements {
        visit(statement);
        for list in statement.nested_lists() {
            for_each_statement(list, visit);
        }
    }
}

/// The variables a statement defines itself (not those of the statements nested in it, except the index of a loop
/// and the result of a reduction).
pub fn defined_variables_of(statement: &Stmt) -> Vec<&Var> {
    match statement {
        Stmt::Let { var, .. } | Stmt::Mutable { var, .. } | Stmt::ReadClock { var } => vec![var],
        Stmt::Call { result, .. } => result.variables(),
        Stmt::For { index, .. } | Stmt::ParallelFor { index, .. } => vec![index],
        Stmt::ParallelReduce { result, index, .. } => vec![result, index],
        Stmt::ReadFile { length, .. } => vec![length],
        Stmt::Format { shape, .. } => shape.iter().collect(),
        _ => Vec::new(),
    }
}

/// The largest id of a variable or block defined in `statements` (0 for none): passes and code generators that make
/// up variables or blocks number them above it.
pub fn largest_id(statements: &[Stmt]) -> u32 {
    let mut largest = 0;
    for_each_statement(statements, &mut |statement| {
        for var in defined_variables_of(statement) {
            largest = largest.max(var.id);
        }
        if let Stmt::Alloc { block, .. } | Stmt::ReadFile { result: block, .. } | Stmt::Format { result: block, .. } =
            statement
        {
            largest = largest.max(block.id);
        }
        if let Stmt::Call {
            result: Slot::Array { block, .. },
            ..
        } = statement
        {
            largest = largest.max(block.id);
        }
    });
    largest
}

/// The blocks `statements` store into (at any depth), each once, in the order of their first store.
pub fn blocks_stored_in(statements: &[Stmt]) -> Vec<Block> {
    let mut stored = Vec::new();
    for_each_statement(statements, &mut |statement| {
        if let Stmt::Store { block, .. } = statement {
            if !stored.contains(block) {
                stored.push(*block);
            }
        }
    });
    stored
}

/// The ids of the blocks `statements` allocate (at any depth).
pub fn blocks_allocated_in(statements: &[Stmt]) -> std::collections::HashSet<u32> {
    let mut allocated = std::collections::HashSet::new();
    for_each_statement(statements, &mut |statement| {
        if let Stmt::Alloc { block, .. } = statement {
            allocated.insert(block.id);
        }
    });
    allocated
}

/// The ids of the variables the statements define (at any depth).
pub fn variables_defined_in(statements: &[Stmt]) -> std::collections::HashSet<u32> {
    let mut defined = std::collections::HashSet::new();
    for_each_statement(statements, &mut |statement| {
        defined.extend(defined_variables_of(statement).iter().map(|var| var.id));
    });
    defined
}

/// Whether `expr` loads from no block and reads none of the `defined` variables: its value is fixed before the
/// statements that define them.
pub fn reads_only_outside(expr: &Expr, defined: &std::collections::HashSet<u32>) -> bool {
    let mut variables = Vec::new();
    let mut blocks = Vec::new();
    collect_reads(expr, &mut variables, &mut blocks);
    blocks.is_empty() && variables.iter().all(|var| !defined.contains(&var.id))
}

/// Calls `visit` with the block and the index expression of every load in `expr`, outer loads first.
pub fn for_each_load<'a>(expr: &'a Expr, visit: &mut dyn FnMut(Block, &'a Expr)) {
    match expr {
        Expr::Load { block, index } => {
            visit(*block, index);
            for_each_load(index, visit);
        }
        Expr::Prim(_, args) => args.iter().for_each(|arg| for_each_load(arg, visit)),
        Expr::Select(condition, then, otherwise) => {
            for_each_load(condition, visit);
            for_each_load(then, visit);
            for_each_load(otherwise, visit);
        }
        Expr::At(_, inner) | Expr::Threshold { value: inner, .. } => for_each_load(inner, visit),
        _ => {}
    }
}

/// Appends the variables `expr` reads to `variables` (with repeats) and the blocks it loads from to `blocks` (once each).
pub fn collect_reads(expr: &Expr, variables: &mut Vec<Var>, blocks: &mut Vec<Block>) {
    match expr {
        Expr::Var(var) => variables.push(var.clone()),
        Expr::Load { block, index } => {
            if !blocks.contains(block) {
                blocks.push(*block);
            }
            collect_reads(index, variables, blocks);
        }
        Expr::Prim(_, args) => args.iter().for_each(|arg| collect_reads(arg, variables, blocks)),
        Expr::Select(c, a, b) => {
            collect_reads(c, variables, blocks);
            collect_reads(a, variables, blocks);
            collect_reads(b, variables, blocks);
        }
        Expr::At(_, inner) | Expr::Threshold { value: inner, .. } => collect_reads(inner, variables, blocks),
        Expr::Int(_) | Expr::Double(_) | Expr::Bool(_) | Expr::Char(_) => {}
    }
}

/// The expressions a statement evaluates itself (not those of the statements nested in it).
pub fn statement_expressions(statement: &Stmt) -> Vec<&Expr> {
    match statement {
        Stmt::Let { value, .. } | Stmt::Mutable { value, .. } | Stmt::Assign { value, .. } => vec![value],
        Stmt::For { count, .. } | Stmt::ParallelFor { count, .. } => vec![count],
        Stmt::ParallelReduce {
            reduction,
            count,
            element,
            ..
        } => vec![&reduction.neutral, count, element],
        Stmt::While { condition, .. } | Stmt::If { condition, .. } => vec![condition],
        Stmt::Alloc { size, .. } => vec![size],
        Stmt::Call { args, .. } => args.iter().flat_map(Argument::expressions).collect(),
        Stmt::Store { index, value, .. } => vec![index, value],
        Stmt::PrintArray { array, precision } => array.shape.iter().chain([precision]).collect(),
        Stmt::PrintScalar { value, precision } => vec![value, precision],
        Stmt::ReportBench { iterations, start } => vec![iterations, start],
        Stmt::ReadFile { path, .. } => path.shape.iter().collect(),
        Stmt::Format { source, precision, .. } => source.shape.iter().chain([precision]).collect(),
        Stmt::View { shape, layout, .. } => shape
            .iter()
            .chain([&layout.offset])
            .chain(layout.strides.iter())
            .collect(),
        Stmt::Free { .. } | Stmt::Swap { .. } | Stmt::Error { .. } | Stmt::ReadClock { .. } => vec![],
    }
}

/// Counts of the structural elements of a program (for structure tests and dump summaries).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub allocations: usize,
    /// Every loop, sequential or parallel.
    pub loops: usize,
    pub frees: usize,
}

pub fn count(program: &Program) -> Counts {
    let mut counts = Counts::default();
    for_each_statement(&program.body, &mut |statement| match statement {
        Stmt::Alloc { .. } => counts.allocations += 1,
        statement if statement.is_loop() => counts.loops += 1,
        Stmt::Free { .. } => counts.frees += 1,
        _ => {}
    });
    counts
}
