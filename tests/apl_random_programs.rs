//! Random APL programs (issue #14): scripts of a few statements over integer scalars, vectors and matrices (and the
//! doubles their quotients, roots and sums give, printed with ⎕PP←6), built from
//! the supported subset (scalar functions with scalar extension, structural functions, reductions and scans, outer
//! and inner products, indexing, dfns, `¨`, guards, recursion), with random lengths so that LENGTH, INDEX and DOMAIN errors and
//! empty arrays occur. Every backend must print what the TAIL interpreter (the oracle) prints and stop with the same
//! APL error: the loop-IR interpreter on every case, the JIT and the OpenCL backend (child processes) on a share of
//! them, AOT executables on a few.
//!
//! Random traditional functions (`tradfn_program`) loop over a vector, updating it under nested conditions, and are
//! compared the same way.
//!
//! The number of cases is proptest's (`PROPTEST_CASES`), so a long run is `PROPTEST_CASES=10000 cargo test --release
//! --test apl_random_programs`; CI runs the default below with the fixed seed of scripts/test.sh.

mod loops_common;

use std::path::{Path, PathBuf};

use aplc::driver::{run_source_capturing, Backend};
use aplc::source::SourceFile;
use proptest::prelude::*;

/// An APL expression and the rank of its value (0, 1 or 2).
#[derive(Clone, Debug)]
struct Term {
    text: String,
    rank: usize,
}

fn term(text: String, rank: usize) -> Term {
    Term { text, rank }
}

/// A number as APL writes it (high minus).
fn number(value: i64) -> String {
    value.to_string().replace('-', "¯")
}

/// Ints near the limits of 64 bits (2*62, 2*63 minus 1, the square root of 2*63, 2*31), whose sums and products
/// overflow: a DOMAIN ERROR on every backend, never a wrapped number.
const LARGE_INTS: &[i64] = &[
    4611686018427387904,
    -4611686018427387904,
    9223372036854775807,
    3037000500,
    2147483648,
];

fn leaf() -> impl Strategy<Value = Term> {
    prop_oneof![
        4 => (-4i64..10).prop_map(|k| term(number(k), 0)),
        1 => prop::sample::select(LARGE_INTS).prop_map(|k| term(number(k), 0)),
        5 => (0i64..7).prop_map(|k| term(format!("(⍳{k})"), 1)),
        5 => prop::collection::vec(-4i64..10, 2..6).prop_map(|items| {
            let items: Vec<String> = items.into_iter().map(number).collect();
            term(format!("({})", items.join(" ")), 1)
        }),
        5 => (0i64..4, 0i64..4, 1i64..8).prop_map(|(rows, columns, k)| term(format!("({rows} {columns}⍴⍳{k})"), 2)),
        // The names every program defines first (see `program`).
        5 => Just(term("a".to_string(), 0)),
        5 => Just(term("v".to_string(), 1)),
        5 => Just(term("m".to_string(), 2)),
        // A matrix of about 16 by 16 whose size is read at run time: the size at which index-space splitting
        // (src/loops/passes/index_split.rs) starts to cut the loops of its stencils.
        2 => Just(term("s".to_string(), 2)),
    ]
}

const SCALAR_DYADIC: &[&str] = &["+", "-", "×", "⌈", "⌊", "|", "=", "<", "≥", "≠"];
const SCALAR_MONADIC: &[&str] = &["-", "|", "×", "⌈", "~0<"];
const REDUCIBLE: &[&str] = &["+", "×", "⌈", "⌊", "-", "="];

fn pick(glyphs: &'static [&'static str]) -> impl Strategy<Value = &'static str> {
    prop::sample::select(glyphs)
}

