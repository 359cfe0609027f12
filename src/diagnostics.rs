//! Reporting diagnostics the way rustc does: one report per error (its code, message, labelled span and help), at
//! most [`MAX_REPORTED_ERRORS`] of them per file followed by an "aborting due to N errors" line, in one of two
//! formats: text for people (drawn by miette) or one JSON object per line for editors and scripts.
//!
//! Stages collect their errors in one diagnostic with the individual errors as miette's `related` list (a file with
//! three syntax errors is one `SyntaxErrors`). Drawn as is, miette shows the summary and then each error again; here
//! the collection is flattened so that each error is shown once. Knows nothing of the stages: it sees only
//! `miette::Diagnostic`.

use crate::source::SourceFile;
pub use aplc_runtime::json::json_string;
use miette::Diagnostic;
use std::fmt;
use thiserror::Error;

/// How many errors of one file are reported; the rest are only counted (a generated line of 2,000 `}` gives 2,000
/// errors, and nobody reads past the first few).
pub const MAX_REPORTED_ERRORS: usize = 20;

/// The two formats of `--error-format`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ErrorFormat {
    /// miette's drawing: the source line, a caret under the span, the code and the help.
    #[default]
    Human,
    /// One JSON object per diagnostic and line: code, message, file, line, column, span, label, help.
    Json,
}

/// The individual errors a diagnostic stands for: the `related` errors of a collection, or the diagnostic itself.
/// Each keeps the collection's source code, so that it still renders with its source line.
pub fn individual_errors(diagnostic: &dyn miette::Diagnostic) -> Vec<SingleError<'_>> {
    let source_code = diagnostic.source_code();
    match diagnostic.related() {
        Some(related) => {
            let errors: Vec<SingleError<'_>> = related
                .map(|error| SingleError {
                    error,
                    source_code: error.source_code().or(source_code),
                })
                .collect();
            if errors.is_empty() {
                vec![SingleError::alone(diagnostic)]
            } else {
                errors
            }
        }
        None => vec![SingleError::alone(diagnostic)],
    }
}

/// The report of a failed file: each error once (the first [`MAX_REPORTED_ERRORS`]) in the format asked for, and for
/// text a last line that says how many errors there were when there was more than one.
pub fn render_report(
    diagnostic: &dyn miette::Diagnostic,
    format: ErrorFormat,
    theme: miette::GraphicalTheme,
) -> String {
    let errors = individual_errors(diagnostic);
    let shown = &errors[..errors.len().min(MAX_REPORTED_ERRORS)];
    match format {
        ErrorFormat::Human => {
            let mut report: String = shown.iter().map(|error| render_human(error, theme.clone())).collect();
            if errors.len() > 1 {
                report.push_str(&aborting_line(errors.len(), shown.len()));
                report.push('\n');
            }
            report
        }
        ErrorFormat::Json => shown.iter().map(|error| render_json(error) + "\n").collect(),
    }
}

/// The report without colour, as snapshots, the corpus harness and pipes see it.
pub fn render_report_plain(diagnostic: &dyn miette::Diagnostic) -> String {
    render_report(
        diagnostic,
        ErrorFormat::Human,
        miette::GraphicalTheme::unicode_nocolor(),
    )
}

fn aborting_line(total: usize, shown: usize) -> String {
    if shown < total {
        format!("aborting due to {total} errors (the first {shown} are shown)")
    } else {
        format!("aborting due to {total} errors")
    }
}

/// One error with the source code it points into.
pub struct SingleError<'a> {
    error: &'a dyn miette::Diagnostic,
    source_code: Option<&'a dyn miette::SourceCode>,
}

impl<'a> SingleError<'a> {
    fn alone(error: &'a dyn miette::Diagnostic) -> SingleError<'a> {
        SingleError {
            error,
            source_code: error.source_code(),
        }
    }
}

impl fmt::Debug for SingleError<'_> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.error, formatter)
    }
}

impl fmt::Display for SingleError<'_> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.error, formatter)
    }
}

