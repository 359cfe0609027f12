//! Tuning files, which set a program's named parameters (its parallel thresholds) without environment variables,
//! and the comparison log, which tells the autotuner (`aplc tune`) which values each threshold was compared with.
//!
//! A tuning file is plain text: one `name=value` per line, the value an `i64`, spaces allowed around the `=` and the
//! line; blank lines and lines starting with `#` are ignored. A name with no `_` (`threshold=100`) names a class and
//! sets every parameter of that class that has no line of its own. Names the program does not have are allowed, so
//! that one file can serve several versions of a program.
//!
//! The value of a parameter is, in order: the environment variable `APLC_PARAM_<name>`, `APLC_PARAM_<class>`, the
//! tuning file's `name`, the tuning file's `class`, the default compiled into the program ([`resolve_parameter`]).
//!
//! Which tuning file: the path in `APLC_TUNING` when set (a file named there must exist); otherwise the current
//! executable's path with its extension replaced by `tuning` (`/x/prog` reads `/x/prog.tuning`) when that file
//! exists; otherwise none. `aplc run` sets `APLC_TUNING` itself when a `prog.tuning` lies beside `prog.apl`, because
//! a JIT-compiled program's executable is aplc.
//!
//! The comparison log: when `APLC_TUNING_LOG` names a file, generated code calls [`aplrt_note_comparison`] each time
//! it compares a threshold with a value the program computed, and each distinct `(name, value)` pair is appended to
//! the file once, as the line `name value`. The tuner reads the file to learn which threshold values would change
//! what the program does, so that it only tries values between those.

use std::collections::{HashMap, HashSet};
use std::ffi::OsStr;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The parameters a tuning file sets, by name (a parameter's full name, or a class name).
pub type TuningValues = HashMap<String, i64>;

/// The environment variable that names the tuning file explicitly.
pub const TUNING_FILE_VARIABLE: &str = "APLC_TUNING";

/// The environment variable that names the comparison log.
pub const COMPARISON_LOG_VARIABLE: &str = "APLC_TUNING_LOG";

/// The prefix of the environment variables that set one parameter or one class (`APLC_PARAM_threshold_i4`).
pub const PARAMETER_VARIABLE_PREFIX: &str = "APLC_PARAM_";

/// The class of a parameter: its name up to the first `_` (`threshold_i45` is of class `threshold`). A name without
/// `_` is its own class.
pub fn parameter_class(name: &str) -> &str {
    name.split('_').next().unwrap_or(name)
}

/// The value of parameter `name`, in the documented order of precedence: `APLC_PARAM_<name>`, `APLC_PARAM_<class>`,
/// the tuning file's `name`, its `class`, then `default`. `environment` looks up an environment variable by its full
/// name; it is a parameter so that the order can be tested without touching the process's environment. An
/// environment variable that is not an integer is an error (its message names the variable), because silently
/// ignoring a mistyped setting would make a tuning experiment measure the wrong thing.
pub fn resolve_parameter(
    name: &str,
    default: i64,
    environment: impl Fn(&str) -> Option<String>,
    tuning: Option<&TuningValues>,
) -> Result<i64, String> {
    let class = parameter_class(name);
    for key in [name, class] {
        let variable = format!("{PARAMETER_VARIABLE_PREFIX}{key}");
        if let Some(text) = environment(&variable) {
            return text
                .trim()
                .parse::<i64>()
                .map_err(|_| format!("{variable} must be an integer, not `{text}`"));
        }
    }
    let from_file = tuning.and_then(|values| values.get(name).or_else(|| values.get(class)));
    Ok(from_file.copied().unwrap_or(default))
}

/// Parses the text of a tuning file. `file_name` only labels the error messages, which have the form
/// `FILE:LINE: PROBLEM` (the caller adds the `aplc: ` prefix), as compilers report, so that editors can jump there.
/// A name set twice is an error rather than "last one wins", since a file written by hand that sets a threshold on
/// two lines almost surely holds a mistake.
pub fn parse_tuning_file(file_name: &str, text: &str) -> Result<TuningValues, String> {
    let mut values = TuningValues::new();
    let mut line_of_name: HashMap<String, usize> = HashMap::new();
    for (index, line) in text.lines().enumerate() {
        let line_number = index + 1;
        let Some((name, value)) =
            parse_tuning_line(line).map_err(|problem| format!("{file_name}:{line_number}: {problem}"))?
        else {
            continue;
        };
        if let Some(first_line) = line_of_name.insert(name.to_string(), line_number) {
            return Err(format!(
                "{file_name}:{line_number}: {name} is already set on line {first_line}"
            ));
        }
        values.insert(name.to_string(), value);
    }
    Ok(values)
}

/// One line of a tuning file: `None` for a blank line or a comment, else the name and the value. The error is the
/// problem without the file and line, which [`parse_tuning_file`] adds.
fn parse_tuning_line(line: &str) -> Result<Option<(&str, i64)>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let malformed = || format!("expected name=integer, found {line:?}");
    let (name, value) = line.split_once('=').ok_or_else(malformed)?;
    let (name, value) = (name.trim(), value.trim());
    if !is_parameter_name(name) {
        return Err(malformed());
    }
    let value = value.parse::<i64>().map_err(|_| malformed())?;
    Ok(Some((name, value)))
}

