//! The driver: runs the pipeline's stages in order for one source file, and is the only module that touches the file
//! system or standard output. Every stage below it is pure and testable in memory.
//!
//! `.apl` files go through syntax → elaboration → TAIL type inference; `.tail` files enter at TAIL. Each failure, from
//! any stage, becomes one [`ProgramError`] that renders with miette against the source text.

use crate::codegen::llvm::target::CodegenOptions;
pub use crate::diagnostics::WithSource;
use crate::runtime::error::AplError;
use crate::source::SourceFile;
use crate::tail::interp::Host;
use crate::tail::value::Value;
use crate::{elab, syntax, tail};
use aplc_runtime::display::PrintSettings;
use miette::Diagnostic;
use std::fmt;
use std::io::Write;
use std::path::Path;
use thiserror::Error;

/// The ways a program can be run. Each backend must print exactly what the TAIL interpreter prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// The TAIL reference interpreter.
    Interp,
    /// The interpreter of the loop IR with its memory decorations (real buffers, bounds-checked loads and stores):
    /// the oracle for the code generators, as the TAIL interpreter is for lowering.
    Mem,
    /// Native code from LLVM, compiled in memory and run in this process.
    Jit,
    /// A native executable built with LLVM and the system linker, then run as a child process.
    Aot,
    /// Native host code (compiled in memory, as `Jit`) that runs the parallel constructs as OpenCL kernels on the
    /// device `APLC_DEVICE` names (the first GPU by default, else the first device; PoCL's CPU device in CI).
    OpenCl,
}

impl Backend {
    /// Every backend the corpus harness runs.
    pub const ALL: &'static [Backend] = &[
        Backend::Interp,
        Backend::Mem,
        Backend::Jit,
        Backend::Aot,
        Backend::OpenCl,
    ];

    /// The name used on the command line and in `⍝? skip` lines.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Interp => "interp",
            Backend::Mem => "mem",
            Backend::Jit => "jit",
            Backend::Aot => "aot",
            Backend::OpenCl => "opencl",
        }
    }

    /// Whether the backend's output can be captured in this process. Native code writes to the process's standard
    /// output and ends the process on an APL error, so the JIT and AOT backends run in a child process for tests.
    pub fn runs_in_process(self) -> bool {
        matches!(self, Backend::Interp | Backend::Mem)
    }
}

/// The stages `aplc dump` can print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The parsed APL, with expressions still unresolved sequences.
    Ast,
    /// TAIL as elaboration produced it, before inference.
    Tail,
    /// TAIL with every let and lambda annotated with its inferred type.
    TailTyped,
    /// Typed TAIL after the optimiser's pipeline.
    TailOpt,
    /// The loop IR (hybrid pull arrays lowered to loops over memory blocks), with its memory decorations, as lowering
    /// produced it.
    Loops,
    /// The memory IR: the loop IR after the memory passes (cheap blocks recomputed, in-place updates, hoisted
    /// allocations), with a table of its blocks and the LMADs of the arrays in them.
    Mem,
    /// The named parameters of the compiled program (`APLC_PARAM_<name>`), one `name = default  # what` a line.
    Params,
    /// The LLVM IR generated from the loop IR, before optimisation.
    Llvm,
    /// The LLVM IR after the O3 pipeline for the target CPU.
    LlvmOpt,
    /// The OpenCL C kernels of the `opencl` backend, the host's schedule of launches and copies, and the parallel
    /// constructs left on the host with why.
    OpenCl,
}

/// The name standard input and `-e` text get in diagnostics.
pub const STANDARD_INPUT_NAME: &str = "<stdin>";
pub const EXPRESSION_NAME: &str = "<expression>";

/// Reads a program file, or an APL script from standard input when the path is `-`. The error is a usage error
/// (exit status 2), worded for the command line.
pub fn read_source(path: &Path) -> Result<SourceFile, String> {
    if path == Path::new("-") {
        return read_standard_input();
    }
    match path.extension().and_then(|extension| extension.to_str()) {
        Some("apl") | Some("tail") => {}
        _ => return Err(format!("{}: expected a .apl or .tail file", path.display())),
    }
    let text = std::fs::read_to_string(path).map_err(|error| format!("cannot read {}: {error}", path.display()))?;
    Ok(SourceFile::new(path.display().to_string(), text))
}

fn read_standard_input() -> Result<SourceFile, String> {
    let mut text = String::new();
    std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
        .map_err(|error| format!("cannot read the program from standard input: {error}"))?;
    Ok(SourceFile::new(STANDARD_INPUT_NAME, text))
}