fn expression() -> impl Strategy<Value = Term> {
    leaf().prop_recursive(3, 20, 2, |inner| {
        let pair = (inner.clone(), inner.clone());
        prop_oneof![
            // Scalar functions, with scalar extension when one side is a scalar; other ranks must agree.
            (pair.clone(), pick(SCALAR_DYADIC)).prop_map(|((x, y), f)| {
                let rank = x.rank.max(y.rank);
                term(format!("({} {f} {})", x.text, y.text), rank)
            }),
            (inner.clone(), pick(SCALAR_MONADIC)).prop_map(|(x, f)| term(format!("({f}{})", x.text), x.rank)),
            // Reductions and scans along the last axis, and along the first.
            (inner.clone(), pick(REDUCIBLE))
                .prop_map(|(x, f)| term(format!("({f}/{})", x.text), x.rank.saturating_sub(1))),
            (inner.clone(), pick(REDUCIBLE))
                .prop_map(|(x, f)| term(format!("({f}⌿{})", x.text), x.rank.saturating_sub(1))),
            (inner.clone(), pick(&["+", "⌈", "×"])).prop_map(|(x, f)| term(format!("({f}\\{})", x.text), x.rank)),
            // Structure.
            inner.clone().prop_map(|x| term(format!("(⌽{})", x.text), x.rank)),
            inner.clone().prop_map(|x| term(format!("(⊖{})", x.text), x.rank)),
            inner.clone().prop_map(|x| term(format!("(⍉{})", x.text), x.rank)),
            inner.clone().prop_map(|x| term(format!("(,{})", x.text), 1)),
            inner.clone().prop_map(|x| term(format!("(≢{})", x.text), 0)),
            inner.clone().prop_map(|x| term(format!("(⍴{})", x.text), 1)),
            (inner.clone(), -3i64..4).prop_map(|(x, k)| term(format!("({}↑{})", number(k), x.text), x.rank.max(1))),
            (inner.clone(), -3i64..4).prop_map(|(x, k)| term(format!("({}↓{})", number(k), x.text), x.rank.max(1))),
            (inner.clone(), -3i64..4).prop_map(|(x, k)| term(format!("({}⌽{})", number(k), x.text), x.rank)),
            (inner.clone(), -3i64..4).prop_map(|(x, k)| term(format!("({}⊖{})", number(k), x.text), x.rank)),
            // Stencils: shifted copies of an array next to it, and a ⍣ of a stencil step.
            inner
                .clone()
                .prop_map(|x| term(format!("((1↑{0})⍪¯1↓{0})", x.text), x.rank.max(2))),
            (inner.clone(), 0i64..3)
                .prop_map(|(x, k)| { term(format!("(({{(1⌽⍵)+(¯1⊖⍵)-⍵}}⍣{k}){})", x.text), x.rank) }),
            (inner.clone(), 0i64..4, 0i64..4).prop_map(|(x, r, c)| term(format!("({r} {c}⍴{})", x.text), 2)),
            (inner.clone(), 0i64..7).prop_map(|(x, n)| term(format!("({n}⍴{})", x.text), 1)),
            pair.clone()
                .prop_map(|(x, y)| term(format!("({},{})", x.text, y.text), x.rank.max(y.rank).max(1))),
            (inner.clone(), prop::collection::vec(0i64..2, 1..5)).prop_map(|(x, mask)| {
                let mask: Vec<String> = mask.into_iter().map(number).collect();
                term(format!("(({})/{})", mask.join(" "), x.text), x.rank.max(1))
            }),
            // Indexing a vector or a matrix (out of range is an INDEX ERROR).
            (inner.clone(), prop::collection::vec(1i64..5, 1..3)).prop_map(|(x, indices)| {
                let indices: Vec<String> = indices.into_iter().map(number).collect();
                let rank = if indices.len() == 1 { 0 } else { 1 };
                term(format!("((,{})[{}])", x.text, indices.join(" ")), rank)
            }),
            (inner.clone(), 1i64..4, 1i64..4).prop_map(|(x, i, j)| term(format!("((2 3⍴{})[{i};{j}])", x.text), 0)),
            // Search and membership.
            pair.clone()
                .prop_map(|(x, y)| term(format!("((,{})⍳{})", x.text, y.text), y.rank)),
            pair.clone()
                .prop_map(|(x, y)| term(format!("({}∊{})", x.text, y.text), x.rank)),
            // Outer and inner products.
            (pair.clone(), pick(&["+", "×", "⌈", "="]))
                .prop_map(|((x, y), f)| term(format!("((,{})∘.{f},{})", x.text, y.text), 2)),
            pair.clone()
                .prop_map(|(x, y)| term(format!("((,{})+.×,{})", x.text, y.text), 0)),
            pair.clone()
                .prop_map(|(x, y)| term(format!("((2 2⍴{})+.×2 2⍴{})", x.text, y.text), 2)),
            // Boolean inner products, packed 32 bits to a word (src/elab/boolean_products.rs): inner lengths on
            // both sides of one and two words.
            (pair.clone(), pick(&["≠.∧", "∨.∧", "+.∧", "+.×", "∧.=", "∨.≠"]), 0i64..4, 0i64..40, 0i64..4).prop_map(
                |((x, y), f, r, k, c)| term(format!("(({r} {k}⍴0<{}){f}{k} {c}⍴1=2|{})", x.text, y.text), 2),
            ),
            // Dfns: applied, with each, as the operand of a reduction, with a guard.
            inner.clone().prop_map(|x| term(format!("({{⍵+1}}{})", x.text), x.rank)),
            pair.clone()
                .prop_map(|(x, y)| term(format!("({} {{⍺×⍵-1}} {})", x.text, y.text), x.rank.max(y.rank))),
            inner
                .clone()
                .prop_map(|x| term(format!("({{⍵×2}}¨{})", x.text), x.rank)),
            inner
                .clone()
                .prop_map(|x| term(format!("({{⍺+2×⍵}}/{})", x.text), x.rank.saturating_sub(1))),
            inner
                .clone()
                .prop_map(|x| term(format!("({{⍵>2:⍵-3 ⋄ -⍵}}¨{})", x.text), x.rank)),
            // More structure: first-axis catenation, first, unique, grades, a matrix take, the power operator.
            pair.clone()
                .prop_map(|(x, y)| term(format!("({}⍪{})", x.text, y.text), x.rank.max(y.rank).max(2))),
            inner.clone().prop_map(|x| term(format!("(⊃{})", x.text), 0)),
            inner.clone().prop_map(|x| term(format!("(∪,{})", x.text), 1)),
            inner.clone().prop_map(|x| term(format!("(⍋,{})", x.text), 1)),
            inner.clone().prop_map(|x| term(format!("(⍒,{})", x.text), 1)),
            (inner.clone(), -3i64..4, -3i64..4)
                .prop_map(|(x, r, c)| term(format!("(({} {})↑2 3⍴{})", number(r), number(c), x.text), 2)),
            (inner.clone(), 0i64..4).prop_map(|(x, k)| term(format!("(({{⍵+1}}⍣{k}){})", x.text), x.rank)),
            // A ⍣ of element-wise steps reading an array beside the state (run strip by strip when the shapes agree).
            (pair.clone(), 4i64..8)
                .prop_map(|((x, y), k)| term(format!("(({{(⍵⌈{})-⍵>1}}⍣{k}){})", y.text, x.text), x.rank.max(y.rank))),
            // Recursion that is not a tail call (unfolded on known elements, a recursive function otherwise).
            inner
                .clone()
                .prop_map(|x| term(format!("({{⍵≤1:⍵ ⋄ (∇ ⍵-1)+∇ ⍵-2}}¨12⌊|{})", x.text), x.rank)),
            // Doubles that come back to integers, and boolean reductions of comparisons.
            pair.clone()
                .prop_map(|(x, y)| term(format!("(⌊{}÷1+|{})", x.text, y.text), x.rank.max(y.rank))),
            // Characters: formatting numbers, and structure and search on text.
            inner.clone().prop_map(|x| term(format!("(⍕{})", x.text), 1)),
            inner.clone().prop_map(|x| term(format!("(≢⍕{})", x.text), 0)),
            (inner.clone(), 0i64..5).prop_map(|(x, k)| term(format!("({k}↑⍕{})", x.text), 1)),
            inner
                .clone()
                .prop_map(|x| term(format!("('0123456789'⍳⍕{})", x.text), 1)),
            inner.clone().prop_map(|x| term(format!("(⌽'ab',⍕{})", x.text), 1)),
            pair.clone().prop_map(|(x, y)| term(
                format!("(∨/{}<{})", x.text, y.text),
                x.rank.max(y.rank).saturating_sub(1)
            )),
            pair.clone().prop_map(|(x, y)| term(
                format!("(∧⌿{}≥{})", x.text, y.text),
                x.rank.max(y.rank).saturating_sub(1)
            )),
        ]
    })
}

