//! The one table of TAIL operators: each op's name, type scheme (and so its arity) and meaning.
//!
//! The checker, inference, printer, parser and interpreter all read this table. Schemes are written in TAIL's
//! concrete type syntax (digest §2.7) and parsed once by [`type_scheme`]:
//! - `int` abbreviates the scalar `[int]0`;
//! - a variable `'x` is a base-type variable inside `[..]`, `<..>` and the first slot of `S(..)`/`SV(..)`, a shape
//!   variable in a shape position, and a type variable (any type) where a whole type stands;
//! - every variable is quantified.
//!
//! The arity of an op is the number of arrows on the spine of its scheme (`int -> int -> int` has arity 2).
//!
//! Conventions shared by all ops (digest §2.6): index origin 1; reduce, scan, rotate, reverse, cat, compress,
//! replicate and expand work along the last axis; take, drop, vrotate, vreverse and catFirst along the first axis;
//! fill (default) elements are 0, 0.0, ff, ' ' and 0.0j0.0. Integers are 64 bits.

use super::ast::TypeScheme;
use std::collections::HashMap;
use std::sync::OnceLock;

macro_rules! operator_table {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal : $scheme:literal, )*) => {
        /// A TAIL operator. The printed name and the type scheme of each are in the table in `ops.rs`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Op {
            $( $(#[$doc])* $variant, )*
        }

        impl Op {
            /// Every operator, in table order.
            pub const ALL: &'static [Op] = &[ $( Op::$variant, )* ];

            /// The name in TAIL's concrete syntax.
            pub fn name(self) -> &'static str {
                match self { $( Op::$variant => $name, )* }
            }

            /// The type scheme as written in the table.
            pub fn scheme_text(self) -> &'static str {
                match self { $( Op::$variant => $scheme, )* }
            }
        }
    };
}

