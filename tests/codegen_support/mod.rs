//! Shared by the `codegen_*` tests: loop programs built from TAIL text or APL files (through the real front end and
//! the loop lowering), the reference outcome from the loop-IR and TAIL interpreters, and the outcome of the same
//! program compiled ahead of time (an executable run as a child process) and in the JIT (the test binary itself run
//! as a child process, because an APL error exits the whole process).
//!
//! A JIT child is this test binary started with [`JIT_PROGRAM_VARIABLE`] naming a file of TAIL (or APL) text and
//! the filter selecting the test that calls [`run_jit_child_if_requested`]: that test compiles and runs the
//! program, writes [`JIT_OUTPUT_MARKER`] before the program's output (the test harness prints its own lines first)
//! and exits with the program's status.

#![allow(dead_code)] // Each test file uses some of the helpers.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use aplc::codegen::llvm::target::CodegenOptions;
use aplc::codegen::llvm::{build_executable, run_loop_program_in_jit};
use aplc::loops::check::check_program;
use aplc::loops::interp::run_program;
use aplc::loops::ir::{self, ArrayRef, Expr, ResultValue, Stmt};
use aplc::loops::{print_program, LowerError, RunError};
use aplc::lower::lower_program;
use aplc::source::SourceFile;
use aplc::tail::interp::{display_lines, eval_program, MemoryHost};

/// The environment variable that makes a test binary a JIT child: the path of the program file.
pub const JIT_PROGRAM_VARIABLE: &str = "APLC_CODEGEN_TEST_JIT_PROGRAM";

/// The line a JIT child writes before the program's output.
pub const JIT_OUTPUT_MARKER: &str = "---- aplc jit output ----";

/// The `⎕PP` the result of a program is shown with (Dyalog's default), as the TAIL tests display results.
const RESULT_PRINT_PRECISION: i64 = 10;

/// What a run printed, its exit status (0, or 1 after an APL error) and the name of the APL error it stopped with.
#[derive(Debug, PartialEq, Eq, Clone)]
pub struct Outcome {
    pub lines: Vec<String>,
    pub status: i32,
    pub error: Option<String>,
}

/// The APL error name in a compiled program's standard error: `aplrt_error` writes `LENGTH ERROR: message`.
fn apl_error_name_in(standard_error: &str) -> Option<String> {
    standard_error.lines().find_map(|line| {
        line.split_once(": ")
            .map(|(name, _)| name)
            .filter(|name| name.ends_with(" ERROR") || *name == "WS FULL")
            .map(str::to_string)
    })
}

/// A program as source text with a file name whose extension (`.tail` or `.apl`) picks the front end.
pub fn source_file(name: &str, text: &str) -> SourceFile {
    SourceFile::new(name.to_string(), text.to_string())
}

/// Typed TAIL through the driver's front end (APL is elaborated, TAIL parsed), or the error text. A `.tail` program
/// is taken as written: the harness shows the value itself ([`tail_interpreter_outcome`], [`program_showing_result`]),
/// so the driver's rewrite that makes `aplc run prog.tail` print it (`aplc::tail::print_value`) would show it twice.
pub fn typed_tail(file: &SourceFile) -> Result<aplc::tail::Program, String> {
    let mut program = aplc::driver::untyped_tail(file).map_err(|error| error.to_string())?;
    aplc::tail::infer::infer_program(&mut program).map_err(|error| error.to_string())?;
    Ok(program)
}

/// Lowers to the loop IR and checks it; the IR then also prints its result value at the end, so that a compiled
/// program shows what the interpreters return.
pub fn lowered_program_showing_result(program: &aplc::tail::Program) -> Result<ir::Program, LowerError> {
    let lowered = lower_program(program)?;
    if let Err(error) = check_program(&lowered) {
        panic!("{error}\n{}", print_program(&lowered));
    }
    Ok(program_showing_result(lowered))
}

/// The program with print statements for its result appended (a tuple prints each component).
pub fn program_showing_result(mut program: ir::Program) -> ir::Program {
    append_result_prints(&program.result.clone(), &mut program.body);
    program
}

fn append_result_prints(result: &ResultValue, body: &mut Vec<Stmt>) {
    let precision = Expr::Int(RESULT_PRINT_PRECISION);
    match result {
        ResultValue::Scalar(value) => body.push(Stmt::PrintScalar {
            value: value.clone(),
            precision,
        }),
        ResultValue::Array(array) => body.push(Stmt::PrintArray {
            array: ArrayRef {
                block: array.block,
                shape: array.shape.clone(),
            },
            precision,
        }),
        ResultValue::Tuple(components) => {
            for component in components {
                append_result_prints(component, body);
            }
        }
    }
}

/// A host that sees what a compiled program run in the repository root sees: the files of apl-tests/data/ under
/// their relative names, and a clock set to the present (so `⎕NOW>0` holds everywhere).
fn host_like_a_compiled_program() -> MemoryHost {
    let mut host = MemoryHost {
        now: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("a clock after 1970")
            .as_millis() as i64,
        ..MemoryHost::default()
    };
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("apl-tests/data");
    for entry in std::fs::read_dir(&data).expect("apl-tests/data exists") {
        let path = entry.expect("a directory entry").path();
        let name = format!("apl-tests/data/{}", path.file_name().unwrap().to_string_lossy());
        host.files
            .insert(name, std::fs::read_to_string(&path).expect("a text file"));
    }
    host
}