/// What a statement prints: an integer (or boolean, or character) expression, or a double made of one: a quotient, a
/// square root or a sum of thirds. Doubles stay at the top: an interpreter and compiled code may add a double sum in
/// different orders, so a sum that cancels can differ in its last bits, which a comparison inside an expression
/// (`0∊+/m÷3`) would turn into a different boolean. Printed with ⎕PP←6 and compared within 1e-9, they agree.
fn statement_term() -> impl Strategy<Value = Term> {
    let pair = (expression(), expression());
    prop_oneof![
        4 => expression(),
        1 => pair.prop_map(|(x, y)| term(format!("({}÷1+|{})", x.text, y.text), x.rank.max(y.rank))),
        1 => expression().prop_map(|x| term(format!("((|{})*0.5)", x.text), x.rank)),
        1 => expression().prop_map(|x| term(format!("(+/{}÷3)", x.text), x.rank.saturating_sub(1))),
    ]
}

/// A program: four names defined first (a scalar, a vector, a matrix, and a matrix of about 16 by 16 whose size is
/// read at run time), then a few statements, each printing its value, some assigning a name that later ones read.
fn program() -> impl Strategy<Value = String> {
    let statement = (statement_term(), prop::bool::weighted(0.3));
    (
        -4i64..10,
        prop::collection::vec(-4i64..10, 0..6),
        (0i64..4, 0i64..4),
        (14i64..19, 14i64..19),
        prop::collection::vec(statement, 1..5),
    )
        .prop_map(|(a, v, (rows, columns), (large_rows, large_columns), statements)| {
            let items: Vec<String> = v.into_iter().map(number).collect();
            let vector = if items.is_empty() {
                "⍬".to_string()
            } else {
                format!(",{}", items.join(" "))
            };
            let mut text = format!(
                "⎕PP←6\na←{}\nv←{vector}\nm←{rows} {columns}⍴v,⍳6\n\
                 s←({large_rows} ⎕ArgInt 1) ({large_columns} ⎕ArgInt 2)⍴(⍳7),v\n",
                number(a)
            );
            for (position, (term, assigned)) in statements.into_iter().enumerate() {
                if assigned {
                    // ⎕← prints an assigned value too, so every statement's value is compared.
                    text.push_str(&format!("⎕←t{position}←{}\n", term.text));
                } else {
                    text.push_str(&format!("{}\n", term.text));
                }
            }
            text
        })
}