operator_table! {
    // ---- Integer arithmetic (binary) ----
    /// `x + y` on ints; a result outside the 64-bit range is a DOMAIN ERROR ("integer overflow"), never a wrapped
    /// value. (Dyalog switches to floating point there; a typed compiler cannot change an int to a double at run
    /// time.) A reduction `reduce(addi, 0, v)` on ints is the exact sum: a DOMAIN ERROR only when the sum itself does
    /// not fit, whatever its partial sums do.
    AddI = "addi" : "int -> int -> int",
    /// `x - y` on ints; overflow is a DOMAIN ERROR.
    SubI = "subi" : "int -> int -> int",
    /// `x × y` on ints; overflow is a DOMAIN ERROR.
    MulI = "muli" : "int -> int -> int",
    /// Integer division rounding towards negative infinity; `divi(x,0)` is a DOMAIN ERROR.
    DivI = "divi" : "int -> int -> int",
    /// APL residue `x|y` on ints: `y` when `x = 0`, otherwise `y mod x` with the sign of `x`.
    ResI = "resi" : "int -> int -> int",
    /// `x ⌊ y` on ints.
    MinI = "mini" : "int -> int -> int",
    /// `x ⌈ y` on ints.
    MaxI = "maxi" : "int -> int -> int",
    /// `x * y` on ints (`y ≥ 0`; a negative exponent is a DOMAIN ERROR — the front end uses powd then); overflow is a
    /// DOMAIN ERROR.
    PowI = "powi" : "int -> int -> int",
    /// Bitwise and (`⎕INT32AND`: on the low 32 bits in two's complement, the result sign-extended; so are all the
    /// bitwise ops).
    AndI = "andi" : "int -> int -> int",
    /// Bitwise or (`⎕INT32OR`).
    OrI = "ori" : "int -> int -> int",
    /// Bitwise exclusive or (`⎕INT32XOR`).
    XorI = "xori" : "int -> int -> int",
    /// Shift left `x << y` in 32 bits (y in 0..31, otherwise 0; negative y is a DOMAIN ERROR).
    ShlI = "shli" : "int -> int -> int",
    /// Logical shift right in 32 bits, zero fill (y in 0..31, otherwise 0).
    ShrI = "shri" : "int -> int -> int",
    /// Arithmetic shift right in 32 bits (y ≥ 32 gives 0 or -1).
    SharI = "shari" : "int -> int -> int",
    /// APL binomial `x ! y` on ints: the number of ways to choose x of y (0 when x > y ≥ 0); DOMAIN ERROR for
    /// negative arguments.
    BinomialI = "binomi" : "int -> int -> int",

    // ---- Wrapping integer arithmetic ----
    /// `x + y` modulo 2^64. Not APL's `+`: the compiler's own arithmetic of positions, sizes and strides, which it
    /// generates only where the result is known to fit (the loop IR prints these infix: `a + b`, `a - b`, `a * b`).
    AddW = "addw" : "int -> int -> int",
    /// `x - y` modulo 2^64 (see `addw`).
    SubW = "subw" : "int -> int -> int",
    /// `x × y` modulo 2^64 (see `addw`).
    MulW = "mulw" : "int -> int -> int",
    /// `-x` modulo 2^64 (see `addw`).
    NegW = "negw" : "int -> int",

    // ---- Integer unary ----
    /// `-x`; `-x` of the most negative int overflows (DOMAIN ERROR).
    NegI = "negi" : "int -> int",
    /// `|x`; overflows like `negi`.
    AbsI = "absi" : "int -> int",
    /// `×x`: -1, 0 or 1.
    SignI = "signi" : "int -> int",
    /// Bitwise not (`⎕INT32NOT`, 32 bits).
    NotI = "noti" : "int -> int",
    /// The number of one bits among the low 32 bits (0 to 32). No primitive spells it: the elaborator's packed
    /// boolean inner products (`≠.∧` and its kin on bits packed 32 to a word) count with it.
    PopCount = "popcnt" : "int -> int",
    /// `!x` on ints (factorial); DOMAIN ERROR for negative x.
    FactorialI = "facti" : "int -> int",
    /// APL roll `?x`: a pseudo-random int in 1..x (deterministic seed); DOMAIN ERROR for x ≤ 0.
    Roll = "roll" : "int -> int",

    // ---- Double arithmetic (binary) ----
    AddD = "addd" : "double -> double -> double",
    SubD = "subd" : "double -> double -> double",
    MulD = "muld" : "double -> double -> double",
    /// APL division: `0÷0` is 1, `x÷0` for x ≠ 0 is a DOMAIN ERROR.
    DivD = "divd" : "double -> double -> double",
    /// APL residue `x|y` on doubles: `y` when `x = 0`, 0 when `y÷x` is tolerantly an integer, otherwise
    /// `y - x×⌊y÷x`.
    ResD = "resd" : "double -> double -> double",
    MinD = "mind" : "double -> double -> double",
    MaxD = "maxd" : "double -> double -> double",
    /// `x * y` (power).
    PowD = "powd" : "double -> double -> double",
    /// APL binomial `x ! y` on doubles: Γ(y+1) ÷ (Γ(x+1) × Γ(y-x+1)).
    BinomialD = "binomd" : "double -> double -> double",
    /// Dyadic `⍟`: logarithm of y in base x.
    LogD = "logd" : "double -> double -> double",

    // ---- Double unary ----
    NegD = "negd" : "double -> double",
    AbsD = "absd" : "double -> double",
    /// `×x` on doubles: -1.0, 0.0 or 1.0.
    SignD = "signd" : "double -> double",
    /// `*x`: e to the power x.
    ExpD = "expd" : "double -> double",
    /// `⍟x`: natural logarithm; DOMAIN ERROR for x ≤ 0 (as Dyalog for `⍟0`).
    Ln = "ln" : "double -> double",
    Sin = "sin" : "double -> double",
    Cos = "cos" : "double -> double",
    Tan = "tan" : "double -> double",
    Asin = "asin" : "double -> double",
    Acos = "acos" : "double -> double",
    Atan = "atan" : "double -> double",
    Sinh = "sinh" : "double -> double",
    Cosh = "cosh" : "double -> double",
    Tanh = "tanh" : "double -> double",
    Asinh = "asinh" : "double -> double",
    Acosh = "acosh" : "double -> double",
    Atanh = "atanh" : "double -> double",
    /// `√x` (`○` has no sqrt; the front end may use powd(x,0.5) instead).
    Sqrt = "sqrt" : "double -> double",
    /// `!x` on doubles: Γ(x+1); DOMAIN ERROR at negative integers.
    Gamma = "factd" : "double -> double",
    /// `⌊x`, to int, with APL's comparison tolerance: a number within 1E¯14 (relative) below an integer gives that
    /// integer (`⌊0.3÷0.1` is 3); DOMAIN ERROR outside the int range.
    Floor = "floor" : "double -> int",
    /// `⌈x`, to int, tolerant like floor.
    Ceil = "ceil" : "double -> int",

    // ---- Complex ----
    AddX = "addx" : "complex -> complex -> complex",
    SubX = "subx" : "complex -> complex -> complex",
    MulX = "mulx" : "complex -> complex -> complex",
    /// Complex division; `0÷0` is 1, other division by zero a DOMAIN ERROR.
    DivX = "divx" : "complex -> complex -> complex",
    NegX = "negx" : "complex -> complex",
    /// Complex conjugate (monadic `+`).
    ConjX = "conjx" : "complex -> complex",
    /// Magnitude `|x`.
    MagnitudeX = "magnx" : "complex -> double",
    /// e to the power x.
    ExpX = "expx" : "complex -> complex",
    /// Real part.
    RealX = "rex" : "complex -> double",
    /// Imaginary part.
    ImagX = "imx" : "complex -> double",
    /// Build `re j im` from two doubles.
    MakeX = "mkx" : "double -> double -> complex",
    EqX = "eqx" : "complex -> complex -> bool",
    NeqX = "neqx" : "complex -> complex -> bool",

    // ---- Comparisons ----
    LtI = "lti" : "int -> int -> bool",
    LteI = "ltei" : "int -> int -> bool",
    GtI = "gti" : "int -> int -> bool",
    GteI = "gtei" : "int -> int -> bool",
    EqI = "eqi" : "int -> int -> bool",
    NeqI = "neqi" : "int -> int -> bool",
    /// `x<y` on doubles: less and not tolerantly equal (see eqd).
    LtD = "ltd" : "double -> double -> bool",
    /// `x≤y`: less or tolerantly equal.
    LteD = "lted" : "double -> double -> bool",
    GtD = "gtd" : "double -> double -> bool",
    GteD = "gted" : "double -> double -> bool",
    /// `x=y` on doubles with APL's comparison tolerance ⎕CT = 1E¯14: |x-y| ≤ ⎕CT × max(|x|,|y|), so `0.3=0.1+0.2`.
    EqD = "eqd" : "double -> double -> bool",
    NeqD = "neqd" : "double -> double -> bool",
    LtC = "ltc" : "char -> char -> bool",
    LteC = "ltec" : "char -> char -> bool",
    GtC = "gtc" : "char -> char -> bool",
    GteC = "gtec" : "char -> char -> bool",
    EqC = "eqc" : "char -> char -> bool",
    NeqC = "neqc" : "char -> char -> bool",

    // ---- Booleans ----
    AndB = "andb" : "bool -> bool -> bool",
    OrB = "orb" : "bool -> bool -> bool",
    XorB = "xorb" : "bool -> bool -> bool",
    /// `⍲`.
    NandB = "nandb" : "bool -> bool -> bool",
    /// `⍱`.
    NorB = "norb" : "bool -> bool -> bool",
    EqB = "eqb" : "bool -> bool -> bool",
    NotB = "notb" : "bool -> bool",

    // ---- Conversions ----
    I2D = "i2d" : "int -> double",
    B2I = "b2i" : "bool -> int",
    /// b2i on a singleton keeps the static value.
    B2IV = "b2iV" : "S(bool,'n) -> S(int,'n)",
    D2X = "d2x" : "double -> complex",
    /// An int used as a boolean (`~2`): DOMAIN ERROR unless it is 0 or 1.
    I2B = "i2b" : "int -> bool",
    /// A double used as an int (`2.0⍴x`): DOMAIN ERROR unless it is tolerantly an integer.
    D2I = "d2i" : "double -> int",
    /// Code point of a char (`⎕UCS`).
    C2I = "c2i" : "char -> int",
    /// Char of a code point; DOMAIN ERROR outside Unicode.
    I2C = "i2c" : "int -> char",

    // ---- Constants and the environment ----
    /// `⍬`: the empty int vector.
    Zilde = "zilde" : "<int>0",
    /// π.
    Pi = "pi" : "double",
    /// The current time in milliseconds (from the host).
    NowI = "nowi" : "int",
    /// `argInt(i, d)`: program argument i (from 1) as an int, d when the program got fewer than i arguments (`d
    /// ⎕ArgInt i`; from the host). INDEX ERROR for i < 1, DOMAIN ERROR when the argument is not one integer.
    ArgInt = "argInt" : "int -> int -> int",
    /// `argDouble(i, d)`: as `argInt` for a number read as a double (`d ⎕ArgDouble i`).
    ArgDouble = "argDouble" : "int -> double -> double",

    // ---- Shapes and restructuring ----
    /// `⍳n`: `[1,...,n]`; DOMAIN ERROR for n < 0.
    Iota = "iota" : "int -> [int]1",
    /// `⍳n` for a statically known n.
    IotaV = "iotaV" : "S(int,'n) -> <int>'n",
    /// `⍴A`.
    Shape = "shape" : "['a]'n -> <int>'n",
    /// `⍴V` of a vector of static length.
    ShapeV = "shapeV" : "<'a>'n -> SV(int,'n)",
    /// `S ⍴ A`: reshape to shape S, reusing A's elements cyclically; an empty A gives fill elements. DOMAIN ERROR for a
    /// negative extent.
    Reshape = "reshape" : "<int>'m -> ['a]'n -> ['a]'m",
    /// `,A`: ravel in row-major order.
    Ravel = "rav" : "['a]'n -> ['a]1",
    /// `≢A`: the first extent (1 for a scalar).
    Tally = "tally" : "['a]'n -> int",
    /// `⌽A`: reverse along the last axis.
    Reverse = "reverse" : "['a]'n -> ['a]'n",
    /// `⊖A`: reverse along the first axis.
    VReverse = "vreverse" : "['a]'n -> ['a]'n",
    /// vreverse on a vector of static length.
    VReverseV = "vreverseV" : "<'a>'n -> <'a>'n",
    /// `n⌽A`: rotate along the last axis, n taken modulo the extent.
    Rotate = "rotate" : "int -> ['a]'n -> ['a]'n",
    /// rotate on a vector of static length.
    RotateV = "rotateV" : "int -> <'a>'n -> <'a>'n",
    /// `n⊖A`: rotate along the first axis.
    VRotate = "vrotate" : "int -> ['a]'n -> ['a]'n",
    /// vrotate on a vector of static length.
    VRotateV = "vrotateV" : "int -> <'a>'n -> <'a>'n",
    /// `⍉A`: reverse the order of the axes.
    Transpose = "transp" : "['a]'n -> ['a]'n",
    /// `X⍉A` (APL convention, 1-based): source axis i becomes result axis `X[i]`. X must be a permutation of 1..rank
    /// (repeated axes, i.e. diagonals, are not supported: DOMAIN ERROR); wrong length is a LENGTH ERROR.
    Transpose2 = "transp2" : "<int>'n -> ['a]'n -> ['a]'n",
    /// `n↑A` along the first axis: overtake pads with fill elements, at the end for n ≥ 0 and at the front for n < 0.
    Take = "take" : "int -> ['a]('n+1) -> ['a]('n+1)",
    /// `n↓A` along the first axis: drops the first n (n ≥ 0) or the last |n| (n < 0) rows.
    Drop = "drop" : "int -> ['a]('n+1) -> ['a]('n+1)",
    /// Take a static number of elements from the front (static result length).
    TakeV = "takeV" : "S(int,'n) -> ['a]1 -> <'a>'n",
    /// Drop a static number of elements from the front of a vector of static length.
    DropV = "dropV" : "S(int,'n) -> <'a>('n+'m) -> <'a>'m",
    /// Take a static number of elements from the back (`¯n↑V`).
    TakeLastV = "takeLastV" : "S(int,'n) -> ['a]1 -> <'a>'n",
    /// Drop a static number of elements from the back (`¯n↓V`).
    DropLastV = "dropLastV" : "S(int,'n) -> <'a>('n+'m) -> <'a>'m",
    /// `⊃A`: the first element in row-major order, or the fill element when A is empty.
    First = "first" : "['a]'n -> ['a]0",
    /// The element of a one-element vector of static value.
    FirstV = "firstV" : "SV('a,'n) -> S('a,'n)",
    /// `A,B` along the last axis; the other extents must agree (LENGTH ERROR).
    Cat = "cat" : "['a]('n+1) -> ['a]('n+1) -> ['a]('n+1)",
    /// `A⍪B` along the first axis; the other extents must agree.
    CatFirst = "catFirst" : "['a]('n+1) -> ['a]('n+1) -> ['a]('n+1)",
    /// Catenation of vectors of static length.
    CatV = "catV" : "<'a>'n -> <'a>'m -> <'a>('n+'m)",
    /// `x,A`: x (rank one less) prepended along the last axis.
    Cons = "cons" : "['a]'n -> ['a]('n+1) -> ['a]('n+1)",
    /// `A,x`: x (rank one less) appended along the last axis.
    Snoc = "snoc" : "['a]('n+1) -> ['a]'n -> ['a]('n+1)",
    ConsV = "consV" : "['a]0 -> <'a>'n -> <'a>('n+1)",
    SnocV = "snocV" : "<'a>'n -> ['a]0 -> <'a>('n+1)",

    // ---- Second-order ----
    /// `f¨A`: apply f to every element.
    Each = "each" : "(['a]0 -> ['b]0) -> ['a]'n -> ['b]'n",
    /// each on a vector of static length.
    EachV = "eachV" : "(['a]0 -> ['b]0) -> <'a>'n -> <'b>'n",
    /// Elementwise combination; the shapes must be equal (LENGTH ERROR, or RANK ERROR for different ranks).
    ZipWith = "zipWith" : "(['a]0 -> ['b]0 -> ['c]0) -> ['a]'n -> ['b]'n -> ['c]'n",
    /// `f/A` along the last axis, as APL's right fold `f(a0, f(a1, ... f(a(m-1), neutral)))`; an empty row gives the
    /// neutral element.
    Reduce = "reduce" : "(['a]0 -> ['a]0 -> ['a]0) -> ['a]0 -> ['a]('n+1) -> ['a]'n",
    /// The array itself, or a DOMAIN ERROR when its last axis is empty: the argument of a reduction by a function
    /// without identity item (APL has no value for such a reduction of an empty row; reduce would give its neutral).
    NonEmptyRows = "nonEmptyRows" : "['a]('n+1) -> ['a]('n+1)",
    /// `scan(f, n, A)`: `f\A` along the last axis, inclusive; element k of a row is the right fold of the row's
    /// first k+1 elements (APL's definition, so `-\1 2 3` is `1 ¯1 2`). The interpreter does not use the neutral
    /// element n (APL's scan needs none); a backend that starts its accumulation from n relies on n being an
    /// identity of f.
    Scan = "scan" : "(['a]0 -> ['a]0 -> ['a]0) -> ['a]0 -> ['a]'n -> ['a]'n",
    /// `B/A` along the last axis; B must have one element per column (or exactly one, which is extended).
    Compress = "compress" : "[bool]1 -> ['a]('n+1) -> ['a]('n+1)",
    /// `C/A` along the last axis; a negative count c gives |c| fill elements (one element of C is extended).
    Replicate = "replicate" : "[int]1 -> ['a]('n+1) -> ['a]('n+1)",
    /// `B\A` along the last axis: a fill element where B is ff, the next element of A where B is tt; the number of
    /// tt in B must equal the extent of A.
    Expand = "expand" : "[bool]1 -> ['a]('n+1) -> ['a]('n+1)",
    /// `f⍣n x`: apply f n times (n ≤ 0: not at all).
    Power = "power" : "('t -> 't) -> int -> 't -> 't",
    /// `f⍣p x` with a predicate: y ← f x; stop when `p(y, x)` holds and return y, otherwise continue from y.
    PowerUntil = "powerUntil" : "('t -> 't) -> ('t -> 't -> bool) -> 't -> 't",
    /// `f⍣b x` with a boolean b: f x when b, otherwise x.
    CondScl = "condScl" : "('t -> 't) -> bool -> 't -> 't",
    /// `bench(f, n, x)`, APL's `f ⎕BENCH n ⊢ x`: `power(f, n, x)` that also reports, through the host (on standard
    /// error), how long the n applications took. The value is exactly power's.
    Bench = "bench" : "('t -> 't) -> int -> 't -> 't",

    // ---- Indexing ----
    /// `index(d, i, A)`: the slice at 1-based position i of 1-based axis d (`A[;i;]` for d = 2); the rank drops by
    /// one. INDEX ERROR when i is out of range, RANK ERROR when d is not an axis.
    Index = "index" : "int -> int -> ['a]('n+1) -> ['a]'n",
    /// `update(A, I, v)`: A with the element at the 1-based index vector I replaced by v (functional: the result is a
    /// new array; `A[I]←v` is `let A = update(A, I, v) in ...`). INDEX ERROR per axis, LENGTH ERROR when I does not
    /// have one index per axis.
    Update = "update" : "['a]'n -> <int>'n -> ['a]0 -> ['a]'n",
    /// `scatter(A, P, V)`: A with the element at 1-based row-major position P[k] of its ravel replaced by V[k], for
    /// each k in order (so a position given twice keeps its last value, as APL's `A[I]←V` does). LENGTH ERROR when P
    /// and V differ in length, INDEX ERROR for a position outside A.
    Scatter = "scatter" : "['a]'n -> [int]1 -> ['a]1 -> ['a]'n",
    /// Dyadic `⍳` on a vector: for each element of the right argument, the 1-based position of its first occurrence
    /// in the left vector, or 1 + its length.
    IndexOf = "indexOf" : "['a]1 -> ['a]'n -> [int]'n",
    /// `A∊V`: whether each element of A occurs in V.
    Member = "member" : "['a]'n -> ['a]1 -> [bool]'n",
    /// `⍸B`: the 1-based positions of the tt elements.
    Where = "where" : "[bool]1 -> [int]1",
    /// `⍋A`: the permutation that sorts the major cells of A (the rows of a matrix, compared lexicographically)
    /// ascending; stable.
    GradeUp = "gradeUp" : "['a]('n+1) -> [int]1",
    /// `⍒A`: the permutation that sorts the major cells of A descending; stable (equal cells keep their order).
    GradeDown = "gradeDown" : "['a]('n+1) -> [int]1",
    /// `R⊥D` (decode): the value of digits D in the mixed radix R (one radix element is extended to all digits).
    Decode = "decode" : "[int]1 -> [int]1 -> int",
    /// `R⊤x` (encode): the digits of x in the mixed radix R (as many as R has elements).
    Encode = "encode" : "[int]1 -> int -> [int]1",

    // ---- Materialisation, formatting, input and output ----
    /// Materialise (a hint for the backends; the identity in the interpreter).
    Mem = "mem" : "'t -> 't",
    /// `print(pp, x)`: print x through the host (`⎕←`) with print precision pp (`⎕PP`, 1 to 17, else DOMAIN
    /// ERROR), and return x.
    Print = "print" : "int -> 't -> 't",
    /// `format(pp, A)`, `⍕A` for a scalar or vector: the text Dyalog displays with print precision pp, as a char
    /// vector; RANK ERROR for rank ≥ 2.
    Format = "format" : "int -> ['a]'n -> [char]1",
    /// `formatMatrix(pp, M)`, `⍕M` for a matrix: the displayed lines as a char matrix.
    FormatMatrix = "formatMatrix" : "int -> ['a]2 -> [char]2",
    /// The contents of the named file as a char vector (FILE I/O ERROR when it cannot be read).
    ReadFile = "readFile" : "[char]1 -> [char]1",
    /// The whitespace-separated ints in the named file (DOMAIN ERROR on a malformed number).
    ReadIntVecFile = "readIntVecFile" : "[char]1 -> [int]1",
    /// The whitespace-separated doubles in the named file.
    ReadDoubleVecFile = "readDoubleVecFile" : "[char]1 -> [double]1",
    /// `inputI(k, n)`: the ravel of input k of a REPL line, an int vector of n elements that the caller passes in
    /// (a value computed by an earlier line). Only the REPL's backends provide inputs; elsewhere it is a NONCE ERROR.
    InputI = "inputI" : "int -> S(int,'n) -> <int>'n",
    /// `inputD(k, n)`: as `inputI` for doubles.
    InputD = "inputD" : "int -> S(int,'n) -> <double>'n",
    /// `inputB(k, n)`: as `inputI` for booleans.
    InputB = "inputB" : "int -> S(int,'n) -> <bool>'n",
    /// `inputC(k, n)`: as `inputI` for chars.
    InputC = "inputC" : "int -> S(int,'n) -> <char>'n",
}

