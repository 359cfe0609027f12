//! The apl-tests corpus harness: runs every `.apl` file under apl-tests/ (except the parser snapshots in syntax/) on
//! every backend the driver offers and compares with the expectations in the file's header lines (apl-tests/README.md):
//! `⍝> line` expected output, `⍝! NAME` expected APL error (`⍝! NAME at LINE:COLUMN`: reported at that position of the
//! file), `⍝? skip BACKEND reason`. The native backends (jit,
//! aot) run every file twice: on one thread, and on two threads with every threshold 0
//! (`APLC_PARAM_threshold=0`), so that each parallel construct whose work is not known at compile time to be small
//! runs on the thread pool; both must print the expected output. The opencl backend runs every file twice: with every
//! construct a kernel can express on the device (`--opencl-min-work 0`), and with only those of 64 element operations
//! or more there (the others on the host's threads, on the same arrays); on a machine without an OpenCL device it is
//! skipped, and the harness says so on standard error.
//!
//! All files run, and every mismatch is reported together at the end, so one run shows the whole state of the corpus.
//!
//! Backends other than the interpreter may not support every construct yet. apl-tests/known-gaps.txt lists, per
//! backend, the files expected to stop with a NONCE ERROR that says a stage does not handle a construct *yet*; such a file must fail in
//! exactly that way (wrong output is always a failure), and a listed file that passes must be removed from the list, so
//! the list can only shrink.

mod corpus_support;

use aplc::driver::{run_source_capturing, Backend, ReportedError, RunReport};
use aplc::source::SourceFile;
use corpus_support::corpus_apl_files;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

/// What one corpus file expects.
#[derive(Debug, Default, PartialEq)]
struct Expectations {
    output_lines: Vec<String>,
    error_name: Option<String>,
    /// `LINE:COLUMN` of the APL text the error must point at.
    error_position: Option<String>,
    skipped_backends: Vec<String>,
}

fn parse_expectations(text: &str) -> Result<Expectations, String> {
    let mut expectations = Expectations::default();
    for (line_number, line) in text.lines().enumerate() {
        let line = line.trim_start();
        if let Some(rest) = line.strip_prefix("⍝>") {
            let output = rest.strip_prefix(' ').unwrap_or(rest);
            if !rest.is_empty() && !rest.starts_with(' ') {
                return Err(format!(
                    "line {}: `⍝>` must be followed by a space or nothing",
                    line_number + 1
                ));
            }
            expectations.output_lines.push(output.to_string());
        } else if let Some(rest) = line.strip_prefix("⍝!") {
            if expectations.error_name.is_some() {
                return Err(format!("line {}: a second `⍝!` expectation", line_number + 1));
            }
            let (name, position) = match rest.trim().split_once(" at ") {
                Some((name, position)) => (name, Some(position.trim().to_string())),
                None => (rest.trim(), None),
            };
            let well_formed = |position: &String| {
                let parts: Vec<&str> = position.split(':').collect();
                parts.len() == 2 && parts.iter().all(|part| part.parse::<usize>().is_ok_and(|n| n > 0))
            };
            if position.as_ref().is_some_and(|position| !well_formed(position)) {
                return Err(format!("line {}: expected `⍝! NAME at LINE:COLUMN`", line_number + 1));
            }
            expectations.error_name = Some(name.to_string());
            expectations.error_position = position;
        } else if let Some(rest) = line.strip_prefix("⍝?") {
            let words: Vec<&str> = rest.split_whitespace().collect();
            match words.as_slice() {
                ["skip", backend, _reason, ..] => expectations.skipped_backends.push(backend.to_string()),
                _ => return Err(format!("line {}: expected `⍝? skip BACKEND reason`", line_number + 1)),
            }
        }
    }
    Ok(expectations)
}

/// `(backend, file)` pairs from apl-tests/known-gaps.txt: lines `BACKEND FILE`, `#` comments.
fn known_gaps(root: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(root.join("known-gaps.txt")).unwrap_or_default();
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let (backend, file) = line.split_once(' ').expect("known-gaps.txt lines are `BACKEND FILE`");
            (backend.to_string(), file.trim().to_string())
        })
        .collect()
}

/// Whether a run stopped because a stage does not handle a construct yet ("... does not support X yet", "... does not
/// compile X yet"): the only acceptable known gap.
fn is_unsupported_construct(report: &RunReport) -> bool {
    report
        .error
        .as_ref()
        .is_some_and(|error| error.apl_name == "NONCE ERROR" && error.rendered.contains(" yet"))
}

