//! Parallel reductions and scans agree with the interpreters at every size, in particular around the chunk length
//! of parallel reductions (`REDUCTION_CHUNK`, 4096): empty vectors, one element, a chunk less or more by one, several
//! chunks and a partial last one. Each case is a TAIL program of a few reductions and scans over vectors of one
//! random size; it must print the same on the TAIL interpreter, the loop-IR interpreter and JIT-compiled native code,
//! and native code must print the same digits (17 of them for doubles) on one thread and on two threads with every
//! construct forced onto the pool (`APLC_PARAM_threshold=0`): the determinism the README promises.

use std::path::{Path, PathBuf};

use aplc::driver::{run_source_capturing, Backend};
use aplc::loops::ir::REDUCTION_CHUNK;
use aplc::source::SourceFile;
use proptest::prelude::*;

/// Sizes near the chunk boundaries, and anywhere up to a few chunks.
fn size() -> impl Strategy<Value = i64> {
    let near_boundary = (0_i64..4, -2_i64..=2).prop_map(|(chunks, offset)| (chunks * REDUCTION_CHUNK + offset).max(0));
    prop_oneof![near_boundary, 0_i64..4 * REDUCTION_CHUNK]
}

/// The parts that interpreters and native code print identically: exact int and boolean results, and double sums
/// at 10 digits (their chunked association changes only the last bits).
fn exact_parts(n: i64, seed: i64) -> Vec<String> {
    vec![
        format!("print(10, reduce(addi, 0, each(fn x => resi(muli(x, {seed}), 1000), iota({n}))))"),
        format!("print(10, reduce(maxi, ~9223372036854775807, each(fn x => resi(muli(x, {seed}), 9973), iota({n}))))"),
        format!("print(10, reduce(mini, 9223372036854775807, each(fn x => resi(muli(x, {seed}), 9973), iota({n}))))"),
        format!("print(10, reduce(andb, tt, each(fn x => lti(x, {}), iota({n}))))", tail_int(n - seed % 3)),
        format!("print(10, reduce(xorb, ff, each(fn x => eqi(resi(x, 7), 3), iota({n}))))"),
        format!("print(10, reduce(addd, 0.0, each(fn x => divd(1.0, i2d(x)), iota({n}))))"),
        format!("print(10, reduce(addi, 0, scan(addi, 0, each(fn x => resi(x, {seed}), iota({n})))))"),
        format!("print(10, reduce(addi, 0, scan(maxi, ~9223372036854775807, each(fn x => resi(muli(x, {seed}), 97), iota({n})))))"),
        format!("print(10, scan(addi, 0, each(fn x => subi(resi(muli(x, {seed}), 1000), 500), iota({n}))))"),
    ]
}

/// An integer in TAIL's concrete syntax, where a negative number is written with `~`.
fn tail_int(value: i64) -> String {
    if value < 0 {
        format!("~{}", value.unsigned_abs())
    } else {
        value.to_string()
    }
}

/// A double sum printed with every digit: native code must print the same on any number of threads.
fn all_digits_part(n: i64) -> String {
    format!("print(17, reduce(addd, 0.0, each(fn x => divd(1.0, addd(i2d(x), 0.1)), iota({n}))))")
}

/// The sums of a double `+\\` and of a double `×\\`, with every digit: scans in chunks must print the same on any
/// number of threads too.
fn all_digits_scan_parts(n: i64) -> Vec<String> {
    vec![
        format!("print(17, reduce(addd, 0.0, scan(addd, 0.0, each(fn x => divd(1.0, addd(i2d(x), 0.1)), iota({n})))))"),
        format!(
            "print(17, reduce(addd, 0.0, scan(muld, 1.0, each(fn x => addd(1.0, divd(1.0, i2d(addi(x, 1000)))), iota({n})))))"
        ),
    ]
}