/// A parameter or class name as the compiler writes them: letters, digits and `_`, not empty. Anything else in front
/// of the `=` is a typing mistake, not a name.
fn is_parameter_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|character| character.is_ascii_alphanumeric() || character == '_')
}

/// Reads and parses the tuning file chosen as the module documentation says. `explicit_path` is the value of
/// `APLC_TUNING` (an empty value counts as unset, so that a wrapper can clear it), `executable` the current
/// executable's path; both are parameters so that the choice can be tested without the process's environment.
/// `Ok(None)` when there is no tuning file.
pub fn load_tuning_file(
    explicit_path: Option<&OsStr>,
    executable: Option<&Path>,
) -> Result<Option<TuningValues>, String> {
    if let Some(path) = explicit_path.filter(|path| !path.is_empty()) {
        let path = Path::new(path);
        let text = std::fs::read_to_string(path).map_err(|error| {
            format!(
                "{TUNING_FILE_VARIABLE} names {}, which cannot be read: {error}",
                path.display()
            )
        })?;
        return parse_tuning_file(&path.display().to_string(), &text).map(Some);
    }
    let Some(path) = executable.map(tuning_file_beside_executable) else {
        return Ok(None);
    };
    match std::fs::read_to_string(&path) {
        Ok(text) => parse_tuning_file(&path.display().to_string(), &text).map(Some),
        // The usual case: the program has not been tuned.
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(format!("{} cannot be read: {error}", path.display())),
    }
}

/// The tuning file that belongs to an executable: its path with the extension replaced (`/x/prog` →
/// `/x/prog.tuning`, `C:\x\prog.exe` → `C:\x\prog.tuning`).
pub fn tuning_file_beside_executable(executable: &Path) -> PathBuf {
    executable.with_extension("tuning")
}

/// This process's tuning file, read and parsed on first use; a tuning file that cannot be read or parsed stops the
/// program with a usage error (status 2), as a malformed option would.
pub fn process_tuning_values() -> Option<&'static TuningValues> {
    static VALUES: OnceLock<Option<TuningValues>> = OnceLock::new();
    VALUES
        .get_or_init(|| {
            let explicit_path = std::env::var_os(TUNING_FILE_VARIABLE);
            let executable = std::env::current_exe().ok();
            load_tuning_file(explicit_path.as_deref(), executable.as_deref())
                .unwrap_or_else(|message| crate::abi::exit_with_usage_error(&message))
        })
        .as_ref()
}

/// The value of parameter `name` in this process: [`resolve_parameter`] with the process's environment and tuning
/// file. A malformed setting stops the program with a usage error.
pub fn process_parameter_value(name: &str, default: i64) -> i64 {
    let environment = |variable: &str| std::env::var(variable).ok();
    resolve_parameter(name, default, environment, process_tuning_values())
        .unwrap_or_else(|message| crate::abi::exit_with_usage_error(&message))
}

/// An open comparison log: the file, and the pairs already written to it by this process, so that each pair is
/// written once however often the construct runs.
pub struct ComparisonLog {
    path: PathBuf,
    file: File,
    /// Values already written, by parameter name: keyed by name first (rather than a set of pairs) so that the check
    /// of a pair already seen borrows the name and allocates nothing.
    written: Mutex<HashMap<String, HashSet<i64>>>,
}