/// `aplc run -e 'expr'`: the text as an APL script of its own.
pub fn source_from_expression(text: &str) -> SourceFile {
    SourceFile::new(EXPRESSION_NAME, text)
}

/// The usage errors of `aplc build FILE -o OUTPUT` that can be seen before compiling: an output that is the input
/// itself (the source would be overwritten), a directory, or in a folder that does not exist or cannot be written.
pub fn check_build_output(input: &Path, output: &Path) -> Result<(), String> {
    // The same file under any name: another spelling of the path, a symbolic link or a hard link.
    let same_file = match (std::fs::metadata(input), std::fs::metadata(output)) {
        (Ok(input), Ok(output)) => {
            use std::os::unix::fs::MetadataExt;
            (input.dev(), input.ino()) == (output.dev(), output.ino())
        }
        _ => false,
    };
    if same_file {
        return Err(format!(
            "refusing to overwrite the program {} with its executable: choose another -o",
            input.display()
        ));
    }
    if output.is_dir() {
        return Err(format!(
            "cannot write the executable {}: it is a directory",
            output.display()
        ));
    }
    let folder = match output.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(format!(
            "cannot write the executable {}: the folder {} does not exist",
            output.display(),
            folder.display()
        ));
    }
    if !crate::process::is_writable(folder) || (output.exists() && !crate::process::is_writable(output)) {
        return Err(format!(
            "cannot write the executable {}: permission denied",
            output.display()
        ));
    }
    Ok(())
}

/// Any failure of compiling or running a program, rendered against its source.
#[derive(Debug, Error, Diagnostic)]
pub enum ProgramError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Syntax(#[from] syntax::SyntaxErrors),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Elaboration(#[from] elab::ElabErrors),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Tail(Box<WithSource<TailError>>),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Runtime(Box<WithSource<RuntimeError>>),
    /// A pass or a lowering step failed: an internal error, or a construct a later stage does not support yet.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Lowering(Box<WithSource<LoweringError>>),
}

impl ProgramError {
    /// The APL error class a user sees first in the message (`SYNTAX ERROR`, `LENGTH ERROR`, `TYPE ERROR`, ...).
    pub fn apl_name(&self) -> String {
        match self {
            ProgramError::Syntax(_) => "SYNTAX ERROR".to_string(),
            ProgramError::Elaboration(errors) => errors
                .errors
                .first()
                .map_or("SYNTAX ERROR", |error| error.apl_name())
                .to_string(),
            // A .tail file that does not parse or type-check: TAIL's own words.
            ProgramError::Tail(error) => match error.error {
                TailError::Syntax(_) => "SYNTAX ERROR".to_string(),
                TailError::Type(_) => "TYPE ERROR".to_string(),
            },
            ProgramError::Runtime(error) => error.error.0.kind.apl_name().to_string(),
            ProgramError::Lowering(error) => match &error.error {
                LoweringError::Loops(lower_error) => lower_error.to_apl_error().kind.apl_name().to_string(),
                LoweringError::Codegen(crate::codegen::llvm::error::CodegenError::UnsupportedOperator { .. }) => {
                    "NONCE ERROR".to_string()
                }
                LoweringError::Pass(_)
                | LoweringError::LoopInterpreter(_)
                | LoweringError::Codegen(_)
                | LoweringError::Executable(_) => "INTERNAL ERROR".to_string(),
            },
        }
    }

    /// The full diagnostic as miette renders it without colour: source line, caret, code.
    pub fn render_plain(&self) -> String {
        self.render(miette::GraphicalTheme::unicode_nocolor())
    }

    /// The full diagnostic rendered by miette with `theme` (colour for a terminal, plain otherwise): each error once,
    /// as [`crate::diagnostics`] describes.
    pub fn render(&self, theme: miette::GraphicalTheme) -> String {
        crate::diagnostics::render_report(self, crate::diagnostics::ErrorFormat::Human, theme)
    }
}

/// The TAIL stage's errors, for `.tail` input and for the type check after elaboration.
#[derive(Debug, Error, Diagnostic)]
pub enum TailError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Syntax(tail::SyntaxError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Type(tail::TypeError),
}

/// An APL error raised while the program ran, labelled at the APL text that failed where that is known.
#[derive(Debug, Error)]
#[error("{0}")]
pub struct RuntimeError(pub AplError);