impl std::error::Error for SingleError<'_> {}

/// The error's own code, message, labels and help; the source code found for it; never its related errors (they
/// are reported one by one).
impl Diagnostic for SingleError<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.error.code()
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.error.help()
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.error.labels()
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source_code
    }
}

fn render_human(error: &SingleError<'_>, theme: miette::GraphicalTheme) -> String {
    let mut rendered = String::new();
    match miette::GraphicalReportHandler::new_themed(theme)
        .with_width(120)
        .render_report(&mut rendered, error)
    {
        // miette ends a report without a line break when its excerpt is the window of a long line.
        Ok(()) if !rendered.ends_with('\n') => rendered + "\n",
        Ok(()) => rendered,
        Err(_) => format!("{error}\n"),
    }
}

/// `{"severity":"error","code":...,"message":...,"file":...,"line":L,"column":C,"span":{"start":S,"end":E},
/// "label":...,"help":...}`: line and column are 1-based (the column in grapheme clusters, as the text header),
/// the span is in bytes; the fields of a missing location or help are `null`.
fn render_json(error: &SingleError<'_>) -> String {
    let label = error.labels().and_then(|mut labels| labels.next());
    let location = label
        .as_ref()
        .and_then(|label| error.source_code.map(|source| (label, source)))
        .and_then(|(label, source)| {
            source
                .read_span(label.inner(), 0, 0)
                .ok()
                .map(|contents| (label, contents))
        });
    let mut object = JsonObject::default();
    object.string("severity", Some("error"));
    object.string("code", error.code().map(|code| code.to_string()).as_deref());
    object.string("message", Some(&error.to_string()));
    match &location {
        Some((label, contents)) => {
            object.string("file", contents.name());
            object.raw("line", &(contents.line() + 1).to_string());
            object.raw("column", &(contents.column() + 1).to_string());
            object.raw(
                "span",
                &format!(
                    "{{\"start\":{},\"end\":{}}}",
                    label.offset(),
                    label.offset() + label.len()
                ),
            );
            object.string("label", label.label());
        }
        None => {
            for key in ["file", "line", "column", "span", "label"] {
                object.raw(key, "null");
            }
        }
    }
    object.string("help", error.help().map(|help| help.to_string()).as_deref());
    object.finish()
}

/// A JSON object written field by field (the few fields of a diagnostic need no JSON library).
#[derive(Default)]
struct JsonObject {
    text: String,
}

impl JsonObject {
    fn raw(&mut self, key: &str, value: &str) {
        self.text.push(if self.text.is_empty() { '{' } else { ',' });
        self.text.push_str(&json_string(key));
        self.text.push(':');
        self.text.push_str(value);
    }

    fn string(&mut self, key: &str, value: Option<&str>) {
        self.raw(key, &value.map_or_else(|| "null".to_string(), json_string));
    }

    fn finish(mut self) -> String {
        if self.text.is_empty() {
            self.text.push('{');
        }
        self.text.push('}');
        self.text
    }
}

/// A stage error paired with the source it points into, so that it renders with the source line. It renders as the
/// stage error itself: message, code, labels and help are the inner error's.
#[derive(Debug, Error)]
#[error("{error}")]
pub struct WithSource<E: Diagnostic + 'static> {
    pub error: E,
    source_code: miette::NamedSource<crate::source::SourceText>,
}

impl<E: Diagnostic + 'static> WithSource<E> {
    pub fn new(error: E, file: &SourceFile) -> WithSource<E> {
        WithSource {
            error,
            source_code: file.named_source(),
        }
    }
}

impl<E: Diagnostic + 'static> Diagnostic for WithSource<E> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.error.code()
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.error.help()
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.error.labels()
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        self.error.related()
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source_code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aborting_line_says_how_many_were_shown_when_some_were_left_out() {
        assert_eq!(aborting_line(3, 3), "aborting due to 3 errors");
        assert_eq!(
            aborting_line(2000, 20),
            "aborting due to 2000 errors (the first 20 are shown)"
        );
    }
}
