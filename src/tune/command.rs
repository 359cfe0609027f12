//! `aplc tune prog.apl [--backend jit|opencl] [--dataset FILE]... [--runs N] [-o FILE] [--report FILE]`: builds the
//! program once, records each dataset's default output, searches ([`super::search`]), times the defaults and the
//! tuned settings once more on every dataset, and writes the tuning file (with only comments when the tuned settings
//! are slower anywhere: never a slower setting), the summary table and, on request, the JSON report.

use super::datasets::{read_datasets, Dataset};
use super::report::{format_milliseconds, json_text, summary_table, tuning_file_text, TuningReport};
use super::runner::ExecutableRunner;
use super::search::{all_parameters, Progress, SearchOptions, Tuner};
use crate::codegen::llvm::target::CodegenOptions;
use crate::diagnostics::ErrorFormat;
use crate::driver::{self, Backend, ProgramError};
use crate::process::TemporaryFolder;
use crate::source::SourceFile;
use std::path::{Path, PathBuf};

/// The command line of `aplc tune`.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    /// The program file, as given (its `.tuning` file goes beside it unless `output` says otherwise).
    pub program: PathBuf,
    /// [`Backend::Jit`] (a CPU executable) or [`Backend::OpenCl`] (an executable of `aplc build --gpu`).
    pub backend: Backend,
    pub dataset_files: Vec<PathBuf>,
    /// Timed runs per measurement.
    pub timed_runs: usize,
    pub output: Option<PathBuf>,
    pub report: Option<PathBuf>,
    pub epsilon: f64,
    pub error_format: ErrorFormat,
}

/// Why `aplc tune` stopped.
#[derive(Debug)]
pub enum TuneFailure {
    /// A bad command line or an unreadable dataset file (exit status 2).
    Usage(String),
    /// The program does not compile (rendered as every compile error is).
    Program(ProgramError),
    /// The program failed on its defaults, printed something else under other settings, or a file could not be
    /// written (exit status 1).
    Tuning(String),
}

/// The tuning file of `options`: `-o`, else the program's path with the extension `.tuning`.
pub fn tuning_file_path(options: &TuneOptions) -> PathBuf {
    options
        .output
        .clone()
        .unwrap_or_else(|| options.program.with_extension("tuning"))
}

/// The usage errors that can be seen before tuning starts (which takes minutes): a tuning file or report that would
/// replace the program itself, or that cannot be written (a folder that does not exist, a file or folder without
/// permission to write).
pub fn check_output_paths(program: &Path, output: Option<&Path>, report: Option<&Path>) -> Result<(), String> {
    let tuning_file = output.map_or_else(|| program.with_extension("tuning"), Path::to_path_buf);
    for path in [Some(tuning_file.as_path()), report].into_iter().flatten() {
        if is_same_file(program, path) {
            return Err(format!(
                "refusing to overwrite the program {} with tuning results",
                program.display()
            ));
        }
        let folder = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        let writable = folder.is_dir()
            && crate::process::is_writable(folder)
            && !path.is_dir()
            && (!path.exists() || crate::process::is_writable(path));
        if !writable {
            return Err(format!("cannot write {}", path.display()));
        }
    }
    Ok(())
}

/// Whether two paths name the same existing file (under any name: a link, another spelling).
fn is_same_file(first: &Path, second: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(first), std::fs::metadata(second)) {
        (Ok(first), Ok(second)) => (first.dev(), first.ino()) == (second.dev(), second.ino()),
        _ => false,
    }
}

/// Runs `aplc tune`; prints progress on standard error and the summary on standard output.
pub fn tune_program(source: &SourceFile, options: &TuneOptions) -> Result<TuningReport, TuneFailure> {
    let datasets = read_datasets(&options.dataset_files).map_err(TuneFailure::Usage)?;
    let tree = driver::parameter_tree(source, options.backend).map_err(TuneFailure::Program)?;
    let thresholds: Vec<_> = all_parameters(&tree).into_iter().cloned().collect();
    announce_thresholds(source, &thresholds);
    let mut runner = build_runner(source, options, datasets.clone())?;
    let outcome = measure_and_decide(&mut runner, &tree, thresholds, datasets, options);
    runner.finish();
    let report = outcome?;
    write_outputs(&report, options)?;
    Ok(report)
}

