//! The session: a persistent elaboration ([`elab::Session::elaborate_line`]), the values of the arrays earlier lines
//! computed, and a [`LineBackend`] that runs each line. A line's TAIL program mentions the arrays of earlier lines as
//! free variables; the backend receives their values as inputs (with their actual shapes, so that the line's types
//! specialise to them) and returns the values of the variables the line bound that later lines may need. Nothing is
//! recomputed. Two backends: [`super::jit::JitBackend`] (native code, the default) and [`InterpreterBackend`] (the
//! TAIL interpreter, the oracle).
//!
//! A line that fails (at elaboration, in the backend, or interrupted) leaves the session as it was before the line.

use super::values::{bind_inputs, coerce_to_base, elab_scalar, InputForm};
use crate::driver::{LoweringError, ProgramError, RuntimeError, TailError, WithSource};
use crate::elab::line::{GlobalClass, KnownValue};
use crate::runtime::error::AplError;
use crate::source::{SourceFile, Span};
use crate::tail::interp::Host;
use crate::tail::value::Value;
use crate::{elab, syntax, tail};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// One phase of handling a line, with how long it took.
#[derive(Clone, Debug)]
pub struct Phase {
    pub name: &'static str,
    pub duration: Duration,
}

/// Times one phase.
pub fn timed<T>(phases: &mut Vec<Phase>, name: &'static str, work: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let result = work();
    phases.push(Phase {
        name,
        duration: started.elapsed(),
    });
    result
}

/// A line for a backend to run.
pub struct LineRequest {
    /// The line's TAIL program as elaboration produced it (untyped). Its free variables are the inputs.
    pub program: tail::Program,
    /// The value of each free variable of the program.
    pub inputs: Vec<(String, Value)>,
    /// How many values the program's result holds: none (its result is ignored), one, or a tuple of that many.
    pub output_count: usize,
}

/// What a backend reports for a line that ran.
pub struct LineOutcome {
    /// The line's program as it ran (typed, inputs bound), for `)tail`.
    pub typed_program: tail::Program,
    /// The backend's phases (`infer`, `run`, and for a compiler `compile`), in order.
    pub phases: Vec<Phase>,
    /// The line's outputs, `output_count` of them.
    pub outputs: Vec<Value>,
}

/// Why a backend could not run a line.
#[derive(Debug)]
pub enum BackendError {
    Type(tail::TypeError),
    Runtime(AplError),
    Lowering(LoweringError),
    /// Ctrl-C stopped the line.
    Interrupted,
    /// A failure already described in words (the line's process ended unexpectedly).
    Failed(String),
}

/// Runs one line's TAIL program, printing through the host (or to standard output).
pub trait LineBackend {
    fn run_line(&mut self, line: LineRequest, host: &mut dyn Host) -> Result<LineOutcome, BackendError>;
}

/// The TAIL reference interpreter as a line backend: inputs are bound to literals.
#[derive(Default)]
pub struct InterpreterBackend;

impl LineBackend for InterpreterBackend {
    fn run_line(&mut self, line: LineRequest, host: &mut dyn Host) -> Result<LineOutcome, BackendError> {
        let mut phases = Vec::new();
        let (mut program, _) = bind_inputs(line.program, &line.inputs, InputForm::Literal);
        timed(&mut phases, "infer", || tail::infer::infer_program(&mut program)).map_err(BackendError::Type)?;
        let result =
            timed(&mut phases, "run", || tail::interp::eval_program(&program, host)).map_err(BackendError::Runtime)?;
        Ok(LineOutcome {
            typed_program: program,
            phases,
            outputs: split_outputs(result, line.output_count),
        })
    }
}

/// The program's result as the list of its outputs.
fn split_outputs(result: Value, output_count: usize) -> Vec<Value> {
    match (output_count, result) {
        (0, _) => Vec::new(),
        (1, value) => vec![value],
        (_, Value::Tuple(components)) => components.to_vec(),
        (_, value) => vec![value],
    }
}

/// Why a piece of input failed.
#[derive(Debug)]
pub enum PieceError {
    /// A diagnostic, rendered against the session's text.
    Program(Box<ProgramError>),
    /// Ctrl-C stopped the computation.
    Interrupted,
    /// Anything else, in words.
    Message(String),
}