impl Diagnostic for RuntimeError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.0.code()
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.0.labels()
    }
}

/// The stages after typed TAIL: the optimiser's verification, loop lowering, and internal failures of the loop
/// interpreter (an out-of-bounds access there is a compiler bug, never the program's APL error).
#[derive(Debug, Error, Diagnostic)]
pub enum LoweringError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Pass(crate::pass::PassError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Loops(crate::loops::LowerError),
    #[error("internal error in the loop interpreter: {0}")]
    #[diagnostic(code(aplc::loops::internal))]
    LoopInterpreter(String),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Codegen(crate::codegen::llvm::error::CodegenError),
    #[error("cannot run the built executable: {0}")]
    #[diagnostic(code(aplc::aot::run))]
    Executable(String),
}

fn lowering_error(error: LoweringError, file: &SourceFile) -> ProgramError {
    ProgramError::Lowering(Box::new(WithSource::new(error, file)))
}

fn tail_error(error: TailError, file: &SourceFile) -> ProgramError {
    ProgramError::Tail(Box::new(WithSource::new(error, file)))
}

/// The stack of the thread that compiles and runs a program (address space only; pages are touched as recursion
/// nests). Every stage walks terms recursively, and a long script is one deep term (each statement is a `let` around
/// the rest): 10,000 statements, or a strand of 10,000 vectors, need far more than a main thread's 8 MB.
const PIPELINE_STACK_BYTES: usize = 1 << 30;

/// Runs `work` (a whole compilation, and the run of the program) on a thread with [`PIPELINE_STACK_BYTES`] of stack.
/// Runs it on this thread when no thread can be started; a panic in `work` is a bug and goes on unwinding here.
pub fn on_pipeline_stack<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    // The work is shared with the thread (a failed spawn drops its closure, and then the work runs here).
    let work = std::sync::Mutex::new(Some(work));
    let take_work = || {
        work.lock()
            .ok()
            .and_then(|mut slot| slot.take())
            .expect("the work runs once")
    };
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("aplc-pipeline".to_string())
            .stack_size(PIPELINE_STACK_BYTES)
            .spawn_scoped(scope, || take_work()());
        match spawned {
            Ok(handle) => handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => take_work()(),
        }
    })
}

/// Parses and elaborates an APL script, or parses a TAIL program: TAIL as the front end produced it, not yet typed.
pub fn untyped_tail(file: &SourceFile) -> Result<tail::Program, ProgramError> {
    if is_tail_file(file) {
        return tail::parse_program(file).map_err(|error| tail_error(TailError::Syntax(error), file));
    }
    let ast = syntax::parse_program(file)?;
    Ok(elab::elaborate_program(&ast, file)?)
}

/// The program as typed TAIL: the input to every later stage and to the interpreter. A `.tail` program prints its
/// value when it ends, as the thesis' TAIL interpreter does; it is made to do so here, before typing, so that every
/// backend prints it in the same format ([`tail::print_value::printing_program_value`]).
pub fn typed_tail(file: &SourceFile) -> Result<tail::Program, ProgramError> {
    let mut program = untyped_tail(file)?;
    if is_tail_file(file) {
        program = tail::print_value::printing_program_value(program);
    }
    tail::infer::infer_program(&mut program).map_err(|error| tail_error(TailError::Type(error), file))?;
    Ok(program)
}

fn is_tail_file(file: &SourceFile) -> bool {
    file.name().ends_with(".tail")
}

/// Typed TAIL after the optimiser. The passes keep every annotation correct (the tests type-check after every
/// pass); here verification is off, as it costs a type check per pass.
pub fn optimised_tail(file: &SourceFile) -> Result<tail::Program, ProgramError> {
    let program = typed_tail(file)?;
    crate::pass::run_pipeline(program, &crate::pass::tail_pipeline(), crate::pass::Verify::Off)
        .map_err(|error| lowering_error(LoweringError::Pass(error), file))
}

/// The loop IR of the optimised program, as lowering produced it (before the memory passes).
pub fn lowered_loop_program(file: &SourceFile) -> Result<crate::loops::ir::Program, ProgramError> {
    let program = optimised_tail(file)?;
    crate::lower::lower_program(&program).map_err(|error| lowering_error(LoweringError::Loops(error), file))
}

/// The loop IR of the optimised program after the memory passes: what the `mem`, `jit` and `aot` backends run.
pub fn loop_program(file: &SourceFile) -> Result<crate::loops::ir::Program, ProgramError> {
    lowered_loop_program(file).map(crate::loops::optimise_memory)
}