/// The reference runs, the search and the final check.
fn measure_and_decide(
    runner: &mut ExecutableRunner,
    tree: &[crate::loops::parameters::ThresholdNode],
    thresholds: Vec<crate::loops::parameters::Parameter>,
    datasets: Vec<Dataset>,
    options: &TuneOptions,
) -> Result<TuningReport, TuneFailure> {
    eprintln!("tune: a run of each dataset with the default settings, for the output every run must print");
    runner.record_reference_outputs().map_err(TuneFailure::Tuning)?;
    let search_options = SearchOptions {
        epsilon: options.epsilon,
        ..SearchOptions::default()
    };
    let mut print_progress = |progress: &Progress| eprintln!("{}", progress_line(progress));
    let mut tuner = Tuner::new(runner, datasets.len(), search_options, &mut print_progress);
    let search = tuner.search(tree).map_err(TuneFailure::Tuning)?;
    eprintln!("tune: final check: the defaults and the tuned settings on every dataset");
    let verification = tuner.verify(&search.settings).map_err(TuneFailure::Tuning)?;
    let report = TuningReport {
        program: options.program.display().to_string(),
        backend: options.backend.name(),
        timed_runs: options.timed_runs,
        epsilon: options.epsilon,
        thresholds,
        datasets,
        search,
        verification,
        executions: runner.executions(),
    };
    Ok(report)
}

/// Says on standard error which thresholds will be tuned.
fn announce_thresholds(source: &SourceFile, thresholds: &[crate::loops::parameters::Parameter]) {
    let names: Vec<&str> = thresholds.iter().map(|parameter| parameter.name.as_str()).collect();
    match names.is_empty() {
        true => eprintln!("tune: {} has no threshold parameters", source.name()),
        false => eprintln!("tune: {} thresholds: {}", names.len(), names.join(", ")),
    }
}

/// Builds the program into a private temporary folder as `aplc build` (with `--gpu` for the opencl backend) does, and
/// a runner for it.
fn build_runner(
    source: &SourceFile,
    options: &TuneOptions,
    datasets: Vec<Dataset>,
) -> Result<ExecutableRunner, TuneFailure> {
    let folder = TemporaryFolder::create().map_err(TuneFailure::Tuning)?;
    let executable = folder.path().join("program");
    let codegen_options = CodegenOptions {
        error_format: options.error_format,
        opencl: (options.backend == Backend::OpenCl).then(crate::codegen::opencl::OpenClOptions::default),
        ..CodegenOptions::default()
    };
    eprintln!("tune: building the program ({})", options.backend.name());
    driver::build_executable(source, &codegen_options, &executable).map_err(TuneFailure::Program)?;
    Ok(ExecutableRunner::new(folder, executable, datasets, options.timed_runs))
}

/// `tune: run 7 (dataset 2/3) threshold_i4=1200: 41.9 ms (current 41.2 ms, bottom 55.0 ms)`: `current` is the time
/// of the settings chosen so far on this dataset.
pub fn progress_line(progress: &Progress) -> String {
    let references: Vec<String> = progress
        .references
        .iter()
        .map(|(name, time)| format!("{name} {}", format_milliseconds(*time)))
        .collect();
    let references = match references.is_empty() {
        true => String::new(),
        false => format!(" ({})", references.join(", ")),
    };
    format!(
        "tune: run {} (dataset {}/{}) {}: {}{references}",
        progress.run,
        progress.dataset + 1,
        progress.datasets,
        progress.label,
        format_milliseconds(progress.time)
    )
}

/// Writes the tuning file and the JSON report, and prints the summary.
fn write_outputs(report: &TuningReport, options: &TuneOptions) -> Result<(), TuneFailure> {
    let tuning_file = tuning_file_path(options);
    write_file(&tuning_file, &tuning_file_text(report))?;
    if let Some(path) = &options.report {
        write_file(path, &json_text(report))?;
    }
    print!("{}", summary_table(report, &tuning_file.display().to_string()));
    Ok(())
}

fn write_file(path: &Path, text: &str) -> Result<(), TuneFailure> {
    std::fs::write(path, text).map_err(|error| TuneFailure::Tuning(format!("cannot write {}: {error}", path.display())))
}