impl From<ProgramError> for PieceError {
    fn from(error: ProgramError) -> PieceError {
        PieceError::Program(Box::new(error))
    }
}

impl From<syntax::SyntaxErrors> for PieceError {
    fn from(error: syntax::SyntaxErrors) -> PieceError {
        PieceError::from(ProgramError::from(error))
    }
}

impl From<elab::ElabErrors> for PieceError {
    fn from(error: elab::ElabErrors) -> PieceError {
        PieceError::from(ProgramError::from(error))
    }
}

impl PieceError {
    /// The text a user sees, without colour.
    pub fn render_plain(&self) -> String {
        match self {
            PieceError::Program(error) => error.render_plain(),
            PieceError::Interrupted => "INTERRUPT".to_string(),
            PieceError::Message(message) => message.clone(),
        }
    }
}

/// A failed line as the driver reports any program's failure, rendered against the session's text.
fn piece_error_from_backend(error: BackendError, file: &SourceFile) -> PieceError {
    match error {
        BackendError::Type(error) => ProgramError::Tail(Box::new(WithSource::new(TailError::Type(error), file))).into(),
        BackendError::Runtime(error) => {
            ProgramError::Runtime(Box::new(WithSource::new(RuntimeError(error), file))).into()
        }
        BackendError::Lowering(error) => ProgramError::Lowering(Box::new(WithSource::new(error, file))).into(),
        BackendError::Interrupted => PieceError::Interrupted,
        BackendError::Failed(message) => PieceError::Message(message),
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
pub type NameClass = GlobalClass;

/// The REPL's state across lines.
pub struct ReplSession<B: LineBackend> {
    elaboration: elab::Session,
    /// The values of the let-bound variables of earlier lines that the session still refers to.
    values: HashMap<String, Value>,
    last_typed_program: Option<tail::Program>,
    backend: B,
    /// Every piece read since the session (or `)clear`) began, one after another: the source that diagnostics render
    /// against. A dfn defined on an earlier line keeps spans into that line, so one text must hold all lines.
    transcript: String,
    /// The transcript with every character but newlines replaced by spaces of the same byte length: parsing a new
    /// piece after it gives spans that are offsets into the transcript.
    blanked_transcript: String,
}

/// The name of the session's transcript in diagnostics (`╭─[session:3:5]`: line 3 of the session).
const TRANSCRIPT_NAME: &str = "session";

impl<B: LineBackend> ReplSession<B> {
    pub fn new(backend: B) -> ReplSession<B> {
        ReplSession {
            elaboration: elab::Session::new(),
            values: HashMap::new(),
            last_typed_program: None,
            backend,
            transcript: String::new(),
            blanked_transcript: String::new(),
        }
    }

    /// Parses, elaborates and runs one piece of input (a line, a multi-line dfn, or a script for `)load`), as the
    /// next part of the session's transcript. On success returns the phase timings; on failure the session is as it
    /// was before the piece.
    pub fn run_piece(&mut self, text: &str, host: &mut dyn Host) -> Result<Vec<Phase>, PieceError> {
        let (parse_file, file) = self.append_to_transcript(text);
        let mut phases = Vec::new();
        let program = timed(&mut phases, "parse", || syntax::parse_program(&parse_file))?;
        let checkpoint = self.elaboration.checkpoint();
        let values = &self.values;
        let known = |name: &str| values.get(name).map(known_value);
        let line = timed(&mut phases, "elaborate", || {
            self.elaboration.elaborate_line(&program, &file, &known)
        })?;
        let mut inputs = Vec::new();
        for name in crate::opt::traverse::free_variables(&line.program.body) {
            match self.values.get(&name) {
                Some(value) => inputs.push((name, value.clone())),
                None => {
                    self.elaboration.restore(checkpoint);
                    return Err(PieceError::Message(format!("internal error: no value for {name}")));
                }
            }
        }
        let request = LineRequest {
            program: line.program,
            inputs,
            output_count: line.outputs.len(),
        };
        match self.backend.run_line(request, host) {
            Ok(outcome) if outcome.outputs.len() == line.outputs.len() => {
                phases.extend(outcome.phases);
                self.last_typed_program = Some(outcome.typed_program);
                for ((name, base, _), value) in line.outputs.into_iter().zip(outcome.outputs) {
                    self.values.insert(name, coerce_to_base(value, base));
                }
                let referenced = self.elaboration.referenced_variables();
                self.values.retain(|name, _| referenced.contains(name));
                Ok(phases)
            }
            Ok(outcome) => {
                self.elaboration.restore(checkpoint);
                Err(PieceError::Message(format!(
                    "internal error: the line returned {} values for {} outputs",
                    outcome.outputs.len(),
                    line.outputs.len()
                )))
            }
            Err(error) => {
                self.elaboration.restore(checkpoint);
                let piece_span = Span::new(file.text().len() - text.len(), file.text().len());
                Err(piece_error_from_backend(locate_in_piece(error, piece_span), &file))
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
    pub fn names_of_class(&self, class: NameClass) -> Vec<String> {
        self.elaboration
            .global_names()
            .into_iter()
            .filter(|(_, c)| *c == class)
            .map(|(name, _)| name)
            .collect()
    }

    /// Forgets names; returns the ones that were not defined. Values computed from them stay; dfns that mention
    /// them keep the binding they were defined with.
    pub fn erase(&mut self, names: &[String]) -> Vec<String> {
        let unknown = names
            .iter()
            .filter(|name| !self.elaboration.erase(name))
            .cloned()
            .collect();
        let referenced = self.elaboration.referenced_variables();
        self.values.retain(|name, _| referenced.contains(name));
        unknown
    }

    /// Forgets everything (the prelude is reloaded on first use).
    pub fn clear(&mut self) {
        self.elaboration = elab::Session::new();
        self.values.clear();
        self.last_typed_program = None;
        self.transcript.clear();
        self.blanked_transcript.clear();
    }

    /// The typed TAIL of the last line that ran.
    pub fn last_typed_program(&self) -> Option<&tail::Program> {
        self.last_typed_program.as_ref()
    }

    /// How many values of earlier lines the session keeps (values no name refers to any more are dropped).
    pub fn stored_value_count(&self) -> usize {
        self.values.len()
    }
}

/// What elaboration may know about a kept value: its shape, and a scalar's value.
fn known_value(value: &Value) -> KnownValue {
    match value {
        Value::Scalar(scalar) => KnownValue {
            shape: Vec::new(),
            scalar: Some(elab_scalar(*scalar)),
        },
        Value::Array(array) => KnownValue {
            shape: array.shape.clone(),
            scalar: None,
        },
        Value::Function(_) | Value::Tuple(_) => KnownValue {
            shape: Vec::new(),
            scalar: None,
        },
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
        fn run_line(&mut self, _: LineRequest, _: &mut dyn Host) -> Result<LineOutcome, BackendError> {
            Err(BackendError::Runtime(AplError::domain("refused")))
        }
    }

    #[test]
    fn lines_share_names_and_report_every_phase() {
        on_session_thread(|| {
            let mut session = ReplSession::new(InterpreterBackend);
            let mut host = MemoryHost::default();
            session.run_piece("n←2+2", &mut host).expect("assignment runs");
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

    #[test]
    fn earlier_values_are_inputs_not_recomputed() {
        on_session_thread(|| {
            let mut session = ReplSession::new(InterpreterBackend);
            let mut host = MemoryHost::default();
            // The assignment prints once; later lines use its value without running it again.
            session.run_piece("v←⎕←2 3⍴⍳6", &mut host).expect("the line runs");
            session.run_piece("+/v", &mut host).expect("the line runs");
            session.run_piece("w←v×2", &mut host).expect("the line runs");
            session.run_piece("w", &mut host).expect("the line runs");
            assert_eq!(host.printed_lines, ["1 2 3", "4 5 6", "6 15", "2  4  6", "8 10 12"]);
            // The line's program reads v as an input of its actual shape.
            let tail_text = tail::print_program(session.last_typed_program().expect("a line ran"));
            assert!(tail_text.contains("reshape([2,3]"), "{tail_text}");
            assert_eq!(session.stored_value_count(), 2);
            // Reassigning v drops its old value; erasing w drops w's.
            session.run_piece("v←0", &mut host).expect("the line runs");
            session.erase(&["w".to_string()]);
            assert_eq!(session.stored_value_count(), 0);
        });
    }
}
