//! `aplc repl` in a pseudo-terminal (tmux): prompts, line editing by rustyline, a multi-line dfn with the
//! continuation prompt, Ctrl-C cancelling a half-typed line and interrupting a computation, and Ctrl-D leaving.

use std::process::Command;
use std::time::{Duration, Instant};

/// A detached tmux server of our own (unique socket), killed when the test ends.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn command(&self, arguments: &[&str]) -> std::process::Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(arguments)
            .output()
            .expect("tmux runs")
    }

    fn pane_text(&self) -> String {
        String::from_utf8_lossy(&self.command(&["capture-pane", "-p", "-t", "repl"]).stdout).into_owned()
    }

    /// Polls the pane until `predicate` holds, for at most ten seconds.
    fn wait_for(&self, what: &str, predicate: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let text = self.pane_text();
            if predicate(&text) {
                return text;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}; the pane shows:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn send_line(&self, line: &str) {
        self.command(&["send-keys", "-t", "repl", "-l", line]);
        self.command(&["send-keys", "-t", "repl", "Enter"]);
    }

    /// Sends a line that prints nothing, then gives the session time to compile and run it and to be back at the
    /// prompt: keys typed while a line runs arrive in the terminal's cooked mode, and rustyline does not take a
    /// typed-ahead line back as it was typed.
    fn send_silent_line(&self, line: &str) {
        self.send_line(line);
        std::thread::sleep(Duration::from_millis(400));
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.command(&["kill-server"]);
    }
}

#[test]
fn a_terminal_session_edits_continues_cancels_and_leaves() {
    let history_home = std::env::temp_dir().join(format!("aplc-repl-tmux-{}", std::process::id()));
    let tmux = Tmux {
        socket: format!("aplc-test-{}", std::process::id()),
    };
    let shell_command = format!(
        "XDG_DATA_HOME={} {} repl; echo SESSION-ENDED-$?; sleep 30",
        history_home.display(),
        env!("CARGO_BIN_EXE_aplc")
    );
    let started = tmux.command(&[
        "new-session",
        "-d",
        "-s",
        "repl",
        "-x",
        "100",
        "-y",
        "40",
        &shell_command,
    ]);
    assert!(
        started.status.success(),
        "tmux new-session: {}",
        String::from_utf8_lossy(&started.stderr)
    );
    tmux.wait_for("the banner", |text| text.contains(")off or Ctrl-D leaves"));

    tmux.send_silent_line("x←⍳4");
    tmux.send_line("+/x");
    tmux.wait_for("10", |text| text.lines().any(|line| line.trim() == "10"));

    // A dfn over two lines: the second line gets the continuation prompt.
    tmux.send_silent_line("sq←{");
    tmux.wait_for("the continuation prompt", |text| text.contains("⋯"));
    tmux.send_silent_line("⍵×⍵}");
    tmux.send_line("sq x");
    tmux.wait_for("1 4 9 16", |text| text.contains("1 4 9 16"));

    // Editing: type 99, go left twice, and insert 1+ at the start: the line run is 1+99.
    tmux.command(&["send-keys", "-t", "repl", "-l", "99"]);
    tmux.command(&["send-keys", "-t", "repl", "Left", "Left"]);
    tmux.command(&["send-keys", "-t", "repl", "-l", "1+"]);
    tmux.command(&["send-keys", "-t", "repl", "Enter"]);
    tmux.wait_for("100", |text| text.lines().any(|line| line.trim() == "100"));

    // Ctrl-C drops a half-typed line: 5+6 never runs (no 11 appears), and the session goes on. A line's output
    // appears before its process has ended and the session is back at the prompt; a Ctrl-C typed before then is
    // an interrupt of that line (in the terminal's cooked mode), so wait a moment first.
    std::thread::sleep(Duration::from_millis(300));
    tmux.command(&["send-keys", "-t", "repl", "-l", "5+6"]);
    tmux.command(&["send-keys", "-t", "repl", "C-c"]);
    tmux.send_line("2×21");
    let text = tmux.wait_for("42", |text| text.lines().any(|line| line.trim() == "42"));
    assert!(!text.lines().any(|line| line.trim() == "11"), "{text}");

    // Up recalls the last line from the history; running it again prints 42 a second time.
    tmux.command(&["send-keys", "-t", "repl", "Up"]);
    tmux.command(&["send-keys", "-t", "repl", "Enter"]);
    tmux.wait_for("a second 42", |text| {
        text.lines().filter(|line| line.trim() == "42").count() == 2
    });

    // Ctrl-C during a long native computation (about a billion sines) ends it: INTERRUPT, and the session goes on
    // with its values.
    tmux.send_line("{⍵+1○⍵}⍣1000000000⊢0.5");
    std::thread::sleep(Duration::from_millis(1500));
    tmux.command(&["send-keys", "-t", "repl", "C-c"]);
    tmux.wait_for("INTERRUPT", |text| text.contains("INTERRUPT"));
    tmux.send_line("+/x");
    tmux.wait_for("a second 10", |text| {
        text.lines().filter(|line| line.trim() == "10").count() == 2
    });

    // Ctrl-D on an empty line leaves with status 0.
    tmux.command(&["send-keys", "-t", "repl", "C-d"]);
    let text = tmux.wait_for("the end of the session", |text| text.contains("SESSION-ENDED-"));
    assert!(text.contains("SESSION-ENDED-0"), "{text}");

    // The history file was written in the data directory.
    let history = std::fs::read_to_string(history_home.join("aplc/history")).expect("history file");
    assert!(history.lines().any(|line| line == "sq x"), "{history}");
    // The two-line dfn is one history entry (rustyline escapes its newline).
    assert!(history.lines().any(|line| line == "sq←{\\n⍵×⍵}"), "{history}");
    let _ = std::fs::remove_dir_all(history_home);
}
