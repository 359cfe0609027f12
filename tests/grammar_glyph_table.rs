//! grammar.md's glyph tables (section 6) against the elaborator: an example of every form a table lists is compiled
//! (parse, elaborate, infer), and it must compile exactly when the table says the form is supported. A form marked
//! "(not supported)", and an operator marked "planned", must be refused with a NONCE ERROR (not another error, which
//! would mean the example or the table is wrong). An operator marked "partly: ..." has an example that compiles and one
//! that is refused. Every glyph in the tables needs examples here, so a new row cannot go unchecked.

use aplc::source::SourceFile;
use std::collections::HashMap;

/// How compiling an example ended.
#[derive(Debug, PartialEq)]
enum Outcome {
    Compiles,
    Nonce,
    Other(String),
}

fn compile(text: &str) -> Outcome {
    let file = SourceFile::new("example.apl", text);
    let Ok(ast) = aplc::syntax::parse_program(&file) else {
        return Outcome::Other("SYNTAX ERROR (parse)".to_string());
    };
    match aplc::elab::elaborate_program(&ast, &file) {
        Ok(mut program) => match aplc::tail::infer::infer_program(&mut program) {
            Ok(_) => Outcome::Compiles,
            Err(error) => Outcome::Other(format!("TAIL type error: {error}")),
        },
        Err(errors) => match errors.errors[0].apl_name() {
            "NONCE ERROR" => Outcome::Nonce,
            _ => Outcome::Other(errors.errors[0].to_string()),
        },
    }
}

/// A monadic and a dyadic use of each function glyph (`None` where APL has no such form).
fn function_examples() -> HashMap<&'static str, (Option<&'static str>, Option<&'static str>)> {
    HashMap::from([
        ("+", (Some("+1"), Some("1+2"))),
        ("-", (Some("-1"), Some("1-2"))),
        ("×", (Some("×¯2"), Some("2×3"))),
        ("÷", (Some("÷2"), Some("1÷2"))),
        ("|", (Some("|¯2"), Some("3|7"))),
        ("⌈", (Some("⌈1.5"), Some("1⌈2"))),
        ("⌊", (Some("⌊1.5"), Some("1⌊2"))),
        ("*", (Some("*1"), Some("2*3"))),
        ("⍟", (Some("⍟2"), Some("2⍟8"))),
        ("○", (Some("○1"), Some("1○0.5"))),
        ("!", (Some("!4"), Some("2!4"))),
        ("?", (Some("?6"), Some("2?6"))),
        ("~", (Some("~1 0"), Some("1 2 3~2"))),
        ("∧", (None, Some("1∧0"))),
        ("∨", (None, Some("1∨0"))),
        ("⍲", (None, Some("1⍲0"))),
        ("⍱", (None, Some("1⍱0"))),
        ("<", (None, Some("1<2"))),
        ("≤", (None, Some("1≤2"))),
        ("=", (None, Some("1=2"))),
        ("≥", (None, Some("1≥2"))),
        (">", (None, Some("1>2"))),
        ("≠", (Some("≠1 1 2"), Some("1≠2"))),
        ("⍴", (Some("⍴1 2"), Some("2 2⍴1"))),
        (",", (Some(",2 2⍴1"), Some("1,2"))),
        ("⍪", (Some("⍪1 2"), Some("1 2⍪3 4"))),
        ("⌽", (Some("⌽1 2"), Some("1⌽1 2"))),
        ("⊖", (Some("⊖2 2⍴⍳4"), Some("1⊖2 2⍴⍳4"))),
        ("⍉", (Some("⍉2 3⍴⍳6"), Some("2 1⍉2 3⍴⍳6"))),
        ("↑", (Some("↑(1 2)(3 4)"), Some("2↑⍳5"))),
        ("↓", (Some("↓2 2⍴⍳4"), Some("2↓⍳5"))),
        ("⊃", (Some("⊃1 2"), Some("2⊃1 2 3"))),
        ("⍳", (Some("⍳5"), Some("1 2 3⍳2"))),
        ("≢", (Some("≢1 2"), Some("1 2≢1 2"))),
        ("⍋", (Some("⍋3 1 2"), Some("'abc'⍋'cab'"))),
        ("⍒", (Some("⍒3 1 2"), Some("'abc'⍒'cab'"))),
        ("⊣", (Some("⊣1"), Some("1⊣2"))),
        ("⊢", (Some("⊢1"), Some("1⊢2"))),
        ("⌷", (Some("⌷1 2"), Some("2⌷1 2 3"))),
        ("⍕", (Some("⍕1 2"), Some("3⍕1.23456"))),
        ("∊", (Some("∊2 2⍴1"), Some("2∊1 2"))),
        ("⍸", (Some("⍸1 0 1"), Some("1 3⍸2"))),
        ("⊥", (None, Some("2⊥1 0 1"))),
        ("⊤", (None, Some("2 2⊤3"))),
        ("⊂", (Some("⊂1 2"), Some("1 0 1⊂⍳3"))),
        ("⊆", (Some("⊆1 2"), Some("1 1 0⊆⍳3"))),
        ("≡", (Some("≡1 2"), Some("1 2≡1 2"))),
        ("⍎", (Some("⍎'1+2'"), None)),
        ("⌹", (Some("⌹2 2⍴1 0 0 1"), Some("1 2⌹2 2⍴1 0 0 1"))),
        ("∪", (Some("∪1 1 2"), Some("1 2∪2 3"))),
        ("∩", (None, Some("1 2∩2 3"))),
        ("⍷", (None, Some("'ab'⍷'cabab'"))),
    ])
}

