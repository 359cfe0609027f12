//! `aplc tune` and tuning files as a user meets them: the command writes a tuning file whose lines parse, a JSON
//! report and a summary; a program prints exactly the same with any tuning file (every threshold 0, every threshold
//! never reached, each threshold named on its own line), whether it is a built executable reading `prog.tuning`
//! beside it, `aplc run` reading the one beside the script, or `APLC_TUNING` naming one; a malformed tuning file is
//! a clear usage error. No wall-clock time is asserted: only what the files and outputs say.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const EXIT_USAGE_ERROR: i32 = 2;

/// A fresh folder for one test's files.
fn test_directory(test_name: &str) -> PathBuf {
    let directory = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("tune_command")
        .join(test_name);
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    directory
}

/// A command with no tuning or parameter setting inherited from the environment of the test run.
fn clean_command(program: impl AsRef<std::ffi::OsStr>, directory: &Path) -> Command {
    let mut command = Command::new(program);
    command.current_dir(directory);
    for (variable, _) in std::env::vars_os() {
        let name = variable.to_string_lossy();
        if name.starts_with("APLC_PARAM_") || name.starts_with("APLC_TUNING") {
            command.env_remove(&variable);
        }
    }
    command
}

fn aplc(directory: &Path, arguments: &[&str]) -> Output {
    clean_command(env!("CARGO_BIN_EXE_aplc"), directory)
        .args(arguments)
        .output()
        .expect("aplc runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn assert_success(output: &Output, what: &str) {
    assert!(
        output.status.success(),
        "{what} failed ({:?}):\n{}{}",
        output.status,
        text(&output.stdout),
        text(&output.stderr)
    );
}

/// Row sums of an R×C matrix, R and C from the arguments. For R=2, C=3: m is 1 2 3 / 4 5 6, the row sums 6 15, and
/// their sum 21.
const ROW_SUMS: &str = "R←300 ⎕ArgInt 1\nC←200 ⎕ArgInt 2\nm←(R,C)⍴⍳R×C\ns←+/m\n⎕←+/s\n⎕←s[1],s[R]\n";

/// Programs with nested parallel work, and the arguments to run them with: row sums, a matrix product, a sum of
/// sums, column sums, an outer product reduced per element, and double row and column sums.
const NESTED_PROGRAMS: &[(&str, &str, &[&str])] = &[
    ("row_sums", ROW_SUMS, &["300", "200"]),
    (
        "matrix_product",
        "M←60 ⎕ArgInt 1\nK←50 ⎕ArgInt 2\nN←70 ⎕ArgInt 3\nA←(M,K)⍴0.5×⍳M×K\nB←(K,N)⍴⌽⍳K×N\nP←A+.×B\n⎕←+/,P\n⎕←P[M;N]\n",
        &["60", "50", "70"],
    ),
    ("sum_of_sums", "R←400 ⎕ArgInt 1\nm←(R,R)⍴⍳R×R\n⎕←+/+/m\n", &["400"]),
    ("column_sums", "R←500 ⎕ArgInt 1\nm←(R,7)⍴⍳R×7\n⎕←+⌿m\n", &["500"]),
    ("outer_reduce", "N←90 ⎕ArgInt 1\nA←⍳N\n⎕←+/,A∘.{+/⍳⍺+⍵}A\n", &["90"]),
    // Double sums of rows longer than a reduction chunk (4096), printed to 17 digits: both versions of the loop over
    // the rows, and the kernels, fold each row in the same chunked order.
    (
        "double_row_sums",
        "⎕PP←17\nR←3 ⎕ArgInt 1\nC←9000 ⎕ArgInt 2\nm←(R,C)⍴0.1×⍳R×C\n⎕←+/m\n",
        &["3", "9000"],
    ),
    (
        "double_column_sums",
        "⎕PP←17\nR←9000 ⎕ArgInt 1\nm←(R,3)⍴0.1×⍳R×3\n⎕←+⌿m\n",
        &["9000"],
    ),
];

/// The names of the program's parameters, from `aplc dump --stage params` (`name = default  # what` lines, indented
/// under the node they depend on), each once.
fn parameter_names(directory: &Path, program: &str) -> Vec<String> {
    let output = aplc(directory, &["dump", "--stage", "params", program]);
    assert_success(&output, "aplc dump --stage params");
    let mut names: Vec<String> = text(&output.stdout)
        .lines()
        .filter(|line| !line.trim_start().starts_with('#'))
        .filter_map(|line| line.split_once(" = ").map(|(name, _)| name.trim().to_string()))
        .collect();
    // A parameter may appear under several backends' trees.
    names.sort();
    names.dedup();
    names
}

/// Tuning files with extreme settings: every class at 0 and at never, and each parameter by name at 0 and at never.
fn extreme_tuning_files(names: &[String]) -> Vec<String> {
    let never = i64::MAX;
    let by_name = |value: i64| names.iter().map(|name| format!("{name}={value}\n")).collect::<String>();
    vec![
        "threshold=0\nouter=0\noffload=0\n".to_string(),
        format!("threshold={never}\nouter={never}\noffload={never}\n"),
        format!("# every parameter by name\n{}", by_name(0)),
        by_name(never),
        // Thresholds 0 and the outer ones never: the inner constructs parallel in every row.
        format!("threshold=0\nouter={never}\n"),
        // The outer ones 0 and the rest never.
        format!("outer=0\nthreshold={never}\n"),
    ]
}

#[test]
fn aplc_tune_writes_a_tuning_file_whose_lines_parse_and_a_report() {
    let directory = test_directory("writes_tuning_file");
    std::fs::write(directory.join("prog.apl"), ROW_SUMS).unwrap();
    std::fs::write(directory.join("short.txt"), "# many short rows\n2000 16\n").unwrap();
    std::fs::write(directory.join("long.txt"), "4   # rows\n20000 # columns\n").unwrap();
    let output = aplc(
        &directory,
        &[
            "tune",
            "prog.apl",
            "--dataset",
            "short.txt",
            "--dataset",
            "long.txt",
            "--runs",
            "1",
            "--report",
            "report.json",
        ],
    );
    assert_success(&output, "aplc tune");
    let tuning = std::fs::read_to_string(directory.join("prog.tuning")).expect("prog.tuning is written");
    let values = aplc_runtime::tuning::parse_tuning_file("prog.tuning", &tuning).expect("the tuning file parses");
    let names = parameter_names(&directory, "prog.apl");
    assert!(
        values.keys().all(|name| names.contains(name)),
        "{values:?} not in {names:?}"
    );
    assert!(tuning.starts_with("# aplc tune prog.apl --backend jit"), "{tuning}");
    assert!(
        tuning.contains("# dataset 1: short.txt (2000 16): default "),
        "{tuning}"
    );
    assert!(tuning.contains("# dataset 2: long.txt (4 20000): default "), "{tuning}");
    let summary = text(&output.stdout);
    assert!(summary.contains("tuned/default"), "{summary}");
    assert!(summary.contains("wrote prog.tuning"), "{summary}");
    let progress = text(&output.stderr);
    assert!(progress.contains("tune: run 1 (dataset 1/2) bottom: "), "{progress}");
    let report = std::fs::read_to_string(directory.join("report.json")).expect("the report is written");
    for key in [
        "\"measurements\": ",
        "\"default_seconds\": ",
        "\"tuned_seconds\": ",
        "\"settings\": ",
    ] {
        assert!(report.contains(key), "{key} missing from {report}");
    }
    // The tuned program prints what the default one prints: `aplc run` reads prog.tuning beside the script.
    let tuned = aplc(&directory, &["run", "prog.apl", "--", "2", "3"]);
    assert_success(&tuned, "aplc run with prog.tuning");
    assert_eq!(text(&tuned.stdout), "21\n6 15\n");
}

#[test]
fn aplc_tune_without_datasets_runs_the_program_without_arguments_and_honours_output() {
    let directory = test_directory("no_datasets");
    std::fs::write(directory.join("prog.apl"), "m←(300,200)⍴⍳60000\n⎕←+/+/m\n").unwrap();
    let output = aplc(
        &directory,
        &["tune", "prog.apl", "--runs", "1", "-o", "elsewhere.tuning"],
    );
    assert_success(&output, "aplc tune");
    assert!(!directory.join("prog.tuning").exists());
    let tuning = std::fs::read_to_string(directory.join("elsewhere.tuning")).unwrap();
    assert!(tuning.contains("# dataset 1: (no arguments): default "), "{tuning}");
    aplc_runtime::tuning::parse_tuning_file("elsewhere.tuning", &tuning).expect("the tuning file parses");
}

#[test]
fn aplc_tune_reports_a_program_that_fails_on_its_defaults() {
    let directory = test_directory("failing_program");
    // An INDEX ERROR once R exceeds 3.
    std::fs::write(directory.join("prog.apl"), "R←5 ⎕ArgInt 1\nv←⍳3\n⎕←v[R]\n").unwrap();
    let output = aplc(&directory, &["tune", "prog.apl", "--runs", "1"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("fails on the dataset (no arguments) with its default settings"),
        "{stderr}"
    );
    assert!(stderr.contains("INDEX ERROR"), "{stderr}");
    assert!(!directory.join("prog.tuning").exists());
}

#[test]
fn aplc_tune_refuses_a_missing_dataset_file_as_a_usage_error() {
    let directory = test_directory("missing_dataset");
    std::fs::write(directory.join("prog.apl"), ROW_SUMS).unwrap();
    let output = aplc(&directory, &["tune", "prog.apl", "--dataset", "absent.txt"]);
    assert_eq!(output.status.code(), Some(EXIT_USAGE_ERROR));
    assert!(text(&output.stderr).contains("cannot read the dataset absent.txt"));
}

#[test]
fn executables_print_the_same_with_any_tuning_file() {
    let directory = test_directory("executables_same_output");
    for (name, source, arguments) in NESTED_PROGRAMS {
        let program = format!("{name}.apl");
        std::fs::write(directory.join(&program), source).unwrap();
        assert_success(&aplc(&directory, &["build", &program, "-o", name]), "aplc build");
        let executable = directory.join(name);
        let run = || {
            clean_command(&executable, &directory)
                .args(*arguments)
                .output()
                .unwrap()
        };
        let expected = run();
        assert_success(&expected, name);
        for tuning in extreme_tuning_files(&parameter_names(&directory, &program)) {
            // Beside the executable, as a user installs it.
            std::fs::write(directory.join(format!("{name}.tuning")), &tuning).unwrap();
            let tuned = run();
            assert_success(&tuned, name);
            assert_eq!(text(&tuned.stdout), text(&expected.stdout), "{name} with\n{tuning}");
        }
        std::fs::remove_file(directory.join(format!("{name}.tuning"))).unwrap();
    }
}

#[test]
fn aplc_run_prints_the_same_with_any_tuning_file_beside_the_script_or_named() {
    let directory = test_directory("run_same_output");
    for (name, source, arguments) in NESTED_PROGRAMS {
        let program = format!("{name}.apl");
        std::fs::write(directory.join(&program), source).unwrap();
        let run_arguments: Vec<&str> = ["run", program.as_str(), "--"]
            .into_iter()
            .chain(arguments.iter().copied())
            .collect();
        let expected = aplc(&directory, &run_arguments);
        assert_success(&expected, name);
        for tuning in extreme_tuning_files(&parameter_names(&directory, &program)) {
            std::fs::write(directory.join(format!("{name}.tuning")), &tuning).unwrap();
            let beside = aplc(&directory, &run_arguments);
            assert_success(&beside, name);
            assert_eq!(text(&beside.stdout), text(&expected.stdout), "{name} with\n{tuning}");
        }
        // APLC_TUNING names a file elsewhere (and wins over the one beside the script).
        std::fs::write(directory.join("named.tuning"), "threshold=0\nouter=0\n").unwrap();
        std::fs::write(directory.join(format!("{name}.tuning")), "not a tuning file\n").unwrap();
        let named = clean_command(env!("CARGO_BIN_EXE_aplc"), &directory)
            .args(&run_arguments)
            .env("APLC_TUNING", "named.tuning")
            .output()
            .unwrap();
        assert_success(&named, name);
        assert_eq!(text(&named.stdout), text(&expected.stdout), "{name} with APLC_TUNING");
        std::fs::remove_file(directory.join(format!("{name}.tuning"))).unwrap();
    }
}

#[test]
fn a_malformed_tuning_file_is_a_clear_usage_error() {
    let directory = test_directory("malformed");
    std::fs::write(directory.join("prog.apl"), ROW_SUMS).unwrap();
    assert_success(&aplc(&directory, &["build", "prog.apl", "-o", "prog"]), "aplc build");
    std::fs::write(directory.join("prog.tuning"), "# fine\nthreshold = 12x\n").unwrap();
    let executable = clean_command(directory.join("prog"), &directory).output().unwrap();
    assert_eq!(executable.status.code(), Some(EXIT_USAGE_ERROR));
    let message = text(&executable.stderr);
    assert!(message.contains("prog.tuning:2: expected name=integer"), "{message}");
    let run = aplc(&directory, &["run", "prog.apl"]);
    assert_eq!(run.status.code(), Some(EXIT_USAGE_ERROR));
    let message = text(&run.stderr);
    assert!(message.contains("prog.tuning:2: expected name=integer"), "{message}");
    assert!(text(&run.stdout).is_empty());
}

#[test]
fn aplc_tune_help_describes_dataset_files() {
    let output = aplc(Path::new("."), &["tune", "--help"]);
    assert_success(&output, "aplc tune --help");
    let help = text(&output.stdout);
    assert!(help.contains("--dataset <FILE>"), "{help}");
    assert!(help.contains("starting a comment"), "{help}");
    let run_help = text(&aplc(Path::new("."), &["run", "--help"]).stdout);
    assert!(run_help.contains("prog.tuning"), "{run_help}");
}

#[test]
fn aplc_tune_ignores_parameter_settings_and_tuning_files_of_its_environment() {
    // Either would make every run of the program fail (an integer is expected, the file must exist) if it reached it.
    let directory = test_directory("clean_environment");
    std::fs::write(directory.join("prog.apl"), ROW_SUMS).unwrap();
    std::fs::write(directory.join("prog.txt"), "300 200\n").unwrap();
    let output = clean_command(env!("CARGO_BIN_EXE_aplc"), &directory)
        .args(["tune", "prog.apl", "--dataset", "prog.txt", "--runs", "1"])
        .env("APLC_PARAM_threshold", "not a number")
        .env("APLC_TUNING", directory.join("absent.tuning"))
        .env("APLC_TUNING_LOG", directory.join("no-such-folder").join("log"))
        .output()
        .unwrap();
    assert_success(&output, "aplc tune with a hostile environment");
}

/// A stand-in for a built program: a shell script in the test's folder.
fn script(directory: &Path, name: &str, text: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = directory.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{text}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn runner_for(executable: PathBuf, arguments: &[&str]) -> aplc::tune::runner::ExecutableRunner {
    let dataset = aplc::tune::datasets::Dataset {
        file: None,
        arguments: arguments.iter().map(|argument| argument.to_string()).collect(),
    };
    let folder = aplc::process::TemporaryFolder::create().unwrap();
    aplc::tune::runner::ExecutableRunner::new(folder, executable, vec![dataset], 2)
}

#[test]
fn the_runner_passes_settings_reads_the_comparison_log_and_times_the_median() {
    use aplc::tune::Runner;
    let directory = test_directory("runner_log");
    // Logs two comparisons when asked, prints its arguments, and fails if APLC_TUNING is not an empty file.
    let program = script(
        &directory,
        "program",
        "[ -f \"$APLC_TUNING\" ] && [ ! -s \"$APLC_TUNING\" ] || exit 9\n\
         [ -n \"$APLC_TUNING_LOG\" ] && printf 'threshold_a %s\\nouter_b 7\\n' \"${APLC_PARAM_threshold_a:-0}\" >> \"$APLC_TUNING_LOG\"\n\
         echo \"arguments $*\"\n",
    );
    let mut runner = runner_for(program, &["10", "20"]);
    runner.record_reference_outputs().expect("the default run succeeds");
    let settings = aplc::tune::Settings::from([("threshold_a".to_string(), 123)]);
    let measurement = runner.run(0, &settings).expect("the run succeeds");
    assert_eq!(
        measurement.compared["threshold_a"].iter().copied().collect::<Vec<_>>(),
        [123]
    );
    assert_eq!(measurement.compared["outer_b"].iter().copied().collect::<Vec<_>>(), [7]);
    assert!(measurement.time > 0.0);
    // The reference run, then one warm-up and two timed runs.
    assert_eq!(runner.executions(), 4);
    runner.finish();
}

#[test]
fn the_runner_stops_when_a_setting_changes_the_output_or_makes_the_program_fail() {
    use aplc::tune::{RunError, Runner};
    let directory = test_directory("runner_mismatch");
    let program = script(
        &directory,
        "program",
        "echo \"value ${APLC_PARAM_threshold_a:-default}\"\n",
    );
    let mut runner = runner_for(program, &[]);
    runner.record_reference_outputs().unwrap();
    let settings = aplc::tune::Settings::from([("threshold_a".to_string(), 5)]);
    match runner.run(0, &settings) {
        Err(RunError::Fatal(message)) => {
            assert!(
                message.contains("APLC_PARAM_threshold_a=5 changed what the program prints"),
                "{message}"
            );
            assert!(
                message.contains("value default") && message.contains("value 5"),
                "{message}"
            );
        }
        other => panic!("expected a fatal error, got {other:?}"),
    }
    runner.finish();
    let failing = script(
        &directory,
        "failing",
        "[ -z \"$APLC_PARAM_threshold_a\" ] || { echo oops >&2; exit 4; }\n",
    );
    let mut runner = runner_for(failing, &[]);
    runner.record_reference_outputs().unwrap();
    match runner.run(0, &settings) {
        Err(RunError::Fatal(message)) => assert!(message.contains("(exit 4)") && message.contains("oops"), "{message}"),
        other => panic!("expected a fatal error, got {other:?}"),
    }
    runner.finish();
}

#[test]
fn the_runner_stops_a_run_far_slower_than_the_default_and_counts_it_as_failed() {
    use aplc::tune::runner::TIME_LIMIT_FLOOR_SECONDS;
    use aplc::tune::{RunError, Runner};
    let directory = test_directory("runner_time_limit");
    // With the setting it would take a minute; the default run prints at once.
    let program = script(
        &directory,
        "program",
        "[ -z \"$APLC_PARAM_threshold_a\" ] || exec sleep 60\necho done\n",
    );
    let mut runner = runner_for(program, &[]);
    runner.record_reference_outputs().unwrap();
    let started = std::time::Instant::now();
    let settings = aplc::tune::Settings::from([("threshold_a".to_string(), 5)]);
    match runner.run(0, &settings) {
        Err(RunError::Failed(message)) => {
            assert!(message.contains("stopped after"), "{message}");
            assert!(message.contains("APLC_PARAM_threshold_a=5"), "{message}");
        }
        other => panic!("expected the run to be stopped, got {other:?}"),
    }
    // Stopped at the floor of the limit (the default run is far shorter than a tenth of it), not after a minute.
    assert!(started.elapsed().as_secs_f64() < 30.0, "{:?}", started.elapsed());
    assert!(started.elapsed().as_secs_f64() >= TIME_LIMIT_FLOOR_SECONDS);
    // The default settings still run.
    assert!(runner.run(0, &aplc::tune::Settings::new()).is_ok());
    runner.finish();
}

#[test]
fn aplc_tune_refuses_to_overwrite_the_program_or_to_write_where_it_cannot_before_tuning() {
    let directory = test_directory("refused_outputs");
    std::fs::write(directory.join("prog.apl"), ROW_SUMS).unwrap();
    for arguments in [
        &["tune", "prog.apl", "-o", "prog.apl"][..],
        &["tune", "prog.apl", "--report", "./prog.apl"][..],
        &["tune", "prog.apl", "-o", "no-such-folder/prog.tuning"][..],
    ] {
        let output = aplc(&directory, arguments);
        assert_eq!(output.status.code(), Some(EXIT_USAGE_ERROR), "{arguments:?}");
        assert!(
            !text(&output.stderr).contains("tune: run"),
            "{arguments:?} started tuning"
        );
    }
    assert_eq!(std::fs::read_to_string(directory.join("prog.apl")).unwrap(), ROW_SUMS);
}
