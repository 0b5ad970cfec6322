//! Serialization of all symbolica work, as its restricted mode requires.
//!
//! Without a license key symbolica allows one thread per OS user at a time; a second
//! concurrent one aborts the whole process. Cargo builds crates in parallel, rust-analyzer
//! expands macros beside cargo, and tests run on many threads, so every use goes through
//! [`exclusive`]: take a blocking per-user file lock (which also orders the threads of one
//! process), run the work on a fresh thread, join it — the thread's exit releases
//! symbolica's permit — and only then release the lock. With `SYMBOLICA_LICENSE` set the
//! same path runs unchanged.

use std::fs::{File, OpenOptions};
use std::path::PathBuf;
use std::sync::Mutex;

/// Stack size of the worker thread.
const WORKER_STACK: usize = 256 << 20;

/// Orders the threads of this process before they contend for the file lock.
static IN_PROCESS: Mutex<()> = Mutex::new(());

/// Runs `work` on a fresh thread while holding the per-user symbolica lock.
///
/// Returns `Err` with a message when the lock cannot be taken or the work panicked.
pub(super) fn exclusive<R: Send + 'static>(
    work: impl FnOnce() -> R + Send + 'static,
) -> Result<R, String> {
    let _guard = IN_PROCESS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let path = lock_path();
    let file = open(&path)?;
    file.lock()
        .map_err(|e| format!("cannot lock {}: {e}", path.display()))?;
    let outcome = std::thread::Builder::new()
        .name("lagrange-symbolica".into())
        // Symbolic algorithms recurse over expression trees; give them room.
        .stack_size(WORKER_STACK)
        .spawn(work)
        .map_err(|e| format!("cannot start the symbolica worker thread: {e}"))?
        .join();
    // Unlocking can only fail if the descriptor is gone; closing the file releases it anyway.
    let _ = file.unlock();
    outcome.map_err(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        format!("the symbolic engine failed: {message}")
    })
}

fn open(path: &PathBuf) -> Result<File, String> {
    OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(path)
        .map_err(|e| {
            format!(
                "cannot open the symbolica lock file {}: {e}",
                path.display()
            )
        })
}

/// One lock file per OS user in the shared temporary directory.
fn lock_path() -> PathBuf {
    std::env::temp_dir().join(format!("lagrange-symbolica-{}.lock", user_id()))
}

#[cfg(unix)]
fn user_id() -> String {
    use std::os::unix::fs::MetadataExt;
    // `/proc/self` belongs to the process's user; elsewhere fall back to the login name.
    std::fs::metadata("/proc/self")
        .map(|m| m.uid().to_string())
        .unwrap_or_else(|_| login_name())
}

#[cfg(not(unix))]
fn user_id() -> String {
    login_name()
}

fn login_name() -> String {
    std::env::var("USER")
        .or_else(|_| std::env::var("USERNAME"))
        .unwrap_or_else(|_| "user".into())
}
