//! Running a compiled line in a forked child process, so that neither an APL error (which ends the process inside the
//! run-time library) nor an interrupt can take the session with it.
//!
//! The parent compiles, then forks; the child runs the line (its printed output goes straight to standard output),
//! writes the line's outputs to a pipe and ends with `_exit(0)`. Its standard error goes to a second pipe, so that
//! the parent can turn the run-time library's `LENGTH ERROR: ...` line into a diagnostic. The parent reads both
//! pipes to their end and waits for the child.
//!
//! Ctrl-C: while a line is compiled and run, SIGINT sets a flag instead of ending the session ([`InterruptGuard`]).
//! A terminal sends it to the whole foreground process group, so the child (which restores the default action) ends
//! at once; if it was delivered to the parent alone, the parent kills the child. Either way the line reports
//! [`ChildOutcome::Interrupted`].

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn note_interrupt(_signal: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// While alive, SIGINT sets a flag (without restarting interrupted system calls) instead of ending the process.
pub struct InterruptGuard {
    previous: libc::sigaction,
}

impl InterruptGuard {
    pub fn install() -> InterruptGuard {
        INTERRUPTED.store(false, Ordering::SeqCst);
        // SAFETY: sigaction with a handler that only stores to an atomic, which is async-signal-safe.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = note_interrupt as extern "C" fn(libc::c_int) as usize;
            libc::sigemptyset(&mut action.sa_mask);
            action.sa_flags = 0;
            let mut previous: libc::sigaction = std::mem::zeroed();
            libc::sigaction(libc::SIGINT, &action, &mut previous);
            InterruptGuard { previous }
        }
    }

    /// Whether SIGINT arrived since the guard was installed.
    pub fn interrupted(&self) -> bool {
        INTERRUPTED.load(Ordering::SeqCst)
    }
}

impl Drop for InterruptGuard {
    fn drop(&mut self) {
        // SAFETY: restores the action saved by `install`.
        unsafe {
            libc::sigaction(libc::SIGINT, &self.previous, std::ptr::null_mut());
        }
    }
}

/// How the child ended.
pub enum ChildOutcome {
    /// It ran to the end and sent these bytes.
    Finished(Vec<u8>),
    /// It stopped on an APL error (or another failure); what it wrote on standard error, and its exit status.
    Failed { stderr: String, status: i32 },
    /// SIGINT ended it.
    Interrupted,
    /// The child could not be started or ended in an unexpected way.
    Broken(String),
}