// ---- Random tradfns: loops whose passes update a vector under conditions ----
//
// Traditional functions with a `:For` or `:While` over a vector V whose body updates V by index (and through a
// swap and a selective assignment), accumulates into S, and nests `:If`/`:ElseIf`/`:Else` with `:Leave` and
// `:Return`: the code that the memory passes update in place through a conditional's branches
// (`update-joined-states-in-place`) and that the exits from loops compile.

/// An int scalar over the loop's names.
fn loop_scalar() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => Just("V[I]".to_string()),
        2 => Just("I".to_string()),
        1 => Just("S".to_string()),
        2 => (-3i64..6).prop_map(number),
        2 => (0i64..4).prop_map(|k| format!("V[1+(≢V)|I+{k}]")),
        1 => Just("(-V[I])".to_string()),
    ]
}

fn loop_condition() -> impl Strategy<Value = String> {
    (loop_scalar(), pick(&["<", "=", ">", "≤", "≠"]), loop_scalar()).prop_map(|(x, f, y)| format!("{x}{f}{y}"))
}

fn loop_statement() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => loop_scalar().prop_map(|x| format!("V[I]←{x}")),
        2 => (0i64..4, loop_scalar()).prop_map(|(k, x)| format!("V[1+(≢V)|I+{k}]←{x}")),
        2 => loop_scalar().prop_map(|x| format!("S←S+{x}")),
        1 => (0i64..4).prop_map(|k| format!("T←V[I] ⋄ V[I]←V[1+(≢V)|I+{k}] ⋄ V[1+(≢V)|I+{k}]←T")),
        1 => loop_scalar().prop_map(|x| format!("(1↑V)←{x}")),
    ]
}

