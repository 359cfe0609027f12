//! The session: a persistent elaboration ([`elab::Session`]) plus the record of what the user has defined, and a
//! [`LineBackend`] that runs each line's TAIL. The interpreter is today's backend; a JIT can replace it without any
//! change to the front end, since all a backend sees is one line's untyped TAIL program and a [`Host`].
//!
//! `elab::Session` commits a line's bindings as soon as the line elaborates. When a line then fails (type error,
//! run-time error), the session is rebuilt by elaborating again every piece that succeeded before it, so that the
//! failed line's assignments do not take effect. `)erase` uses the same replay, with the erased name renamed in the
//! earlier pieces to a spelling no user can type (values computed from it stay; later references are VALUE ERRORs).

use crate::driver::{ProgramError, RuntimeError, TailError, WithSource};
use crate::runtime::error::AplError;
use crate::source::{SourceFile, Span};
use crate::syntax::ast;
use crate::tail::interp::Host;
use crate::{elab, syntax, tail};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// One phase of handling a line, with how long it took.
#[derive(Clone, Debug)]
pub struct Phase {
    pub name: &'static str,
    pub duration: Duration,
}

/// What a backend reports for a line that ran.
pub struct LineOutcome {
    /// The line's program as it ran (typed), for `)tail`.
    pub typed_program: tail::Program,
    /// The backend's phases (`infer`, `run`, and for a compiler `compile`), in order.
    pub phases: Vec<Phase>,
}

/// Why a backend could not run a line.
#[derive(Debug)]
pub enum BackendError {
    Type(tail::TypeError),
    Runtime(AplError),
}

/// Runs one line's TAIL program (as elaboration produced it, untyped), printing through the host.
pub trait LineBackend {
    fn run_line(&mut self, program: tail::Program, host: &mut dyn Host) -> Result<LineOutcome, BackendError>;
}

/// The TAIL reference interpreter as a line backend.
#[derive(Default)]
pub struct InterpreterBackend;

impl LineBackend for InterpreterBackend {
    fn run_line(&mut self, mut program: tail::Program, host: &mut dyn Host) -> Result<LineOutcome, BackendError> {
        let started = Instant::now();
        tail::infer::infer_program(&mut program).map_err(BackendError::Type)?;
        let infer = Phase {
            name: "infer",
            duration: started.elapsed(),
        };
        let started = Instant::now();
        tail::interp::eval_program(&program, host).map_err(BackendError::Runtime)?;
        let run = Phase {
            name: "run",
            duration: started.elapsed(),
        };
        Ok(LineOutcome {
            typed_program: program,
            phases: vec![infer, run],
        })
    }
}

/// A failed line as the driver reports any program's failure, rendered against the session's text.
fn program_error_from_backend(error: BackendError, file: &SourceFile) -> ProgramError {
    match error {
        BackendError::Type(error) => ProgramError::Tail(Box::new(WithSource::new(TailError::Type(error), file))),
        BackendError::Runtime(error) => ProgramError::Runtime(Box::new(WithSource::new(RuntimeError(error), file))),
    }
}

/// A run-time error whose position is unknown (no span, or the empty span at the start that passes give the
/// expressions they build) points at the whole line rather than at the session's first character.
fn locate_in_piece(error: BackendError, piece_span: Span) -> BackendError {
    match error {
        BackendError::Runtime(mut error) if error.span.is_none_or(|span| span == Span::default()) => {
            error.span = Some(piece_span);
            BackendError::Runtime(error)
        }
        other => other,
    }
}

/// What a user name denotes, for `)vars` and `)fns`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameClass {
    Array,
    Function,
}

/// A piece that ran: its parse (with `)erase` renamings applied) and its text.
struct AcceptedPiece {
    program: ast::Program,
    file: SourceFile,
}

/// The REPL's state across lines.
pub struct ReplSession<B: LineBackend> {
    elaboration: elab::Session,
    accepted: Vec<AcceptedPiece>,
    names: BTreeMap<String, NameClass>,
    last_typed_program: Option<tail::Program>,
    backend: B,
    /// Every piece read since the session (or `)clear`) began, one after another: the source that diagnostics render
    /// against. A dfn defined on an earlier line keeps spans into that line, so one text must hold all lines.
    transcript: String,
    /// The transcript with every character but newlines replaced by spaces of the same byte length: parsing a new
    /// piece after it gives spans that are offsets into the transcript.
    blanked_transcript: String,
    names_erased: usize,
}

/// The name of the session's transcript in diagnostics (`╭─[session:3:5]`: line 3 of the session).
const TRANSCRIPT_NAME: &str = "session";

impl<B: LineBackend> ReplSession<B> {
    pub fn new(backend: B) -> ReplSession<B> {
        ReplSession {
            elaboration: elab::Session::new(),
            accepted: Vec::new(),
            names: BTreeMap::new(),
            last_typed_program: None,
            backend,
            transcript: String::new(),
            blanked_transcript: String::new(),
            names_erased: 0,
        }
    }

