//! `aplc repl` with its native backend (the default): values of every element type and of several ranks survive
//! across lines and agree with the interpreter backend (`--backend interp`, the oracle), `)time` shows the JIT's
//! compile phase, run-time errors in native code leave the session intact, and an interrupt during a long
//! computation ends only that computation. Expected outputs are worked out by hand from APL's definitions.

use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn start_session(backend: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_aplc"))
        .args(["repl", "--backend", backend])
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("aplc starts")
}

/// Standard output and standard error of a whole session.
fn run_session(backend: &str, input: &str) -> (String, String) {
    let mut child = start_session(backend);
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("input written");
    let output = child.wait_with_output().expect("aplc finishes");
    assert_eq!(output.status.code(), Some(0));
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Arrays of each element type and of ranks 0 to 3, assigned on one line and used on later ones.
const KEPT_VALUES: &str = "\
a←2 3⍴⍳6
d←a÷4
b←a>2
c←'hello'
m←2 3⍴'abcdef'
e←0⍴2.5
t←2 2 2⍴⍳8
s←+/⍳10
f←{⍵+s}
f a
d
b
⌽c
⊖m
⍴e
t[2;;]
s
a[1;2]←100
a
x←⍳3
x←x,x
x
+/,d
";

const KEPT_VALUES_OUTPUT: &str = "\
56 57 58
59 60 61
0.25 0.5  0.75
1    1.25 1.5
0 0 1
1 1 1
olleh
def
abc
0
5 6
7 8
55
1 100 3
4   5 6
1 2 3 1 2 3
5.25
";

#[test]
fn values_of_every_type_and_rank_survive_across_lines() {
    let (stdout, stderr) = run_session("jit", KEPT_VALUES);
    assert_eq!(stderr, "");
    assert_eq!(stdout, KEPT_VALUES_OUTPUT);
}

#[test]
fn the_native_backend_agrees_with_the_interpreter() {
    let (interpreted, interpreter_errors) = run_session("interp", KEPT_VALUES);
    assert_eq!(interpreter_errors, "");
    assert_eq!(interpreted, KEPT_VALUES_OUTPUT);
}

#[test]
fn time_shows_the_jit_compile_phase() {
    let (stdout, _) = run_session("jit", ")time\nv←⍳100\n+/v\n");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "timing on");
    assert_eq!(lines[2], "5050");
    for timing in [lines[1], lines[3]] {
        for phase in ["parse ", "elaborate ", "infer ", "compile ", "run "] {
            assert!(timing.contains(phase), "{phase} in {timing}");
        }
    }
    // The interpreter compiles nothing.
    let (stdout, _) = run_session("interp", ")time\n+/⍳100\n");
    assert!(!stdout.contains("compile "), "{stdout}");
}

#[test]
fn a_native_error_after_output_leaves_the_session_intact() {
    // The line prints 1 2 3, then divides by zero: the output stays, q keeps its old value.
    let (stdout, stderr) = run_session("jit", "q←10 20\nq←(⎕←1 2 3)÷0\nq+1\nw←q×2\nw\n");
    assert_eq!(stdout, "1 2 3\n11 21\n20 40\n");
    assert!(stderr.contains("DOMAIN ERROR"), "{stderr}");
    // Column 12 of the session's second line is the ÷ that failed.
    assert!(stderr.contains("[session:2:12]"), "{stderr}");
}

/// The process ids of the live children of a process (all its threads', zombies left out), from /proc.
fn children_of(pid: u32) -> Vec<i32> {
    let mut children = Vec::new();
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return children;
    };
    for task in tasks.flatten() {
        if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
            children.extend(
                text.split_whitespace()
                    .filter_map(|id| id.parse::<i32>().ok())
                    .filter(|id| !is_zombie(*id)),
            );
        }
    }
    children
}

/// Whether a process has ended but not been waited for (state `Z` in /proc/PID/stat, after the command's `)`).
fn is_zombie(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|stat| {
            stat.rsplit_once(')')
                .is_none_or(|(_, rest)| rest.trim_start().starts_with('Z'))
        })
        .unwrap_or(true)
}

#[test]
fn an_interrupt_ends_the_computation_but_not_the_session() {
    let mut session = start_session("jit");
    let mut stdin = session.stdin.take().expect("stdin");
    // About a billion sines: far longer than the test waits.
    stdin
        .write_all("k←7\n{⍵+1○⍵}⍣1000000000⊢0.5\nk×6\n".as_bytes())
        .expect("input written");
    stdin.flush().expect("flushed");
    let deadline = Instant::now() + Duration::from_secs(60);
    // The first line's process ends at once; the long line's is the one still there a moment later.
    let child = loop {
        if let Some(&child) = children_of(session.id()).first() {
            std::thread::sleep(Duration::from_millis(300));
            if children_of(session.id()).contains(&child) {
                break child;
            }
        }
        assert!(Instant::now() < deadline, "the long line never started");
        std::thread::sleep(Duration::from_millis(20));
    };
    // SAFETY: sends SIGINT to the line's process, a child of the session this test started.
    assert_eq!(unsafe { libc::kill(child, libc::SIGINT) }, 0);
    drop(stdin);
    let started = Instant::now();
    let status = session.wait().expect("the session ends");
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "the computation was not interrupted"
    );
    assert_eq!(status.code(), Some(0));
    let mut stdout = String::new();
    let mut stderr = String::new();
    session
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut stdout)
        .expect("stdout");
    session
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("stderr");
    assert_eq!(stdout, "42\n");
    assert_eq!(stderr.trim_end(), "INTERRUPT");
}

#[test]
fn complex_values_and_formatted_text_survive_across_lines() {
    // A complex scalar output and complex array inputs are not native yet: those lines run on the interpreter.
    let input = "z←0J1\nz×2\nv←z×1 2\nv+1\nt←⍕12 3\n⌽t\n";
    let (stdout, stderr) = run_session("jit", input);
    assert_eq!(stderr, "");
    assert_eq!(stdout, "0J2\n1J1 1J2\n3 21\n");
    assert_eq!(run_session("interp", input).0, stdout);
}
