//! The real [`Runner`]: runs a program built once (by `aplc build` machinery) as a child process per measurement,
//! with a clean parameter environment, and times it with the wall clock.
//!
//! A measurement is one warm-up run, whose comparison log (`APLC_TUNING_LOG`) tells the search which values each
//! threshold was compared with, then `timed_runs` runs whose median time is the measurement's: whole-process time, as
//! `bench/run` measures, so that start-up and the pool's threads count as they do for a user. Every run's standard
//! output must be the default run's, because a threshold only chooses between versions that compute the same
//! thing: a difference is a compiler bug, and tuning stops naming the settings that changed the output.
//!
//! A run that takes more than [`TIME_LIMIT_FACTOR`] times as long as the dataset's default run (and at least
//! [`TIME_LIMIT_FLOOR_SECONDS`]) is stopped and counts as infinitely slow: the tuner could never keep a setting that
//! slow, and some versions are slower by orders of magnitude (a kernel launch per row update of a 100,000-row matrix
//! product on a device that launches slowly).

use super::datasets::Dataset;
use super::{ComparedValues, Measurement, RunError, Runner, Settings};
use crate::process::{InterruptDeferral, TemporaryFolder};
use aplc_runtime::tuning::{COMPARISON_LOG_VARIABLE, PARAMETER_VARIABLE_PREFIX, TUNING_FILE_VARIABLE};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// Environment variables that make a program print or measure more (OpenCL statistics and profiles): removed from
/// every run so that they neither slow the timed runs nor differ between them.
const REPORTING_VARIABLES: [&str; 2] = ["APLC_OPENCL_STATS", "APLC_OPENCL_PROFILE"];

/// How many times the default run's time a run may take before it is stopped.
pub const TIME_LIMIT_FACTOR: f64 = 10.0;

/// The least time limit of a run, in seconds (start-up times vary more than short runs do).
pub const TIME_LIMIT_FLOOR_SECONDS: f64 = 1.0;

/// Runs a built executable on the datasets.
pub struct ExecutableRunner {
    /// Holds the executable, the empty tuning file and the comparison logs; removed when the runner is dropped.
    folder: TemporaryFolder,
    /// While the runner lives, an interrupt (Ctrl-C, SIGTERM, SIGHUP) stops the tuning after the running child
    /// instead of ending aplc at once, so that [`ExecutableRunner::finish`] can remove the folder first.
    deferral: Option<InterruptDeferral>,
    executable: PathBuf,
    datasets: Vec<Dataset>,
    timed_runs: usize,
    /// What each dataset's default run printed, once [`ExecutableRunner::record_reference_outputs`] ran.
    reference_outputs: Vec<String>,
    /// How long each dataset's default run took, in seconds (the base of the runs' time limits).
    reference_seconds: Vec<f64>,
    logs_made: usize,
    /// Every child process started, warm-up and reference runs included.
    executions: usize,
}

/// One finished child process.
struct Execution {
    stdout: String,
    stderr: String,
    /// The exit status, `None` when a signal killed it.
    status: Option<i32>,
    seconds: f64,
    /// Whether the run was stopped at its time limit.
    stopped: bool,
}

impl ExecutableRunner {
    /// A runner for `executable`, which lies in `folder` (the runner keeps the folder, and with it the executable,
    /// alive).
    pub fn new(
        folder: TemporaryFolder,
        executable: PathBuf,
        datasets: Vec<Dataset>,
        timed_runs: usize,
    ) -> ExecutableRunner {
        ExecutableRunner {
            folder,
            deferral: Some(InterruptDeferral::install()),
            executable,
            datasets,
            timed_runs: timed_runs.max(1),
            reference_outputs: Vec::new(),
            reference_seconds: Vec::new(),
            logs_made: 0,
            executions: 0,
        }
    }

    /// Removes the temporary folder; then, if an interrupt came while the runner lived, ends aplc by that signal.
    pub fn finish(mut self) {
        let deferral = self.deferral.take();
        drop(self);
        if let Some(deferral) = deferral {
            deferral.end_if_interrupted();
        }
    }

    /// Whether aplc was interrupted while the runner lived.
    fn interrupted(&self) -> bool {
        self.deferral
            .as_ref()
            .is_some_and(|deferral| deferral.received().is_some())
    }

    /// How many times the program was started.
    pub fn executions(&self) -> usize {
        self.executions
    }

    /// Runs each dataset once with the default settings and keeps what it prints, the output every later run must
    /// print. A program that fails on its defaults is an error to report, not something to tune.
    pub fn record_reference_outputs(&mut self) -> Result<(), String> {
        std::fs::write(self.empty_tuning_file(), "")
            .map_err(|error| format!("cannot write {}: {error}", self.empty_tuning_file().display()))?;
        self.reference_outputs.clear();
        self.reference_seconds.clear();
        for dataset in 0..self.datasets.len() {
            let execution = self.execute(dataset, &Settings::new(), None)?;
            if execution.status != Some(0) {
                return Err(format!(
                    "the program fails on the dataset {} with its default settings ({}):\n{}",
                    self.datasets[dataset].describe(),
                    describe_end(execution.status),
                    execution.stderr.trim_end()
                ));
            }
            self.reference_outputs.push(execution.stdout);
            self.reference_seconds.push(execution.seconds);
        }
        Ok(())
    }