/// The TAIL interpreter's outcome: what it printed, then the display of the result (status 1 and no result after
/// an APL error).
pub fn tail_interpreter_outcome(program: &aplc::tail::Program) -> Outcome {
    let mut host = host_like_a_compiled_program();
    let result = eval_program(program, &mut host);
    let mut lines = host.printed_lines;
    let (status, error) = match result {
        Ok(value) => {
            lines.extend(display_lines(&value));
            (0, None)
        }
        Err(error) => (1, Some(error.kind.apl_name().to_string())),
    };
    Outcome { lines, status, error }
}

/// The loop-IR interpreter's outcome (the program already prints its result).
pub fn loop_interpreter_outcome(program: &ir::Program) -> Outcome {
    let mut host = host_like_a_compiled_program();
    let (status, error) = match run_program(program, &mut host) {
        Ok(_) => (0, None),
        Err(RunError::Apl(error)) => (1, Some(error.kind.apl_name().to_string())),
        Err(RunError::Internal(message)) => panic!("loop interpreter: {message}\n{}", print_program(program)),
    };
    Outcome {
        lines: host.printed_lines,
        status,
        error,
    }
}

/// A fresh directory for one test's files, removed when the test ends.
pub struct ScratchDirectory {
    path: PathBuf,
}

impl ScratchDirectory {
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl std::ops::Deref for ScratchDirectory {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.path
    }
}

impl Drop for ScratchDirectory {
    fn drop(&mut self) {
        // Leftovers in the temporary directory are harmless; a failed removal must not hide the test's outcome.
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

pub fn scratch_directory(test_name: &str) -> ScratchDirectory {
    let path = std::env::temp_dir().join(format!("aplc_codegen_{}_{test_name}", std::process::id()));
    std::fs::create_dir_all(&path).expect("a scratch directory");
    ScratchDirectory { path }
}

/// Builds the program into an executable in `directory` and runs it.
pub fn aot_outcome(program: &ir::Program, directory: &Path, name: &str) -> Outcome {
    let executable = directory.join(name);
    build_executable(program, &CodegenOptions::default(), &executable)
        .unwrap_or_else(|error| panic!("{name}: AOT build failed: {error}\n{}", print_program(program)));
    // In the repository root, like the other backends, so that programs find apl-tests/data/ files.
    let output = Command::new(&executable)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the executable runs");
    let _ = std::fs::remove_file(&executable);
    Outcome {
        lines: String::from_utf8(output.stdout)
            .expect("UTF-8 output")
            .lines()
            .map(str::to_string)
            .collect(),
        status: output.status.code().expect("an exit status, not a signal"),
        error: apl_error_name_in(&String::from_utf8_lossy(&output.stderr)),
    }
}

/// Runs the program text in the JIT inside a child process (see the module documentation); `child_test_name` is
/// the test that calls [`run_jit_child_if_requested`].
pub fn jit_outcome(file: &SourceFile, directory: &Path, child_test_name: &str) -> Outcome {
    let program_path = directory.join(file.name());
    std::fs::write(&program_path, file.text()).expect("the program file is written");
    let output = Command::new(std::env::current_exe().expect("the test binary"))
        .args(["--exact", child_test_name, "--nocapture", "--test-threads=1"])
        .env(JIT_PROGRAM_VARIABLE, &program_path)
        .output()
        .expect("the test binary runs");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 output");
    let (_, program_output) = stdout.split_once(&format!("{JIT_OUTPUT_MARKER}\n")).unwrap_or_else(|| {
        panic!(
            "no JIT output marker; stdout:\n{stdout}\nstderr:\n{}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    Outcome {
        lines: program_output.lines().map(str::to_string).collect(),
        status: output.status.code().expect("an exit status, not a signal"),
        error: apl_error_name_in(&String::from_utf8_lossy(&output.stderr)),
    }
}

/// In a JIT child: compiles the program named by [`JIT_PROGRAM_VARIABLE`] (showing its result), runs it and exits
/// with its status. Does nothing in a normal test run.
pub fn run_jit_child_if_requested() {
    let Some(path) = std::env::var_os(JIT_PROGRAM_VARIABLE) else {
        return;
    };
    let path = PathBuf::from(path);
    let text = std::fs::read_to_string(&path).expect("the program file");
    let name = path.file_name().expect("a file name").to_string_lossy().into_owned();
    let typed = typed_tail(&source_file(&name, &text)).expect("the program is well typed");
    let program = lowered_program_showing_result(&typed).expect("the program lowers");
    let mut standard_output = std::io::stdout();
    writeln!(standard_output, "{JIT_OUTPUT_MARKER}").expect("stdout");
    standard_output.flush().expect("stdout");
    let status = run_loop_program_in_jit(&program, &CodegenOptions::default()).expect("the JIT compiles the program");
    std::process::exit(status);
}
