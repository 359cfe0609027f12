//! What the memory-check tests share: valgrind must be installed (scripts/setup.sh installs it; without it the
//! checks fail rather than pass silently).

use std::process::Command;

/// Fails the test when valgrind is missing.
pub fn require_valgrind() {
    let found = Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success());
    assert!(
        found,
        "valgrind is not installed; run scripts/setup.sh, which installs it (the memory checks cannot run without it)"
    );
}
