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
#[derive(Clone, Debug, PartialEq, Eq)]
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

    /// 1-based line and column of a byte offset. The column counts grapheme clusters, as editors do for APL text
    /// (`⍳` is three bytes but one column; a letter with a combining accent is one column too).
    pub fn line_and_column(&self, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(&self.text, offset);
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        (line, columns_before(&self.text, offset) + 1)
    }

    /// A miette source (name plus text) to attach to a diagnostic so that it renders with the source line.
    pub fn named_source(&self) -> miette::NamedSource<SourceText> {
        miette::NamedSource::new(&*self.name, SourceText(self.text.clone()))
    }
}

/// Source lines longer than this (in bytes) are not echoed whole under a diagnostic: only a window around the span.
pub const LONG_LINE_BYTES: usize = 160;

/// How much of a long line a diagnostic shows on each side of its span (in bytes, moved to character boundaries).
const LONG_LINE_CONTEXT_BYTES: usize = 60;

/// A file's text as diagnostics hold it (a shared handle: cheap to clone, small to keep in an error).
#[derive(Clone, Debug)]
pub struct SourceText(Arc<str>);

/// The source as miette reads it for diagnostics. Two things differ from miette's reading of a plain string:
/// - the column in the `[file:line:column]` header counts grapheme clusters, not bytes (miette counts bytes, so the
///   14th glyph of an APL line could be reported as column 20);
/// - a long line (a generated line of 2,000 `}`) is shown as a window around the span, without context lines, so
///   that each diagnostic stays a few lines long whatever the line's length.
impl miette::SourceCode for SourceText {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let text: &'a str = &self.0;
        let contents = text.read_span(span, context_lines_before, context_lines_after)?;
        let reads_context = context_lines_before + context_lines_after > 0;
        let has_long_line = || {
            let data = contents.data();
            data.len() > LONG_LINE_BYTES
                && data
                    .split(|&byte| byte == b'\n')
                    .any(|line| line.len() > LONG_LINE_BYTES)
        };
        if reads_context && has_long_line() {
            // The span's own line, or a context line, is long: only the span's line is shown, as a window.
            let (line_start, line_end) = line_bounds(text, span.offset());
            return Ok(Box::new(line_window(text, line_start, line_end, span)));
        }
        // miette's column is a byte count from the start of the line to where the data starts (the span itself when
        // no context is read: that is the column of the header).
        let column = columns_before(text, contents.span().offset());
        Ok(Box::new(miette::MietteSpanContents::new(
            contents.data(),
            *contents.span(),
            contents.line(),
            column,
            contents.line_count(),
        )))
    }
}

/// The line of a span, without context lines; a long line only as a window around the span: from a little before
/// its start to a little after its end (at most [`LONG_LINE_BYTES`] of the span itself), within the line.
fn line_window<'a>(
    text: &'a str,
    line_start: usize,
    line_end: usize,
    span: &miette::SourceSpan,
) -> miette::MietteSpanContents<'a> {
    let span_start = span.offset().clamp(line_start, line_end);
    let span_end = (span.offset() + span.len()).clamp(span_start, line_end);
    let span_end = span_end.min(span_start + LONG_LINE_BYTES);
    let (window_start, window_end) = if line_end - line_start <= LONG_LINE_BYTES {
        (line_start, line_end)
    } else {
        (
            floor_char_boundary(text, span_start.saturating_sub(LONG_LINE_CONTEXT_BYTES).max(line_start)),
            ceil_char_boundary(text, (span_end + LONG_LINE_CONTEXT_BYTES).min(line_end)),
        )
    };
    let line = text[..line_start].matches('\n').count();
    miette::MietteSpanContents::new(
        &text.as_bytes()[window_start..window_end],
        (window_start, window_end - window_start).into(),
        line,
        columns_before(text, window_start),
        1,
    )
}

/// The byte range of the line that contains `offset` (without its line break).
fn line_bounds(text: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(text, offset);
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    (start, end)
}

/// How many grapheme clusters come before `offset` on its line.
fn columns_before(text: &str, offset: usize) -> usize {
    use unicode_segmentation::UnicodeSegmentation;
    let offset = floor_char_boundary(text, offset);
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    text[line_start..offset].graphemes(true).count()
}

fn floor_char_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

fn ceil_char_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset += 1;
    }
    offset
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
