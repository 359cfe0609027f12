//! Pragmas: whole-line comments `⍝ aplc: NAME VALUE` that set an option of the compiler for the script, as the
//! command line would (where both say something, the command line wins). There is one today:
//!
//! - `⍝ aplc: float ieee` (or `float dyalog`): the float mode, as `--float` (see `runtime::float_mode`).
//!
//! A pragma is a comment to every other APL system, so a script that uses one still runs elsewhere. A line is a
//! pragma when `aplc:` follows the `⍝` that starts it (blanks allowed before and after the `⍝`); strings cannot span
//! lines, so such a line is never inside one.

use super::error::{SyntaxError, SyntaxErrorKind, SyntaxErrors};
use crate::runtime::float_mode::FloatMode;
use crate::source::{SourceFile, Span};

/// The options a script sets for itself; `None` where it says nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pragmas {
    pub float_mode: Option<FloatMode>,
}

/// The pragmas of a script, or an error at each malformed one.
pub fn read_pragmas(file: &SourceFile) -> Result<Pragmas, SyntaxErrors> {
    let text = file.text();
    let mut pragmas = Pragmas::default();
    let mut errors = Vec::new();
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        if let Some((offset, words)) = pragma_words(line) {
            let span = Span::new(line_start + offset, line_start + line.trim_end().len());
            if let Err(message) = apply_pragma(&words, &mut pragmas) {
                errors.push(SyntaxError::new(SyntaxErrorKind::MalformedPragma(message), span).with_help(
                    "the pragmas are `⍝ aplc: float dyalog` and `⍝ aplc: float ieee`; write `⍝ aplc` without the colon \
                     for a plain comment",
                ));
            }
        }
        line_start += line.len();
    }
    if errors.is_empty() {
        Ok(pragmas)
    } else {
        Err(SyntaxErrors::new(file, errors))
    }
}

/// The offset of the `⍝` and the words after `aplc:`, when the line is a pragma.
fn pragma_words(line: &str) -> Option<(usize, Vec<&str>)> {
    let comment = line.trim_start();
    let offset = line.len() - comment.len();
    let rest = comment.strip_prefix('⍝')?.trim_start().strip_prefix("aplc:")?;
    Some((offset, rest.split_whitespace().collect()))
}

fn apply_pragma(words: &[&str], pragmas: &mut Pragmas) -> Result<(), String> {
    match words {
        ["float", name] => match FloatMode::from_name(name) {
            Some(mode) => {
                pragmas.float_mode = Some(mode);
                Ok(())
            }
            None => Err(format!("unknown float mode {name:?}: it is dyalog or ieee")),
        },
        ["float", ..] => Err("float takes one mode: dyalog or ieee".to_string()),
        [] => Err("an empty pragma".to_string()),
        [name, ..] => Err(format!("unknown pragma {name:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Pragmas, SyntaxErrors> {
        read_pragmas(&SourceFile::new("pragmas.apl", text))
    }

    #[test]
    fn the_float_pragma_sets_the_float_mode() {
        let pragmas = read("⍝ a script\n  ⍝ aplc: float ieee\nx←1\n").unwrap();
        assert_eq!(pragmas.float_mode, Some(FloatMode::Ieee));
        assert_eq!(
            read("⍝aplc:   float dyalog").unwrap().float_mode,
            Some(FloatMode::Dyalog)
        );
        assert_eq!(read("x←1 ⍝ aplc: float ieee\n").unwrap().float_mode, None);
        assert_eq!(read("⍝ aplc float ieee\n").unwrap().float_mode, None);
    }

    #[test]
    fn a_malformed_pragma_is_an_error_at_its_line() {
        let text = "x←1\n⍝ aplc: float fast\n⍝ aplc: optimise\n";
        let errors = read(text).unwrap_err().errors;
        assert_eq!(errors.len(), 2);
        assert_eq!(&text[errors[0].span.start..errors[0].span.end], "⍝ aplc: float fast");
        assert!(errors[0].to_string().contains("\"fast\""), "{}", errors[0]);
        assert!(
            errors[1].to_string().contains("unknown pragma \"optimise\""),
            "{}",
            errors[1]
        );
    }
}
