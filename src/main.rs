//! The `aplc` command line. Parses arguments, calls the driver, renders diagnostics and sets the exit code:
//! 0 success, 1 APL or program error (syntax, type, run-time), 2 usage error (bad arguments, unreadable file).

use aplc::codegen::llvm::target::CodegenOptions;
use aplc::driver::{self, Backend, Stage};
use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

/// aplc compiles Dyalog-style APL through the typed array language TAIL.
///
/// Input files ending in .apl are APL scripts; files ending in .tail are TAIL programs.
#[derive(Parser)]
#[command(name = "aplc", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a program and print what it prints (each unassigned top-level value, and ⎕←).
    ///
    /// Exits with 1 and a diagnostic pointing into the source when the program has an APL error.
    Run {
        /// The .apl script or .tail program.
        file: PathBuf,
        /// Which backend runs the program: `jit` (native code compiled in memory) by default; `interp` is the TAIL
        /// reference interpreter.
        #[arg(long, value_enum, default_value_t = BackendArg::Jit)]
        backend: BackendArg,
        /// The CPU native code is generated for (jit, aot): an LLVM CPU name such as `x86-64-v3`; the host by default.
        #[arg(long)]
        target_cpu: Option<String>,
    },
    /// Compile a program to a standalone native executable (needs no LLVM to run).
    Build {
        /// The .apl script or .tail program.
        file: PathBuf,
        /// Where to write the executable.
        #[arg(short, long)]
        output: PathBuf,
        /// The CPU to generate code for: an LLVM CPU name such as `x86-64-v2` (for executables meant to run on other
        /// machines); the host CPU by default.
        #[arg(long)]
        target_cpu: Option<String>,
    },
    /// Print the program's TAIL, with every let and lambda annotated with its inferred type.
    Tail {
        /// The .apl script or .tail program.
        file: PathBuf,
    },
    /// Check a program without running it: syntax, elaboration, TAIL typing, and the type annotations written in
    /// comments (`⍝: <double>ρ → <double>ρ` in a dfn, `⍝: name : type` above an assignment).
    Check {
        /// The .apl script or .tail program.
        file: PathBuf,
    },
    /// Print the program as one stage of the pipeline sees it.
    Dump {
        /// The stage: `ast` (the parsed APL, unresolved), `tail` (elaborated TAIL, before type inference annotates
        /// it), `tail-typed` (after inference), `tail-opt` (after the optimiser), `loops` (the loop IR with its
        /// memory decorations: blocks and LMADs), `mem` (the loop IR after the memory passes, with a table of its
        /// blocks), `llvm` and `llvm-opt` (LLVM IR before and after optimisation).
        #[arg(long, value_enum)]
        stage: StageArg,
        /// The .apl script (or .tail program, for the TAIL stages).
        file: PathBuf,
    },
    /// An interactive session: each line is compiled and run; names stay defined across lines. `)help` lists the
    /// system commands. Reads plain lines (no prompts) when standard input is not a terminal.
    Repl {
        /// Which backend runs each line: `jit` compiles it to native code, `interp` is the TAIL interpreter.
        #[arg(long, value_enum, default_value_t = aplc::repl::ReplBackend::Jit)]
        backend: aplc::repl::ReplBackend,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum BackendArg {
    /// The TAIL reference interpreter: the oracle for every other backend.
    Interp,
    /// The interpreter of the loop IR with memory decorations (after optimisation and fusion).
    Mem,
    /// Native code from LLVM, compiled in memory and run at once.
    Jit,
    /// A native executable (as `aplc build` makes), run as a child process.
    Aot,
}

#[derive(Clone, Copy, ValueEnum)]
enum StageArg {
    Ast,
    Tail,
    TailTyped,
    TailOpt,
    Loops,
    Mem,
    Llvm,
    LlvmOpt,
}

impl From<BackendArg> for Backend {
    fn from(backend: BackendArg) -> Backend {
        match backend {
            BackendArg::Interp => Backend::Interp,
            BackendArg::Mem => Backend::Mem,
            BackendArg::Jit => Backend::Jit,
            BackendArg::Aot => Backend::Aot,
        }
    }
}

impl From<StageArg> for Stage {
    fn from(stage: StageArg) -> Stage {
        match stage {
            StageArg::Ast => Stage::Ast,
            StageArg::Tail => Stage::Tail,
            StageArg::TailTyped => Stage::TailTyped,
            StageArg::TailOpt => Stage::TailOpt,
            StageArg::Loops => Stage::Loops,
            StageArg::Mem => Stage::Mem,
            StageArg::Llvm => Stage::Llvm,
            StageArg::LlvmOpt => Stage::LlvmOpt,
        }
    }
}

const EXIT_PROGRAM_ERROR: u8 = 1;
const EXIT_USAGE_ERROR: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let file_path = match &cli.command {
        Command::Repl { backend } => return aplc::repl::main(*backend),
        Command::Run { file, .. }
        | Command::Build { file, .. }
        | Command::Tail { file }
        | Command::Check { file }
        | Command::Dump { file, .. } => file,
    };
    let source = match driver::read_source(file_path) {
        Ok(source) => source,
        Err(message) => {
            eprintln!("aplc: {message}");
            return ExitCode::from(EXIT_USAGE_ERROR);
        }
    };
    let outcome = driver::on_pipeline_stack(|| run_command(cli.command, &source));
    match outcome {
        Ok(None) => ExitCode::SUCCESS,
        // The program's own failure, already reported by the run-time library.
        Ok(Some(status)) => ExitCode::from(status),
        Err(error) => {
            eprintln!("{:?}", miette::Report::new(error));
            ExitCode::from(EXIT_PROGRAM_ERROR)
        }
    }
}

/// Runs one command on a source file: `Some(status)` when a program run asks for a non-zero exit status.
fn run_command(command: Command, source: &aplc::source::SourceFile) -> Result<Option<u8>, driver::ProgramError> {
    let outcome = match command {
        Command::Run {
            backend, target_cpu, ..
        } => match driver::run_to_stdout(source, backend.into(), &CodegenOptions { target_cpu }) {
            Ok(status) if status != 0 => return Ok(Some(EXIT_PROGRAM_ERROR)),
            outcome => outcome.map(|_| ()),
        },
        Command::Build { output, target_cpu, .. } => {
            driver::build_executable(source, &CodegenOptions { target_cpu }, &output)
        }
        Command::Tail { .. } => driver::typed_tail_text(source).map(|text| write_text_to_stdout(&text)),
        Command::Check { .. } => driver::check(source).map(|summary| write_text_to_stdout(&summary)),
        Command::Dump { stage, .. } => driver::dump(source, stage.into()).map(|text| write_text_to_stdout(&text)),
        Command::Repl { .. } => unreachable!("the session returned above"),
    };
    outcome.map(|()| None)
}

/// Writes a dump or report and a newline to standard output. A reader that stops early (`aplc dump ... | head`)
/// closes the pipe; that ends the output quietly instead of panicking as `println!` would.
fn write_text_to_stdout(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{text}").and_then(|()| stdout.flush());
}