/// The lines of a loop's body: statements and nested conditionals, some of which leave the loop or return.
fn loop_lines() -> impl Strategy<Value = String> {
    loop_statement().prop_recursive(3, 16, 3, |inner| {
        let lines = prop::collection::vec(inner, 1..3).prop_map(|lines| lines.join("\n"));
        prop_oneof![
            2 => lines.clone(),
            2 => (loop_condition(), lines.clone()).prop_map(|(c, body)| format!(":If {c}\n{body}\n:EndIf")),
            2 => (loop_condition(), lines.clone(), lines.clone())
                .prop_map(|(c, body, otherwise)| format!(":If {c}\n{body}\n:Else\n{otherwise}\n:EndIf")),
            2 => (loop_condition(), lines.clone(), loop_condition(), lines.clone(), lines.clone()).prop_map(
                |(c, body, d, second, otherwise)| {
                    format!(":If {c}\n{body}\n:ElseIf {d}\n{second}\n:Else\n{otherwise}\n:EndIf")
                }
            ),
            1 => loop_condition().prop_map(|c| format!(":If {c}\n:Leave\n:EndIf")),
            1 => loop_condition().prop_map(|c| format!(":If {c}\nR←(S+1000),V\n:Return\n:EndIf")),
        ]
    })
}

/// A tradfn looping over V with a random body, called on a random vector; it returns S followed by V.
fn tradfn_program() -> impl Strategy<Value = String> {
    (prop::collection::vec(-4i64..10, 1..8), loop_lines(), prop::bool::ANY).prop_map(|(items, body, counted)| {
        let items: Vec<String> = items.into_iter().map(number).collect();
        let the_loop = if counted {
            format!(":For I :In ⍳≢V\n{body}\n:EndFor")
        } else {
            format!("I←0\n:While I<≢V\nI←I+1\n{body}\n:EndWhile")
        };
        format!("∇ R←F V;I;S;T\nS←0\n{the_loop}\nR←S,V\n∇\nF ,{}\n", items.join(" "))
    })
}

/// What a run printed, and the APL error it stopped with.
#[derive(Debug, PartialEq)]
struct Outcome {
    printed: String,
    error: Option<String>,
}

fn run_in_process(text: &str, backend: Backend) -> Outcome {
    let report = run_source_capturing(&SourceFile::new("case.apl", text.to_string()), backend);
    Outcome {
        printed: report.stdout,
        error: report.error.map(|error| error.apl_name),
    }
}

fn scratch_directory() -> PathBuf {
    let directory = std::env::temp_dir().join(format!("aplc-random-programs-{}", std::process::id()));
    std::fs::create_dir_all(&directory).expect("the temporary directory is writable");
    directory
}

/// The APL errors a program may stop with (anything else, a crash or an internal error, never agrees).
const APL_ERRORS: &[&str] = &[
    "DOMAIN ERROR",
    "LENGTH ERROR",
    "RANK ERROR",
    "INDEX ERROR",
    "VALUE ERROR",
    "SYNTAX ERROR",
    "NONCE ERROR",
    "LIMIT ERROR",
    "WS FULL",
];

/// Whether a backend's outcome agrees with the oracle's: the same output, and the same APL error or none. One
/// difference is allowed: when a statement has two errors, which one is reported may differ, because compiled code
/// checks the shapes of a function's arguments (LENGTH, RANK) before it computes their elements, where APL evaluates
/// the right argument whole first (`(3 3⍴1),(0 0)[1 3]`: INDEX ERROR in Dyalog and the interpreter, LENGTH ERROR
/// compiled). Both must still be APL errors, after the same output.
fn agrees(actual: &Outcome, expected: &Outcome) -> bool {
    let both_apl_errors = [&actual.error, &expected.error]
        .iter()
        .all(|error| error.as_deref().is_some_and(|name| APL_ERRORS.contains(&name)));
    same_output(&actual.printed, &expected.printed) && (actual.error == expected.error || both_apl_errors)
}

