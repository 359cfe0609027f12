//! Cross-backend agreement on generated programs: random TAIL programs (the loop-stage generator of
//! tests/loops_common/generators.rs, wrapped so that doubles, complex numbers, `format` and `roll` occur too) must
//! print the same lines and stop with the same APL error (or none) on the TAIL interpreter, the JIT and AOT
//! executables (and the loop-IR interpreter, which costs nothing more).
//!
//! Native code exits the process on an APL error, so jit and aot run as child processes of the built `aplc`, as the
//! corpus harness runs them; the interpreter runs in-process. To keep the number of child processes (and the time)
//! modest, each case is one program of a few independent parts, each of which prints its value.

mod loops_common;

use std::path::{Path, PathBuf};

use aplc::driver::{run_source_capturing, Backend};
use aplc::source::SourceFile;
use loops_common::generators::{expression, Generated};
use proptest::prelude::*;

/// What a run printed on standard output, and the name of the APL error it stopped with.
#[derive(Debug, PartialEq)]
struct Outcome {
    printed: String,
    error: Option<String>,
}

/// One printed part of a case: the generated int expression, or a wrapper of it that exercises another element type
/// or a run-time library function.
fn part() -> impl Strategy<Value = String> {
    let generated = || expression().prop_map(|(text, _): Generated| text);
    prop_oneof![
        generated().prop_map(|e| format!("print(10, {e})")),
        generated().prop_map(|e| format!("print(10, reduce(addi, 0, rav({e})))")),
        // Doubles, with the DOMAIN ERROR of the square root of a negative number.
        generated().prop_map(|e| format!("print(10, each(fn x => divd(i2d(x), 3.0), {e}))")),
        generated().prop_map(|e| format!("print(10, each(fn x => sqrt(i2d(subi(x, 1))), {e}))")),
        generated().prop_map(|e| format!("print(6, reduce(addd, 0.0, rav(each(fn x => divd(1.0, i2d(x)), {e}))))")),
        // Complex numbers: arithmetic, magnitude, conjugate, division (by zero too), sums.
        generated().prop_map(|e| format!("print(10, each(fn x => mulx(d2x(i2d(x)), 1.0j~2.0), {e}))")),
        generated()
            .prop_map(|e| { format!("print(10, each(fn x => divx(2.0j1.0, subx(d2x(i2d(x)), 1.0j0.0)), {e}))") }),
        generated().prop_map(|e| format!("print(10, each(fn x => magnx(conjx(mkx(i2d(x), 2.0))), {e}))")),
        generated().prop_map(|e| {
            format!("print(10, reduce(addx, 0.0j0.0, rav(each(fn x => mkx(i2d(x), i2d(muli(x, x))), {e}))))")
        }),
        // ⍕ of ints, doubles and complex numbers.
        generated().prop_map(|e| format!("print(10, format(10, rav({e})))")),
        generated().prop_map(|e| format!("print(10, format(5, rav(each(fn x => divd(i2d(x), 7.0), {e}))))")),
        generated().prop_map(|e| format!("print(10, format(10, rav(each(fn x => mkx(0.5, i2d(x)), {e}))))")),
        // ? draws from the shared generator in the same order everywhere; a bound below 1 is a DOMAIN ERROR.
        generated().prop_map(|e| format!("print(10, each(fn x => roll(addi(maxi(x, 0), 1)), {e}))")),
        generated().prop_map(|e| format!("print(10, each(fn x => roll(x), {e}))")),
        generated().prop_map(|e| format!("print(10, reduce(addi, 0, rav(each(fn x => roll(6), {e}))))")),
    ]
}

/// A case: a few parts, each printing, in one program.
fn case() -> impl Strategy<Value = String> {
    prop::collection::vec(part(), 1..4).prop_map(|parts| {
        let mut text = String::new();
        for (index, part) in parts.iter().enumerate() {
            text.push_str(&format!("let part{index} = {part} in\n"));
        }
        text.push_str("0\n");
        text
    })
}

fn scratch_directory() -> PathBuf {
    let directory = std::env::temp_dir().join(format!("aplc-native-agreement-{}", std::process::id()));
    std::fs::create_dir_all(&directory).expect("the temporary directory is writable");
    directory
}

/// A backend that runs in this process (interp, mem).
fn run_in_process(text: &str, backend: Backend) -> Outcome {
    let report = run_source_capturing(&SourceFile::new("case.tail", text.to_string()), backend);
    Outcome {
        printed: report.stdout,
        error: report.error.map(|error| error.apl_name),
    }
}

/// `aplc run --backend B file` as a child process: its standard output, and the first APL error name on its
/// standard error when it fails.
fn run_child(path: &Path, backend: Backend) -> Outcome {
    let output = loops_common::run_aplc_child(path, backend.name());
    let stderr = String::from_utf8_lossy(&output.stderr);
    Outcome {
        printed: String::from_utf8_lossy(&output.stdout).into_owned(),
        error: (!output.status.success()).then(|| first_error_name(&stderr)),
    }
}

/// `DOMAIN ERROR`, `FILE I/O ERROR`, ...: the words in capitals before the first `ERROR` (the whole text when there
/// is none, so that a crash never matches an error name).
fn first_error_name(stderr: &str) -> String {
    let Some(end) = stderr.find("ERROR") else {
        return stderr.to_string();
    };
    let before = &stderr[..end];
    let start = before
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_ascii_uppercase() || *c == '/' || *c == ' '))
        .map_or(0, |(position, c)| position + c.len_utf8());
    format!("{}ERROR", before[start..].trim_start())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    #[test]
    fn generated_programs_agree_on_interp_mem_jit_and_aot(text in case()) {
        let path = scratch_directory().join("case.tail");
        std::fs::write(&path, &text).expect("the case is written");
        let expected = run_in_process(&text, Backend::Interp);
        let memory_ir = run_in_process(&text, Backend::Mem);
        prop_assert_eq!(&memory_ir, &expected, "mem disagrees with interp on\n{}", text);
        for backend in [Backend::Jit, Backend::Aot] {
            let actual = run_child(&path, backend);
            prop_assert_eq!(&actual, &expected, "{} disagrees with interp on\n{}", backend.name(), text);
        }
    }
}

#[test]
fn error_names_are_read_from_native_and_interpreter_diagnostics() {
    assert_eq!(
        first_error_name("DOMAIN ERROR: divx: division by zero\n"),
        "DOMAIN ERROR"
    );
    assert_eq!(
        first_error_name("aplc::x\n\n  × FILE I/O ERROR: cannot read"),
        "FILE I/O ERROR"
    );
    assert_eq!(first_error_name("Segmentation fault"), "Segmentation fault");
}
