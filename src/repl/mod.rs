//! `aplc repl`: an interactive session in the manner of Dyalog's. Every line is compiled (syntax → elaboration →
//! TAIL) and run; names assigned on earlier lines stay defined; unassigned results print in Dyalog's display format.
//!
//! Code map: `line_reader.rs` (terminal input through rustyline with a history file, or plain lines from a pipe;
//! multi-line dfns), `commands.rs` (the `)` system commands), `session.rs` (the persistent session: kept values,
//! and the [`session::LineBackend`] trait with the TAIL interpreter behind it), `jit.rs` (the native backend, the
//! default), `child.rs` (running a compiled line in a forked process; Ctrl-C), `values.rs` (how kept values become a
//! line's inputs and come back from the child).
//!
//! Each line is elaborated on its own: arrays assigned on earlier lines are inputs of the line's program, with their
//! actual shapes, and the arrays it assigns come back as outputs that the session keeps. Nothing is recomputed.
//!
//! Ctrl-C while typing cancels the line. Ctrl-C during a native computation ends the line's child process; the session
//! prints `INTERRUPT` and goes on. With the interpreter backend (`--backend interp`), which runs in the session's
//! process and has no interruption points, Ctrl-C during a computation ends the session.

pub mod child;
pub mod commands;
pub mod jit;
pub mod line_reader;
pub mod session;
pub mod values;

use crate::codegen::llvm::target::CodegenOptions;
use crate::runtime::error::{AplError, AplErrorKind};
use crate::runtime::float_mode::FloatMode;
use crate::tail::interp::Host;
use crate::tail::value::Value;
use aplc_runtime::display::PrintSettings;
use commands::SystemCommand;
use line_reader::{LineReader, PipeReader, ReadOutcome, TerminalReader};
use session::{InterpreterBackend, LineBackend, NameClass, Phase, PieceError, ReplSession};
use std::io::{IsTerminal, Write};

/// The session thread's stack: elaboration inlines recursion deeply (address space only, touched as needed).
const SESSION_STACK_BYTES: usize = 1 << 30;

/// Which backend runs the session's lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ReplBackend {
    /// Native code: each line compiled by LLVM's JIT and run in a child process.
    Jit,
    /// The TAIL reference interpreter, in the session's process.
    Interp,
}

/// Runs the session on standard input until `)off` or the end of input. The exit status is 0 then; 2 when the
/// session could not start.
pub fn main(backend: ReplBackend, float_mode: FloatMode) -> std::process::ExitCode {
    let outcome = std::thread::Builder::new()
        .name("aplc-repl".to_string())
        .stack_size(SESSION_STACK_BYTES)
        .spawn(move || run_on_standard_streams(backend, float_mode))
        .map(|handle| {
            block_interrupts_on_this_thread();
            handle.join()
        });
    match outcome {
        Ok(Ok(Ok(()))) => std::process::ExitCode::SUCCESS,
        Ok(Ok(Err(message))) => {
            eprintln!("aplc: {message}");
            std::process::ExitCode::from(2)
        }
        _ => {
            eprintln!("aplc: the session ended with an internal error");
            std::process::ExitCode::from(2)
        }
    }
}

/// SIGINT goes to the session thread, so that it interrupts the session's waiting for a line's process.
fn block_interrupts_on_this_thread() {
    // SAFETY: changes this thread's signal mask only.
    unsafe {
        let mut signals: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut signals);
        libc::sigaddset(&mut signals, libc::SIGINT);
        libc::pthread_sigmask(libc::SIG_BLOCK, &signals, std::ptr::null_mut());
    }
}

fn run_on_standard_streams(backend: ReplBackend, float_mode: FloatMode) -> Result<(), String> {
    let interactive = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let colour = std::io::stderr().is_terminal();
    let mut reader: Box<dyn LineReader> = if interactive {
        println!("aplc session: )help lists the commands; )off or Ctrl-D leaves.");
        Box::new(TerminalReader::new()?)
    } else {
        Box::new(PipeReader::new(std::io::stdin().lock()))
    };
    let mut host = StdoutHost { float_mode };
    match backend {
        ReplBackend::Jit => {
            let options = CodegenOptions {
                float_mode: Some(float_mode),
                ..CodegenOptions::default()
            };
            Repl::new(jit::JitBackend { options }, colour).run(reader.as_mut(), &mut host)
        }
        ReplBackend::Interp => Repl::new(InterpreterBackend, colour).run(reader.as_mut(), &mut host),
    }
    Ok(())
}

/// The loop over pieces of input, with its display settings.
struct Repl<B: LineBackend> {
    session: ReplSession<B>,
    show_timings: bool,
    colour: bool,
}

/// Whether the session goes on after a piece.
enum Continue {
    Yes,
    Off,
}

