//! Program arguments, as `d ⎕ArgInt i` and `d ⎕ArgDouble i` read them: the words given after the program
//! (`aplc run prog.apl 1000 2.5`, `./prog 1000 2.5`), numbered from 1 (⎕IO). Argument `i` is read as one number (APL's
//! high minus `¯` or an ASCII `-` for negatives); `d` stands in when the program got fewer than `i` arguments, so that
//! a program runs unchanged with no arguments (in tests, in the REPL) and with sizes chosen at run time (benchmarks).
//!
//! One implementation of the reading rules for the interpreters (which pass their host's arguments) and for compiled
//! programs (which read the process-wide arguments that `main`, or the driver before a JIT run, set here).

use std::sync::RwLock;

/// Why an argument could not be read: the APL error that the program stops with.
#[derive(Debug, Clone, PartialEq)]
pub enum ArgumentError {
    /// `i` is below 1: INDEX ERROR.
    IndexBelowOrigin(i64),
    /// The argument is not one number of the requested kind: DOMAIN ERROR.
    NotANumber {
        index: i64,
        text: String,
        kind: &'static str,
    },
}

impl ArgumentError {
    /// The APL error name the program reports.
    pub fn is_index_error(&self) -> bool {
        matches!(self, ArgumentError::IndexBelowOrigin(_))
    }

    pub fn message(&self) -> String {
        match self {
            ArgumentError::IndexBelowOrigin(index) => {
                format!("program argument {index} does not exist (they are numbered from 1)")
            }
            ArgumentError::NotANumber { index, text, kind } => {
                format!("program argument {index} is not {kind}: {text}")
            }
        }
    }
}

/// Argument `index` (from 1) of `arguments` as an int, or `default` when there are fewer arguments.
pub fn int_argument(arguments: &[String], index: i64, default: i64) -> Result<i64, ArgumentError> {
    argument(arguments, index, default, "an integer", |text| {
        crate::text_input::ints_in_text(text).ok()
    })
}

/// Argument `index` (from 1) of `arguments` as a double, or `default` when there are fewer arguments.
pub fn double_argument(arguments: &[String], index: i64, default: f64) -> Result<f64, ArgumentError> {
    argument(arguments, index, default, "a number", |text| {
        crate::text_input::doubles_in_text(text).ok()
    })
}

fn argument<T: Copy>(
    arguments: &[String],
    index: i64,
    default: T,
    kind: &'static str,
    numbers_in: impl Fn(&str) -> Option<Vec<T>>,
) -> Result<T, ArgumentError> {
    if index < 1 {
        return Err(ArgumentError::IndexBelowOrigin(index));
    }
    let Some(text) = usize::try_from(index - 1).ok().and_then(|i| arguments.get(i)) else {
        return Ok(default);
    };
    match numbers_in(text).as_deref() {
        Some([number]) => Ok(*number),
        _ => Err(ArgumentError::NotANumber {
            index,
            text: text.clone(),
            kind,
        }),
    }
}

/// The arguments of this process's program: set once by `main` of a compiled program, or by the driver before it runs
/// a program with the JIT (which calls the run-time library linked into `aplc` itself).
static PROCESS_ARGUMENTS: RwLock<Vec<String>> = RwLock::new(Vec::new());

/// Sets the program arguments that compiled code in this process reads.
pub fn set_process_arguments(arguments: Vec<String>) {
    *PROCESS_ARGUMENTS
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner()) = arguments;
}

/// `read` applied to the program arguments that compiled code in this process reads (under the lock, without a
/// copy: an argument may be read inside a loop).
pub fn with_process_arguments<T>(read: impl FnOnce(&[String]) -> T) -> T {
    read(
        &PROCESS_ARGUMENTS
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn an_argument_that_is_given_is_read_and_a_missing_one_is_the_default() {
        let arguments = words("1000 ¯3 2.5 -7");
        assert_eq!(int_argument(&arguments, 1, 5), Ok(1000));
        assert_eq!(int_argument(&arguments, 2, 5), Ok(-3));
        assert_eq!(int_argument(&arguments, 4, 5), Ok(-7));
        assert_eq!(int_argument(&arguments, 5, 5), Ok(5));
        assert_eq!(double_argument(&arguments, 3, 0.0), Ok(2.5));
        assert_eq!(double_argument(&arguments, 1, 0.0), Ok(1000.0));
        assert_eq!(double_argument(&[], 1, 0.25), Ok(0.25));
    }

    #[test]
    fn a_malformed_argument_or_an_index_below_one_is_an_error() {
        let arguments = words("2.5 abc");
        assert!(matches!(
            int_argument(&arguments, 1, 0),
            Err(ArgumentError::NotANumber { index: 1, .. })
        ));
        assert!(matches!(
            double_argument(&arguments, 2, 0.0),
            Err(ArgumentError::NotANumber { index: 2, .. })
        ));
        assert_eq!(int_argument(&arguments, 0, 0), Err(ArgumentError::IndexBelowOrigin(0)));
        assert!(int_argument(&arguments, 0, 0).unwrap_err().is_index_error());
        // Two numbers in one argument (a quoted "1 2") are not one number.
        assert!(int_argument(&["1 2".to_string()], 1, 0).is_err());
    }
}
