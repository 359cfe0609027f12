//! Tuning files (parsing, choice of file, precedence of the settings) and the comparison log.
//!
//! The pure pieces are tested in this process. What depends on the process's environment (the `OnceLock`s that read
//! `APLC_TUNING`, `APLC_TUNING_LOG` and the executable's path once) is tested in child processes: the test binary
//! runs itself with a scenario in `APLC_TUNING_TEST_SCENARIO` and only [`child_process_entry`], so that no test
//! changes the environment of the others.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use aplc_runtime::tuning::{
    load_tuning_file, parse_tuning_file, resolve_parameter, tuning_file_beside_executable, ComparisonLog, TuningValues,
};

/// A folder of its own for one test, emptied first.
fn scratch_folder(label: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("aplc_tuning_test_{}_{label}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

fn values(pairs: &[(&str, i64)]) -> TuningValues {
    pairs.iter().map(|&(name, value)| (name.to_string(), value)).collect()
}

// ---------------------------------------------------------------------------------------------------------------
// Parsing

#[test]
fn a_good_file_with_comments_blanks_spaces_and_signs_parses() {
    let text = "# tuned by aplc tune\n\
                \n\
                threshold_i4=1000\n\
                \x20\x20threshold_i7 =  -3 \n\
                \t\n\
                \x20\x20# threshold_i9=5\n\
                threshold = +250\n\
                offload_i2=-9223372036854775808\n\
                threshold_i8=9223372036854775807";
    let parsed = parse_tuning_file("prog.tuning", text).unwrap();
    assert_eq!(
        parsed,
        values(&[
            ("threshold_i4", 1000),
            ("threshold_i7", -3),
            ("threshold", 250),
            ("offload_i2", i64::MIN),
            ("threshold_i8", i64::MAX),
        ])
    );
}

#[test]
fn an_empty_file_and_windows_line_ends_parse() {
    assert_eq!(parse_tuning_file("prog.tuning", "").unwrap(), TuningValues::new());
    assert_eq!(
        parse_tuning_file("prog.tuning", "# only a comment\r\nthreshold_i1=5\r\n").unwrap(),
        values(&[("threshold_i1", 5)])
    );
}

#[test]
fn each_malformed_line_is_reported_with_the_file_the_line_and_the_text() {
    let cases = [
        (
            "threshold_i4=1\n# fine\nthreshold_i5=abc\n",
            "prog.tuning:3: expected name=integer, found \"threshold_i5=abc\"",
        ),
        (
            "threshold_i4 1000",
            "prog.tuning:1: expected name=integer, found \"threshold_i4 1000\"",
        ),
        ("\n =5", "prog.tuning:2: expected name=integer, found \"=5\""),
        (
            "threshold_i4=",
            "prog.tuning:1: expected name=integer, found \"threshold_i4=\"",
        ),
        (
            "threshold i4=3",
            "prog.tuning:1: expected name=integer, found \"threshold i4=3\"",
        ),
        (
            "threshold_i4=1=2",
            "prog.tuning:1: expected name=integer, found \"threshold_i4=1=2\"",
        ),
        (
            "threshold_i4=1.5",
            "prog.tuning:1: expected name=integer, found \"threshold_i4=1.5\"",
        ),
        (
            "threshold_i4=9223372036854775808",
            "prog.tuning:1: expected name=integer, found \"threshold_i4=9223372036854775808\"",
        ),
        (
            "threshold_i4=1\n\nthreshold_i4 = 2",
            "prog.tuning:3: threshold_i4 is already set on line 1",
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(
            parse_tuning_file("prog.tuning", text),
            Err(expected.to_string()),
            "text {text:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Precedence

/// An environment made of the given variables only.
fn environment(variables: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let variables: HashMap<String, String> = variables
        .iter()
        .map(|&(name, value)| (name.to_string(), value.to_string()))
        .collect();
    move |name| variables.get(name).cloned()
}

#[test]
fn the_environment_name_beats_the_environment_class_the_file_and_the_default() {
    let file = values(&[("threshold_i4", 3), ("threshold", 4)]);
    let env = environment(&[("APLC_PARAM_threshold_i4", "1"), ("APLC_PARAM_threshold", "2")]);
    assert_eq!(resolve_parameter("threshold_i4", 5, env, Some(&file)), Ok(1));
}

#[test]
fn the_environment_class_beats_the_file_and_the_default() {
    let file = values(&[("threshold_i4", 3), ("threshold", 4)]);
    let env = environment(&[("APLC_PARAM_threshold", " 2 "), ("APLC_PARAM_threshold_i9", "7")]);
    assert_eq!(resolve_parameter("threshold_i4", 5, env, Some(&file)), Ok(2));
}

#[test]
fn the_file_name_beats_the_file_class_and_the_default() {
    let file = values(&[("threshold_i4", 3), ("threshold", 4)]);
    let env = environment(&[("APLC_PARAM_offload", "9"), ("APLC_PARAM_threshold_i5", "8")]);
    assert_eq!(resolve_parameter("threshold_i4", 5, env, Some(&file)), Ok(3));
}

#[test]
fn the_file_class_beats_the_default() {
    let file = values(&[("threshold_i5", 3), ("threshold", 4)]);
    assert_eq!(
        resolve_parameter("threshold_i4", 5, environment(&[]), Some(&file)),
        Ok(4)
    );
}

#[test]
fn the_default_applies_when_nothing_sets_the_parameter() {
    let file = values(&[("threshold_i5", 3), ("offload", 4)]);
    assert_eq!(
        resolve_parameter("threshold_i4", 5, environment(&[]), Some(&file)),
        Ok(5)
    );
    assert_eq!(resolve_parameter("threshold_i4", -6, environment(&[]), None), Ok(-6));
}

#[test]
fn a_malformed_environment_value_is_an_error_naming_the_variable() {
    let env = environment(&[("APLC_PARAM_threshold", "many")]);
    assert_eq!(
        resolve_parameter("threshold_i4", 5, env, None),
        Err("APLC_PARAM_threshold must be an integer, not `many`".to_string())
    );
}

// ---------------------------------------------------------------------------------------------------------------
// Which file

#[test]
fn the_file_beside_an_executable_replaces_its_extension() {
    assert_eq!(
        tuning_file_beside_executable(Path::new("/x/prog")),
        Path::new("/x/prog.tuning")
    );
    assert_eq!(
        tuning_file_beside_executable(Path::new("/x/prog.exe")),
        Path::new("/x/prog.tuning")
    );
}

#[test]
fn an_explicit_file_is_read_and_wins_over_the_one_beside_the_executable() {
    let folder = scratch_folder("explicit");
    std::fs::write(folder.join("prog.tuning"), "threshold=1\n").unwrap();
    std::fs::write(folder.join("chosen.tuning"), "threshold=2\n").unwrap();
    let loaded = load_tuning_file(
        Some(folder.join("chosen.tuning").as_os_str()),
        Some(&folder.join("prog")),
    );
    assert_eq!(loaded, Ok(Some(values(&[("threshold", 2)]))));
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn an_explicit_file_that_cannot_be_read_is_an_error() {
    let folder = scratch_folder("explicit_missing");
    let missing = folder.join("missing.tuning");
    let message = load_tuning_file(Some(missing.as_os_str()), None).unwrap_err();
    let expected_start = format!("APLC_TUNING names {}, which cannot be read: ", missing.display());
    assert!(message.starts_with(&expected_start), "{message}");
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn the_file_beside_the_executable_is_read_when_it_exists_and_skipped_otherwise() {
    let folder = scratch_folder("beside");
    assert_eq!(load_tuning_file(None, Some(&folder.join("prog"))), Ok(None));
    std::fs::write(folder.join("prog.tuning"), "threshold_i1 = 7\n").unwrap();
    assert_eq!(
        load_tuning_file(None, Some(&folder.join("prog"))),
        Ok(Some(values(&[("threshold_i1", 7)])))
    );
    // An empty APLC_TUNING counts as unset.
    assert_eq!(
        load_tuning_file(Some(OsStr::new("")), Some(&folder.join("prog"))),
        Ok(Some(values(&[("threshold_i1", 7)])))
    );
    assert_eq!(load_tuning_file(None, None), Ok(None));
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn a_malformed_file_beside_the_executable_is_reported_with_its_path() {
    let folder = scratch_folder("beside_malformed");
    let path = folder.join("prog.tuning");
    std::fs::write(&path, "threshold_i1 = 7\nthreshold_i2\n").unwrap();
    assert_eq!(
        load_tuning_file(None, Some(&folder.join("prog"))),
        Err(format!(
            "{}:2: expected name=integer, found \"threshold_i2\"",
            path.display()
        ))
    );
    let _ = std::fs::remove_dir_all(&folder);
}

// ---------------------------------------------------------------------------------------------------------------
// The comparison log, in this process

#[test]
fn the_log_writes_each_pair_once_and_appends_to_what_is_there() {
    let folder = scratch_folder("log");
    let path = folder.join("comparisons.log");
    std::fs::write(&path, "threshold_i1 5\n").unwrap();
    let log = ComparisonLog::open(&path).unwrap();
    for (name, compared) in [
        ("threshold_i1", 5),
        ("threshold_i1", 6),
        ("threshold_i1", 5),
        ("threshold_i2", 5),
    ] {
        log.note(name, compared).unwrap();
    }
    // A second writer (another process, in the tuner) appends after the first's lines.
    let other = ComparisonLog::open(&path).unwrap();
    other.note("threshold_i1", 6).unwrap();
    log.note("threshold_i2", -1).unwrap();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "threshold_i1 5\nthreshold_i1 5\nthreshold_i1 6\nthreshold_i2 5\nthreshold_i1 6\nthreshold_i2 -1\n"
    );
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn a_log_that_cannot_be_opened_is_an_error_naming_it() {
    let folder = scratch_folder("log_unopenable");
    let path = folder.join("no_such_folder").join("comparisons.log");
    let message = ComparisonLog::open(&path).err().unwrap();
    let expected_start = format!("APLC_TUNING_LOG names {}, which cannot be opened: ", path.display());
    assert!(message.starts_with(&expected_start), "{message}");
    let _ = std::fs::remove_dir_all(&folder);
}

// ---------------------------------------------------------------------------------------------------------------
// Child processes: the process-wide entry points, which read the environment once

const SCENARIO_VARIABLE: &str = "APLC_TUNING_TEST_SCENARIO";

/// Runs `executable` (this test binary or a copy) on [`child_process_entry`] only, in `folder`, in a clean
/// environment plus `variables`.
fn run_child(executable: &Path, folder: &Path, scenario: &str, variables: &[(&str, &OsStr)]) -> Output {
    let mut command = Command::new(executable);
    command.current_dir(folder);
    command.args(["--exact", "child_process_entry", "--nocapture", "--test-threads=1"]);
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy().into_owned();
        if name.starts_with("APLC_") {
            command.env_remove(&name);
        }
    }
    command.env(SCENARIO_VARIABLE, scenario);
    for (name, value) in variables {
        command.env(name, value);
    }
    // A copy of the test binary was written by this process: a child that another test forked meanwhile holds it
    // open for writing until that child execs, and Linux refuses to run it (ETXTBSY) for that moment.
    let mut busy_attempts = 0;
    loop {
        match command.output() {
            Err(error) if error.kind() == std::io::ErrorKind::ExecutableFileBusy && busy_attempts < 100 => {
                busy_attempts += 1;
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            outcome => return outcome.expect("the test binary runs"),
        }
    }
}

fn this_test_binary() -> PathBuf {
    std::env::current_exe().unwrap()
}

/// What a child reported on its standard output: the lines `value NAME=VALUE` (the first may follow the test
/// harness's `test child_process_entry ... ` on the same line).
fn reported_values(output: &Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.split_once("value "))
        .map(|(_, value)| value.to_string())
        .collect()
}

/// The child side: does what the scenario says through the process-wide entry points (the C ones where generated
/// code calls them), and prints what it read. Does nothing in an ordinary test run.
#[test]
fn child_process_entry() {
    let Ok(scenario) = std::env::var(SCENARIO_VARIABLE) else {
        return;
    };
    match scenario.as_str() {
        "parameters" => {
            for name in ["threshold_i1", "threshold_i2", "threshold_i3", "offload_i1"] {
                let bytes = name.as_bytes();
                // SAFETY: the pointer and length describe `name`.
                let value = unsafe { aplc_runtime::parallel::aplrt_parameter(bytes.as_ptr(), bytes.len() as i64, -1) };
                println!("value {name}={value}");
            }
        }
        "comparisons" => {
            let threads: Vec<_> = (0..4)
                .map(|_| {
                    std::thread::spawn(|| {
                        for compared in [10_i64, 20, 10, 30, 20] {
                            let name = b"threshold_i3";
                            // SAFETY: the pointer and length describe `name`.
                            unsafe {
                                aplc_runtime::tuning::aplrt_note_comparison(name.as_ptr(), name.len() as i64, compared)
                            };
                        }
                    })
                })
                .collect();
            for thread in threads {
                thread.join().unwrap();
            }
            aplc_runtime::tuning::note_comparison("threshold_i4", -5);
            aplc_runtime::tuning::note_comparison("threshold_i4", -5);
            println!("value done=1");
        }
        other => panic!("unknown scenario {other}"),
    }
}

#[test]
fn a_program_reads_the_environment_then_the_file_named_by_aplc_tuning() {
    let folder = scratch_folder("child_parameters");
    let file = folder.join("chosen.tuning");
    std::fs::write(&file, "threshold_i2 = 22\nthreshold=20\nthreshold_i3=33\n").unwrap();
    let output = run_child(
        &this_test_binary(),
        &folder,
        "parameters",
        &[
            ("APLC_TUNING", file.as_os_str()),
            ("APLC_PARAM_threshold_i3", OsStr::new("3")),
        ],
    );
    assert!(output.status.success(), "{output:?}");
    assert_eq!(
        reported_values(&output),
        ["threshold_i1=20", "threshold_i2=22", "threshold_i3=3", "offload_i1=-1"]
    );
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn a_program_reads_the_tuning_file_beside_its_executable() {
    let folder = scratch_folder("child_beside");
    let program = folder.join("prog");
    std::fs::copy(this_test_binary(), &program).unwrap();
    std::fs::write(folder.join("prog.tuning"), "# tuned\nthreshold_i1=11\noffload=7\n").unwrap();
    let output = run_child(&program, &folder, "parameters", &[]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(
        reported_values(&output),
        ["threshold_i1=11", "threshold_i2=-1", "threshold_i3=-1", "offload_i1=7"]
    );
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn a_missing_file_named_by_aplc_tuning_stops_the_program_with_a_usage_error() {
    let folder = scratch_folder("child_missing");
    let missing = folder.join("missing.tuning");
    let output = run_child(
        &this_test_binary(),
        &folder,
        "parameters",
        &[("APLC_TUNING", missing.as_os_str())],
    );
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let expected = format!("aplc: APLC_TUNING names {}, which cannot be read: ", missing.display());
    assert!(stderr.contains(&expected), "{stderr}");
    assert!(reported_values(&output).is_empty());
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn a_malformed_tuning_file_stops_the_program_naming_the_line() {
    let folder = scratch_folder("child_malformed");
    let file = folder.join("prog.tuning");
    std::fs::write(&file, "threshold_i1=1\n\nthreshold_i4=abc\n").unwrap();
    let output = run_child(
        &this_test_binary(),
        &folder,
        "parameters",
        &[("APLC_TUNING", file.as_os_str())],
    );
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let expected = format!(
        "aplc: {}:3: expected name=integer, found \"threshold_i4=abc\"",
        file.display()
    );
    assert!(stderr.contains(&expected), "{stderr}");
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn the_log_gets_each_pair_once_from_all_threads() {
    let folder = scratch_folder("child_log");
    let log = folder.join("comparisons.log");
    let output = run_child(
        &this_test_binary(),
        &folder,
        "comparisons",
        &[("APLC_TUNING_LOG", log.as_os_str())],
    );
    assert!(output.status.success(), "{output:?}");
    assert_eq!(reported_values(&output), ["done=1"]);
    let text = std::fs::read_to_string(&log).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    lines.sort_unstable();
    assert_eq!(
        lines,
        [
            "threshold_i3 10",
            "threshold_i3 20",
            "threshold_i3 30",
            "threshold_i4 -5"
        ]
    );
    assert!(text.ends_with('\n'));
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn without_a_log_variable_noting_a_comparison_does_nothing() {
    let folder = scratch_folder("child_no_log");
    let output = run_child(&this_test_binary(), &folder, "comparisons", &[]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(reported_values(&output), ["done=1"]);
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 0);
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn a_log_that_cannot_be_opened_stops_the_program_with_a_usage_error() {
    let folder = scratch_folder("child_log_unopenable");
    let log = folder.join("no_such_folder").join("comparisons.log");
    let output = run_child(
        &this_test_binary(),
        &folder,
        "comparisons",
        &[("APLC_TUNING_LOG", log.as_os_str())],
    );
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let expected = format!(
        "aplc: APLC_TUNING_LOG names {}, which cannot be opened: ",
        log.display()
    );
    assert!(stderr.contains(&expected), "{stderr}");
    let _ = std::fs::remove_dir_all(&folder);
}