    /// Parses, elaborates and runs one piece of input (a line, a multi-line dfn, or a script for `)load`), as the
    /// next part of the session's transcript. On success
    /// returns the phase timings; on failure the session is as it was before the piece.
    pub fn run_piece(&mut self, text: &str, host: &mut dyn Host) -> Result<Vec<Phase>, ProgramError> {
        let (parse_file, file) = self.append_to_transcript(text);
        let started = Instant::now();
        let program = syntax::parse_program(&parse_file)?;
        let mut phases = vec![Phase {
            name: "parse",
            duration: started.elapsed(),
        }];
        let started = Instant::now();
        let tail_program = self.elaboration.elaborate(&program, &file)?;
        phases.push(Phase {
            name: "elaborate",
            duration: started.elapsed(),
        });
        match self.backend.run_line(tail_program, host) {
            Ok(outcome) => {
                phases.extend(outcome.phases);
                self.last_typed_program = Some(outcome.typed_program);
                let mut assigned = Vec::new();
                for statement in &program.statements {
                    if let ast::StatementKind::Expr(expr) = &statement.kind {
                        collect_assigned_names(expr, &mut assigned);
                    }
                }
                self.accepted.push(AcceptedPiece { program, file });
                for name in assigned {
                    let class = self.classify(&name);
                    self.names.insert(name, class);
                }
                Ok(phases)
            }
            Err(error) => {
                // The elaboration session already holds the line's bindings: rebuild it without them.
                self.replay();
                let piece_span = Span::new(file.text().len() - text.len(), file.text().len());
                Err(program_error_from_backend(locate_in_piece(error, piece_span), &file))
            }
        }
    }

    /// Adds a piece to the transcript; returns the text to parse (earlier pieces blanked) and the text to render
    /// diagnostics against (the whole transcript).
    fn append_to_transcript(&mut self, text: &str) -> (SourceFile, SourceFile) {
        if !self.transcript.is_empty() && !self.transcript.ends_with('\n') {
            self.transcript.push('\n');
            self.blanked_transcript.push('\n');
        }
        let parse_file = SourceFile::new(TRANSCRIPT_NAME, format!("{}{text}", self.blanked_transcript));
        self.transcript.push_str(text);
        for character in text.chars() {
            match character {
                '\n' => self.blanked_transcript.push('\n'),
                other => self
                    .blanked_transcript
                    .extend(std::iter::repeat_n(' ', other.len_utf8())),
            }
        }
        (parse_file, SourceFile::new(TRANSCRIPT_NAME, self.transcript.clone()))
    }

    /// The names of arrays (`Array`) or of functions and operators (`Function`), sorted.
    pub fn names_of_class(&self, class: NameClass) -> Vec<&str> {
        self.names
            .iter()
            .filter(|(_, c)| **c == class)
            .map(|(name, _)| name.as_str())
            .collect()
    }

    /// Forgets names; returns the ones that were not defined.
    pub fn erase(&mut self, names: &[String]) -> Vec<String> {
        let mut unknown = Vec::new();
        for name in names {
            if self.names.remove(name).is_none() {
                unknown.push(name.clone());
                continue;
            }
            self.names_erased += 1;
            // `⁑` cannot appear in an APL name, so no later line can reach the hidden binding.
            let hidden = format!("{name}⁑{}", self.names_erased);
            for piece in &mut self.accepted {
                for statement in &mut piece.program.statements {
                    if let ast::StatementKind::Expr(expr) = &mut statement.kind {
                        rename_outside_dfns(expr, name, &hidden);
                    }
                }
            }
        }
        self.replay();
        unknown
    }

    /// Forgets everything (the prelude is reloaded on first use).
    pub fn clear(&mut self) {
        self.elaboration = elab::Session::new();
        self.accepted.clear();
        self.names.clear();
        self.last_typed_program = None;
        self.transcript.clear();
        self.blanked_transcript.clear();
    }

    /// The typed TAIL of the last line that ran.
    pub fn last_typed_program(&self) -> Option<&tail::Program> {
        self.last_typed_program.as_ref()
    }

    /// Rebuilds the elaboration session from the pieces that ran (elaboration is deterministic, so they elaborate
    /// as before; a piece that no longer does, after an `)erase`, is dropped).
    fn replay(&mut self) {
        self.elaboration = elab::Session::new();
        let pieces = std::mem::take(&mut self.accepted);
        for piece in pieces {
            if self.elaboration.elaborate(&piece.program, &piece.file).is_ok() {
                self.accepted.push(piece);
            }
        }
    }

    /// Whether a name denotes an array: elaborating the name alone prints it exactly when it is one. (The
    /// elaboration session offers no way to ask; a piece that succeeds without printing changes nothing there.)
    fn classify(&mut self, name: &str) -> NameClass {
        let baseline = self.print_count_of_piece("");
        let probe = self.print_count_of_piece(name);
        match (baseline, probe) {
            (Some(baseline), Some(probe)) if probe > baseline => NameClass::Array,
            _ => NameClass::Function,
        }
    }

