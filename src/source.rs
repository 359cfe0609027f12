//! Source files and spans shared by every stage that reports errors against the program text.
//!
//! A [`Span`] is a half-open byte range into one [`SourceFile`]. Stages keep spans on everything they build so that a
//! diagnostic raised late (a type error in elaboration, an index error at run time) can still point at the APL text.

use std::sync::Arc;

/// A half-open byte range `start..end` into a source file's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        debug_assert!(start <= end, "span start {start} after end {end}");
        Span { start, end }
    }

    /// The smallest span covering both `self` and `other`.
    pub fn join(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    pub fn len(self) -> usize {
        self.end - self.start
    }

    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(span: Span) -> miette::SourceSpan {
        miette::SourceSpan::new(span.start.into(), span.len())
    }
}

/// A named piece of program text. Cloning is cheap: diagnostics keep a handle to the text they point into.
#[derive(Clone, Debug)]
pub struct SourceFile {
    name: Arc<str>,
    text: Arc<str>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        SourceFile {
            name: Arc::from(name.into()),
            text: Arc::from(text.into()),
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text a span covers.
    pub fn slice(&self, span: Span) -> &str {
        &self.text[span.start..span.end]
    }

    /// 1-based line and column (in characters) of a byte offset, for messages that are not rendered by miette.
    pub fn line_and_column(&self, offset: usize) -> (usize, usize) {
        let before = &self.text[..offset.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, before[line_start..].chars().count() + 1)
    }

    /// A miette source (name plus text) to attach to a diagnostic so that it renders with the source line.
    pub fn named_source(&self) -> miette::NamedSource<String> {
        miette::NamedSource::new(&*self.name, self.text.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_count_characters_not_bytes() {
        let file = SourceFile::new("t.apl", "a←1\n⍳⍳3");
        // '⍳' is three bytes; the second one starts at byte 8 of the text ("a←1\n" is 1+3+1+1 = 6 bytes, then 3).
        assert_eq!(file.line_and_column(0), (1, 1));
        assert_eq!(file.line_and_column(6), (2, 1));
        assert_eq!(file.line_and_column(9), (2, 2));
    }

    #[test]
    fn join_covers_both_spans() {
        assert_eq!(Span::new(3, 5).join(Span::new(1, 2)), Span::new(1, 5));
    }
}
