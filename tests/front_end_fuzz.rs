//! Robustness of the whole front end at scale (issue #16): random programs go through parsing, elaboration, type
//! inference, the TAIL optimiser, lowering and the memory passes, on the same large stack as the `aplc` command, and
//! must come back with a program or an APL diagnostic, never a panic; random bytes, NUL bytes, invalid UTF-8 and
//! megabyte-long lines given to the `aplc` command end with a diagnostic and a defined exit status, never a crash.
//!
//! The number of random programs is `APLC_FUZZ_CASES` (default 2000, a few seconds); a long run sets it higher, e.g.
//! `APLC_FUZZ_CASES=1000000 cargo test --release --test front_end_fuzz`.

use aplc::diagnostics::render_report_plain;
use aplc::driver;
use aplc::source::SourceFile;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::process::Command;

/// Tokens from which random programs are made: enough valid structure (names that get assigned, dfns, operators,
/// strands, indexing, guards) to reach elaboration, inference and lowering often, and enough that is wrong (unbalanced
/// brackets, misplaced operators, undefined names) to reach their errors.
const TOKENS: &[&str] = &[
    "1", "0", "2", "¯3", "2.5", "1E2", "0J1", "'ab'", "'c'", "⍬", "x", "y", "f", "x←", "y←", "f←", "⍺", "⍵", "∇", "+",
    "-", "×", "÷", "|", "⌈", "⌊", "*", "⍟", "○", "!", "?", "~", "∧", "∨", "<", "≤", "=", "≥", ">", "≠", "⍴", ",", "⍪",
    "⌽", "⊖", "⍉", "↑", "↓", "⊃", "⊂", "⍳", "≢", "≡", "⍋", "⍒", "⊣", "⊢", "⌷", "⍕", "∊", "⍸", "⊥", "⊤", "∪", "∩", "/",
    "⌿", "\\", "⍀", "¨", "∘.", ".", "⍣", "⍨", "⍤", "(", ")", "[", "]", "{", "}", ";", ":", "⋄", "\n", "⎕←", "⎕PP←",
    " ",
];

fn random_program() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 1..30).prop_map(|tokens| tokens.concat())
}

/// How long one random program may take through the front end before the test stops and shows it: a program of 30
/// tokens that takes longer is a hang (every stage is meant to be near-linear in the program's size).
const SECONDS_PER_PROGRAM: u64 = 20;

/// Stops the whole test process, printing the program, when one program runs longer than [`SECONDS_PER_PROGRAM`]
/// (a hang would otherwise keep the test running with no sign of which input caused it).
struct Watchdog {
    current: std::sync::Arc<std::sync::Mutex<(String, std::time::Instant)>>,
}

impl Watchdog {
    fn start() -> Watchdog {
        let current = std::sync::Arc::new(std::sync::Mutex::new((String::new(), std::time::Instant::now())));
        let watched = current.clone();
        std::thread::spawn(move || loop {
            std::thread::sleep(std::time::Duration::from_secs(1));
            let Ok((text, started)) = watched.lock().map(|guard| guard.clone()) else {
                return;
            };
            if started.elapsed().as_secs() > SECONDS_PER_PROGRAM {
                eprintln!("this program took more than {SECONDS_PER_PROGRAM} s in the front end:\n{text:?}");
                std::process::abort();
            }
        });
        Watchdog { current }
    }

    fn watch(&self, text: &str) {
        if let Ok(mut current) = self.current.lock() {
            *current = (text.to_string(), std::time::Instant::now());
        }
    }
}

fn fuzz_cases() -> u32 {
    std::env::var("APLC_FUZZ_CASES")
        .ok()
        .and_then(|text| text.trim().parse().ok())
        .unwrap_or(2000)
}

/// The program through every stage before code generation: `Ok` with the loop program, or the error's report.
fn through_the_front_end(text: &str) -> Result<(), String> {
    let file = SourceFile::new("fuzz.apl".to_string(), text.to_string());
    driver::on_pipeline_stack(|| match driver::loop_program(&file) {
        Ok(_) => Ok(()),
        Err(error) => Err(render_report_plain(&error)),
    })
}

