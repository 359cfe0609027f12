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

/// The first interrupting signal received while interrupts are deferred (0 when none).
static PENDING_SIGNAL: AtomicI32 = AtomicI32::new(0);

/// The signals that end aplc (Ctrl-C, `kill`, a closed terminal), deferred while it has temporary files to remove.
const INTERRUPTING_SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

extern "C" fn defer_signal(signal: libc::c_int) {
    // SAFETY (the whole handler): atomics, `kill`, `signal` and `raise` are async-signal-safe.
    if PENDING_SIGNAL.swap(signal, Ordering::SeqCst) != 0 {
        // A second interrupt: the user insists, so aplc ends at once, whatever it leaves behind.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }
    let child = RUNNING_CHILD.load(Ordering::SeqCst);
    if child > 0 {
        unsafe {
            libc::kill(child, signal);
        }
    }
}

/// While it lives, SIGINT, SIGTERM and SIGHUP do not end aplc at once: the first is recorded (and passed on to the
/// program [`run_executable_forwarding_signals`] runs), so that aplc can remove its temporary files first and then
/// end by that signal ([`InterruptDeferral::end_if_interrupted`]). A second one ends aplc at once. A signal that
/// aplc was started to ignore (`nohup`) stays ignored.
pub struct InterruptDeferral {
    previous_handlers: Vec<(libc::c_int, libc::sighandler_t)>,
}

impl InterruptDeferral {
    pub fn install() -> InterruptDeferral {
        PENDING_SIGNAL.store(0, Ordering::SeqCst);
        let handler: extern "C" fn(libc::c_int) = defer_signal;
        let mut previous_handlers = Vec::new();
        for signal in INTERRUPTING_SIGNALS {
            // SAFETY: installs a handler that only touches atomics and async-signal-safe calls.
            let previous = unsafe { libc::signal(signal, handler as libc::sighandler_t) };
            if previous == libc::SIG_IGN {
                // SAFETY: puts back the ignoring aplc was started with.
                unsafe { libc::signal(signal, libc::SIG_IGN) };
            } else {
                previous_handlers.push((signal, previous));
            }
        }
        InterruptDeferral { previous_handlers }
    }

    /// The signal received since [`InterruptDeferral::install`], if any.
    pub fn received(&self) -> Option<i32> {
        Some(PENDING_SIGNAL.load(Ordering::SeqCst)).filter(|&signal| signal != 0)
    }

    /// Puts the previous handlers back; then, if a signal came meanwhile, ends the process by it (its default action,
    /// so that the shell sees aplc killed by SIGINT as it would have been without the deferral). Call it once the
    /// temporary files are gone.
    pub fn end_if_interrupted(self) {
        let received = self.received();
        drop(self);
        if let Some(signal) = received {
            // SAFETY: the default action of these signals ends the process.
            unsafe {
                libc::signal(signal, libc::SIG_DFL);
                libc::raise(signal);
            }
            std::process::exit(128 + signal);
        }
    }
}

impl Drop for InterruptDeferral {
    fn drop(&mut self) {
        for &(signal, handler) in &self.previous_handlers {
            // SAFETY: restores the handler that was installed before.
            unsafe {
                libc::signal(signal, handler);
            }
        }
    }
}

/// Starts `command`, trying again for a while when the kernel says its executable is busy (`ETXTBSY`).
///
/// Linux refuses to `exec` a file that some process holds open for writing. A file this process has just written
/// (the tuner's stand-in programs in tests, a copied binary) can be held so for a moment after it was closed here:
/// a child that another thread forked while the file was open inherits the descriptor until that child itself calls
/// `exec` (close-on-exec), which takes microseconds. Retrying is the usual remedy; a file that stays busy for a
/// second is a real error and is reported as such.
pub fn spawn_retrying_busy_executable(command: &mut std::process::Command) -> std::io::Result<std::process::Child> {
    const ATTEMPTS: u32 = 100;
    const PAUSE: std::time::Duration = std::time::Duration::from_millis(10);
    let mut attempt = 1;
    loop {
        match command.spawn() {
            Err(error) if error.kind() == std::io::ErrorKind::ExecutableFileBusy && attempt < ATTEMPTS => {
                attempt += 1;
                std::thread::sleep(PAUSE);
            }
            outcome => return outcome,
        }
    }
}

/// Runs the executable with aplc's standard streams and waits for it; an interrupt of aplc is passed on to it (which
/// is why an [`InterruptDeferral`] must be in place). The child starts with the default handling of every signal
/// (handlers do not survive `exec`).
pub fn run_executable_forwarding_signals(
    executable: &Path,
    arguments: &[String],
    deferral: &InterruptDeferral,
) -> Result<ChildEnd, String> {
    use std::os::unix::process::ExitStatusExt;
    let mut command = std::process::Command::new(executable);
    command.args(arguments);
    let outcome = spawn_retrying_busy_executable(&mut command).and_then(|mut child| {
        RUNNING_CHILD.store(child.id() as i32, Ordering::SeqCst);
        // A signal that came between the start and the line above was not passed on.
        if let Some(signal) = deferral.received() {
            // SAFETY: `kill` on the child this process started and has not waited for yet.
            unsafe {
                libc::kill(child.id() as i32, signal);
            }
        }
        let status = child.wait();
        RUNNING_CHILD.store(0, Ordering::SeqCst);
        status
    });
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
