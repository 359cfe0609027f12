//! The `aplc` command line as a user meets it: a copied (installed) binary builds executables from any folder with
//! nothing of the build tree around; `aplc build` never replaces its input or a user's file, and an output it cannot
//! write is a usage error (exit 2); `aplc help <command>`; `run -`, `run -e`, `--version`; `aplc check` rejects a
//! wrong annotation on a dfn that is never called. Expected outputs are worked out by hand.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const EXIT_USAGE_ERROR: i32 = 2;

/// A fresh folder for one test's files.
fn test_directory(test_name: &str) -> PathBuf {
    let directory = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli").join(test_name);
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    directory
}

fn aplc_in(directory: &Path, arguments: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_aplc"))
        .args(arguments)
        .current_dir(directory)
        .output()
        .expect("aplc runs")
}

/// Runs aplc in `directory` with `input` on its standard input.
fn aplc_with_input(directory: &Path, arguments: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_aplc"))
        .args(arguments)
        .current_dir(directory)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("aplc starts");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().expect("aplc runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The names in a folder, sorted.
fn folder_entries(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// x←⍳5 is 1 2 3 4 5; +/x×x is 1+4+9+16+25 = 55; ⌽x is 5 4 3 2 1.
const PROGRAM: &str = "x←⍳5\n+/x×x\n⌽x\n";
const PROGRAM_OUTPUT: &str = "55\n5 4 3 2 1\n";

#[test]
fn a_copied_binary_builds_executables_from_any_folder() {
    let directory = test_directory("copied_binary");
    let (bin, work, cache, home) = (
        directory.join("bin"),
        directory.join("work"),
        directory.join("cache"),
        directory.join("home"),
    );
    for folder in [&bin, &work, &cache, &home] {
        std::fs::create_dir(folder).unwrap();
    }
    // Only the binary: no target/ folder beside it, no run-time library anywhere but inside it.
    let aplc = bin.join("aplc");
    std::fs::copy(env!("CARGO_BIN_EXE_aplc"), &aplc).unwrap();
    std::fs::write(work.join("prog.apl"), PROGRAM).unwrap();
    let build = |output: &str| {
        let mut command = Command::new(&aplc);
        command
            .args(["build", "prog.apl", "-o", output])
            .current_dir(&work)
            .env_remove("APLC_RUNTIME_LIB")
            .env("XDG_CACHE_HOME", &cache)
            .env("HOME", &home)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        // The copy was written by this process: a child forked by another test meanwhile may hold it for a moment.
        let child = aplc::process::spawn_retrying_busy_executable(&mut command).unwrap();
        child.wait_with_output().unwrap()
    };
    let built = build("prog");
    assert_eq!((text(&built.stderr), built.status.code()), (String::new(), Some(0)));
    let run = Command::new(work.join("prog")).output().unwrap();
    assert_eq!(
        (text(&run.stdout), run.status.code()),
        (PROGRAM_OUTPUT.to_string(), Some(0))
    );

    // The archive went into $XDG_CACHE_HOME/aplc, once, under its fingerprint; nothing into HOME.
    let extracted = folder_entries(&cache.join("aplc"));
    assert_eq!(extracted.len(), 1, "{extracted:?}");
    assert!(
        extracted[0].starts_with("libaplc_runtime-") && extracted[0].ends_with(".a"),
        "{extracted:?}"
    );
    assert!(folder_entries(&home).is_empty());
    // A second build reuses it.
    let again = build("prog2");
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert_eq!(folder_entries(&cache.join("aplc")), extracted);
    assert_eq!(
        text(&Command::new(work.join("prog2")).output().unwrap().stdout),
        PROGRAM_OUTPUT
    );
}

#[test]
fn the_output_may_not_be_the_input_under_any_name() {
    let directory = test_directory("output_is_input");
    std::fs::write(directory.join("p.apl"), PROGRAM).unwrap();
    std::os::unix::fs::symlink("p.apl", directory.join("symbolic.apl")).unwrap();
    std::fs::hard_link(directory.join("p.apl"), directory.join("hard.apl")).unwrap();
    let absolute = directory.join("p.apl");
    for output in [
        "p.apl",
        "./p.apl",
        "symbolic.apl",
        "hard.apl",
        absolute.to_str().unwrap(),
    ] {
        let result = aplc_in(&directory, &["build", "p.apl", "-o", output]);
        assert_eq!(result.status.code(), Some(EXIT_USAGE_ERROR), "-o {output}");
        assert!(
            text(&result.stderr).contains("refusing to overwrite the program p.apl"),
            "-o {output}: {}",
            text(&result.stderr)
        );
    }
    assert_eq!(std::fs::read_to_string(directory.join("p.apl")).unwrap(), PROGRAM);
    assert_eq!(folder_entries(&directory), ["hard.apl", "p.apl", "symbolic.apl"]);
}

#[test]
fn an_output_that_cannot_be_written_is_a_usage_error() {
    let directory = test_directory("unwritable_output");
    std::fs::write(directory.join("p.apl"), PROGRAM).unwrap();
    std::fs::create_dir(directory.join("folder")).unwrap();
    let cases = [
        ("missing/prog", "the folder missing does not exist"),
        ("folder", "it is a directory"),
    ];
    for (output, message) in cases {
        let result = aplc_in(&directory, &["build", "p.apl", "-o", output]);
        assert_eq!(result.status.code(), Some(EXIT_USAGE_ERROR), "-o {output}");
        assert!(
            text(&result.stderr).contains(message),
            "-o {output}: {}",
            text(&result.stderr)
        );
    }
    // A folder without write permission (root may write anywhere, so only checked for other users).
    if unsafe { libc::geteuid() } != 0 {
        use std::os::unix::fs::PermissionsExt;
        let read_only = directory.join("read_only");
        std::fs::create_dir(&read_only).unwrap();
        std::fs::set_permissions(&read_only, std::fs::Permissions::from_mode(0o555)).unwrap();
        let result = aplc_in(&directory, &["build", "p.apl", "-o", "read_only/prog"]);
        assert_eq!(result.status.code(), Some(EXIT_USAGE_ERROR));
        assert!(
            text(&result.stderr).contains("permission denied"),
            "{}",
            text(&result.stderr)
        );
    }
    assert_eq!(folder_entries(&directory.join("folder")), Vec::<String>::new());
}

#[test]
fn building_leaves_a_users_files_beside_the_output_alone() {
    let directory = test_directory("users_files");
    std::fs::write(directory.join("p.apl"), PROGRAM).unwrap();
    std::fs::write(directory.join("prog.o"), "the user's object file").unwrap();
    let result = aplc_in(&directory, &["build", "p.apl", "-o", "prog"]);
    assert_eq!(result.status.code(), Some(0), "{}", text(&result.stderr));
    assert_eq!(
        std::fs::read_to_string(directory.join("prog.o")).unwrap(),
        "the user's object file"
    );
    assert_eq!(folder_entries(&directory), ["p.apl", "prog", "prog.o"]);
}

#[test]
fn check_rejects_a_wrong_annotation_on_a_dfn_that_is_never_called() {
    let directory = test_directory("uncalled_annotation");
    // 1↓ of a vector of length ρ has length max(ρ-1,0), never ρ+5; nothing calls grow.
    std::fs::write(directory.join("wrong.apl"), "grow←{ ⍝: <int>ρ → <int>(ρ+5)\n  1↓⍵\n}\n").unwrap();
    std::fs::write(directory.join("right.apl"), "tail←{ ⍝: <int>(ρ+1) → <int>ρ\n  1↓⍵\n}\n").unwrap();
    let wrong = aplc_in(&directory, &["check", "wrong.apl"]);
    assert!(!wrong.status.success(), "a wrong annotation is accepted");
    let diagnostic = text(&wrong.stderr);
    assert!(diagnostic.contains("TYPE ERROR"), "{diagnostic}");
    assert!(diagnostic.contains("ρ+5"), "{diagnostic}");
    let right = aplc_in(&directory, &["check", "right.apl"]);
    assert!(right.status.success(), "{}", text(&right.stderr));
}

#[test]
fn help_explains_one_command() {
    let directory = test_directory("help");
    let help = aplc_in(&directory, &["help", "build"]);
    assert_eq!(help.status.code(), Some(0));
    let usage = text(&help.stdout);
    assert!(usage.contains("Usage: aplc build"), "{usage}");
    assert!(usage.contains("--output <OUTPUT>"), "{usage}");
    assert!(usage.contains("--target-cpu"), "{usage}");
    // The same text as `aplc build --help`.
    assert_eq!(usage, text(&aplc_in(&directory, &["build", "--help"]).stdout));
    let unknown = aplc_in(&directory, &["help", "nosuch"]);
    assert_eq!(unknown.status.code(), Some(EXIT_USAGE_ERROR));
    assert!(text(&unknown.stderr).contains("nosuch"), "{}", text(&unknown.stderr));
}

#[test]
fn a_program_comes_from_standard_input_or_the_command_line() {
    let directory = test_directory("program_sources");
    let from_input = aplc_with_input(&directory, &["run", "-"], PROGRAM);
    assert_eq!(
        (text(&from_input.stdout), from_input.status.code()),
        (PROGRAM_OUTPUT.to_string(), Some(0))
    );
    // 2×⍳3 is 2 4 6.
    let expression = aplc_in(&directory, &["run", "-e", "2×⍳3"]);
    assert_eq!(
        (text(&expression.stdout), expression.status.code()),
        ("2 4 6\n".to_string(), Some(0))
    );
    // A file and -e together are a usage error.
    let both = aplc_in(&directory, &["run", "p.apl", "-e", "1"]);
    assert_eq!(both.status.code(), Some(EXIT_USAGE_ERROR));
}

#[test]
fn the_float_option_and_pragma_choose_between_domain_error_and_ieee_results() {
    let directory = test_directory("float_mode");
    // 1e308×10 overflows: a DOMAIN ERROR by default (Dyalog), ∞ with --float ieee; ÷0 is ∞ and ⍟0 is ¯∞ then.
    let overflow = "⎕←1e308×10 ⋄ ⎕←÷0 ⋄ ⎕←⍟0";
    for backend in ["interp", "mem", "jit", "aot"] {
        let dyalog = aplc_in(&directory, &["run", "--backend", backend, "-e", overflow]);
        assert_eq!(dyalog.status.code(), Some(1), "{backend}");
        assert!(
            text(&dyalog.stderr).contains("DOMAIN ERROR"),
            "{backend}: {}",
            text(&dyalog.stderr)
        );
        let ieee = aplc_in(
            &directory,
            &["run", "--backend", backend, "--float", "ieee", "-e", overflow],
        );
        assert_eq!(
            (text(&ieee.stdout), ieee.status.code()),
            ("∞\n∞\n¯∞\n".to_string(), Some(0)),
            "{backend}: {}",
            text(&ieee.stderr)
        );
    }
    // The pragma says ieee; the command line wins over it.
    let with_pragma = format!("⍝ aplc: float ieee\n{overflow}\n");
    std::fs::write(directory.join("p.apl"), &with_pragma).unwrap();
    let pragma = aplc_in(&directory, &["run", "p.apl"]);
    assert_eq!(text(&pragma.stdout), "∞\n∞\n¯∞\n", "{}", text(&pragma.stderr));
    let overridden = aplc_in(&directory, &["run", "--float", "dyalog", "p.apl"]);
    assert_eq!(overridden.status.code(), Some(1));
    // An executable keeps the mode it was built with.
    let built = aplc_in(&directory, &["build", "p.apl", "-o", "p"]);
    assert_eq!(built.status.code(), Some(0), "{}", text(&built.stderr));
    let executable = Command::new(directory.join("p")).output().unwrap();
    assert_eq!(text(&executable.stdout), "∞\n∞\n¯∞\n");
    // A pragma that aplc does not know is a SYNTAX ERROR at its line, not a silent comment.
    std::fs::write(directory.join("q.apl"), "⍝ aplc: float fast\n1\n").unwrap();
    let unknown = aplc_in(&directory, &["run", "q.apl"]);
    assert_eq!(unknown.status.code(), Some(1));
    assert!(
        text(&unknown.stderr).contains("malformed pragma"),
        "{}",
        text(&unknown.stderr)
    );
}

/// `d ⎕ArgInt i` and `d ⎕ArgDouble i` read the words after `--` (`aplc run`) or after the executable's name, on every
/// backend; a missing one is the default, a malformed one a DOMAIN ERROR, an index below 1 an INDEX ERROR.
#[test]
fn program_arguments_reach_the_program_on_every_backend() {
    let directory = test_directory("program_arguments");
    // With 7 and ¯2.5: n is 7, +/⍳7 is 28, x is ¯2.5, x×2 is ¯5, the third argument is missing so k is 100.
    let program = "n←5 ⎕ArgInt 1\nx←0.5 ⎕ArgDouble 2\nk←100 ⎕ArgInt 3\n+/⍳n\nx×2\nk\n";
    std::fs::write(directory.join("p.apl"), program).unwrap();
    for backend in ["interp", "mem", "jit", "aot"] {
        let given = aplc_in(&directory, &["run", "--backend", backend, "p.apl", "--", "7", "¯2.5"]);
        assert_eq!(
            (text(&given.stdout), given.status.code()),
            ("28\n¯5\n100\n".to_string(), Some(0)),
            "{backend}: {}",
            text(&given.stderr)
        );
        // No arguments: the defaults, 5 (+/⍳5 is 15), 0.5 (x×2 is 1) and 100.
        let defaults = aplc_in(&directory, &["run", "--backend", backend, "p.apl"]);
        assert_eq!(
            text(&defaults.stdout),
            "15\n1\n100\n",
            "{backend}: {}",
            text(&defaults.stderr)
        );
        let malformed = aplc_in(&directory, &["run", "--backend", backend, "p.apl", "--", "seven"]);
        assert_eq!(malformed.status.code(), Some(1), "{backend}");
        let stderr = text(&malformed.stderr);
        assert!(
            stderr.contains("DOMAIN ERROR") && stderr.contains("seven"),
            "{backend}: {stderr}"
        );
        let below_origin = aplc_in(&directory, &["run", "--backend", backend, "-e", "1 ⎕ArgInt 0"]);
        assert_eq!(below_origin.status.code(), Some(1), "{backend}");
        assert!(text(&below_origin.stderr).contains("INDEX ERROR"), "{backend}");
    }
    let built = aplc_in(&directory, &["build", "p.apl", "-o", "p"]);
    assert_eq!(built.status.code(), Some(0), "{}", text(&built.stderr));
    let executable = Command::new(directory.join("p")).args(["3", "4"]).output().unwrap();
    // n is 3 (+/⍳3 is 6), x is 4 (x×2 is 8).
    assert_eq!(text(&executable.stdout), "6\n8\n100\n", "{}", text(&executable.stderr));
    // Without its default the reader is refused at compile time, pointing at the call.
    let monadic = aplc_in(&directory, &["run", "-e", "⎕ArgInt 1"]);
    assert_eq!(monadic.status.code(), Some(1));
    assert!(
        text(&monadic.stderr).contains("needs a default on its left"),
        "{}",
        text(&monadic.stderr)
    );
}

/// A run-time error names the line and column of the APL text that failed, on every backend, in a built executable
/// and in the REPL, and marks that text under the source line.
#[test]
fn run_time_errors_point_at_the_failing_primitive_on_every_backend() {
    let directory = test_directory("error_positions");
    // Line 2, column 3 is the indexed array `(⍳5)[a+4]` (index 7 of 5); line 3, column 5 is `÷` (÷0 at element 1 of
    // ¯1+⍳n, n read at run time so that nothing is folded); line 3, column 4 is `-` (one above the most negative int,
    // minus 4: below the int range).
    let programs = [
        ("a←3\nb←(⍳5)[a+4]\nb\n", "INDEX ERROR", "p0.apl:2:3", "(⍳5)[a+4]"),
        ("n←4 ⎕ArgInt 1\nw←¯1+⍳n\n⎕←2+÷w\n", "DOMAIN ERROR", "p1.apl:3:5", "÷"),
        (
            "n←4 ⎕ArgInt 1\nm←¯9223372036854775807\n⎕←m-n\n",
            "DOMAIN ERROR",
            "p2.apl:3:4",
            "m-n",
        ),
        // Raised inside the run-time library, which compiled code tells the site of the call: ⎕ReadFile, column 3.
        (
            "⎕←1\nt←⎕ReadFile 'no such file'\n",
            "FILE I/O ERROR",
            "p3.apl:2:3",
            "⎕ReadFile",
        ),
    ];
    for (position, (program, error, location, failing)) in programs.iter().enumerate() {
        let source = format!("p{position}.apl");
        std::fs::write(directory.join(&source), program).unwrap();
        let check = |what: &str, output: &Output| {
            let stderr = text(&output.stderr);
            assert_eq!(output.status.code(), Some(1), "{what} {source}: {stderr}");
            assert!(stderr.contains(error), "{what} {source}: {stderr}");
            assert!(stderr.contains(location), "{what} {source}: no {location} in {stderr}");
            let marked = stderr.lines().find(|line| line.contains('┬') || line.contains('─'));
            assert!(marked.is_some(), "{what} {source}: nothing marked in {stderr}");
            assert!(stderr.contains(failing), "{what} {source}: {stderr}");
        };
        for backend in ["interp", "mem", "jit", "aot"] {
            check(backend, &aplc_in(&directory, &["run", "--backend", backend, &source]));
        }
        let executable = format!("p{position}");
        let built = aplc_in(&directory, &["build", &source, "-o", &executable]);
        assert_eq!(built.status.code(), Some(0), "{}", text(&built.stderr));
        check("built", &Command::new(directory.join(&executable)).output().unwrap());
    }
    // A malformed program argument, reported by the run-time library: at `⎕ArgInt`, line 1 column 5 of p2.apl.
    for backend in ["interp", "mem", "jit", "aot"] {
        let output = aplc_in(&directory, &["run", "--backend", backend, "p2.apl", "--", "seven"]);
        let stderr = text(&output.stderr);
        assert!(
            stderr.contains("DOMAIN ERROR") && stderr.contains("p2.apl:1:5"),
            "{backend}: {stderr}"
        );
    }
    let executable = Command::new(directory.join("p2")).arg("seven").output().unwrap();
    assert!(
        text(&executable.stderr).contains("p2.apl:1:5"),
        "{}",
        text(&executable.stderr)
    );
    // With --error-format json every backend and a built executable report one JSON object with the position: the
    // index of p0.apl (line 2, column 3) from a check of the compiled code, the file of p3.apl (line 2, column 3) from
    // the run-time library.
    for (source, code) in [("p0.apl", "index_error"), ("p3.apl", "file_i_o_error")] {
        let located = "\"line\":2,\"column\":3";
        let check = |what: &str, output: &Output| {
            let stderr = text(&output.stderr);
            assert_eq!(stderr.lines().count(), 1, "{what} {source}: {stderr}");
            assert!(
                stderr.starts_with('{') && stderr.trim_end().ends_with('}'),
                "{what} {source}: {stderr}"
            );
            assert!(
                stderr.contains(&format!("\"code\":\"aplc::run::{code}\"")),
                "{what} {source}: {stderr}"
            );
            assert!(stderr.contains(located), "{what} {source}: {stderr}");
        };
        for backend in ["interp", "mem", "jit", "aot"] {
            let arguments = ["run", "--error-format", "json", "--backend", backend, source];
            check(backend, &aplc_in(&directory, &arguments));
        }
        let built = aplc_in(
            &directory,
            &["build", "--error-format", "json", source, "-o", "json_exe"],
        );
        assert_eq!(built.status.code(), Some(0), "{}", text(&built.stderr));
        check("built", &Command::new(directory.join("json_exe")).output().unwrap());
    }
    // The REPL renders against its session: the failing line is the session's second, `(⍳5)` starts at column 3.
    for backend in ["jit", "interp"] {
        let output = aplc_with_input(&directory, &["repl", "--backend", backend], "a←3\nb←(⍳5)[a+4]\n");
        let stderr = text(&output.stderr);
        assert!(stderr.contains("INDEX ERROR"), "repl {backend}: {stderr}");
        assert!(stderr.contains("session:2:3"), "repl {backend}: {stderr}");
    }
}

/// An APL error raised inside the body of a parallel construct that the pool runs on several threads (the threshold
/// forced to 0): reported once, as that error, exit status 1, on jit and in a built executable.
#[test]
fn an_error_inside_a_parallel_body_is_reported_once() {
    let directory = test_directory("parallel_error");
    // (⍳100000)-50000 holds one 0, in the chunk of element 50000: ÷ fails there. The map (parfor) and the
    // reduction (reduce) of the ÷ both run on the pool. v[i+1] reads past the end at the last i: INDEX ERROR.
    let programs = [
        ("⎕←+/÷(⍳100000)-50000", "DOMAIN ERROR"),
        ("x←÷(⍳100000)-50000\n⎕←2×x", "DOMAIN ERROR"),
        ("v←⍳100000\n⎕←+/v[1+⍳100000]", "INDEX ERROR"),
    ];
    for (position, (program, error)) in programs.iter().enumerate() {
        let source = format!("p{position}.apl");
        std::fs::write(directory.join(&source), program).unwrap();
        let executable = format!("p{position}");
        let built = aplc_in(&directory, &["build", &source, "-o", &executable]);
        assert_eq!(built.status.code(), Some(0), "{}", text(&built.stderr));
        let runs = [
            Command::new(env!("CARGO_BIN_EXE_aplc"))
                .args(["run", "--backend", "jit", &source])
                .current_dir(&directory)
                .env("APLC_THREADS", "2")
                .env("APLC_PARAM_threshold", "0")
                .output()
                .unwrap(),
            Command::new(directory.join(&executable))
                .env("APLC_THREADS", "2")
                .env("APLC_PARAM_threshold", "0")
                .output()
                .unwrap(),
        ];
        for run in runs {
            let stderr = text(&run.stderr);
            assert_eq!(run.status.code(), Some(1), "{program}: {stderr}");
            assert_eq!(stderr.matches(error).count(), 1, "{program}: {stderr}");
            assert_eq!(stderr.matches("ERROR").count(), 1, "{program}: {stderr}");
            assert_eq!(text(&run.stdout), "", "{program}");
        }
    }
}

#[test]
fn the_version_names_llvm_and_the_target() {
    let version = aplc_in(Path::new("."), &["--version"]);
    assert_eq!(version.status.code(), Some(0));
    let line = text(&version.stdout);
    assert!(
        line.starts_with(&format!("aplc {} (LLVM 19.", env!("CARGO_PKG_VERSION"))),
        "{line}"
    );
    assert!(line.contains(", target "), "{line}");
}

/// `aplc run --backend aot` on a program that runs for minutes, with a temporary folder of its own.
struct LongAotRun {
    aplc: std::process::Child,
    temporary: PathBuf,
    deadline: std::time::Instant,
}

impl LongAotRun {
    fn start(test_name: &str) -> LongAotRun {
        let temporary = test_directory(test_name);
        // ÷⍳1e12 summed: 10^12 divisions and additions, minutes of work, in constant memory (the reduction is fused).
        let aplc = Command::new(env!("CARGO_BIN_EXE_aplc"))
            .args(["run", "--backend", "aot", "-e", "+/÷⍳1e12"])
            .env("TMPDIR", &temporary)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        LongAotRun {
            aplc,
            temporary,
            deadline,
        }
    }

    /// Waits until the build's private folder exists, and with `running` until the program runs from it; returns
    /// the program's process id when `running`.
    fn wait_until(&mut self, running: bool) -> Option<i32> {
        loop {
            assert!(std::time::Instant::now() < self.deadline, "the program never started");
            assert!(
                self.aplc.try_wait().unwrap().is_none(),
                "aplc ended before it was signalled"
            );
            if let [folder] = folder_entries(&self.temporary).as_slice() {
                if !running {
                    return None;
                }
                // /proc names the executable by its path with symbolic links resolved.
                let program = std::fs::canonicalize(self.temporary.join(folder).join("program"));
                if let Some(process) = program.ok().and_then(|program| process_running(&program)) {
                    return Some(process);
                }
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    /// Waits for aplc to end; returns how it ended, its standard error and what is left in its temporary folder.
    fn end(mut self) -> (std::process::ExitStatus, String, Vec<String>) {
        let status = loop {
            if let Some(status) = self.aplc.try_wait().unwrap() {
                break status;
            }
            if std::time::Instant::now() > self.deadline {
                let _ = self.aplc.kill();
                panic!("aplc did not end");
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        };
        let mut stderr = String::new();
        std::io::Read::read_to_string(&mut self.aplc.stderr.take().unwrap(), &mut stderr).unwrap();
        (status, stderr, folder_entries(&self.temporary))
    }
}

/// The process whose executable is `path` (found in /proc), if one runs.
fn process_running(path: &Path) -> Option<i32> {
    std::fs::read_dir("/proc").ok()?.find_map(|entry| {
        let entry = entry.ok()?;
        let process = entry.file_name().to_str()?.parse::<i32>().ok()?;
        (std::fs::read_link(entry.path().join("exe")).ok()? == path).then_some(process)
    })
}

fn send_signal(process: i32, signal: i32) {
    // SAFETY: a signal to a process this test started (or its child).
    unsafe {
        libc::kill(process, signal);
    }
}

#[test]
fn an_interrupt_removes_the_temporary_executable_and_ends_aplc_by_it() {
    use std::os::unix::process::ExitStatusExt;
    // While the program runs (the interrupt is passed on to it), and while it is being built.
    for (test_name, running) in [("interrupted_run", true), ("interrupted_build", false)] {
        let mut run = LongAotRun::start(test_name);
        let program = run.wait_until(running);
        send_signal(run.aplc.id() as i32, libc::SIGINT);
        let (status, stderr, left) = run.end();
        assert_eq!(status.signal(), Some(libc::SIGINT), "{test_name}: {status:?}");
        assert_eq!(stderr, "", "{test_name}");
        assert_eq!(left, Vec::<String>::new(), "{test_name}");
        if let Some(program) = program {
            // The program ended with aplc: /proc keeps no entry of a reaped process.
            assert!(!Path::new(&format!("/proc/{program}")).exists(), "{test_name}");
        }
    }
}

#[test]
fn a_program_killed_by_a_signal_is_named_and_its_executable_removed() {
    let mut run = LongAotRun::start("killed_program");
    let program = run.wait_until(true).unwrap();
    send_signal(program, libc::SIGKILL);
    let (status, stderr, left) = run.end();
    assert_eq!(status.code(), Some(1));
    assert_eq!(stderr, "aplc: the program was killed by SIGKILL\n");
    assert_eq!(left, Vec::<String>::new());
}

#[test]
fn a_long_line_is_never_echoed_whole_under_a_diagnostic() {
    let directory = test_directory("long_lines");
    // A 10,000-character line (a number and spaces: valid), then a line with a NUL character (an error). The long
    // line would be the error's context line; and a 10,000-character unterminated string on its own line.
    let cases = [
        format!("1{}\n1 \0 2\n", " ".repeat(10_000)),
        format!("1\n'{}\n2\n", "a".repeat(10_000)),
    ];
    for (number, source) in cases.iter().enumerate() {
        std::fs::write(directory.join("p.apl"), source).unwrap();
        let result = aplc_in(&directory, &["run", "p.apl"]);
        let stderr = text(&result.stderr);
        assert_eq!(result.status.code(), Some(1), "case {number}: {stderr}");
        assert!(stderr.contains("SYNTAX ERROR"), "case {number}: {stderr}");
        let longest = stderr.lines().map(|line| line.chars().count()).max().unwrap_or(0);
        assert!(longest < 400, "case {number}: a line of {longest} characters");
    }
}