/// Uses of each operator glyph: for "partly", the first must compile and the last must be refused.
fn operator_examples() -> HashMap<&'static str, Vec<&'static str>> {
    HashMap::from([
        ("/", vec!["+/⍳4", "1 0 1/⍳3", "2-/1 4 9"]),
        ("⌿", vec!["+⌿2 2⍴⍳4", "1 0⌿2 2⍴⍳4", "2+⌿3 2⍴⍳6"]),
        ("\\", vec!["+\\⍳4", "1 0 1\\1 2"]),
        ("⍀", vec!["+⍀2 2⍴⍳4", "1 0 1⍀2 2⍴⍳4"]),
        ("¨", vec!["{⍵+1}¨1 2"]),
        ("∘.", vec!["1 2∘.×1 2 3"]),
        (".", vec!["1 2+.×3 4"]),
        ("⍣", vec!["{⍵×2}⍣3⊢1", "{1+÷⍵}⍣=⊢1"]),
        ("∘", vec!["(2∘×)3", "(×∘2)3", "(-∘÷)4"]),
        ("⍨", vec!["2-⍨5", "×⍨3"]),
        (
            "⍤",
            vec![
                "{+/⍵}⍤99⊢2 3⍴⍳6",
                "{+/⍵}⍤1⊢2 3⍴⍳6",
                "1 2 3(+⍤1)2 3⍴⍳6",
                "(2 3⍴⍳6)(+⍤1)2 3⍴⍳6",
                "(2 2⍴⍳4)({⍺,⍵}⍤1 0)1 2",
                "-⍤+/1 2 3",
                "3 -⍤+ 4",
            ],
        ),
        ("⌸", vec!["{⍺,≢⍵}⌸1 1 2", "1 2 1{+/⍵}⌸3 4 5", "{≢⍵}⌸2 2⍴1"]),
        ("⌺", vec!["{+/,⍵}⌺3⊢⍳5", "{⍺,+/,⍵}⌺3 5⊢4 6⍴⍳24", "{+/⍵}⌺2⊢⍳5"]),
        ("@", vec!["10@2⊢1 2 3", "{⍵×2}@(1 3)⊢1 2 3"]),
        ("⍥", vec!["-⍥| ¯5", "3 +⍥| ¯5"]),
    ])
}