    /// The time limit of a run on `dataset` (none before its default run was timed).
    fn time_limit(&self, dataset: usize) -> Option<std::time::Duration> {
        let reference = *self.reference_seconds.get(dataset)?;
        Some(std::time::Duration::from_secs_f64(
            (reference * TIME_LIMIT_FACTOR).max(TIME_LIMIT_FLOOR_SECONDS),
        ))
    }

    /// The tuning file every run is pointed at (`APLC_TUNING`): empty, so that no `.tuning` file lying around changes
    /// what is measured.
    fn empty_tuning_file(&self) -> PathBuf {
        self.folder.path().join("empty.tuning")
    }

    /// A fresh file name for one run's comparison log.
    fn fresh_log_file(&mut self) -> PathBuf {
        self.logs_made += 1;
        self.folder.path().join(format!("comparisons-{}.log", self.logs_made))
    }

    /// Starts the program on a dataset with `settings` (and no other parameter setting from the environment) and
    /// waits for it.
    fn execute(&mut self, dataset: usize, settings: &Settings, log: Option<&Path>) -> Result<Execution, String> {
        let mut command = Command::new(&self.executable);
        command
            .args(&self.datasets[dataset].arguments)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (variable, _) in std::env::vars_os() {
            if variable.to_string_lossy().starts_with(PARAMETER_VARIABLE_PREFIX) {
                command.env_remove(variable);
            }
        }
        for variable in REPORTING_VARIABLES.iter().chain(&[COMPARISON_LOG_VARIABLE]) {
            command.env_remove(variable);
        }
        command.env(TUNING_FILE_VARIABLE, self.empty_tuning_file());
        for (name, value) in settings {
            command.env(format!("{PARAMETER_VARIABLE_PREFIX}{name}"), value.to_string());
        }
        if let Some(log) = log {
            command.env(COMPARISON_LOG_VARIABLE, log);
        }
        self.executions += 1;
        let limit = self.time_limit(dataset);
        let start = Instant::now();
        let child = crate::process::spawn_retrying_busy_executable(&mut command)
            .map_err(|error| format!("cannot run {}: {error}", self.executable.display()))?;
        let watchdog = limit.map(|limit| Watchdog::start(child.id(), limit));
        let output = child
            .wait_with_output()
            .map_err(|error| format!("cannot run {}: {error}", self.executable.display()));
        let seconds = start.elapsed().as_secs_f64();
        let stopped = watchdog.is_some_and(Watchdog::cancel);
        let output = output?;
        if self.interrupted() {
            return Err("interrupted".to_string());
        }
        Ok(Execution {
            seconds,
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
            status: output.status.code(),
            stopped,
        })
    }

    /// The failure of a run stopped at its time limit: infinitely slow for the search.
    fn stopped_at_limit(&self, dataset: usize, settings: &Settings) -> RunError {
        RunError::Failed(format!(
            "{} on the dataset {}: stopped after {:.1} s, more than {TIME_LIMIT_FACTOR} times the default's time",
            describe_settings(settings),
            self.datasets[dataset].describe(),
            self.time_limit(dataset).unwrap_or_default().as_secs_f64()
        ))
    }

    /// Checks one run. A program that ran with its defaults (the reference runs) and fails or prints something else
    /// with other settings shows a bug, since a threshold only chooses between versions that compute the same thing:
    /// both stop the tuning, naming the settings. (The search would count a [`RunError::Failed`] run as infinitely
    /// slow, for runners that can tell a version that ran out of resources from a bug; this one cannot.)
    fn check_execution(&self, dataset: usize, settings: &Settings, execution: &Execution) -> Result<(), RunError> {
        if execution.status != Some(0) {
            return Err(RunError::Fatal(format!(
                "the program fails on the dataset {} with {} ({}), though it ran with the default settings (a \
                 threshold must not change what a program does):\n{}",
                self.datasets[dataset].describe(),
                describe_settings(settings),
                describe_end(execution.status),
                execution.stderr.trim_end()
            )));
        }
        let expected = self.reference_outputs.get(dataset).map(String::as_str);
        if expected.is_some_and(|expected| expected != execution.stdout) {
            return Err(RunError::Fatal(format!(
                "{} changed what the program prints on the dataset {} (a compiler bug: a threshold must not change \
                 the output)\nwith the default settings:\n{}\nwith these settings:\n{}",
                describe_settings(settings),
                self.datasets[dataset].describe(),
                shortened(expected.unwrap_or_default()),
                shortened(&execution.stdout)
            )));
        }
        Ok(())
    }
}