/// The APL error names a run can end with, as the first one found on standard error names the error.
const APL_ERROR_NAMES: &[&str] = &[
    "SYNTAX ERROR",
    "VALUE ERROR",
    "RANK ERROR",
    "LENGTH ERROR",
    "DOMAIN ERROR",
    "INDEX ERROR",
    "NONCE ERROR",
    "TYPE ERROR",
    "LIMIT ERROR",
    "FILE I/O ERROR",
    "WS FULL",
];

/// How a native program's parallel constructs run: on one thread, or on two with every threshold 0 so that small
/// arrays of sizes known only at run time go through the thread pool too (the printed results must not change).
#[derive(Clone, Copy, Debug)]
enum Threads {
    One,
    TwoAlwaysParallel,
}

impl Threads {
    fn environment(self) -> [(&'static str, &'static str); 2] {
        match self {
            Threads::One => [("APLC_THREADS", "1"), ("APLC_PARAM_threshold", "0")],
            Threads::TwoAlwaysParallel => [("APLC_THREADS", "2"), ("APLC_PARAM_threshold", "0")],
        }
    }
}

/// Runs `aplc run --backend B file` as a child process (native code writes to the process's own output and exits on
/// an APL error) and reads the outcome back from its output, standard error and exit status.
fn run_in_child_process(path: &Path, backend: Backend, threads: Threads) -> RunReport {
    // The OpenCL backend runs twice: every construct a kernel can express on the device, however small its work;
    // and (with the two-thread setting) each construct with at least 64 element operations on the device and the
    // others on the host's threads, which mixes host and device code on the same arrays.
    let opencl_arguments: &[&str] = match (backend, threads) {
        (Backend::OpenCl, Threads::One) => &["--opencl-min-work", "0"],
        (Backend::OpenCl, Threads::TwoAlwaysParallel) => &["--opencl-min-work", "64"],
        _ => &[],
    };
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_aplc"))
        .args(["run", "--backend", backend.name()])
        .args(opencl_arguments)
        .arg(path)
        .envs(threads.environment())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the aplc binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let error = (!output.status.success()).then(|| {
        let apl_name = APL_ERROR_NAMES
            .iter()
            .filter_map(|name| stderr.find(name).map(|position| (position, *name)))
            .min()
            .map_or_else(
                || format!("exit status {:?}", output.status.code()),
                |(_, name)| name.to_string(),
            );
        ReportedError {
            apl_name,
            rendered: stderr.clone(),
        }
    });
    RunReport {
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        error,
    }
}

fn run_on_backend(path: &Path, file: &SourceFile, backend: Backend, threads: Threads) -> RunReport {
    if backend.runs_in_process() {
        run_source_capturing(file, backend)
    } else {
        run_in_child_process(path, backend, threads)
    }
}

/// The thread settings a backend runs each file with: both for native code (for OpenCL they also choose the offload
/// threshold, see `run_in_child_process`), one run for the interpreters.
fn thread_settings(backend: Backend) -> &'static [Threads] {
    if backend.runs_in_process() {
        &[Threads::One]
    } else {
        &[Threads::One, Threads::TwoAlwaysParallel]
    }
}

/// Compares one run with the expectations; `None` when they agree, else a description of the difference.
fn compare(expectations: &Expectations, report: &RunReport) -> Option<String> {
    let actual_lines: Vec<&str> = report.stdout.lines().collect();
    let expected_lines: Vec<&str> = expectations.output_lines.iter().map(String::as_str).collect();
    let mut problems = Vec::new();
    if actual_lines != expected_lines {
        problems.push(format!(
            "output differs\n--- expected\n{}\n--- actual\n{}",
            expected_lines.join("\n"),
            actual_lines.join("\n")
        ));
    }
    match (&expectations.error_name, &report.error) {
        (None, None) => {}
        // miette names the position of the label as `[file:LINE:COLUMN]`.
        (Some(name), Some(error)) if error.apl_name == *name => match &expectations.error_position {
            Some(position) if !error.rendered.contains(&format!(":{position}]")) => {
                problems.push(format!("expected {name} at {position}:\n{}", error.rendered))
            }
            _ => {}
        },
        (Some(name), Some(error)) => {
            problems.push(format!("expected {name}, got {}:\n{}", error.apl_name, error.rendered))
        }
        (Some(name), None) => problems.push(format!("expected {name}, but the program succeeded")),
        (None, Some(error)) => problems.push(format!("unexpected {}:\n{}", error.apl_name, error.rendered)),
    }
    (!problems.is_empty()).then(|| problems.join("\n"))
}

