//! The `aplc` command line. Parses arguments, calls the driver, renders diagnostics and sets the exit code:
//! 0 success, 1 APL or program error (syntax, type, run-time), 2 usage error (bad arguments, unreadable file).

use aplc::codegen::llvm::target::{check_target_cpu_name, code_generator_description, CodegenOptions};
use aplc::diagnostics::ErrorFormat;
use aplc::driver::{self, Backend, Stage};
use aplc::runtime::float_mode::FloatMode;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

/// aplc compiles Dyalog-style APL through the typed array language TAIL.
///
/// Input files ending in .apl are APL scripts; files ending in .tail are TAIL programs.
#[derive(Parser)]
#[command(name = "aplc", version, about, long_about = None)]
struct Cli {
    /// How errors are reported: `human` (the source line with a caret, code and help) or `json` (one JSON object
    /// per error and line on standard error: severity, code, message, file, line, column, span, label, help).
    #[arg(long, alias = "message-format", global = true, value_enum, default_value_t = ErrorFormatArg::Human)]
    error_format: ErrorFormatArg,
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum ErrorFormatArg {
    Human,
    Json,
}

#[derive(Subcommand)]
enum Command {
    /// Run a program and print what it prints (each unassigned top-level value, and ⎕←).
    ///
    /// Exits with 1 and a diagnostic pointing into the source when the program has an APL error.
    ///
    /// Native backends read the program's threshold settings from the tuning file `prog.tuning` beside `prog.apl`
    /// (as `aplc tune` writes it) when there is one, unless the environment variable APLC_TUNING names another file
    /// (an empty APLC_TUNING reads none); APLC_PARAM_<name>=value overrides both.
    Run {
        /// The .apl script or .tail program; `-` reads an APL script from standard input.
        #[arg(required_unless_present = "expression", conflicts_with = "expression")]
        file: Option<PathBuf>,
        /// Run this APL text instead of a file (`aplc run -e '+/⍳10'`).
        #[arg(short, long, value_name = "APL")]
        expression: Option<String>,
        /// Which backend runs the program: `jit` (native code compiled in memory) by default; `interp` is the TAIL
        /// reference interpreter.
        #[arg(long, value_enum, default_value_t = BackendArg::Jit)]
        backend: BackendArg,
        /// The CPU native code is generated for (jit, aot): an LLVM CPU name such as `x86-64-v3`; the host by default.
        #[arg(long)]
        target_cpu: Option<String>,
        /// How many threads the parallel loops of native code (jit, aot) use; all cores by default. The environment
        /// variable APLC_THREADS overrides it when the program runs.
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
        threads: Option<u16>,
        /// What double arithmetic does with results that are not finite real numbers: `dyalog` (DOMAIN ERROR, as
        /// Dyalog APL) or `ieee` (∞ and NaN flow on and print as ∞, ¯∞, NaN). By default what the script's
        /// `⍝ aplc: float NAME` pragma says, else dyalog.
        #[arg(long, value_enum)]
        float: Option<FloatArg>,
        /// With `--backend opencl`: a parallel construct whose work is known at compile time to be below this many
        /// element operations stays on the host (0 sends every construct a kernel can express to the device).
        #[arg(long, value_name = "N")]
        opencl_min_work: Option<i64>,
        /// The program's arguments, after `--` (`aplc run prog.apl -- 1000 2.5`): `d ⎕ArgInt i` reads the i-th as an
        /// integer, `d ⎕ArgDouble i` as a number (d when there are fewer than i). A built executable takes them as
        /// its own arguments (`./prog 1000 2.5`).
        #[arg(last = true, value_name = "ARGS")]
        arguments: Vec<String>,
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
        /// The number of threads the executable's parallel loops use by default (all cores if not given); the
        /// environment variable APLC_THREADS overrides it when the executable runs.
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
        threads: Option<u16>,
        /// What double arithmetic does with results that are not finite real numbers: `dyalog` (DOMAIN ERROR, as
        /// Dyalog APL) or `ieee` (∞ and NaN flow on and print as ∞, ¯∞, NaN). By default what the script's
        /// `⍝ aplc: float NAME` pragma says, else dyalog.
        #[arg(long, value_enum)]
        float: Option<FloatArg>,
        /// Run the parallel constructs as OpenCL kernels (the device is chosen when the executable runs:
        /// APLC_DEVICE, else the first GPU, else the first OpenCL device).
        #[arg(long)]
        gpu: bool,
        /// With `--gpu`: a parallel construct whose work is known at compile time to be below this many element
        /// operations stays on the host.
        #[arg(long, value_name = "N", requires = "gpu")]
        opencl_min_work: Option<i64>,
    },
    /// Find faster values for the program's threshold parameters on given datasets and write them to a tuning file.
    ///
    /// Builds the program once (as `aplc build`, with `--gpu` for `--backend opencl`) and runs it on each dataset
    /// with different threshold settings, trying only the values the program compares each threshold with
    /// (Munksgaard et al.'s structure-aware tuning), from the deepest thresholds of the tree up. A dataset file holds
    /// the program's arguments (what `⎕ArgInt` and `⎕ArgDouble` read): words separated by white space, on one or
    /// more lines, `#` starting a comment to the end of the line. Without --dataset the program runs once per
    /// measurement with no arguments. Each measurement is the median of --runs timed runs after one warm-up run;
    /// every run must print what the default run prints. At the end the defaults and the tuned settings are timed
    /// once more on every dataset, and the tuned settings are written only if they are nowhere slower (within
    /// --epsilon): `name=value` lines after `#` comments giving the backend, the datasets with their default and
    /// tuned times and the number of runs. Built executables read `prog.tuning` beside them, `aplc run prog.apl`
    /// reads it beside the script, and APLC_TUNING=file names another.
    Tune {
        /// The .apl script or .tail program.
        file: PathBuf,
        /// Which code to tune: `jit` (native code for the CPU's threads) or `opencl` (an `aplc build --gpu`
        /// executable, whose offload thresholds choose between a kernel and the host).
        #[arg(long, value_enum, default_value_t = TuneBackendArg::Jit)]
        backend: TuneBackendArg,
        /// A dataset file: the program's arguments, white-space separated, `#` comments (repeat for several
        /// datasets; the tuned settings must suit them all).
        #[arg(long = "dataset", value_name = "FILE")]
        datasets: Vec<PathBuf>,
        /// Timed runs per measurement; their median is the measurement.
        #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u16).range(1..))]
        runs: u16,
        /// Where to write the tuning file (`prog.tuning` beside the program by default).
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Also write the figures (times per dataset, runs, settings) as JSON to this file.
        #[arg(long, value_name = "FILE")]
        report: Option<PathBuf>,
        /// The relative margin of timing noise: a setting other than the default must be faster by more than this
        /// to be chosen, and the tuned settings may not be slower than the defaults by more than this anywhere.
        #[arg(long, value_name = "FRACTION", default_value_t = 0.02)]
        epsilon: f64,
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
        /// blocks), `llvm` and `llvm-opt` (LLVM IR before and after optimisation), `opencl` (the kernels of
        /// `--backend opencl` and the host's schedule of launches and copies).
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
        /// What double arithmetic does with results that are not finite real numbers: `dyalog` (DOMAIN ERROR) or
        /// `ieee` (∞ and NaN flow on).
        #[arg(long, value_enum, default_value_t = FloatArg::Dyalog)]
        float: FloatArg,
    },
    /// List the OpenCL devices that `--backend opencl` and `--gpu` executables can run on (APLC_DEVICE, a
    /// case-insensitive substring of "<platform> <device>", picks one; without it the first GPU, else the first
    /// device).
    Devices,
    /// Print a completion script for a shell: `aplc completions bash > /etc/bash_completion.d/aplc`,
    /// `aplc completions zsh > ~/.zfunc/_aplc`, `aplc completions fish > ~/.config/fish/completions/aplc.fish`.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum FloatArg {
    /// DOMAIN ERROR when a result is ∞ or NaN, as Dyalog APL.
    Dyalog,
    /// IEEE 754: ∞ and NaN flow on.
    Ieee,
}

impl From<FloatArg> for FloatMode {
    fn from(float: FloatArg) -> FloatMode {
        match float {
            FloatArg::Dyalog => FloatMode::Dyalog,
            FloatArg::Ieee => FloatMode::Ieee,
        }
    }
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
    /// Native host code with the parallel constructs as OpenCL kernels (APLC_DEVICE chooses the device).
    Opencl,
}

/// The backends `aplc tune` can tune.
#[derive(Clone, Copy, ValueEnum)]
enum TuneBackendArg {
    /// Native code for the CPU: thresholds choose between all threads and one.
    Jit,
    /// Native host code with OpenCL kernels: thresholds also choose between a kernel and the host.
    Opencl,
}

impl From<TuneBackendArg> for Backend {
    fn from(backend: TuneBackendArg) -> Backend {
        match backend {
            TuneBackendArg::Jit => Backend::Jit,
            TuneBackendArg::Opencl => Backend::OpenCl,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum StageArg {
    Ast,
    Tail,
    TailTyped,
    TailOpt,
    Loops,
    Mem,
    /// The program's named parameters (thresholds of parallel constructs) with their defaults.
    Params,
    Llvm,
    LlvmOpt,
    /// The OpenCL kernels, the host's schedule of launches and copies, and what stays on the host.
    Opencl,
}

impl From<BackendArg> for Backend {
    fn from(backend: BackendArg) -> Backend {
        match backend {
            BackendArg::Interp => Backend::Interp,
            BackendArg::Mem => Backend::Mem,
            BackendArg::Jit => Backend::Jit,
            BackendArg::Aot => Backend::Aot,
            BackendArg::Opencl => Backend::OpenCl,
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
            StageArg::Params => Stage::Params,
            StageArg::Llvm => Stage::Llvm,
            StageArg::LlvmOpt => Stage::LlvmOpt,
            StageArg::Opencl => Stage::OpenCl,
        }
    }
}

fn codegen_options(
    target_cpu: Option<String>,
    threads: Option<u16>,
    float: Option<FloatArg>,
    error_format: ErrorFormat,
) -> CodegenOptions {
    CodegenOptions {
        error_format,
        target_cpu,
        threads: threads.map(usize::from),
        float_mode: float.map(FloatMode::from),
        // The driver gives the program's source.
        source: None,
        opencl: None,
    }
}

/// The OpenCL options of `--opencl-min-work` (the defaults without it).
fn opencl_options(min_work: Option<i64>) -> aplc::codegen::opencl::OpenClOptions {
    let defaults = aplc::codegen::opencl::OpenClOptions::default();
    aplc::codegen::opencl::OpenClOptions {
        min_work: min_work.unwrap_or(defaults.min_work),
    }
}

const EXIT_PROGRAM_ERROR: u8 = 1;
const EXIT_USAGE_ERROR: u8 = 2;

fn main() -> ExitCode {
    let cli = parse_arguments();
    let error_format = match cli.error_format {
        ErrorFormatArg::Human => ErrorFormat::Human,
        ErrorFormatArg::Json => ErrorFormat::Json,
    };
    if let Err(message) = check_arguments(&cli.command) {
        eprintln!("aplc: {message}");
        return ExitCode::from(EXIT_USAGE_ERROR);
    }
    if let Command::Run { file: Some(file), .. } = &cli.command {
        use_tuning_file_beside(file);
    }
    let source = match &cli.command {
        Command::Repl { backend, float } => return aplc::repl::main(*backend, (*float).into()),
        Command::Devices => {
            return match aplc::codegen::opencl::devices::list_devices() {
                Ok(devices) => {
                    write_text_to_stdout(&aplc::codegen::opencl::devices::describe_devices(&devices));
                    ExitCode::SUCCESS
                }
                Err(reason) => {
                    eprintln!("aplc: {reason}");
                    ExitCode::from(aplc_runtime::opencl::NO_DEVICE_EXIT_STATUS as u8)
                }
            };
        }
        Command::Completions { shell } => {
            clap_complete::generate(*shell, &mut Cli::command(), "aplc", &mut std::io::stdout());
            return ExitCode::SUCCESS;
        }
        Command::Run {
            expression: Some(text), ..
        } => Ok(driver::source_from_expression(text)),
        Command::Run { file: Some(file), .. }
        | Command::Build { file, .. }
        | Command::Tune { file, .. }
        | Command::Tail { file }
        | Command::Check { file }
        | Command::Dump { file, .. } => driver::read_source(file),
        Command::Run { .. } => unreachable!("clap requires a file or an expression"),
    };
    let source = match source {
        Ok(source) => source,
        Err(message) => {
            eprintln!("aplc: {message}");
            return ExitCode::from(EXIT_USAGE_ERROR);
        }
    };
    let outcome = driver::on_pipeline_stack(|| run_command(cli.command, &source, error_format));
    match outcome {
        Ok(None) => ExitCode::SUCCESS,
        // The program's own failure, already reported by the run-time library.
        Ok(Some(status)) => ExitCode::from(status),
        Err(error) => {
            eprint!(
                "{}",
                aplc::diagnostics::render_report(&error, error_format, terminal_theme())
            );
            ExitCode::from(EXIT_PROGRAM_ERROR)
        }
    }
}

/// The arguments, with `--version` saying which LLVM generates the code and for which target.
fn parse_arguments() -> Cli {
    // clap wants the version for the life of the process: a static keeps it (reachable, so memory checkers do not
    // count it as lost, as they did a leaked string).
    static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let version = VERSION.get_or_init(|| format!("{} ({})", env!("CARGO_PKG_VERSION"), code_generator_description()));
    let matches = Cli::command().version(version.as_str()).get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|error| error.exit())
}

/// The usage errors clap cannot see: an unknown CPU name (LLVM would abort on it), and a build whose output would
/// overwrite its input or cannot be written.
fn check_arguments(command: &Command) -> Result<(), String> {
    match command {
        Command::Run {
            target_cpu: Some(name), ..
        } => check_target_cpu_name(name),
        Command::Build {
            file,
            output,
            target_cpu,
            ..
        } => {
            if let Some(name) = target_cpu {
                check_target_cpu_name(name)?;
            }
            driver::check_build_output(file, output)
        }
        Command::Tune {
            file,
            epsilon,
            output,
            report,
            ..
        } => {
            if file.as_path() == std::path::Path::new("-") {
                return Err("aplc tune needs a program file, not standard input".to_string());
            }
            if !(epsilon.is_finite() && *epsilon >= 0.0) {
                return Err(format!("--epsilon must be a fraction of at least 0, not {epsilon}"));
            }
            aplc::tune::command::check_output_paths(file, output.as_deref(), report.as_deref())
        }
        _ => Ok(()),
    }
}

/// `aplc run prog.apl` reads `prog.tuning` beside the script (as `aplc tune` writes it) unless APLC_TUNING is set
/// (an empty value included, which reads no file): the JIT runs inside aplc, whose own path would name
/// `aplc.tuning`, and `--backend aot` runs an executable in a temporary folder. Called before any thread starts,
/// since setting an environment variable while another thread reads the environment is undefined behaviour.
fn use_tuning_file_beside(program: &std::path::Path) {
    if std::env::var_os(aplc_runtime::tuning::TUNING_FILE_VARIABLE).is_some() || program == std::path::Path::new("-") {
        return;
    }
    let tuning_file = program.with_extension("tuning");
    if tuning_file.is_file() {
        std::env::set_var(aplc_runtime::tuning::TUNING_FILE_VARIABLE, &tuning_file);
    }
}

/// Colour on a terminal unless `NO_COLOR` is set; plain Unicode drawing otherwise (pipes, files, editors).
fn terminal_theme() -> miette::GraphicalTheme {
    use std::io::IsTerminal;
    let colour_wanted = std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty());
    if colour_wanted && std::io::stderr().is_terminal() {
        miette::GraphicalTheme::unicode()
    } else {
        miette::GraphicalTheme::unicode_nocolor()
    }
}

/// Runs one command on a source file: `Some(status)` when a program run asks for a non-zero exit status.
fn run_command(
    command: Command,
    source: &aplc::source::SourceFile,
    error_format: ErrorFormat,
) -> Result<Option<u8>, driver::ProgramError> {
    let outcome = match command {
        Command::Run {
            backend,
            target_cpu,
            threads,
            float,
            arguments,
            opencl_min_work,
            ..
        } => match driver::run_to_stdout(
            source,
            backend.into(),
            &CodegenOptions {
                // Only the opencl backend has kernels; `--opencl-min-work` means nothing to the others.
                opencl: (matches!(backend, BackendArg::Opencl)).then(|| opencl_options(opencl_min_work)),
                ..codegen_options(target_cpu, threads, float, error_format)
            },
            &arguments,
        ) {
            // No OpenCL device: its own status, so that scripts and test harnesses can tell it from an APL error.
            Ok(status) if status == aplc_runtime::opencl::NO_DEVICE_EXIT_STATUS => return Ok(Some(status as u8)),
            Ok(status) if status != 0 => return Ok(Some(EXIT_PROGRAM_ERROR)),
            outcome => outcome.map(|_| ()),
        },
        Command::Build {
            output,
            target_cpu,
            threads,
            float,
            gpu,
            opencl_min_work,
            ..
        } => driver::build_executable(
            source,
            &CodegenOptions {
                opencl: gpu.then(|| opencl_options(opencl_min_work)),
                ..codegen_options(target_cpu, threads, float, error_format)
            },
            &output,
        ),
        Command::Tune {
            file,
            backend,
            datasets,
            runs,
            output,
            report,
            epsilon,
        } => {
            let options = aplc::tune::command::TuneOptions {
                program: file,
                backend: backend.into(),
                dataset_files: datasets,
                timed_runs: usize::from(runs),
                output,
                report,
                epsilon,
                error_format,
            };
            return match aplc::tune::command::tune_program(source, &options) {
                Ok(_) => Ok(None),
                Err(aplc::tune::command::TuneFailure::Program(error)) => Err(error),
                Err(aplc::tune::command::TuneFailure::Usage(message)) => {
                    eprintln!("aplc: {message}");
                    Ok(Some(EXIT_USAGE_ERROR))
                }
                Err(aplc::tune::command::TuneFailure::Tuning(message)) => {
                    eprintln!("aplc: tune: {message}");
                    Ok(Some(EXIT_PROGRAM_ERROR))
                }
            };
        }
        Command::Tail { .. } => driver::typed_tail_text(source).map(|text| write_text_to_stdout(&text)),
        Command::Check { .. } => driver::check(source).map(|summary| write_text_to_stdout(&summary)),
        Command::Dump { stage, .. } => driver::dump(source, stage.into()).map(|text| write_text_to_stdout(&text)),
        Command::Repl { .. } | Command::Completions { .. } | Command::Devices => unreachable!("handled above"),
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
