//! The refresher's work yields to the handshake and the calls: it runs at a lower CPU priority
//! from its start.
//!
//! As the server starts, the refresher waits for the catalog for `tools/list` to be derived on
//! another thread, then opens the index, sets up the file watcher and walks every log root
//! while the first calls arrive. On a machine with few cores that work took the cores the
//! answers needed:
//! `initialize` came 0.5-0.8 ms later with the refresher at the default priority
//! (`agtrace-tools/docs/benchmarks.md`, "`agtrace serve`: startup and first answers"). Threads a
//! thread creates inherit its nice value, so the watcher's thread and the indexer's parser
//! threads yield too; with nothing else to run they run as fast as before, and a call that
//! waits for them waits as before.

/// The nice value of the refresher thread (0 is the default; 19 the lowest priority).
const NICE: i32 = 10;

/// Lowers the calling thread's CPU priority; a failure (no permission, another OS) leaves it.
pub fn lower_this_thread() {
    #[cfg(target_os = "linux")]
    // SAFETY: `gettid` has no preconditions, and `setpriority` on this thread's id changes
    // only its nice value (a per-thread attribute on Linux).
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, NICE);
    }
}