#[test]
fn the_front_end_never_panics_on_random_programs() {
    let mut runner = TestRunner::new(Config {
        cases: fuzz_cases(),
        failure_persistence: None,
        ..Config::default()
    });
    let watchdog = Watchdog::start();
    let compiled = std::cell::Cell::new(0_u32);
    let refused = std::cell::Cell::new(0_u32);
    let outcome = runner.run(&random_program(), |text| {
        watchdog.watch(&text);
        match through_the_front_end(&text) {
            Ok(()) => compiled.set(compiled.get() + 1),
            Err(report) => {
                // A refusal names an APL error class (SYNTAX ERROR, VALUE ERROR, NONCE ERROR, ...).
                prop_assert!(
                    report.contains(" ERROR"),
                    "a report without an APL error name:\n{report}"
                );
                refused.set(refused.get() + 1);
            }
        }
        Ok(())
    });
    if let Err(failure) = outcome {
        panic!("{failure}");
    }
    let (compiled, refused) = (compiled.get(), refused.get());
    // The generator must reach both outcomes, or the test says little about the later stages.
    assert!(compiled > 0 && refused > 0, "{compiled} compiled, {refused} refused");
    eprintln!("random programs: {compiled} compiled, {refused} refused with an APL error, 0 panics");
}

struct Outcome {
    status: Option<i32>,
    stderr: String,
}

fn aplc_check_on_bytes(bytes: &[u8], stem: &str) -> Outcome {
    let path = std::env::temp_dir().join(format!("aplc-fuzz-{}-{stem}.apl", std::process::id()));
    std::fs::write(&path, bytes).expect("the script is written");
    let output = Command::new(env!("CARGO_BIN_EXE_aplc"))
        .arg("check")
        .arg(&path)
        .output()
        .expect("aplc runs");
    let _ = std::fs::remove_file(&path);
    Outcome {
        status: output.status.code(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

#[track_caller]
fn assert_clean_refusal(outcome: &Outcome, expected_status: i32, expected_text: &str) {
    assert_eq!(outcome.status, Some(expected_status), "{}", outcome.stderr);
    assert!(outcome.stderr.contains(expected_text), "{}", outcome.stderr);
    assert!(!outcome.stderr.contains("panicked"), "{}", outcome.stderr);
}

#[test]
fn random_bytes_given_to_the_command_end_with_a_diagnostic() {
    let mut runner = TestRunner::new(Config {
        cases: 64,
        failure_persistence: None,
        ..Config::default()
    });
    let outcome = runner.run(&prop::collection::vec(any::<u8>(), 0..200), |bytes| {
        let outcome = aplc_check_on_bytes(&bytes, "bytes");
        // 0: a valid program; 1: an APL error in it; 2: not a readable text file.
        prop_assert!(
            matches!(outcome.status, Some(0..=2)),
            "status {:?}: {}",
            outcome.status,
            outcome.stderr
        );
        prop_assert!(!outcome.stderr.contains("panicked"), "{}", outcome.stderr);
        Ok(())
    });
    if let Err(failure) = outcome {
        panic!("{failure}");
    }
}

#[test]
fn invalid_utf8_and_nul_bytes_are_refused_clearly() {
    assert_clean_refusal(&aplc_check_on_bytes(b"x\xff\xfe+1\n", "invalid-utf8"), 2, "valid UTF-8");
    assert_clean_refusal(&aplc_check_on_bytes(b"x\x00\x001+2\n", "nul"), 1, "SYNTAX ERROR");
}

#[test]
fn megabyte_lines_compile() {
    // x←1+1+…+1 with 400,000 additions is 800 KB on one line, and a strand of 400,000 ones; both are valid APL.
    let sums = format!("x←{}1\nx\n", "1+".repeat(400_000));
    let outcome = aplc_check_on_bytes(sums.as_bytes(), "long-sum");
    assert_eq!(outcome.status, Some(0), "{}", outcome.stderr);
    let strand = format!("x←{}\n+/x\n", vec!["1"; 400_000].join(" "));
    let outcome = aplc_check_on_bytes(strand.as_bytes(), "long-strand");
    assert_eq!(outcome.status, Some(0), "{}", outcome.stderr);
}