/// The loop IR for the OpenCL backend: after the memory passes for devices (no index-space splitting, see
/// `crate::loops::optimise_memory_for_devices`).
pub fn device_loop_program(file: &SourceFile) -> Result<crate::loops::ir::Program, ProgramError> {
    lowered_loop_program(file).map(crate::loops::optimise_memory_for_devices)
}

/// The threshold tree of the program as `backend` compiles it (see `crate::loops::parameters::ThresholdNode`): what
/// `aplc dump --stage params` prints and what `aplc tune` searches. Only native backends (jit, aot, opencl) have
/// parameters; the interpreters ignore them.
pub fn parameter_tree(
    file: &SourceFile,
    backend: Backend,
) -> Result<Vec<crate::loops::parameters::ThresholdNode>, ProgramError> {
    match backend {
        Backend::OpenCl => {
            let min_work = crate::codegen::opencl::OpenClOptions::default().min_work;
            Ok(crate::loops::parameters::parameter_tree(
                &device_loop_program(file)?,
                Some(min_work),
            ))
        }
        _ => Ok(crate::loops::parameters::parameter_tree(&loop_program(file)?, None)),
    }
}

/// `aplc tail`: the typed TAIL text.
pub fn typed_tail_text(file: &SourceFile) -> Result<String, ProgramError> {
    Ok(tail::print_program(&typed_tail(file)?))
}

/// `aplc dump --stage S`.
pub fn dump(file: &SourceFile, stage: Stage) -> Result<String, ProgramError> {
    match stage {
        Stage::Ast if is_tail_file(file) => Ok(tail::print_program(&untyped_tail(file)?)),
        Stage::Ast => Ok(syntax::print_program(&syntax::parse_program(file)?)),
        Stage::Tail => Ok(tail::print_program(&untyped_tail(file)?)),
        Stage::TailTyped => typed_tail_text(file),
        Stage::TailOpt => Ok(tail::print_program(&optimised_tail(file)?)),
        Stage::Loops => Ok(crate::loops::print_program(&lowered_loop_program(file)?)),
        Stage::Mem => Ok(crate::loops::memory_printer::print_memory_program(&loop_program(file)?)),
        Stage::Params => {
            let print = crate::loops::parameters::print_parameter_tree;
            let native = print(&parameter_tree(file, Backend::Jit)?);
            let device = print(&parameter_tree(file, Backend::OpenCl)?);
            Ok(format!(
                "{native}# the OpenCL backend's host code (--backend opencl, --gpu):\n{device}"
            ))
        }
        Stage::OpenCl => {
            // Every construct a kernel can express, as `--opencl-min-work 0` runs them (and the corpus checks them).
            let options = CodegenOptions {
                opencl: Some(crate::codegen::opencl::OpenClOptions { min_work: 0 }),
                ..options_with_pragmas(file, &CodegenOptions::default())?
            };
            let program = device_loop_program(file)?;
            crate::codegen::llvm::opencl_text(&program, &options)
                .map_err(|error| lowering_error(LoweringError::Codegen(error), file))
        }
        Stage::Llvm | Stage::LlvmOpt => {
            let options = options_with_pragmas(file, &CodegenOptions::default())?;
            let program = loop_program(file)?;
            crate::codegen::llvm::llvm_ir_text(&program, &options, stage == Stage::LlvmOpt)
                .map_err(|error| lowering_error(LoweringError::Codegen(error), file))
        }
    }
}

/// `aplc check`: everything short of running. The type checker re-verifies the inferred annotations, so a
/// successful check means the TAIL the backends receive is well typed.
pub fn check(file: &SourceFile) -> Result<String, ProgramError> {
    let program = typed_tail(file)?;
    let result_type = tail::check::check_program(&program).map_err(|error| tail_error(TailError::Type(error), file))?;
    Ok(format!(
        "{}: ok (TAIL result type {})",
        file.name(),
        tail::print_type(&result_type)
    ))
}

