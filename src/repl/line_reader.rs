//! Reading the session's input: from a terminal through rustyline (editing, history), or plainly from a pipe. Both
//! gather the lines of a dfn left open with `{`, or of a traditional function opened with `∇`, into one piece.

use std::io::BufRead;
use std::path::PathBuf;

/// The prompt of a new piece: Dyalog's six-space indent.
pub const PROMPT: &str = "      ";
/// The prompt of a continuation line inside an open dfn.
pub const CONTINUATION_PROMPT: &str = "    ⋯ ";

/// What one read gave.
#[derive(Debug, PartialEq, Eq)]
pub enum ReadOutcome {
    /// A complete piece (one line, or several when a dfn was left open), without the final newline.
    Piece(String),
    /// Ctrl-C: the piece being typed is dropped.
    Interrupted,
    /// Ctrl-D or the end of the input.
    End,
    /// A line that could not be read as text (not valid UTF-8): the session says so and goes on with the next.
    Unreadable(String),
}

/// A source of pieces of input.
pub trait LineReader {
    fn read_piece(&mut self) -> ReadOutcome;
}

/// How many `{` are still open in `text`, counting only braces outside strings (`'...'`, with `''` inside) and
/// comments (`⍝` to the end of the line). Negative when more braces close than open.
pub fn open_brace_count(text: &str) -> i64 {
    let mut depth = 0i64;
    for line in text.lines() {
        let mut in_string = false;
        for character in line.chars() {
            match character {
                '\'' => in_string = !in_string,
                '⍝' if !in_string => break,
                '{' if !in_string => depth += 1,
                '}' if !in_string => depth -= 1,
                _ => {}
            }
        }
    }
    depth
}

/// Whether `text` begins a traditional function's definition (a first line `∇` and a header) that no line holding
/// only `∇` (and perhaps a comment) has closed yet.
pub fn is_open_tradfn_definition(text: &str) -> bool {
    let mut lines = text.lines();
    let Some(header) = lines.next().and_then(|first| first.trim_start().strip_prefix('∇')) else {
        return false;
    };
    let header = header.trim();
    if header.is_empty() || header.starts_with('⍝') {
        return false;
    }
    !lines.any(is_closing_del)
}

/// A line holding only `∇`, perhaps followed by a comment: the end of a traditional function.
fn is_closing_del(line: &str) -> bool {
    line.trim()
        .strip_prefix('∇')
        .is_some_and(|rest| rest.trim().is_empty() || rest.trim_start().starts_with('⍝'))
}

/// Adds a line to a piece and says whether the piece is complete (its braces balance, or close too many, and any
/// traditional function it opens is closed).
fn extend_piece(piece: &mut String, line: &str) -> bool {
    if !piece.is_empty() {
        piece.push('\n');
    }
    piece.push_str(line.trim_end_matches(['\n', '\r']));
    open_brace_count(piece) <= 0 && !is_open_tradfn_definition(piece)
}

/// Standard input that is not a terminal: no prompts, no editing.
pub struct PipeReader<R: BufRead> {
    input: R,
    /// The number of the last line read (1-based), for messages about unreadable lines.
    line_number: usize,
}

impl<R: BufRead> PipeReader<R> {
    pub fn new(input: R) -> PipeReader<R> {
        PipeReader { input, line_number: 0 }
    }
}

impl<R: BufRead> LineReader for PipeReader<R> {
    fn read_piece(&mut self) -> ReadOutcome {
        let mut piece = String::new();
        loop {
            // Bytes first: a line that is not UTF-8 is reported, not taken for the end of the input.
            let mut bytes = Vec::new();
            match self.input.read_until(b'\n', &mut bytes) {
                // The input ended: an unfinished dfn is still handed over, so that its error is reported.
                Ok(0) | Err(_) if piece.is_empty() => return ReadOutcome::End,
                Ok(0) | Err(_) => return ReadOutcome::Piece(piece),
                Ok(_) => {
                    self.line_number += 1;
                    let Ok(line) = String::from_utf8(bytes) else {
                        let dropped = if piece.is_empty() {
                            ""
                        } else {
                            ", with the unfinished lines before it"
                        };
                        return ReadOutcome::Unreadable(format!(
                            "line {} is not valid UTF-8 text: ignored{dropped}",
                            self.line_number
                        ));
                    };
                    if extend_piece(&mut piece, &line) {
                        return ReadOutcome::Piece(piece);
                    }
                }
            }
        }
    }
}

/// A terminal: rustyline's line editor, with the history kept in a file across sessions.
pub struct TerminalReader {
    editor: rustyline::DefaultEditor,
    history_path: Option<PathBuf>,
}

impl TerminalReader {
    pub fn new() -> Result<TerminalReader, String> {
        let mut editor =
            rustyline::DefaultEditor::new().map_err(|error| format!("cannot start the line editor: {error}"))?;
        let history_path = history_file_path();
        if let Some(path) = &history_path {
            if let Some(directory) = path.parent() {
                let _ = std::fs::create_dir_all(directory);
            }
            // A missing history file is the normal first run.
            let _ = editor.load_history(path);
        }
        Ok(TerminalReader { editor, history_path })
    }