impl Runner for ExecutableRunner {
    fn run(&mut self, dataset: usize, settings: &Settings) -> Result<Measurement, RunError> {
        let log = self.fresh_log_file();
        let warm_up = self.execute(dataset, settings, Some(&log)).map_err(RunError::Fatal)?;
        if warm_up.stopped {
            return Err(self.stopped_at_limit(dataset, settings));
        }
        self.check_execution(dataset, settings, &warm_up)?;
        let compared = read_comparison_log(&log).map_err(RunError::Fatal)?;
        let _ = std::fs::remove_file(&log);
        let mut seconds = Vec::new();
        for _ in 0..self.timed_runs {
            let execution = self.execute(dataset, settings, None).map_err(RunError::Fatal)?;
            if execution.stopped {
                return Err(self.stopped_at_limit(dataset, settings));
            }
            self.check_execution(dataset, settings, &execution)?;
            seconds.push(execution.seconds);
        }
        Ok(Measurement {
            time: median(&mut seconds),
            compared,
        })
    }
}

/// Reads a comparison log: `name value` lines (a missing file is an empty log: the program compared nothing).
/// Kills a child process (by its process id) when it is still running at its time limit, from a thread of its own,
/// so that the waiting thread times the child exactly.
struct Watchdog {
    cancel: std::sync::mpsc::Sender<()>,
    thread: std::thread::JoinHandle<bool>,
}

impl Watchdog {
    fn start(process: u32, limit: std::time::Duration) -> Watchdog {
        let (cancel, cancelled) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            if cancelled.recv_timeout(limit).is_ok() {
                return false;
            }
            // SAFETY: kill has no memory effects. The child may have ended and been reaped by the waiting thread in
            // the instant since the timeout; its id could then name another process, but ids are not reused within
            // microseconds.
            unsafe { libc::kill(process as libc::pid_t, libc::SIGKILL) };
            true
        });
        Watchdog { cancel, thread }
    }

    /// Stops the watchdog (after the child ended); whether it killed the child.
    fn cancel(self) -> bool {
        let _ = self.cancel.send(());
        self.thread.join().unwrap_or(false)
    }
}

pub fn read_comparison_log(path: &Path) -> Result<ComparedValues, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(ComparedValues::new()),
        Err(error) => return Err(format!("cannot read the comparison log {}: {error}", path.display())),
    };
    parse_comparison_log(&text).map_err(|problem| format!("{}: {problem}", path.display()))
}

/// Parses the text of a comparison log.
pub fn parse_comparison_log(text: &str) -> Result<ComparedValues, String> {
    let mut compared = ComparedValues::new();
    for (index, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        let (Some(name), Some(value), None) = (words.next(), words.next(), words.next()) else {
            if line.trim().is_empty() {
                continue;
            }
            return Err(format!("line {}: expected `name value`, found {line:?}", index + 1));
        };
        let value = value
            .parse::<i64>()
            .map_err(|_| format!("line {}: expected an integer value, found {line:?}", index + 1))?;
        compared.entry(name.to_string()).or_default().insert(value);
    }
    Ok(compared)
}

/// The median of the times (the mean of the middle two for an even count).
fn median(seconds: &mut [f64]) -> f64 {
    seconds.sort_by(f64::total_cmp);
    let middle = seconds.len() / 2;
    match seconds.len() % 2 {
        1 => seconds[middle],
        _ => (seconds[middle - 1] + seconds[middle]) / 2.0,
    }
}

/// `the default settings`, or the settings as environment variables (`APLC_PARAM_threshold_i4=1200 ...`).
pub fn describe_settings(settings: &Settings) -> String {
    if settings.is_empty() {
        return "the default settings".to_string();
    }
    let assignments: Vec<String> = settings
        .iter()
        .map(|(name, value)| format!("{PARAMETER_VARIABLE_PREFIX}{name}={value}"))
        .collect();
    assignments.join(" ")
}

/// `exit 1`, or `killed by SIGSEGV`.
fn describe_end(status: Option<i32>) -> String {
    match status {
        Some(code) => format!("exit {code}"),
        None => "killed by a signal".to_string(),
    }
}

/// The first lines of an output, enough to see a difference.
fn shortened(text: &str) -> String {
    const SHOWN_LINES: usize = 20;
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= SHOWN_LINES {
        return text.trim_end().to_string();
    }
    format!(
        "{}\n... ({} lines in all)",
        lines[..SHOWN_LINES].join("\n"),
        lines.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_gathers_the_values_of_each_name() {
        let log = parse_comparison_log("threshold_i4 100\nouter_i2 7\nthreshold_i4 300\n\n").unwrap();
        assert_eq!(log["threshold_i4"].iter().copied().collect::<Vec<_>>(), [100, 300]);
        assert_eq!(log["outer_i2"].len(), 1);
    }

    #[test]
    fn a_malformed_log_line_is_an_error() {
        assert!(parse_comparison_log("threshold_i4\n").is_err());
        assert!(parse_comparison_log("threshold_i4 many\n").is_err());
    }

    #[test]
    fn the_median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
    }
}