impl ComparisonLog {
    /// Opens (creating it if needed) the log at `path` for appending: several processes (a program run several
    /// times, or its children) may share one log.
    pub fn open(path: &Path) -> Result<ComparisonLog, String> {
        let file = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
            .map_err(|error| {
                format!(
                    "{COMPARISON_LOG_VARIABLE} names {}, which cannot be opened: {error}",
                    path.display()
                )
            })?;
        Ok(ComparisonLog {
            path: path.to_path_buf(),
            file,
            written: Mutex::new(HashMap::new()),
        })
    }

    /// Records that parameter `name` was compared with `compared`: appends `name compared` to the file unless this
    /// process wrote that pair before. The line goes out in one `write` call on a file opened for appending, so that
    /// lines of processes sharing the log never interleave.
    pub fn note(&self, name: &str, compared: i64) -> Result<(), String> {
        let mut written = self.written.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let is_new = match written.get_mut(name) {
            Some(values) => values.insert(compared),
            None => {
                written.insert(name.to_string(), HashSet::from([compared]));
                true
            }
        };
        if !is_new {
            return Ok(());
        }
        let line = format!("{name} {compared}\n");
        (&self.file)
            .write_all(line.as_bytes())
            .map_err(|error| format!("cannot write to {}: {error}", self.path.display()))
    }
}

/// This process's comparison log: `None` when `APLC_TUNING_LOG` is unset or empty (the case of every run but the
/// tuner's). Opened on first use; a log that cannot be opened stops the program with a usage error.
fn process_comparison_log() -> Option<&'static ComparisonLog> {
    static LOG: OnceLock<Option<ComparisonLog>> = OnceLock::new();
    LOG.get_or_init(|| {
        let path = std::env::var_os(COMPARISON_LOG_VARIABLE).filter(|path| !path.is_empty())?;
        Some(
            ComparisonLog::open(Path::new(&path)).unwrap_or_else(|message| crate::abi::exit_with_usage_error(&message)),
        )
    })
    .as_ref()
}

/// [`aplrt_note_comparison`] for Rust callers. Called once per run of a parallel construct, so when no log is asked
/// for it costs one atomic load (the `OnceLock` already initialised) and a branch.
pub fn note_comparison(name: &str, compared: i64) {
    if let Some(log) = process_comparison_log() {
        note_or_exit(log, name, compared);
    }
}

/// Writes the pair to the log; a failed write stops the program with a usage error, since a tuner reading an
/// incomplete log would draw wrong conclusions.
fn note_or_exit(log: &ComparisonLog, name: &str, compared: i64) {
    if let Err(message) = log.note(name, compared) {
        crate::abi::exit_with_usage_error(&message);
    }
}

/// Records, when `APLC_TUNING_LOG` names a file, that the threshold parameter `name` (a UTF-8 string of `length`
/// bytes) was compared with the value `compared` computed by the program. Does nothing otherwise, and nothing for
/// an empty or null name.
///
/// # Safety
/// `name` must point to `length` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn aplrt_note_comparison(name: *const u8, length: i64, compared: i64) {
    // Checked first so that the common case reads no bytes at all.
    let Some(log) = process_comparison_log() else {
        return;
    };
    let name = match usize::try_from(length) {
        // SAFETY: the caller guarantees `length` readable bytes.
        Ok(length) if length > 0 && !name.is_null() => {
            String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(name, length) })
        }
        _ => return,
    };
    note_or_exit(log, &name, compared);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_trimmed_around_the_name_the_equals_sign_and_the_value() {
        assert_eq!(
            parse_tuning_line("  threshold_i4 =  -7  "),
            Ok(Some(("threshold_i4", -7)))
        );
        assert_eq!(parse_tuning_line("\t# threshold_i4=1"), Ok(None));
        assert_eq!(parse_tuning_line("   "), Ok(None));
    }

    #[test]
    fn the_class_is_the_name_up_to_the_first_underscore() {
        assert_eq!(parameter_class("threshold_i45"), "threshold");
        assert_eq!(parameter_class("offload_min_work_i3"), "offload");
        assert_eq!(parameter_class("threshold"), "threshold");
    }
}
