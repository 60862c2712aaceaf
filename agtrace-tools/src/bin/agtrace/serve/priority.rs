//! The refresher's work yields to the calls: it runs at a lower CPU priority.
//!
//! A server's first refresh walks every log root and sets up the file watcher while the first
//! calls arrive. A call about one session whose logs are as indexed needs none of that work,
//! but on a machine with few cores it shared them with it: the first call on a 1.96 MB session
//! took about twice as long as once the walk was done. Threads a thread creates inherit its
//! nice value, so the watcher's thread and the indexer's parser threads yield too; with no call
//! waiting they run as fast as before, and a call that waits for them waits as before.

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