    fn remember(&mut self, piece: &str) {
        let _ = self.editor.add_history_entry(piece);
        if let Some(path) = &self.history_path {
            // Appended at once, so that history survives a session ended by Ctrl-C during a computation.
            let _ = self.editor.append_history(path);
        }
    }
}

impl LineReader for TerminalReader {
    fn read_piece(&mut self) -> ReadOutcome {
        let mut piece = String::new();
        loop {
            let prompt = if piece.is_empty() { PROMPT } else { CONTINUATION_PROMPT };
            match self.editor.readline(prompt) {
                Ok(line) => {
                    if extend_piece(&mut piece, &line) {
                        if !piece.trim().is_empty() {
                            self.remember(&piece);
                        }
                        return ReadOutcome::Piece(piece);
                    }
                }
                Err(rustyline::error::ReadlineError::Interrupted) => return ReadOutcome::Interrupted,
                // Bytes that are not UTF-8 (the editor stops at the first): reported, and the session goes on.
                Err(rustyline::error::ReadlineError::Io(error)) if error.kind() == std::io::ErrorKind::InvalidData => {
                    return ReadOutcome::Unreadable("the line is not valid UTF-8 text: ignored".to_string())
                }
                // The window was resized: read on.
                Err(rustyline::error::ReadlineError::Signal(_)) => continue,
                // Ctrl-D, or a terminal that cannot be read any more.
                Err(_) => return ReadOutcome::End,
            }
        }
    }
}

/// `$XDG_DATA_HOME/aplc/history`, or `~/.local/share/aplc/history`; none when neither variable is set.
pub fn history_file_path() -> Option<PathBuf> {
    let data_home = match std::env::var_os("XDG_DATA_HOME").filter(|value| !value.is_empty()) {
        Some(directory) => PathBuf::from(directory),
        None => PathBuf::from(std::env::var_os("HOME").filter(|value| !value.is_empty())?).join(".local/share"),
    };
    Some(data_home.join("aplc").join("history"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn braces_in_strings_and_comments_do_not_count() {
        assert_eq!(open_brace_count("f←{"), 1);
        assert_eq!(open_brace_count("f←{⍵+1}"), 0);
        assert_eq!(open_brace_count("s←'{{' ⍝ {"), 0);
        assert_eq!(open_brace_count("s←'it''s {' , {"), 1);
        assert_eq!(open_brace_count("f←{{\n⍵}\n"), 1);
        assert_eq!(open_brace_count("}"), -1);
    }

    #[test]
    fn a_pipe_gathers_an_open_dfn_into_one_piece() {
        let input = "1+1\nf←{\n  ⍵×2 ⍝ }\n}\nf 3\n";
        let mut reader = PipeReader::new(input.as_bytes());
        assert_eq!(reader.read_piece(), ReadOutcome::Piece("1+1".to_string()));
        assert_eq!(reader.read_piece(), ReadOutcome::Piece("f←{\n  ⍵×2 ⍝ }\n}".to_string()));
        assert_eq!(reader.read_piece(), ReadOutcome::Piece("f 3".to_string()));
        assert_eq!(reader.read_piece(), ReadOutcome::End);
    }

    #[test]
    fn a_pipe_gathers_a_traditional_function_into_one_piece() {
        let input = "∇ R←DOUBLE X\n  R←X×2 ⍝ ∇\n∇\nDOUBLE 3\n";
        let mut reader = PipeReader::new(input.as_bytes());
        assert_eq!(
            reader.read_piece(),
            ReadOutcome::Piece("∇ R←DOUBLE X\n  R←X×2 ⍝ ∇\n∇".to_string())
        );
        assert_eq!(reader.read_piece(), ReadOutcome::Piece("DOUBLE 3".to_string()));
        assert!(!is_open_tradfn_definition("∇"));
        assert!(!is_open_tradfn_definition("f←{∇ ⍵}"));
        assert!(is_open_tradfn_definition("∇ F\n  ∇∇"));
        assert!(!is_open_tradfn_definition("∇ F\n∇ ⍝ end"));
    }

    #[test]
    fn a_line_that_is_not_utf8_is_reported_and_reading_goes_on() {
        let input: &[u8] = b"1+1\n\xff\xfe\nf\xe2\x86\x90{\n\xc3(\n}\n2\n";
        let mut reader = PipeReader::new(input);
        assert_eq!(reader.read_piece(), ReadOutcome::Piece("1+1".to_string()));
        let unreadable = |text: &str| ReadOutcome::Unreadable(text.to_string());
        assert_eq!(
            reader.read_piece(),
            unreadable("line 2 is not valid UTF-8 text: ignored")
        );
        // Inside an open dfn (f←{ on line 3), the unfinished piece goes with the bad line.
        assert_eq!(
            reader.read_piece(),
            unreadable("line 4 is not valid UTF-8 text: ignored, with the unfinished lines before it")
        );
        assert_eq!(reader.read_piece(), ReadOutcome::Piece("}".to_string()));
        assert_eq!(reader.read_piece(), ReadOutcome::Piece("2".to_string()));
        assert_eq!(reader.read_piece(), ReadOutcome::End);
    }
}