/// The rows of the table under `heading` in grammar.md: the cells of each `| ... |` line after the header lines.
fn table_rows(grammar: &str, heading: &str) -> Vec<Vec<String>> {
    let section = grammar
        .split(heading)
        .nth(1)
        .unwrap_or_else(|| panic!("grammar.md has no section {heading:?}"));
    section
        .lines()
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .skip(2)
        .map(|line| {
            line.trim_matches('|')
                .split(" | ")
                .map(|cell| cell.trim().to_string())
                .collect()
        })
        .collect()
}

/// The glyph of a first cell: `` `+` `` or `` `\|` ``.
fn glyph_of(cell: &str) -> String {
    cell.trim_matches('`').replace("\\|", "|")
}

/// Compiles `example` and records a mismatch when it does not end as `expected` (`what` is the table's words for it).
fn check_example(example: &str, what: &str, expected: Outcome, mismatches: &mut Vec<String>) {
    let outcome = compile(example);
    if outcome != expected {
        mismatches.push(format!("{example} ({what}): expected {expected:?}, got {outcome:?}"));
    }
}

fn assert_no_mismatches(mismatches: &[String]) {
    assert!(
        mismatches.is_empty(),
        "grammar.md disagrees:\n{}",
        mismatches.join("\n")
    );
}

fn grammar() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/grammar.md")).expect("grammar.md")
}

#[test]
fn every_function_form_compiles_exactly_when_the_table_says_it_is_supported() {
    let grammar = grammar();
    let examples = function_examples();
    let mut mismatches = Vec::new();
    let mut rows = table_rows(&grammar, "### Scalar functions");
    rows.extend(table_rows(&grammar, "### Structural and other functions"));
    assert!(rows.len() >= 45, "the function tables have {} rows", rows.len());
    for row in &rows {
        let glyph = glyph_of(&row[0]);
        let (monadic, dyadic) = examples
            .get(glyph.as_str())
            .unwrap_or_else(|| panic!("no examples for the glyph {glyph} of grammar.md"));
        for (cell, example) in [(&row[1], monadic), (&row[2], dyadic)] {
            match (cell == "—", example) {
                (true, None) => {}
                (true, Some(example)) => mismatches.push(format!(
                    "{glyph}: the table says no such form, but there is an example {example}"
                )),
                (false, None) => mismatches.push(format!("{glyph}: no example for the form {cell:?}")),
                (false, Some(example)) => {
                    let expected = if cell.contains("(not supported)") {
                        Outcome::Nonce
                    } else {
                        Outcome::Compiles
                    };
                    check_example(example, cell, expected, &mut mismatches);
                }
            }
        }
    }
    assert_no_mismatches(&mismatches);
}

#[test]
fn every_operator_compiles_exactly_when_the_table_says_it_is_supported() {
    let grammar = grammar();
    let examples = operator_examples();
    let rows = table_rows(&grammar, "### Operators");
    assert!(rows.len() >= 14, "the operator table has {} rows", rows.len());
    let mut mismatches = Vec::new();
    for row in &rows {
        let glyph = glyph_of(&row[0]);
        let status = row.last().expect("a status column");
        let uses = examples
            .get(glyph.as_str())
            .unwrap_or_else(|| panic!("no examples for the operator {glyph} of grammar.md"));
        let expected: Vec<Outcome> = match status.as_str() {
            "supported" => uses.iter().map(|_| Outcome::Compiles).collect(),
            "planned" => uses.iter().map(|_| Outcome::Nonce).collect(),
            partly if partly.starts_with("partly") => {
                assert!(
                    uses.len() >= 2,
                    "{glyph}: a partly supported operator needs two examples"
                );
                let mut expected: Vec<Outcome> = uses.iter().map(|_| Outcome::Compiles).collect();
                *expected.last_mut().unwrap() = Outcome::Nonce;
                expected
            }
            other => panic!("{glyph}: unknown status {other:?}"),
        };
        for (example, expected) in uses.iter().zip(expected) {
            check_example(example, status, expected, &mut mismatches);
        }
    }
    assert_no_mismatches(&mismatches);
}