/// Runs `work` in a forked child; the bytes it returns come back through a pipe. `work` must not return to anything
/// that expects the child to go on: the child ends with `_exit` right after it.
pub fn run_in_child(guard: &InterruptGuard, work: impl FnOnce() -> Vec<u8>) -> ChildOutcome {
    reap_finished_children(None);
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    let Some(data_pipe) = Pipe::open() else {
        return ChildOutcome::Broken("cannot create a pipe".to_string());
    };
    let Some(error_pipe) = Pipe::open() else {
        return ChildOutcome::Broken("cannot create a pipe".to_string());
    };
    // SAFETY: the child only runs the compiled line and writes to its pipes before `_exit`; the session thread is
    // the only thread that does anything while it forks (the main thread waits for it).
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return ChildOutcome::Broken("cannot fork".to_string());
    }
    if pid == 0 {
        // SAFETY: in the child: default SIGINT, standard error into its pipe, then the work.
        unsafe {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            libc::close(data_pipe.read);
            libc::close(error_pipe.read);
            libc::dup2(error_pipe.write, 2);
            libc::close(error_pipe.write);
        }
        let bytes = work();
        write_all(data_pipe.write, &bytes);
        // SAFETY: closing both pipes first lets the parent go on while this process is torn down; then the child
        // ends without running the parent's exit handlers or destructors.
        unsafe {
            libc::close(data_pipe.write);
            libc::close(2);
            libc::_exit(0)
        }
    }
    // SAFETY: the parent closes its copies of the write ends, so that reads see the end of the pipes.
    unsafe {
        libc::close(data_pipe.write);
        libc::close(error_pipe.write);
    }
    let data = read_to_end(data_pipe.read, pid, guard);
    let errors = read_to_end(error_pipe.read, pid, guard);
    if !data.is_empty() && !guard.interrupted() {
        // The child sends its outputs only after the line ran (a line always has at least one): it succeeded.
        // Tearing down a process as large as the session takes a while, so it is reaped later.
        reap_finished_children(Some(pid));
        return ChildOutcome::Finished(data);
    }
    let status = wait_for(pid);
    if guard.interrupted() {
        return ChildOutcome::Interrupted;
    }
    match status {
        Some(status) if libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0 => ChildOutcome::Finished(data),
        Some(status) if libc::WIFEXITED(status) => ChildOutcome::Failed {
            stderr: String::from_utf8_lossy(&errors).into_owned(),
            status: libc::WEXITSTATUS(status),
        },
        Some(status) if libc::WIFSIGNALED(status) && libc::WTERMSIG(status) == libc::SIGINT => {
            ChildOutcome::Interrupted
        }
        Some(status) if libc::WIFSIGNALED(status) => ChildOutcome::Broken(format!(
            "the line's process ended with signal {}",
            libc::WTERMSIG(status)
        )),
        _ => ChildOutcome::Broken("cannot wait for the line's process".to_string()),
    }
}

struct Pipe {
    read: libc::c_int,
    write: libc::c_int,
}

impl Pipe {
    fn open() -> Option<Pipe> {
        let mut ends = [0 as libc::c_int; 2];
        // SAFETY: `ends` has room for the two descriptors.
        (unsafe { libc::pipe(ends.as_mut_ptr()) } == 0).then_some(Pipe {
            read: ends[0],
            write: ends[1],
        })
    }
}

fn write_all(descriptor: libc::c_int, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        // SAFETY: writes from a live slice.
        let written = unsafe { libc::write(descriptor, bytes.as_ptr().cast(), bytes.len()) };
        if written < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return;
        }
        bytes = &bytes[written as usize..];
    }
}

/// Reads a pipe to its end (and closes it). An interrupt while waiting kills the child, whose end closes the pipe.
fn read_to_end(descriptor: libc::c_int, pid: libc::pid_t, guard: &InterruptGuard) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        // SAFETY: reads into a live buffer of that length.
        let count = unsafe { libc::read(descriptor, buffer.as_mut_ptr().cast(), buffer.len()) };
        if count > 0 {
            bytes.extend_from_slice(&buffer[..count as usize]);
        } else if count == 0 {
            break;
        } else if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
            if guard.interrupted() {
                // SAFETY: the child is ours and not yet waited for.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        } else {
            break;
        }
    }
    // SAFETY: the descriptor is ours and read to its end.
    unsafe { libc::close(descriptor) };
    bytes
}

/// Children that sent their outputs and have not been waited for yet.
static UNREAPED_CHILDREN: std::sync::Mutex<Vec<libc::pid_t>> = std::sync::Mutex::new(Vec::new());

/// Waits (without blocking) for the children that finished earlier, and records `finished` as one of them.
fn reap_finished_children(finished: Option<libc::pid_t>) {
    let Ok(mut children) = UNREAPED_CHILDREN.lock() else {
        return;
    };
    children.extend(finished);
    children.retain(|&pid| {
        let mut status = 0;
        // SAFETY: polls our own child.
        unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) == 0 }
    });
}

fn wait_for(pid: libc::pid_t) -> Option<libc::c_int> {
    let mut status = 0;
    loop {
        // SAFETY: waits for our own child.
        let result = unsafe { libc::waitpid(pid, &mut status, 0) };
        if result == pid {
            return Some(status);
        }
        if result < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return None;
        }
    }
}