/// Runs a program on a backend with the given host; the program's output goes through the host.
pub fn run_with_host(file: &SourceFile, backend: Backend, host: &mut dyn Host) -> Result<(), ProgramError> {
    let runtime_error = |error| ProgramError::Runtime(Box::new(WithSource::new(RuntimeError(error), file)));
    match backend {
        Backend::Interp => {
            let program = typed_tail(file)?;
            tail::interp::eval_program(&program, host)
                .map(|_| ())
                .map_err(runtime_error)
        }
        Backend::Mem => {
            let program = loop_program(file)?;
            match crate::loops::interp::run_program(&program, host) {
                Ok(_) => Ok(()),
                Err(crate::loops::RunError::Apl(error)) => Err(runtime_error(error)),
                Err(internal) => Err(lowering_error(
                    LoweringError::LoopInterpreter(internal.to_string()),
                    file,
                )),
            }
        }
        Backend::Jit | Backend::Aot | Backend::OpenCl => {
            unreachable!("native backends print to the process's own standard output")
        }
    }
}

/// `aplc run`: prints to standard output as the program runs, with `arguments` as its program arguments
/// (`⎕ArgInt`). Returns the exit status the program asks for (native code reports its own APL errors and returns 1).
pub fn run_to_stdout(
    file: &SourceFile,
    backend: Backend,
    options: &CodegenOptions,
    arguments: &[String],
) -> Result<i32, ProgramError> {
    let options = options_with_pragmas(file, options)?;
    if !backend.runs_in_process() {
        return run_native(file, backend, &options, arguments);
    }
    let mut host = ProcessHost {
        output: std::io::stdout().lock(),
        float_mode: options.float_mode(),
        arguments: arguments.to_vec(),
    };
    run_with_host(file, backend, &mut host).map(|()| 0)
}

/// The options of a run or build: those of the command line, and where it says nothing, those of the script's
/// pragmas (`⍝ aplc: float ieee`), with the program's source (its run-time errors are reported with their line). A
/// `.tail` program has no pragmas.
pub fn options_with_pragmas(file: &SourceFile, options: &CodegenOptions) -> Result<CodegenOptions, ProgramError> {
    let options = &CodegenOptions {
        source: Some(file.clone()),
        ..options.clone()
    };
    if is_tail_file(file) {
        return Ok(options.clone());
    }
    let pragmas = syntax::pragma::read_pragmas(file)?;
    Ok(CodegenOptions {
        float_mode: options.float_mode.or(pragmas.float_mode),
        ..options.clone()
    })
}

/// `aplc build`: a standalone native executable at `output`. An interrupt while the intermediates exist ends aplc
/// only once they are removed.
pub fn build_executable(file: &SourceFile, options: &CodegenOptions, output: &Path) -> Result<(), ProgramError> {
    let options = &options_with_pragmas(file, options)?;
    let program = match options.opencl {
        Some(_) => device_loop_program(file)?,
        None => loop_program(file)?,
    };
    let deferral = crate::process::InterruptDeferral::install();
    let built = crate::codegen::llvm::build_executable(&program, options, output)
        .map_err(|error| lowering_error(LoweringError::Codegen(error), file));
    deferral.end_if_interrupted();
    built
}

/// Runs a program with native code. Returns the program's exit status: 0, or 1 after an APL error, which the run-time
/// library has already reported on standard error. The `aot` executable is built in a private temporary folder,
/// removed afterwards, also when aplc is interrupted (the interrupt ends aplc once the folder is gone).
fn run_native(
    file: &SourceFile,
    backend: Backend,
    options: &CodegenOptions,
    arguments: &[String],
) -> Result<i32, ProgramError> {
    let program = match backend {
        Backend::OpenCl => device_loop_program(file)?,
        _ => loop_program(file)?,
    };
    let codegen_error = |error| lowering_error(LoweringError::Codegen(error), file);
    if backend == Backend::OpenCl {
        if let Err(reason) = aplc_runtime::opencl::opencl_device_available() {
            eprintln!("OPENCL ERROR: {reason}");
            return Ok(aplc_runtime::opencl::NO_DEVICE_EXIT_STATUS);
        }
        let options = CodegenOptions {
            opencl: Some(options.opencl.clone().unwrap_or_default()),
            ..options.clone()
        };
        aplc_runtime::arguments::set_process_arguments(arguments.to_vec());
        return crate::codegen::llvm::run_loop_program_in_jit(&program, &options).map_err(codegen_error);
    }
    if backend == Backend::Jit {
        // JIT-compiled code calls the run-time library linked into aplc, which reads the arguments from here.
        aplc_runtime::arguments::set_process_arguments(arguments.to_vec());
        return crate::codegen::llvm::run_loop_program_in_jit(&program, options).map_err(codegen_error);
    }
    let deferral = crate::process::InterruptDeferral::install();
    let outcome = build_and_run_in_temporary_folder(&program, options, arguments, &deferral, file);
    deferral.end_if_interrupted();
    outcome
}