fn program(parts: &[String]) -> String {
    let mut text = String::new();
    for (index, part) in parts.iter().enumerate() {
        text.push_str(&format!("let part{index} = {part} in\n"));
    }
    text.push_str("0\n");
    text
}

fn scratch_file(name: &str) -> PathBuf {
    let directory = std::env::temp_dir().join(format!("aplc-parallel-agreement-{}", std::process::id()));
    std::fs::create_dir_all(&directory).expect("the temporary directory is writable");
    directory.join(name)
}

fn run_in_process(text: &str, backend: Backend) -> String {
    let report = run_source_capturing(&SourceFile::new("case.tail", text.to_string()), backend);
    assert!(report.error.is_none(), "{} failed on\n{text}", backend.name());
    report.stdout
}

/// The JIT in a child process with the given thread settings; its standard output.
fn run_jit(path: &Path, environment: &[(&str, &str)]) -> String {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_aplc"))
        .args(["run", "--backend", "jit"])
        .arg(path)
        .envs(environment.iter().copied())
        .output()
        .expect("the aplc binary runs");
    assert!(
        output.status.success(),
        "jit failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

const ONE_THREAD: &[(&str, &str)] = &[("APLC_THREADS", "1")];
const TWO_THREADS_ALWAYS_PARALLEL: &[(&str, &str)] = &[("APLC_THREADS", "2"), ("APLC_PARAM_threshold", "0")];

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, .. ProptestConfig::default() })]

    #[test]
    fn reductions_and_scans_agree_around_the_chunk_length(n in size(), seed in 1_i64..50) {
        let exact = program(&exact_parts(n, seed));
        let path = scratch_file(&format!("exact-{n}-{seed}.tail"));
        std::fs::write(&path, &exact).expect("the case is written");
        let expected = run_in_process(&exact, Backend::Interp);
        // Nine printed parts, then the program's own value, 0 (a TAIL program shows its value on every backend); a
        // long vector folds at ⎕PW onto continuation lines, which start with six blanks.
        let printed = expected.lines().filter(|line| !line.starts_with("      ")).count();
        prop_assert_eq!(printed, 10, "{}", expected);
        prop_assert_eq!(expected.lines().last(), Some("0"), "{}", expected);
        prop_assert_eq!(&run_in_process(&exact, Backend::Mem), &expected, "mem on\n{}", exact);
        prop_assert_eq!(&run_jit(&path, ONE_THREAD), &expected, "jit, one thread, on\n{}", exact);
        prop_assert_eq!(&run_jit(&path, TWO_THREADS_ALWAYS_PARALLEL), &expected, "jit, two threads, on\n{}", exact);

        let mut digit_parts = vec![all_digits_part(n)];
        digit_parts.extend(all_digits_scan_parts(n));
        let digits = program(&digit_parts);
        let path = scratch_file(&format!("digits-{n}.tail"));
        std::fs::write(&path, &digits).expect("the case is written");
        let one = run_jit(&path, ONE_THREAD);
        prop_assert_eq!(&run_jit(&path, TWO_THREADS_ALWAYS_PARALLEL), &one, "two threads differ on\n{}", digits);
        // The mem interpreter folds the same chunks in the same order, so its digits agree too when the chunk's
        // own additions are not reassociated; native code may vectorise within a chunk, so only 10 digits are
        // compared with it.
        let interpreted = run_in_process(&digits.replace("print(17", "print(10"), Backend::Mem);
        let numbers = |text: &str| -> Vec<f64> {
            text.lines().map(|line| line.replace('¯', "-").parse().expect("a number")).collect()
        };
        let (native_values, interpreted_values) = (numbers(&one), numbers(&interpreted));
        prop_assert_eq!(native_values.len(), 4, "{}", one);
        for (native_value, interpreted_value) in native_values.iter().zip(&interpreted_values) {
            prop_assert!((native_value - interpreted_value).abs() <= 1e-9 * interpreted_value.abs().max(1.0),
                "{} against {}", one, interpreted);
        }
    }
}