    fn print_count_of_piece(&mut self, text: &str) -> Option<usize> {
        let file = SourceFile::new("probe", text);
        let program = syntax::parse_program(&file).ok()?;
        let tail_program = self.elaboration.elaborate(&program, &file).ok()?;
        Some(tail::print_program(&tail_program).matches("print(").count())
    }
}

/// The user names assigned by a top-level expression (not inside dfns, whose names are local).
fn collect_assigned_names(expr: &ast::Expr, names: &mut Vec<String>) {
    for item in &expr.items {
        collect_in_item(item, names);
    }
    if let Some(assignment) = &expr.assignment {
        if let ast::AssignTarget::Name(name) = &assignment.target {
            if !names.contains(&name.text) {
                names.push(name.text.clone());
            }
        }
        for index in assignment.indices.iter().flatten().flatten() {
            collect_assigned_names(index, names);
        }
        for item in &assignment.modifier {
            collect_in_item(item, names);
        }
        collect_assigned_names(&assignment.value, names);
    }
}

fn collect_in_item(item: &ast::Item, names: &mut Vec<String>) {
    match item {
        ast::Item::Parenthesised(expr, _) => collect_assigned_names(expr, names),
        ast::Item::Indexed { base, indices, .. } => {
            collect_in_item(base, names);
            for index in indices.iter().flatten() {
                collect_assigned_names(index, names);
            }
        }
        _ => {}
    }
}

/// Renames a user name wherever a top-level expression mentions or assigns it, leaving dfn bodies alone (a dfn
/// that used the erased global then fails when called, as in Dyalog).
fn rename_outside_dfns(expr: &mut ast::Expr, from: &str, to: &str) {
    for item in &mut expr.items {
        rename_in_item(item, from, to);
    }
    if let Some(assignment) = &mut expr.assignment {
        if let ast::AssignTarget::Name(name) = &mut assignment.target {
            if name.text == from {
                name.text = to.to_string();
            }
        }
        for index in assignment.indices.iter_mut().flatten().flatten() {
            rename_outside_dfns(index, from, to);
        }
        for item in &mut assignment.modifier {
            rename_in_item(item, from, to);
        }
        rename_outside_dfns(&mut assignment.value, from, to);
    }
}

fn rename_in_item(item: &mut ast::Item, from: &str, to: &str) {
    match item {
        ast::Item::Name(name) if name.text == from => name.text = to.to_string(),
        ast::Item::Parenthesised(expr, _) => rename_outside_dfns(expr, from, to),
        ast::Item::Indexed { base, indices, .. } => {
            rename_in_item(base, from, to);
            for index in indices.iter_mut().flatten() {
                rename_outside_dfns(index, from, to);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tail::interp::MemoryHost;

    /// Elaboration inlines deeply: run each test on a thread with a large stack, as the session does.
    fn on_session_thread(test: impl FnOnce() + Send + 'static) {
        std::thread::Builder::new()
            .stack_size(1 << 28)
            .spawn(test)
            .expect("thread")
            .join()
            .expect("the test passes");
    }

    /// A backend that refuses every line, as a JIT would on a run-time error.
    struct FailingBackend;

    impl LineBackend for FailingBackend {
        fn run_line(&mut self, _: tail::Program, _: &mut dyn Host) -> Result<LineOutcome, BackendError> {
            Err(BackendError::Runtime(AplError::domain("refused")))
        }
    }

    #[test]
    fn lines_share_names_and_report_every_phase() {
        on_session_thread(|| {
            let mut session = ReplSession::new(InterpreterBackend);
            let mut host = MemoryHost::default();
            session.run_piece("n←4", &mut host).expect("assignment runs");
            let phases = session.run_piece("n×⍳n", &mut host).expect("the line runs");
            assert_eq!(host.printed_lines, vec!["4 8 12 16".to_string()]);
            let names: Vec<&str> = phases.iter().map(|phase| phase.name).collect();
            assert_eq!(names, ["parse", "elaborate", "infer", "run"]);
            assert_eq!(session.names_of_class(NameClass::Array), ["n"]);
        });
    }

    #[test]
    fn a_backend_failure_leaves_no_bindings() {
        on_session_thread(|| {
            let mut session = ReplSession::new(FailingBackend);
            let mut host = MemoryHost::default();
            let error = session.run_piece("k←1", &mut host).expect_err("the backend refuses");
            assert!(error.render_plain().contains("DOMAIN ERROR: refused"));
            assert!(session.names_of_class(NameClass::Array).is_empty());
            // The elaboration session forgot k too: a line using it is a VALUE ERROR before it reaches the backend.
            let error = session.run_piece("k", &mut host).expect_err("k is undefined");
            assert!(error.render_plain().contains("VALUE ERROR"), "{}", error.render_plain());
        });
    }
}