impl Op {
    /// The operator with this printed name.
    pub fn from_name(name: &str) -> Option<Op> {
        static BY_NAME: OnceLock<HashMap<&'static str, Op>> = OnceLock::new();
        BY_NAME
            .get_or_init(|| Op::ALL.iter().map(|op| (op.name(), *op)).collect())
            .get(name)
            .copied()
    }

    /// The parsed type scheme. The table's schemes are checked by a unit test, so parsing cannot fail here.
    pub fn scheme(self) -> &'static TypeScheme {
        static SCHEMES: OnceLock<Vec<TypeScheme>> = OnceLock::new();
        let schemes = SCHEMES.get_or_init(|| {
            Op::ALL
                .iter()
                .map(|op| {
                    super::parser::parse_type_scheme(op.scheme_text())
                        .unwrap_or_else(|error| panic!("bad scheme in the op table for {}: {error}", op.name()))
                })
                .collect()
        });
        &schemes[self as usize]
    }

    /// The number of arguments (arrows on the spine of the scheme).
    pub fn arity(self) -> usize {
        static ARITIES: OnceLock<Vec<usize>> = OnceLock::new();
        ARITIES.get_or_init(|| {
            Op::ALL
                .iter()
                .map(|op| {
                    let mut arity = 0;
                    let mut ty = &op.scheme().body;
                    while let super::ast::Type::Function(_, result) = ty {
                        arity += 1;
                        ty = result;
                    }
                    arity
                })
                .collect()
        })[self as usize]
    }
}

/// The scheme of an op (same as [`Op::scheme`]).
pub fn type_scheme(op: Op) -> &'static TypeScheme {
    op.scheme()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scheme_in_the_table_parses_and_names_are_unique() {
        let mut names = std::collections::HashSet::new();
        for op in Op::ALL {
            assert!(names.insert(op.name()), "duplicate op name {}", op.name());
            assert_eq!(Op::from_name(op.name()), Some(*op));
            let _ = op.scheme();
        }
    }

    #[test]
    fn arities_follow_the_scheme_spine() {
        assert_eq!(Op::Reduce.arity(), 3);
        assert_eq!(Op::AddI.arity(), 2);
        assert_eq!(Op::NegD.arity(), 1);
        assert_eq!(Op::Pi.arity(), 0);
        assert_eq!(Op::ZipWith.arity(), 3);
        assert_eq!(Op::Power.arity(), 3);
    }
}