/// Whether two outputs say the same: the same text, or the same words where each pair of differing words are numbers
/// within 1e-9 of each other relative to their size (at least 1). Compiled code adds a double sum from the left where
/// the interpreter adds from the right, so a sum that cancels to nearly 0 may end in other rounding noise (`+/` of
/// (1 ¯2 1)÷3: 1.1E¯16 against 5.6E¯17).
fn same_output(actual: &str, expected: &str) -> bool {
    if actual == expected {
        return true;
    }
    let number = |word: &str| word.replace('¯', "-").replace('E', "e").parse::<f64>().ok();
    let (actual_lines, expected_lines): (Vec<&str>, Vec<&str>) = (actual.lines().collect(), expected.lines().collect());
    actual_lines.len() == expected_lines.len()
        && actual_lines.iter().zip(&expected_lines).all(|(a, e)| {
            let (a_words, e_words): (Vec<&str>, Vec<&str>) =
                (a.split_whitespace().collect(), e.split_whitespace().collect());
            a_words.len() == e_words.len()
                && a_words.iter().zip(&e_words).all(|(x, y)| {
                    x == y
                        || matches!((number(x), number(y)), (Some(x), Some(y))
                            if (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0))
                })
        })
}

/// `aplc run --backend jit` or `aot` as a child process: native code ends its process on an APL error.
fn run_native(path: &Path, backend: &str) -> Outcome {
    let output = loops_common::run_aplc_child(path, backend);
    let stderr = String::from_utf8_lossy(&output.stderr);
    Outcome {
        printed: String::from_utf8_lossy(&output.stdout).into_owned(),
        error: (!output.status.success()).then(|| error_name(&stderr)),
    }
}

/// The name of the first APL error on standard error (`INDEX ERROR`), or the whole text when there is none.
fn error_name(stderr: &str) -> String {
    APL_ERRORS
        .iter()
        .filter_map(|name| stderr.find(name).map(|position| (position, *name)))
        .min()
        .map_or_else(|| stderr.to_string(), |(_, name)| name.to_string())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    /// The loop-IR interpreter, which runs the code every native backend compiles, against the oracle.
    #[test]
    fn random_programs_agree_on_interp_and_mem(text in program()) {
        let expected = run_in_process(&text, Backend::Interp);
        let actual = run_in_process(&text, Backend::Mem);
        prop_assert!(agrees(&actual, &expected), "mem disagrees with interp on\n{}\n{:?}\n{:?}", text, actual, expected);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, .. ProptestConfig::default() })]

    /// Native code compiled by the JIT, against the oracle (fewer cases: each is a child process).
    #[test]
    fn random_programs_agree_on_interp_and_jit(text in program()) {
        let path = scratch_directory().join("case.apl");
        std::fs::write(&path, &text).expect("the case is written");
        let expected = run_in_process(&text, Backend::Interp);
        let actual = run_native(&path, "jit");
        prop_assert!(agrees(&actual, &expected), "jit disagrees with interp on\n{}\n{:?}\n{:?}", text, actual, expected);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, .. ProptestConfig::default() })]

    /// Executables built by `aplc build` (through `--backend aot`), against the oracle (each case links one).
    #[test]
    fn random_programs_agree_on_interp_and_aot(text in program()) {
        let path = scratch_directory().join("aot_case.apl");
        std::fs::write(&path, &text).expect("the case is written");
        let expected = run_in_process(&text, Backend::Interp);
        let actual = run_native(&path, "aot");
        prop_assert!(agrees(&actual, &expected), "aot disagrees with interp on\n{}\n{:?}\n{:?}", text, actual, expected);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, .. ProptestConfig::default() })]

    /// The OpenCL backend with every construct a kernel can express on the device (PoCL's CPU device here), against
    /// the oracle. Without an OpenCL device the cases say so once and check nothing.
    #[test]
    fn random_programs_agree_on_interp_and_opencl(text in program()) {
        if let Err(reason) = aplc_runtime::opencl::opencl_device_available() {
            static SAID: std::sync::Once = std::sync::Once::new();
            SAID.call_once(|| eprintln!("skipped: no OpenCL device: {reason}"));
            return Ok(());
        }
        let path = scratch_directory().join("opencl_case.apl");
        std::fs::write(&path, &text).expect("the case is written");
        let expected = run_in_process(&text, Backend::Interp);
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_aplc"))
            .args(["run", "--backend", "opencl", "--opencl-min-work", "0"])
            .arg(&path)
            .output()
            .expect("the aplc binary runs");
        let actual = Outcome {
            printed: String::from_utf8_lossy(&output.stdout).into_owned(),
            error: (!output.status.success()).then(|| error_name(&String::from_utf8_lossy(&output.stderr))),
        };
        prop_assert!(agrees(&actual, &expected), "opencl disagrees with interp on\n{}\n{:?}\n{:?}", text, actual, expected);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    /// Random tradfn loops on the loop-IR interpreter against the oracle.
    #[test]
    fn random_tradfn_loops_agree_on_interp_and_mem(text in tradfn_program()) {
        let expected = run_in_process(&text, Backend::Interp);
        prop_assert!(expected.error.is_none(), "the oracle refused\n{}\n{:?}", text, expected);
        let actual = run_in_process(&text, Backend::Mem);
        prop_assert!(agrees(&actual, &expected), "mem disagrees with interp on\n{}\n{:?}\n{:?}", text, actual, expected);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20, .. ProptestConfig::default() })]

    /// Random tradfn loops compiled by the JIT, against the oracle.
    #[test]
    fn random_tradfn_loops_agree_on_interp_and_jit(text in tradfn_program()) {
        let path = scratch_directory().join("tradfn_case.apl");
        std::fs::write(&path, &text).expect("the case is written");
        let expected = run_in_process(&text, Backend::Interp);
        let actual = run_native(&path, "jit");
        prop_assert!(agrees(&actual, &expected), "jit disagrees with interp on\n{}\n{:?}\n{:?}", text, actual, expected);
    }
}