impl<B: LineBackend> Repl<B> {
    fn new(backend: B, colour: bool) -> Repl<B> {
        Repl {
            session: ReplSession::new(backend),
            show_timings: false,
            colour,
        }
    }

    fn run(&mut self, reader: &mut dyn LineReader, host: &mut dyn Host) {
        loop {
            match reader.read_piece() {
                ReadOutcome::End => break,
                ReadOutcome::Interrupted => continue,
                ReadOutcome::Unreadable(message) => report(&message),
                ReadOutcome::Piece(text) => {
                    if let Continue::Off = self.piece(&text, host) {
                        break;
                    }
                }
            }
        }
        let _ = std::io::stdout().flush();
    }

    fn piece(&mut self, text: &str, host: &mut dyn Host) -> Continue {
        if text.trim().is_empty() {
            return Continue::Yes;
        }
        if !commands::is_system_command(text) {
            self.run_apl(text, host);
            return Continue::Yes;
        }
        match commands::parse_system_command(text) {
            Ok(SystemCommand::Off) => return Continue::Off,
            Ok(command) => self.system_command(command, host),
            Err(message) => report(&message),
        }
        Continue::Yes
    }

    fn run_apl(&mut self, text: &str, host: &mut dyn Host) {
        match self.session.run_piece(text, host) {
            Ok(phases) if self.show_timings => println!("{}", timing_line(&phases)),
            Ok(_) => {}
            Err(PieceError::Program(error)) => {
                let theme = if self.colour {
                    miette::GraphicalTheme::unicode()
                } else {
                    miette::GraphicalTheme::unicode_nocolor()
                };
                report(error.render(theme).trim_end())
            }
            Err(other) => report(&other.render_plain()),
        }
    }

    fn system_command(&mut self, command: SystemCommand, host: &mut dyn Host) {
        match command {
            SystemCommand::Vars => print_names(&self.session.names_of_class(NameClass::Array)),
            SystemCommand::Fns => print_names(&self.session.names_of_class(NameClass::Function)),
            SystemCommand::Erase(names) => {
                for name in self.session.erase(&names) {
                    report(&format!("not found: {name}"));
                }
            }
            SystemCommand::Clear => {
                self.session.clear();
                println!("clear ws");
            }
            SystemCommand::Load(path) => match std::fs::read_to_string(&path) {
                Ok(text) => self.run_apl(&text, host),
                Err(error) => report(&format!("cannot read {path}: {error}")),
            },
            SystemCommand::Tail => match self.session.last_typed_program() {
                Some(program) => println!("{}", crate::tail::print_program(program)),
                None => report("no line has run yet"),
            },
            SystemCommand::Time => {
                self.show_timings = !self.show_timings;
                println!("timing {}", if self.show_timings { "on" } else { "off" });
            }
            SystemCommand::Help => println!("{}", commands::HELP_TEXT),
            SystemCommand::Off => {}
        }
    }
}

/// `)vars`, `)fns`: the names on one line, as Dyalog lists them.
fn print_names(names: &[String]) {
    if !names.is_empty() {
        println!("{}", names.join(" "));
    }
}

/// A message about the session, on standard error after what the line printed.
fn report(message: &str) {
    let _ = std::io::stdout().flush();
    eprintln!("{message}");
}

/// `parse 0.012 ms  elaborate 0.340 ms  infer 0.051 ms  run 0.003 ms`.
pub fn timing_line(phases: &[Phase]) -> String {
    let parts: Vec<String> = phases
        .iter()
        .map(|phase| format!("{} {:.3} ms", phase.name, phase.duration.as_secs_f64() * 1000.0))
        .collect();
    parts.join("  ")
}

/// The session's host: prints to standard output (flushed at once, so output interleaves with diagnostics), reads
/// files relative to the current directory, and reads the system clock.
struct StdoutHost {
    float_mode: FloatMode,
}

impl Host for StdoutHost {
    fn float_mode(&self) -> FloatMode {
        self.float_mode
    }

    fn print(&mut self, value: &Value, settings: PrintSettings) -> Result<(), AplError> {
        let mut output = std::io::stdout().lock();
        for line in crate::tail::interp::display_lines_with_settings(value, settings) {
            writeln!(output, "{line}").map_err(|error| AplError::new(AplErrorKind::FileIo, error.to_string()))?;
        }
        output
            .flush()
            .map_err(|error| AplError::new(AplErrorKind::FileIo, error.to_string()))
    }

    fn read_file(&mut self, path: &str) -> Result<String, AplError> {
        std::fs::read_to_string(path)
            .map_err(|error| AplError::new(AplErrorKind::FileIo, format!("cannot read {path}: {error}")))
    }

    fn now_millis(&mut self) -> i64 {
        let since_epoch = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        since_epoch.as_millis() as i64
    }
}
