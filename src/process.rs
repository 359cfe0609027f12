//! What the driver and the AOT backend need of the operating system around native code: private temporary folders
//! for intermediates (object files, the run-time library, `--backend aot`'s executable), and running a built
//! executable as a child process whose end is reported (an exit status, or the signal that killed it).
//!
//! Intermediates never go beside the user's files: `aplc build p.apl -o prog` must not delete an existing `prog.o`,
//! and a predictable name in a shared folder could be replaced by another user between writing and linking.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};

/// A folder only this user can enter, created under the system's temporary folder with a fresh name, and removed
/// with its contents when dropped.
#[derive(Debug)]
pub struct TemporaryFolder {
    path: PathBuf,
}

impl TemporaryFolder {
    /// Creates the folder. The name joins the process id and a counter (several folders per process); a name that
    /// exists already (left by a process that had the same id) is skipped.
    pub fn create() -> Result<TemporaryFolder, String> {
        static NEXT_FOLDER: AtomicUsize = AtomicUsize::new(0);
        let base = std::env::temp_dir();
        let mut last_error = None;
        for _ in 0..100 {
            let number = NEXT_FOLDER.fetch_add(1, Ordering::Relaxed);
            let path = base.join(format!("aplc-{}-{number}", std::process::id()));
            match create_private_folder(&path) {
                Ok(()) => return Ok(TemporaryFolder { path }),
                Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => last_error = Some(error),
                Err(error) => return Err(temporary_folder_message(&base, &error)),
            }
        }
        let error = last_error.unwrap_or_else(|| std::io::Error::other("no free name"));
        Err(temporary_folder_message(&base, &error))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TemporaryFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

fn create_private_folder(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new().mode(0o700).create(path)
}

fn temporary_folder_message(base: &Path, error: &std::io::Error) -> String {
    format!("cannot create a temporary folder in {}: {error}", base.display())
}

/// Whether this process may write `path` (a file, or a folder to create files in).
pub fn is_writable(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(path) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: `access` reads the NUL-terminated path and nothing else.
    unsafe { libc::access(path.as_ptr(), libc::W_OK) == 0 }
}

/// How a child process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChildEnd {
    /// It exited with this status.
    Exited(i32),
    /// A signal killed it (SIGSEGV, SIGKILL, ...).
    KilledBy(i32),
}

/// The child being waited for, to which SIGINT, SIGTERM and SIGHUP sent to aplc are passed on (0 when none).
static RUNNING_CHILD: AtomicI32 = AtomicI32::new(0);

/// The signals aplc passes on to the running program instead of dying at once: then aplc outlives its child and
/// removes the temporary executable.
const FORWARDED_SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

extern "C" fn forward_signal_to_child(signal: libc::c_int) {
    let child = RUNNING_CHILD.load(Ordering::SeqCst);
    if child > 0 {
        // SAFETY: `kill` is async-signal-safe.
        unsafe {
            libc::kill(child, signal);
        }
    }
}

/// Runs the executable with aplc's standard streams and waits for it. While it runs, an interrupt of aplc (Ctrl-C,
/// `kill`) is passed on to it, so that aplc itself lives to clean up after it; the child starts with the default
/// handling of every signal (handlers do not survive `exec`).
pub fn run_executable_forwarding_signals(executable: &Path) -> Result<ChildEnd, String> {
    use std::os::unix::process::ExitStatusExt;
    let forward: extern "C" fn(libc::c_int) = forward_signal_to_child;
    // SAFETY: the handler only reads an atomic and calls `kill`; the previous handlers are put back below.
    let previous_handlers: Vec<libc::sighandler_t> = FORWARDED_SIGNALS
        .iter()
        .map(|&signal| unsafe { libc::signal(signal, forward as libc::sighandler_t) })
        .collect();
    let outcome = std::process::Command::new(executable).spawn().and_then(|mut child| {
        RUNNING_CHILD.store(child.id() as i32, Ordering::SeqCst);
        let status = child.wait();
        RUNNING_CHILD.store(0, Ordering::SeqCst);
        status
    });
    for (&signal, &handler) in FORWARDED_SIGNALS.iter().zip(&previous_handlers) {
        // SAFETY: restores the handler that was installed before.
        unsafe {
            libc::signal(signal, handler);
        }
    }
    let status = outcome.map_err(|error| format!("cannot run {}: {error}", executable.display()))?;
    Ok(match (status.code(), status.signal()) {
        (Some(code), _) => ChildEnd::Exited(code),
        (None, Some(signal)) => ChildEnd::KilledBy(signal),
        (None, None) => ChildEnd::Exited(1),
    })
}

/// The conventional name of a signal (`SIGSEGV`), or `signal N` for one without a name here.
pub fn signal_name(signal: i32) -> String {
    let name = match signal {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        _ => return format!("signal {signal}"),
    };
    name.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_temporary_folder_is_private_and_removed_when_dropped() {
        use std::os::unix::fs::PermissionsExt;
        let folder = TemporaryFolder::create().unwrap();
        let path = folder.path().to_path_buf();
        std::fs::write(path.join("file"), "x").unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        drop(folder);
        assert!(!path.exists());
    }

    #[test]
    fn signals_have_their_conventional_names() {
        assert_eq!(signal_name(libc::SIGSEGV), "SIGSEGV");
        assert_eq!(signal_name(libc::SIGKILL), "SIGKILL");
        assert_eq!(signal_name(77), "signal 77");
    }
}