#[test]
fn outcomes_agree_only_on_the_same_output_and_apl_errors() {
    let outcome = |printed: &str, error: Option<&str>| Outcome {
        printed: printed.to_string(),
        error: error.map(str::to_string),
    };
    let expected = outcome("1\n", Some("INDEX ERROR"));
    assert!(agrees(&outcome("1\n", Some("INDEX ERROR")), &expected));
    assert!(agrees(&outcome("1\n", Some("LENGTH ERROR")), &expected));
    assert!(!agrees(&outcome("2\n", Some("INDEX ERROR")), &expected));
    assert!(!agrees(&outcome("1\n", None), &expected));
    assert!(!agrees(&outcome("1\n", Some("Segmentation fault")), &expected));
    assert!(!agrees(&outcome("1\n2\n", None), &outcome("1\n", None)));
    // Rounding noise of a sum that cancels is the same result; another number is not.
    assert!(agrees(
        &outcome("5.55112E¯17 2\n", None),
        &outcome("1.11022E¯16 2\n", None)
    ));
    assert!(!agrees(&outcome("0.5 2\n", None), &outcome("0.25 2\n", None)));
    assert!(!agrees(&outcome("1 2\n", None), &outcome("1 2 3\n", None)));
}

#[test]
fn generated_programs_are_mostly_accepted_and_sometimes_fail() {
    // The generator is only useful if most programs compile (a NONCE or SYNTAX ERROR compares nothing) and some hit
    // run-time errors: count both over a fixed sample.
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, TestRunner};
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        proptest::test_runner::TestRng::deterministic_rng(proptest::test_runner::RngAlgorithm::ChaCha),
    );
    let (mut refused, mut failed, mut large_domain, total) = (0, 0, 0, 200);
    let has_large_int = |text: &str| LARGE_INTS.iter().any(|k| text.contains(&number(*k)));
    for _ in 0..total {
        let text = program().new_tree(&mut runner).expect("a program").current();
        match run_in_process(&text, Backend::Interp).error.as_deref() {
            Some("NONCE ERROR" | "SYNTAX ERROR") => refused += 1,
            Some("DOMAIN ERROR") if has_large_int(&text) => {
                failed += 1;
                large_domain += 1;
            }
            Some(_) => failed += 1,
            None => {}
        }
    }
    assert!(
        refused * 10 < total,
        "{refused} of {total} generated programs were refused"
    );
    assert!(failed > 0, "no generated program hit a run-time error");
    // Ints near the 64-bit limits make some programs overflow (a DOMAIN ERROR the backends must agree on).
    assert!(
        large_domain > 0,
        "no generated program with a large int ended in a DOMAIN ERROR"
    );
    eprintln!("{refused} refused, {failed} failed ({large_domain} DOMAIN ERRORs with large ints) of {total}");
}