/// The body of `--backend aot`, run while interrupts are deferred: the temporary folder is gone when this returns.
fn build_and_run_in_temporary_folder(
    program: &crate::loops::ir::Program,
    options: &CodegenOptions,
    arguments: &[String],
    deferral: &crate::process::InterruptDeferral,
    file: &SourceFile,
) -> Result<i32, ProgramError> {
    let executable_error = |message| lowering_error(LoweringError::Executable(message), file);
    let folder = crate::process::TemporaryFolder::create().map_err(executable_error)?;
    let executable = folder.path().join("program");
    crate::codegen::llvm::build_executable(program, options, &executable)
        .map_err(|error| lowering_error(LoweringError::Codegen(error), file))?;
    if deferral.received().is_some() {
        // Interrupted while building: the program is not started.
        return Ok(1);
    }
    match crate::process::run_executable_forwarding_signals(&executable, arguments, deferral)
        .map_err(executable_error)?
    {
        crate::process::ChildEnd::Exited(status) => Ok(status),
        // Killed by the interrupt aplc passed on: aplc ends by it too, without a word.
        crate::process::ChildEnd::KilledBy(signal) if deferral.received() == Some(signal) => Ok(1),
        crate::process::ChildEnd::KilledBy(signal) => {
            eprintln!(
                "aplc: the program was killed by {}",
                crate::process::signal_name(signal)
            );
            Ok(1)
        }
    }
}

/// The outcome of one run with its output captured: what the corpus harness compares.
#[derive(Debug)]
pub struct RunReport {
    pub stdout: String,
    pub error: Option<ReportedError>,
}

#[derive(Debug)]
pub struct ReportedError {
    /// `LENGTH ERROR`, `SYNTAX ERROR`, ...
    pub apl_name: String,
    /// The whole diagnostic, rendered without colour.
    pub rendered: String,
}

/// Runs a program with its output captured in memory (files are read relative to the current directory). Only for
/// the backends that run in this process ([`Backend::runs_in_process`]).
pub fn run_source_capturing(file: &SourceFile, backend: Backend) -> RunReport {
    assert!(
        backend.runs_in_process(),
        "{} output cannot be captured in-process",
        backend.name()
    );
    let float_mode = match options_with_pragmas(file, &CodegenOptions::default()) {
        Ok(options) => options.float_mode(),
        Err(error) => {
            return RunReport {
                stdout: String::new(),
                error: Some(ReportedError {
                    apl_name: error.apl_name(),
                    rendered: error.render_plain(),
                }),
            }
        }
    };
    let mut host = ProcessHost {
        output: Vec::new(),
        float_mode,
        arguments: Vec::new(),
    };
    let outcome = on_pipeline_stack(|| run_with_host(file, backend, &mut host));
    RunReport {
        stdout: String::from_utf8_lossy(&host.output).into_owned(),
        error: outcome.err().map(|error| ReportedError {
            apl_name: error.apl_name(),
            rendered: error.render_plain(),
        }),
    }
}

/// The host of a real run: prints to a writer (standard output, or a buffer in tests), reads files from disk, and
/// reads the system clock.
struct ProcessHost<W: Write> {
    output: W,
    float_mode: crate::runtime::float_mode::FloatMode,
    /// The program's arguments (`aplc run prog.apl -- ARGS`).
    arguments: Vec<String>,
}

impl<W: Write> Host for ProcessHost<W> {
    fn float_mode(&self) -> crate::runtime::float_mode::FloatMode {
        self.float_mode
    }

    fn program_arguments(&self) -> &[String] {
        &self.arguments
    }

    fn print(&mut self, value: &Value, settings: PrintSettings) -> Result<(), AplError> {
        for line in crate::tail::interp::display_lines_with_settings(value, settings) {
            writeln!(self.output, "{line}")
                .map_err(|error| AplError::new(crate::runtime::error::AplErrorKind::FileIo, error.to_string()))?;
        }
        Ok(())
    }

    fn read_file(&mut self, path: &str) -> Result<String, AplError> {
        std::fs::read_to_string(path).map_err(|error| {
            AplError::new(
                crate::runtime::error::AplErrorKind::FileIo,
                format!("cannot read {path}: {error}"),
            )
        })
    }

    fn now_millis(&mut self) -> i64 {
        let since_epoch = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        since_epoch.as_millis() as i64
    }
}