#[test]
fn every_corpus_file_gives_its_expected_output_on_every_backend() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("apl-tests");
    let files = corpus_apl_files(&root);
    assert!(files.len() >= 10, "the corpus has only {} files", files.len());
    let gaps = known_gaps(&root);
    // Without an OpenCL device the opencl backend cannot run: said, never passed silently.
    let opencl_device = aplc_runtime::opencl::opencl_device_available();
    if let Err(reason) = &opencl_device {
        eprintln!("corpus: the opencl backend is skipped on every file: {reason}");
    }
    let mut failures = Vec::new();
    let mut runs = 0;
    let mut known_gap_count = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).expect("corpus file is UTF-8");
        let name = path.strip_prefix(&root).unwrap().display().to_string();
        let expectations = match parse_expectations(&text) {
            Ok(expectations) => expectations,
            Err(problem) => {
                failures.push(format!("{name}: bad header: {problem}"));
                continue;
            }
        };
        if expectations.output_lines.is_empty() && expectations.error_name.is_none() {
            failures.push(format!("{name}: states no expectation (no `⍝>` or `⍝!` line)"));
            continue;
        }
        for (backend, threads) in Backend::ALL
            .iter()
            .flat_map(|backend| thread_settings(*backend).iter().map(move |threads| (backend, *threads)))
        {
            if expectations
                .skipped_backends
                .iter()
                .any(|skipped| skipped == backend.name())
                || (*backend == Backend::OpenCl && opencl_device.is_err())
            {
                continue;
            }
            runs += 1;
            let file = SourceFile::new(name.clone(), text.clone());
            let known_gap = gaps
                .iter()
                .any(|(gap_backend, gap_file)| gap_backend == backend.name() && *gap_file == name);
            let backend_label = format!("{} {threads:?}", backend.name());
            match catch_unwind(AssertUnwindSafe(|| run_on_backend(path, &file, *backend, threads))) {
                Ok(report) if known_gap => {
                    if !is_unsupported_construct(&report) {
                        failures.push(format!(
                            "{name} [{backend_label}]: listed in known-gaps.txt but did not stop with an \
                             unsupported-construct NONCE ERROR (remove it from the list if it passes): {:?}",
                            compare(&expectations, &report)
                        ));
                    }
                    known_gap_count += 1;
                }
                Ok(report) => {
                    if let Some(problem) = compare(&expectations, &report) {
                        failures.push(format!("{name} [{backend_label}]: {problem}"));
                    }
                }
                Err(_) => failures.push(format!("{name} [{backend_label}]: aplc panicked")),
            }
        }
    }
    eprintln!(
        "corpus: {} files, {runs} runs, {known_gap_count} known gaps, {} failures",
        files.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {runs} corpus runs failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn header_lines_are_read_in_order_with_blank_output_lines() {
    let text = "⍝ a comment\n⍝> 1 2\n⍝>\n⍝>   x\n⍝? skip jit no JIT yet\n1 2\n";
    let expectations = parse_expectations(text).unwrap();
    assert_eq!(expectations.output_lines, vec!["1 2", "", "  x"]);
    assert_eq!(expectations.skipped_backends, vec!["jit"]);
    assert_eq!(expectations.error_name, None);
}

#[test]
fn malformed_header_lines_are_rejected() {
    assert!(parse_expectations("⍝>x\n").is_err());
    assert!(parse_expectations("⍝! LENGTH ERROR\n⍝! RANK ERROR\n").is_err());
    let located = parse_expectations("⍝! INDEX ERROR at 3:12\n").unwrap();
    assert_eq!(located.error_name.as_deref(), Some("INDEX ERROR"));
    assert_eq!(located.error_position.as_deref(), Some("3:12"));
    assert!(parse_expectations("⍝! INDEX ERROR at 3\n").is_err());
    assert!(parse_expectations("⍝! INDEX ERROR at 0:1\n").is_err());
    assert!(parse_expectations("⍝? skip\n").is_err());
}
